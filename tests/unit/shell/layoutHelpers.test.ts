import { describe, expect, it } from 'vitest';
import { breadcrumbs } from '@/layout/breadcrumbs';
import { encodeToolData, isTokenExpiredMessage, toolSandbox, toolUrl, visibleGroups } from '@/layout/toolCabinet/tools';
import { isCheckedPath, RELOAD_THROTTLE_MS, shouldReload } from '@/layout/useStaleVersionReload';
import type { SidebarItem } from '@/router/types';

const item = (key: string, title: string, children?: SidebarItem[]): SidebarItem => ({
  key,
  title,
  icon: '',
  path: key,
  external: false,
  hidden: false,
  children,
});

describe('tool cabinet', () => {
  it('sandboxes a tool of another origin, and never with allow-scripts + allow-same-origin on the console’s own', () => {
    expect(toolSandbox('https://tools.example.com', 'https://console.example.com')).toBe('allow-scripts allow-same-origin allow-forms allow-popups');
    expect(toolSandbox('https://console.example.com', 'https://console.example.com')).toBeUndefined();
  });

  it('has the five groups; 诊断换算 only with the diagnosis flag', () => {
    const without = visibleGroups(false);
    expect(without.map((g) => g.title)).toEqual(['招生计划', '历年分数线', '数据库', '榜单', '更多']);
    expect(without.flatMap((g) => g.items.map((i) => i.title))).not.toContain('诊断换算');
    expect(
      visibleGroups(true)
        .at(-1)
        ?.items.map((i) => i.title),
    ).toEqual(['批次线', '一分一段', '同分去向', '选科查询', '诊断换算']);
  });

  it('builds toolboxaddr + hash route + encoded data holding query, roleId and hostname, never the token', () => {
    const data = { token: 'tök', query: { score: 600 }, roleId: 3, hostname: 'zy.example.com' };
    const url = new URL(toolUrl('/toolbox/', 'score-segment', data, 'http://zy.example.com'));
    expect(url.origin + url.pathname).toBe('http://zy.example.com/toolbox/');
    const [route, qs] = url.hash.slice(1).split('?');
    expect(route).toBe('/score-segment');
    const encoded = new URLSearchParams(qs).get('data') ?? '';
    const bytes = Uint8Array.from(atob(decodeURIComponent(encoded)), (c) => c.charCodeAt(0));
    expect(JSON.parse(new TextDecoder().decode(bytes))).toEqual({ ...data, token: '' });
    expect(url.toString()).not.toContain('tök');
    expect(decodeURIComponent(encodeToolData({ ...data, token: '' }))).toBe(encoded);
    // An absolute address is used as given.
    expect(
      toolUrl('https://tools.example.com/app/', 'batch-line', data, 'http://zy.example.com').startsWith('https://tools.example.com/app/#/batch-line?data='),
    ).toBe(true);
  });

  it('recognises the token-expired message and nothing else', () => {
    expect(isTokenExpiredMessage({ type: 'tokenExpired' })).toBe(true);
    expect(isTokenExpiredMessage({ type: 'resize' })).toBe(false);
    expect(isTokenExpiredMessage('tokenExpired')).toBe(false);
    expect(isTokenExpiredMessage(null)).toBe(false);
  });
});

describe('breadcrumb', () => {
  const tree = [item('/system', '系统管理', [item('/system/user', '用户管理'), item('/system/dict', '字典管理')])];
  it('is 首页 alone on the home page', () => {
    expect(breadcrumbs(tree, '/index', '首页')).toEqual([{ title: '首页' }]);
  });
  it('follows the menu chain to the page', () => {
    expect(breadcrumbs(tree, '/system/user', '用户管理').map((c) => c.title)).toEqual(['首页', '系统管理', '用户管理']);
  });
  it('adds a hidden page after the entry it highlights (activeMenu)', () => {
    expect(breadcrumbs(tree, '/system/dict', '字典数据').map((c) => c.title)).toEqual(['首页', '系统管理', '字典管理', '字典数据']);
  });
});

describe('stale-version reload', () => {
  const base = {
    path: '/filling/index',
    host: 'zy.example.com',
    remembered: '2026-11-01T00:00:00Z',
    build: '2026-10-01T00:00:00Z',
    lastReloadAt: 0,
    now: 100000,
  };
  it('reloads on a listed path when the served build differs', () => {
    expect(isCheckedPath('/card/release')).toBe(true);
    expect(isCheckedPath('/system/user')).toBe(false);
    expect(shouldReload(base)).toBe(true);
  });
  it('not when the builds match, on other paths, on localhost/192.168.*, or within 10 s of the last reload', () => {
    expect(shouldReload({ ...base, remembered: base.build })).toBe(false);
    expect(shouldReload({ ...base, path: '/system/user' })).toBe(false);
    expect(shouldReload({ ...base, host: 'localhost' })).toBe(false);
    expect(shouldReload({ ...base, host: '192.168.1.20' })).toBe(false);
    expect(shouldReload({ ...base, lastReloadAt: base.now - RELOAD_THROTTLE_MS + 1 })).toBe(false);
    expect(shouldReload({ ...base, lastReloadAt: base.now - RELOAD_THROTTLE_MS })).toBe(true);
  });
});
