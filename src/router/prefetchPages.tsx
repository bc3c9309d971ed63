import { lazy, memo, Suspense, startTransition, useEffect, useState } from 'react';
import { menuViewModule } from './menuViewModule';
import { enginePageModule } from './pageModules';

/**
 * The generic list page made ready in the background once the signed-in console has settled (issue 15): most menu
 * entries open the schema engine's ResourcePage, and without this their first visit spends most of its time
 * downloading and compiling its code (table, search form, pager) and letting antd generate and inject the styles of
 * those components. Here the code is fetched and the styles written while the user looks at 首页.
 *
 * Started a while after the frame is up and only when the main thread is idle, in an interruptible render, so it
 * never competes with the home page's own requests and charts; the first visit then finds both ready.
 */
const SETTLE_MS = 1500;
/** 首页's charts animate for a while and leave few idle periods: start anyway after this long. */
const IDLE_TIMEOUT_MS = 1000;

const StyleWarmup = lazy(() => import('@/engine/pages/StyleWarmup'));

// Memoised: rendered by the frame, which renders on every page switch.
export const EnginePagePrefetch = memo(function EnginePagePrefetch() {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let idle: number | undefined;
    const start = () => {
      // Both modules are remembered by their loaders, so the first visit renders without suspending (readyLazy.ts).
      for (const load of [menuViewModule, enginePageModule])
        void load().catch(() => {
          // Offline, or a new build replaced the chunk: the page loads (or reports) on its first visit as before.
        });
      startTransition(() => setReady(true));
    };
    const timer = window.setTimeout(() => {
      if (typeof window.requestIdleCallback === 'function') idle = window.requestIdleCallback(start, { timeout: IDLE_TIMEOUT_MS });
      else start();
    }, SETTLE_MS);
    return () => {
      window.clearTimeout(timer);
      if (idle !== undefined) window.cancelIdleCallback(idle);
    };
  }, []);
  return ready ? (
    <Suspense fallback={null}>
      <StyleWarmup />
    </Suspense>
  ) : null;
});
