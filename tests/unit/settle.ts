import { promisify } from 'node:util';
import axios from 'axios';
// react-dom's own task queue (the same CommonJS module react-dom requires).
// @ts-expect-error scheduler ships no types
import Scheduler from 'scheduler';

/**
 * What a unit test file has started and not yet finished, and a wait until it has finished.
 *
 * Why it matters: vitest's jsdom environment keeps Node's timers, so a timer or a request a page started does not die
 * with the page when the file's jsdom window closes (a browser stops a closed tab's timers). React 19 (development
 * build) reads `window.event` in every task of its scheduler and in every setState, so any state update or render
 * slice that runs after the window closed throws an unhandled `ReferenceError: window is not defined`, which fails the
 * whole run — and on a busy machine "after" comes easily. tests/unit/setup.ts uses this to end every file with nothing
 * left: no request in flight, no timer pending, React's queue empty.
 *
 * Installed on import, as the first of the unit project's setupFiles (vitest.config.ts): before React, antd and the
 * console's axios client are loaded, so their timers and requests all go through the counters below.
 */

const scheduler = Scheduler as { unstable_scheduleCallback(priority: number, run: () => void): unknown; unstable_IdlePriority: number };

/** Node's own timers, for the waits below: never counted and never cleared with the file's leftovers. */
const native = {
  setTimeout: globalThis.setTimeout,
  clearTimeout: globalThis.clearTimeout,
  setInterval: globalThis.setInterval,
  clearInterval: globalThis.clearInterval,
};

/* Requests. */

const counts = { axios: 0, xhr: 0, fetch: 0 };

/**
 * Every call of an axios client (src/api/request.ts's `http`), from its request interceptors to the end of its response
 * interceptors: after the answer arrives they still decrypt it and show toasts (an `await import('antd')` first), and
 * the component sets its state only after that. Counting at the socket alone let a file end in that gap.
 */
type AxiosRequest = (this: unknown, ...args: unknown[]) => Promise<unknown>;
const axiosProto = (axios.Axios as unknown as { prototype: { request: AxiosRequest } }).prototype;
const axiosRequest = axiosProto.request;
axiosProto.request = function countedRequest(this: unknown, ...args: unknown[]) {
  counts.axios += 1;
  return axiosRequest.apply(this, args).finally(() => {
    counts.axios -= 1;
  });
};

// XMLHttpRequest and fetch made without axios (uploads, downloads, libraries).
if (typeof XMLHttpRequest !== 'undefined') {
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function countedSend(this: XMLHttpRequest, ...args: Parameters<XMLHttpRequest['send']>) {
    counts.xhr += 1;
    this.addEventListener('loadend', () => {
      counts.xhr -= 1;
    });
    return send.apply(this, args);
  };
}
if (typeof globalThis.fetch === 'function') {
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (...args: Parameters<typeof fetch>) => {
    counts.fetch += 1;
    try {
      return await realFetch(...args);
    } finally {
      counts.fetch -= 1;
    }
  };
}

/** Requests started and not yet through their interceptors: 0 once every answer has been handled. */
export const requestsInFlight = () => counts.axios + counts.xhr + counts.fetch;

/* Timers. */

type Handle = ReturnType<typeof setTimeout>;
/** Timeouts not yet fired or cleared, and intervals not yet cleared, started since this file began. */
const timers = new Set<Handle>();

function tracked<F extends (handler: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) => Handle>(start: F, once: boolean): F {
  const wrapped = function trackedTimer(handler: unknown, ms?: number, ...args: unknown[]): Handle {
    // Not a function: Node throws, as it would have.
    if (typeof handler !== 'function') return start(handler as never, ms, ...args);
    const handle: Handle = start(
      (...a: unknown[]) => {
        if (once) timers.delete(handle);
        handler(...a);
      },
      ms,
      ...args,
    );
    timers.add(handle);
    return handle;
  };
  // util.promisify(setTimeout) keeps working.
  return Object.assign(wrapped, { [promisify.custom]: (start as unknown as Record<symbol, unknown>)[promisify.custom] }) as unknown as F;
}

globalThis.setTimeout = tracked(native.setTimeout as never, true);
globalThis.setInterval = tracked(native.setInterval as never, false);
globalThis.clearTimeout = ((handle?: Handle | string | number) => {
  timers.delete(handle as Handle);
  native.clearTimeout(handle as Handle);
}) as typeof clearTimeout;
globalThis.clearInterval = ((handle?: Handle | string | number) => {
  timers.delete(handle as Handle);
  native.clearInterval(handle as Handle);
}) as typeof clearInterval;

/**
 * Clears what is still pending at the end of a file, as a browser does when a page closes: a toast's close timer, a
 * popup's motion deadline, a library's debounce — every component is unmounted by then, and whatever the timer would
 * have done could only reach React after jsdom is gone. Answers how many there were.
 */
export function clearLeftoverTimers(): number {
  const n = timers.size;
  for (const handle of timers) native.clearTimeout(handle);
  timers.clear();
  return n;
}

/* Waiting. */

const macrotask = () => new Promise<void>((resolve) => native.setTimeout(resolve, 0));

/**
 * Resolves when React's scheduler reaches a task of idle priority queued now, i.e. once every render, commit and
 * effect React had queued has run; false after `limitMs` if it never gets there.
 */
export const reactIdle = (limitMs = 10_000) =>
  new Promise<boolean>((resolve) => {
    const timer = native.setTimeout(() => resolve(false), limitMs);
    scheduler.unstable_scheduleCallback(scheduler.unstable_IdlePriority, () => {
      native.clearTimeout(timer);
      resolve(true);
    });
  });

/**
 * Waits until no request is in flight and React's queue is empty, twice in a row (a settled request often starts the
 * next one: load after save). Answers null when that happened within `limitMs`, else what is still going on.
 */
export async function settle(limitMs: number): Promise<string | null> {
  const until = Date.now() + limitMs;
  let quiet = 0;
  while (quiet < 2) {
    const left = until - Date.now();
    if (left <= 0) return `仍有 ${requestsInFlight()} 个请求未完成，或 React 的任务队列一直不空`;
    await macrotask();
    const idle = await reactIdle(left);
    quiet = idle && requestsInFlight() === 0 ? quiet + 1 : 0;
  }
  return null;
}
