import { Spin } from 'antd';
import { Activity, type ReactNode, Suspense, useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation, useOutlet } from 'react-router';
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
}

const fallback = <Spin style={{ display: 'block', margin: '80px auto' }} tip="正在加载页面..." />;

/**
 * The page area with a view cache (RuoYi keep-alive): each visited page's element (from useOutlet) is kept by path
 * and rendered inside <Activity>; the current one visible, cached ones hidden with their state (inputs, table page,
 * scroll) intact. Pages not in `keepAlive` are dropped when left, so they re-mount on return.
 */
export function AppMain({ keepAlive, refreshKeys, page }: AppMainProps) {
  const location = useLocation();
  const outlet = useOutlet();
  const views = useRef(new Map<string, ReactNode>());
  const current = location.pathname;
  const isRedirect = current.startsWith('/redirect/');

  // Idempotent bookkeeping during render (safe under StrictMode's double render): keep the latest element of the
  // current page, forget pages that are neither current nor kept alive.
  const map = views.current;
  if (!isRedirect) map.set(current, page?.link ? <InnerLink src={page.link} title={page.title} /> : outlet);
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
      {[...map.entries()].map(([path, element]) => (
        <Activity key={`${path}#${refreshKeys.get(path) ?? 0}`} mode={path === current ? 'visible' : 'hidden'}>
          <Suspense fallback={fallback}>{element}</Suspense>
        </Activity>
      ))}
      {isRedirect && outlet}
    </>
  );
}
