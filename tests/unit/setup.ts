import '@testing-library/dom';
import { cleanup } from '@testing-library/react';
// react-dom's own task queue (the same CommonJS module react-dom requires).
// @ts-expect-error scheduler ships no types
import Scheduler from 'scheduler';
import { afterAll, afterEach } from 'vitest';

/**
 * No test file may leave work behind when its jsdom environment closes.
 *
 * A request still in flight when a file ends is aborted by jsdom's close; the component that made it then sets state
 * (a `finally { setLoading(false) }`), React reads `window.event` to pick the update's priority, and `window` is gone:
 * an unhandled `ReferenceError: window is not defined` that fails the whole run (seen on CI from planEditor and form
 * tests). So every XMLHttpRequest and fetch is counted here, and after the file's own hooks (msw servers closing) the
 * file waits until none is in flight and React has had a macrotask to flush what they scheduled.
 *
 * React also renders in slices (transitions, deferred values, effects after a commit), each slice a new task of its
 * scheduler: a file can end between two slices with no request in flight, and the next slice then runs without
 * `window` (seen again from planEditor after the above, about one run in ten). So at the end of a file the wait also
 * lasts until React's task queue is empty.
 */
let inFlight = 0;

if (typeof XMLHttpRequest !== 'undefined') {
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function countedSend(this: XMLHttpRequest, ...args: Parameters<XMLHttpRequest['send']>) {
    inFlight += 1;
    this.addEventListener('loadend', () => {
      inFlight -= 1;
    });
    return send.apply(this, args);
  };
}

if (typeof globalThis.fetch === 'function') {
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (...args: Parameters<typeof fetch>) => {
    inFlight += 1;
    try {
      return await realFetch(...args);
    } finally {
      inFlight -= 1;
    }
  };
}

const macrotask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

const scheduler = Scheduler as { unstable_scheduleCallback(priority: number, run: () => void): unknown; unstable_IdlePriority: number };

/**
 * Resolves when React's scheduler reaches a task of idle priority queued now, i.e. once every render, commit and
 * effect React had queued has run (or after `limitMs`).
 */
const reactIdle = (limitMs: number) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, limitMs);
    scheduler.unstable_scheduleCallback(scheduler.unstable_IdlePriority, () => {
      clearTimeout(timer);
      resolve();
    });
  });

async function drain(limitMs: number, untilReactIdle = false): Promise<void> {
  const until = Date.now() + limitMs;
  // Two idle turns in a row: a settled request often schedules the next one (load after save).
  let idleTurns = 0;
  while (idleTurns < 2 && Date.now() < until) {
    await macrotask();
    if (untilReactIdle) await reactIdle(Math.max(0, until - Date.now()));
    idleTurns = inFlight === 0 ? idleTurns + 1 : 0;
  }
}

// Registered first, so they run last ('stack' hook order): after each test's own cleanup and the file's afterAll hooks.
afterEach(async () => {
  cleanup();
  await drain(5000);
});

/**
 * antd's static message, notification and Modal (request.ts shows its toasts through them when no App context was
 * set, as in the volunteer tests) live in a React root of their own that cleanup() does not unmount. A toast's close
 * timer (5 s for an error) then commits in that root after the file has ended, and React's passive-effect flush runs
 * without `window`. Closing them at the end of the file clears those timers; drain then lets the close commit.
 */
async function closeStaticFeedback(): Promise<void> {
  if (typeof document === 'undefined' || !document.querySelector('.ant-message, .ant-notification, .ant-modal-root')) return;
  const { message, notification, Modal } = await import('antd');
  message.destroy();
  notification.destroy();
  Modal.destroyAll();
}

afterAll(async () => {
  cleanup();
  await closeStaticFeedback();
  await drain(5000, true);
  if (inFlight > 0) throw new Error(`测试文件结束时仍有 ${inFlight} 个请求未完成`);
});
