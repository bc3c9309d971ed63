import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach } from 'vitest';
import { clearLeftoverTimers, settle } from './settle';

/**
 * Every unit test file ends with nothing left running, and waits on conditions rather than on an idle machine.
 *
 * Waiting: findBy… / waitFor give up after 1 s by default, which a render with a request behind it can take on a
 * loaded 2-core machine. With two copies of the suite side by side the longest single wait measured was 11.6 s (the
 * 96-choice plan rendering, 1.5 s alone); the limit leaves room for a busier machine still. A passing wait ends as
 * soon as its state comes, so the limit only says how long a missing state takes to fail; a test that hangs fails at
 * the project's testTimeout (vitest.config.ts).
 */
const WAIT_MS = 30_000;
configure({ asyncUtilTimeout: WAIT_MS });

/**
 * Ending: React work that outlives a file's jsdom window throws `window is not defined` from React's scheduler after
 * every test passed (./settle.ts says why). So after each test everything rendered is unmounted and the test's
 * requests and React's queue are waited for; at the end of the file antd's static feedback is closed and the timers
 * nobody cleared are cleared, so nothing can start React work once the window is gone.
 */
const SETTLE_MS = 20_000;

/**
 * The engine list fetches its record panels' code when the page is idle (EntityList's prefetchPanels, through
 * requestIdleCallback, which jsdom lacks, so a 2 s timer). In a unit test that import is nobody's: it can still be
 * loading when the file's environment closes, and vitest then fails the run with an EnvironmentTeardownError although
 * every test passed (seen on a loaded machine). Here the idle moment never comes; panels load when a test opens them,
 * and the test waits for what they show.
 */
if (typeof window !== 'undefined') {
  window.requestIdleCallback = () => 0;
  window.cancelIdleCallback = () => undefined;
}

// Registered first, so they run last ('stack' hook order): after each test's own cleanup and the file's afterAll hooks.
afterEach(async () => {
  cleanup();
  const left = await settle(SETTLE_MS);
  if (left) throw new Error(`测试结束后 ${SETTLE_MS / 1000} 秒：${left}`);
});

/**
 * antd's static message, notification and Modal (request.ts falls back to them when no App context is set, e.g. for an
 * answer arriving after the page was unmounted) live in a React root of their own that cleanup() does not unmount.
 */
async function closeStaticFeedback(): Promise<void> {
  if (typeof document === 'undefined' || !document.querySelector('.ant-message, .ant-notification, .ant-modal-root')) return;
  const { message, notification, Modal } = await import('antd');
  message.destroy();
  notification.destroy();
  Modal.destroyAll();
}

afterAll(async () => {
  const until = Date.now() + SETTLE_MS;
  const rest = () => Math.max(0, until - Date.now());
  cleanup();
  let left = await settle(rest());
  if (!left) {
    await closeStaticFeedback();
    left = await settle(rest());
  }
  clearLeftoverTimers();
  left ??= await settle(rest());
  if (left) throw new Error(`测试文件结束时：${left}`);
});
