/**
 * Tag bar state (spec §2.4, §3 "Tag view", §4 "Tag bar"; RuoYi store/modules/tagsView).
 * Pure functions returning new state, so the React tag bar only renders and dispatches.
 * Tabs are keyed by path (one tab per page; a revisit with another query updates the tab) and keep insertion order.
 * The cached list (keep-alive) always mirrors the open tabs, minus pages marked noCache.
 */

export interface TagView {
  path: string;
  /** Path with query, where the tab navigates back to. */
  fullPath: string;
  /** Route name, the keep-alive key. */
  name?: string;
  title: string;
  /** Pinned: cannot be closed. */
  affix?: boolean;
  /** Not kept alive when left. */
  noCache?: boolean;
  query?: Record<string, string>;
}

export interface TagsState {
  visited: TagView[];
  /** Route names of the views kept alive, in tab order; noCache views are never listed. */
  cached: string[];
}

/** Home tab (spec §2.1: /index, 首页, pinned). */
export const HOME_TAG: TagView = { path: '/index', fullPath: '/index', name: 'Index', title: '首页', affix: true };

/** Where to land when nothing is left open: home, re-entered through the redirect route so it re-mounts. */
export const HOME_REDIRECT = '/redirect/index';

export const EMPTY_TAGS: TagsState = { visited: [], cached: [] };

function cacheable(view: TagView): view is TagView & { name: string } {
  return Boolean(view.name) && !view.noCache;
}

/** Rebuild state from the tabs that stay, keeping already-cached names only (a refreshing view stays out). */
function withVisited(state: TagsState, visited: TagView[]): TagsState {
  const open = new Set(visited.filter(cacheable).map((v) => v.name));
  return { visited, cached: state.cached.filter((name) => open.has(name)) };
}

/** Same tab fields (the ones a visit can change), so a revisit leaves the state as it is. */
function sameTag(a: TagView, b: TagView): boolean {
  return (
    a.path === b.path &&
    a.fullPath === b.fullPath &&
    a.name === b.name &&
    a.title === b.title &&
    Boolean(a.affix) === Boolean(b.affix) &&
    Boolean(a.noCache) === Boolean(b.noCache) &&
    JSON.stringify(a.query ?? null) === JSON.stringify(b.query ?? null)
  );
}

/**
 * Open a tab on visit, or update the existing tab of that path (new query / fullPath / title). A revisit that
 * changes nothing returns the very same state: every tab switch adds its tab, and a new state object would render
 * the whole frame (menu, navbar, tag bar) a second time.
 */
export function addView(state: TagsState, view: TagView): TagsState {
  const index = state.visited.findIndex((v) => v.path === view.path);
  let visited: TagView[];
  if (index === -1) {
    visited = [...state.visited, { ...view }];
  } else {
    // The affix flag belongs to the route, so an update never unpins a pinned tab.
    const current = state.visited[index];
    const updated = { ...current, ...view, affix: current.affix || view.affix };
    visited = sameTag(current, updated) ? state.visited : state.visited.map((v, i) => (i === index ? updated : v));
  }
  const cached = cacheable(view) && !state.cached.includes(view.name) ? [...state.cached, view.name] : state.cached;
  return visited === state.visited && cached === state.cached ? state : { visited, cached };
}

/**
 * The page to go to when `activePath` is no longer open: the last remaining tab, or home through the redirect
 * route. Undefined while the active page is still open (nothing to do).
 */
export function landingAfterClose(state: TagsState, activePath: string): string | undefined {
  if (state.visited.some((v) => v.path === activePath)) return undefined;
  const last = state.visited[state.visited.length - 1];
  return last ? last.fullPath : HOME_REDIRECT;
}

/**
 * Close one tab. Pinned tabs cannot be closed. `next` is set only when the closed tab was the active one
 * (`activePath`): the last remaining tab, or '/redirect/index' when none is left.
 */
export function delView(state: TagsState, view: Pick<TagView, 'path'>, activePath?: string): { state: TagsState; next?: string } {
  const target = state.visited.find((v) => v.path === view.path);
  if (!target || target.affix) return { state };
  const next = withVisited(
    state,
    state.visited.filter((v) => v !== target),
  );
  if (activePath !== target.path) return { state: next };
  return { state: next, next: landingAfterClose(next, activePath) };
}

/** Close every tab except the pinned ones and `view`. */
export function delOthers(state: TagsState, view: Pick<TagView, 'path'>): TagsState {
  return withVisited(
    state,
    state.visited.filter((v) => v.affix || v.path === view.path),
  );
}

/** Close the unpinned tabs left of `view`. */
export function delLeft(state: TagsState, view: Pick<TagView, 'path'>): TagsState {
  const index = state.visited.findIndex((v) => v.path === view.path);
  if (index === -1) return state;
  return withVisited(
    state,
    state.visited.filter((v, i) => v.affix || i >= index),
  );
}

/** Close the unpinned tabs right of `view`. */
export function delRight(state: TagsState, view: Pick<TagView, 'path'>): TagsState {
  const index = state.visited.findIndex((v) => v.path === view.path);
  if (index === -1) return state;
  return withVisited(
    state,
    state.visited.filter((v, i) => v.affix || i <= index),
  );
}

/** Close every unpinned tab. */
export function delAll(state: TagsState): TagsState {
  return withVisited(
    state,
    state.visited.filter((v) => v.affix),
  );
}

/**
 * Refresh a page: drop it from the cache so it re-mounts on the next render (the shell then navigates through
 * /redirect and addView puts the name back).
 */
export function refreshView(state: TagsState, view: Pick<TagView, 'name'>): TagsState {
  if (!view.name || !state.cached.includes(view.name)) return state;
  return { ...state, cached: state.cached.filter((name) => name !== view.name) };
}

/** The route fields initAffix reads; FlatRoute satisfies it. */
export interface AffixSource {
  name: string;
  fullPath: string;
  meta: { title: string; affix?: boolean; noCache?: boolean } | null;
}

/** Seed the bar with the pinned tabs: home first, then every route whose meta is affix (spec §2.1, §2.4). */
export function initAffix(routes: readonly AffixSource[]): TagsState {
  let state = addView(EMPTY_TAGS, HOME_TAG);
  for (const route of routes) {
    if (!route.meta?.affix) continue;
    state = addView(state, {
      path: route.fullPath,
      fullPath: route.fullPath,
      name: route.name,
      title: route.meta.title,
      affix: true,
      noCache: route.meta.noCache,
    });
  }
  return state;
}
