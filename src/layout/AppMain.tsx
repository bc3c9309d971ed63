import { Spin } from 'antd';
import { Activity, type ReactNode, Suspense, useContext, useEffect, useLayoutEffect, useRef } from 'react';
import { type Location, UNSAFE_LocationContext as LocationContext, useLocation, useOutlet } from 'react-router';
import { PageErrorBoundary, PageLoaded } from '@/components/ErrorBoundary';
import type { PageInfo } from './pageInfo';

/** Spec §2.4 / §9: the embedded page is as tall as the window minus the header (94.5 px). */
export function iframeHeight(): number {
  return window.innerHeight - 94.5;
}

/** A meta.link page (component InnerLink): the linked site in an iframe. */
export function InnerLink({ src, title }: { src: string; title: string }) {
  return <iframe src={src} title={title} style={{ display: 'block', width: '100%', height: iframeHeight(), border: 0 }} />;
}

export interface AppMainProps {
  /** Paths whose view is kept alive while hidden: the open tabs, minus noCache pages. */
  keepAlive: ReadonlySet<string>;
  /** Bumped per path by 刷新页面: a new key re-mounts the page. */
  refreshKeys: ReadonlyMap<string, number>;
  /** The current page (undefined for error pages and redirects). */
  page: PageInfo | undefined;
  /** The user's menu routes: a new list (menu reloaded) takes the current page's element afresh. */
  routes?: unknown;
}

/** A kept page's element and what it was taken from: reused as long as these stay the same. */
interface KeptView {
  element: ReactNode;
  search: string;
  routes: unknown;
  link: string | undefined;
}

const sameLocation = (a: Location, b: Location) => a.pathname === b.pathname && a.search === b.search && a.hash === b.hash && a.state === b.state;

/**
 * The router's location as one kept page sees it: frozen while the page is hidden, and the very same object again when
 * its tab is shown at the same address. Every component that reads the location (useNavigate, Refine's hooks, links)
 * would otherwise re-render the whole hidden page on each navigation elsewhere, and again in full when its tab returns.
 */
function KeptLocation({ active, children }: { active: boolean; children: ReactNode }) {
  const current = useContext(LocationContext);
  const seen = useRef(current);
  // Idempotent during render: take the router's value only for the visible page and only when the address changed.
  if (active && !sameLocation(seen.current.location, current.location)) seen.current = current;
  return <LocationContext.Provider value={seen.current}>{children}</LocationContext.Provider>;
}

const fallback = <Spin style={{ display: 'block', margin: '80px auto' }} tip="正在加载页面..." />;

/**
 * The page area with a view cache (RuoYi keep-alive): each visited page's element (from useOutlet) is kept by path
 * and rendered inside <Activity>; the current one visible, cached ones hidden with their state (inputs, table page,
 * scroll) intact. Pages not in `keepAlive` are dropped when left, so they re-mount on return.
 */
export function AppMain({ keepAlive, refreshKeys, page, routes }: AppMainProps) {
  const location = useLocation();
  const outlet = useOutlet();
  const views = useRef(new Map<string, KeptView>());
  const current = location.pathname;
  const isRedirect = current.startsWith('/redirect/');

  // Idempotent bookkeeping during render (safe under StrictMode's double render): keep the current page's element,
  // forget pages that are neither current nor kept alive. The element is taken once and reused while the page's
  // address and the menu stay the same: the router hands out a new outlet element on every navigation, and a new
  // element would re-render the whole page when its tab is shown again.
  const map = views.current;
  if (!isRedirect) {
    const kept = map.get(current);
    const link = page?.link;
    if (!kept || kept.search !== location.search || kept.routes !== routes || kept.link !== link) {
      const element = link ? <InnerLink src={link} title={page?.title ?? ''} /> : outlet;
      map.set(current, { element, search: location.search, routes, link });
    }
  }
  for (const path of [...map.keys()]) {
    if (path !== current && !keepAlive.has(path)) map.delete(path);
  }

  // Window scroll is remembered per page and restored when its tab is shown again.
  const scroll = useRef(new Map<string, number>());
  useEffect(() => {
    const onScroll = () => scroll.current.set(current, window.scrollY);
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [current]);
  useLayoutEffect(() => {
    window.scrollTo?.(0, scroll.current.get(current) ?? 0);
  }, [current]);

  return (
    <>
      {[...map.entries()].map(([path, view]) => (
        <Activity key={`${path}#${refreshKeys.get(path) ?? 0}`} mode={path === current ? 'visible' : 'hidden'}>
          <KeptLocation active={path === current}>
            {/* Per page, inside the frame: a page that fails to load or render leaves the menu and tabs usable. */}
            <PageErrorBoundary active={path === current} resetKey={location.key}>
              <Suspense fallback={fallback}>
                {view.element}
                <PageLoaded />
              </Suspense>
            </PageErrorBoundary>
          </KeptLocation>
        </Activity>
      ))}
      {isRedirect && (
        <PageErrorBoundary active resetKey={location.key}>
          {outlet}
        </PageErrorBoundary>
      )}
    </>
  );
}
