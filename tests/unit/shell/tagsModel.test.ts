import { describe, expect, it } from 'vitest';
import {
  addView,
  delAll,
  delLeft,
  delOthers,
  delRight,
  delView,
  EMPTY_TAGS,
  HOME_REDIRECT,
  HOME_TAG,
  initAffix,
  landingAfterClose,
  refreshView,
  type TagsState,
  type TagView,
} from '@/layout/tagsView/tagsModel';

const tag = (path: string, over: Partial<TagView> = {}): TagView => ({
  path,
  fullPath: path,
  name: path.replace(/\W/g, '') || 'Root',
  title: path,
  ...over,
});

/** Home (pinned), then a, b, c, d in visit order. */
function opened(): TagsState {
  return ['/a', '/b', '/c', '/d'].reduce((s, p) => addView(s, tag(p)), initAffix([]));
}

const paths = (s: TagsState) => s.visited.map((v) => v.path);

describe('initAffix', () => {
  it('seeds the pinned home tab /index 首页', () => {
    const state = initAffix([]);
    expect(state.visited).toEqual([HOME_TAG]);
    expect(state.visited[0]).toMatchObject({ path: '/index', title: '首页', affix: true });
    expect(state.cached).toEqual(['Index']);
  });

  it('adds every route whose meta is affix, after home', () => {
    const state = initAffix([
      { name: 'Filling', fullPath: '/filling', meta: { title: '志愿填报', affix: true } },
      { name: 'User', fullPath: '/system/user', meta: { title: '用户管理' } },
      { name: 'Nil', fullPath: '/nil', meta: null },
      { name: 'Report', fullPath: '/report', meta: { title: '报表', affix: true, noCache: true } },
    ]);
    expect(paths(state)).toEqual(['/index', '/filling', '/report']);
    expect(state.visited.every((v) => v.affix)).toBe(true);
    expect(state.cached).toEqual(['Index', 'Filling']);
  });
});

describe('addView', () => {
  it('appends in visit order and caches the route name', () => {
    const state = opened();
    expect(paths(state)).toEqual(['/index', '/a', '/b', '/c', '/d']);
    expect(state.cached).toEqual(['Index', 'a', 'b', 'c', 'd']);
  });

  it('does not duplicate a path; a revisit updates fullPath and query in place', () => {
    const state = addView(opened(), tag('/b', { fullPath: '/b?id=2', query: { id: '2' } }));
    expect(paths(state)).toEqual(['/index', '/a', '/b', '/c', '/d']);
    expect(state.visited[2]).toMatchObject({ fullPath: '/b?id=2', query: { id: '2' } });
    expect(state.cached).toEqual(['Index', 'a', 'b', 'c', 'd']);
  });

  it('never unpins a pinned tab on revisit', () => {
    const state = addView(initAffix([]), { path: '/index', fullPath: '/index?x=1', name: 'Index', title: '首页' });
    expect(state.visited[0]).toMatchObject({ affix: true, fullPath: '/index?x=1' });
  });

  it('does not cache noCache views or views without a name', () => {
    let state = addView(EMPTY_TAGS, tag('/n', { noCache: true }));
    state = addView(state, { path: '/anon', fullPath: '/anon', title: 'anon' });
    expect(paths(state)).toEqual(['/n', '/anon']);
    expect(state.cached).toEqual([]);
  });

  it('returns new state without mutating the old one', () => {
    const before = opened();
    const snapshot = JSON.stringify(before);
    addView(before, tag('/e'));
    delAll(before);
    expect(JSON.stringify(before)).toBe(snapshot);
  });
});

describe('delView', () => {
  it('closing the active tab lands on the last remaining tab', () => {
    const { state, next } = delView(opened(), tag('/d'), '/d');
    expect(paths(state)).toEqual(['/index', '/a', '/b', '/c']);
    expect(next).toBe('/c');
    expect(state.cached).toEqual(['Index', 'a', 'b', 'c']);
  });

  it('lands on the last tab with its full path (query kept)', () => {
    const start = addView(opened(), tag('/d', { fullPath: '/d?tab=2' }));
    expect(delView(start, tag('/b'), '/b').next).toBe('/d?tab=2');
  });

  it('closing an inactive tab does not navigate', () => {
    const result = delView(opened(), tag('/b'), '/d');
    expect(paths(result.state)).toEqual(['/index', '/a', '/c', '/d']);
    expect(result.next).toBeUndefined();
  });

  it('goes home through the redirect route when no tab is left', () => {
    const only = addView(EMPTY_TAGS, tag('/a'));
    const result = delView(only, tag('/a'), '/a');
    expect(result.state.visited).toEqual([]);
    expect(result.next).toBe('/redirect/index');
    expect(HOME_REDIRECT).toBe('/redirect/index');
  });

  it('pinned tabs cannot be closed', () => {
    const start = opened();
    const result = delView(start, HOME_TAG, '/index');
    expect(result.state).toBe(start);
    expect(result.next).toBeUndefined();
  });

  it('an unknown tab is a no-op', () => {
    const start = opened();
    expect(delView(start, tag('/zzz'), '/zzz').state).toBe(start);
  });
});

describe('bulk close', () => {
  it('delOthers keeps the pinned tabs and the chosen one', () => {
    const state = delOthers(opened(), tag('/c'));
    expect(paths(state)).toEqual(['/index', '/c']);
    expect(state.cached).toEqual(['Index', 'c']);
  });

  it('delLeft closes unpinned tabs left of the chosen one', () => {
    expect(paths(delLeft(opened(), tag('/c')))).toEqual(['/index', '/c', '/d']);
  });

  it('delRight closes unpinned tabs right of the chosen one', () => {
    const state = delRight(opened(), tag('/b'));
    expect(paths(state)).toEqual(['/index', '/a', '/b']);
    expect(state.cached).toEqual(['Index', 'a', 'b']);
  });

  it('delRight keeps a pinned tab that sits on the right', () => {
    const start = addView(opened(), tag('/pin', { affix: true }));
    expect(paths(delRight(start, tag('/a')))).toEqual(['/index', '/a', '/pin']);
  });

  it('delLeft / delRight of an unknown tab change nothing', () => {
    const start = opened();
    expect(delLeft(start, tag('/zzz'))).toBe(start);
    expect(delRight(start, tag('/zzz'))).toBe(start);
  });

  it('delAll keeps only pinned tabs', () => {
    const state = delAll(opened());
    expect(paths(state)).toEqual(['/index']);
    expect(state.cached).toEqual(['Index']);
  });

  it('landingAfterClose tells where to go when the active tab was closed by a bulk action', () => {
    const state = delLeft(opened(), tag('/c'));
    expect(landingAfterClose(state, '/a')).toBe('/d');
    expect(landingAfterClose(state, '/c')).toBeUndefined();
    expect(landingAfterClose(EMPTY_TAGS, '/a')).toBe('/redirect/index');
  });
});

describe('refreshView', () => {
  it('drops the view from the cache so it re-mounts, keeping the tab', () => {
    const state = refreshView(opened(), tag('/b'));
    expect(paths(state)).toEqual(['/index', '/a', '/b', '/c', '/d']);
    expect(state.cached).toEqual(['Index', 'a', 'c', 'd']);
    // Visiting again after the re-mount caches it once more.
    expect(addView(state, tag('/b')).cached).toEqual(['Index', 'a', 'c', 'd', 'b']);
  });

  it('is a no-op for an uncached view', () => {
    const start = opened();
    expect(refreshView(start, { name: 'nope' })).toBe(start);
    expect(refreshView(start, {})).toBe(start);
  });
});
