import type { RouterItem, RouterMeta } from '@common/menu/routes';
import { describe, expect, it } from 'vitest';
import { allPaths, convertMenus, filterStaticRoutes, joinPath, parseQuery } from '@/router/menuToRoutes';

function meta(title: string, over: Partial<RouterMeta> = {}): RouterMeta {
  return { title, icon: `icon-${title}`, noCache: false, link: null, ...over };
}

/** A getRuleList tree shaped like RuoYi getRouters output. */
const TREE: RouterItem[] = [
  {
    name: 'System',
    path: '/system',
    hidden: false,
    redirect: 'noRedirect',
    component: 'Layout',
    alwaysShow: true,
    meta: meta('系统管理'),
    children: [
      { name: 'User', path: 'user', hidden: false, component: 'system/user/index', meta: meta('用户管理') },
      { name: 'Role', path: 'role', hidden: true, component: 'system/role/index', meta: meta('角色管理', { noCache: true }) },
      {
        name: 'Log',
        path: 'log',
        hidden: false,
        redirect: 'noRedirect',
        component: 'ParentView',
        alwaysShow: true,
        meta: meta('日志管理'),
        children: [
          { name: 'Operlog', path: 'operlog', hidden: false, component: 'monitor/operlog/index', meta: meta('操作日志') },
          {
            name: 'Deep',
            path: 'deep/',
            hidden: false,
            component: 'ParentView',
            alwaysShow: true,
            meta: meta('深层'),
            children: [{ name: 'Leaf', path: 'leaf', hidden: false, component: 'monitor/leaf/index', meta: meta('叶子') }],
          },
        ],
      },
      { name: 'Docs', path: 'https://doc.ruoyi.vip', hidden: false, component: 'Layout', meta: meta('文档') },
      {
        name: 'Baidu',
        path: 'www/baidu/com',
        hidden: false,
        component: 'InnerLink',
        meta: meta('百度', { link: 'https://www.baidu.com' }),
      },
    ],
  },
  {
    path: '/',
    hidden: false,
    component: 'Layout',
    meta: null,
    children: [
      {
        name: 'Filling',
        path: 'filling',
        hidden: false,
        component: 'Filling/index',
        query: '{"type":"1","year":2024}',
        meta: meta('志愿填报', { affix: true }),
      },
    ],
  },
  {
    name: 'Card',
    path: '/card',
    hidden: false,
    component: 'Layout',
    alwaysShow: false,
    meta: meta('会员卡'),
    children: [{ name: 'Release', path: 'release', hidden: false, component: 'card/release/index', query: 'not json', meta: meta('发卡') }],
  },
  {
    name: 'Hidden',
    path: '/hiddenDir',
    hidden: true,
    component: 'Layout',
    meta: meta('隐藏目录'),
    children: [{ name: 'Secret', path: 'secret', hidden: false, component: 'secret/index', meta: meta('秘密') }],
  },
  { name: 'Ext', path: 'mailto:help@example.com', hidden: false, component: 'Layout', meta: meta('邮件') },
];

describe('convertMenus — sidebar', () => {
  const { sidebar } = convertMenus(TREE);

  it('keeps the tree, makes paths absolute and drops hidden entries', () => {
    expect(sidebar.map((s) => s.key)).toEqual(['/system', '/filling', '/card/release', 'mailto:help@example.com']);
    const system = sidebar[0];
    expect(system.title).toBe('系统管理');
    expect(system.icon).toBe('icon-系统管理');
    expect(system.children?.map((c) => c.key)).toEqual(['/system/user', '/system/log', 'https://doc.ruoyi.vip', '/system/www/baidu/com']);
    // The hidden role page and the hidden directory are absent at every level.
    expect(JSON.stringify(sidebar)).not.toContain('角色管理');
    expect(JSON.stringify(sidebar)).not.toContain('隐藏目录');
  });

  it('keeps nested ParentView levels as submenus with joined paths', () => {
    const log = sidebar[0].children?.[1];
    expect(log?.children?.map((c) => c.path)).toEqual(['/system/log/operlog', '/system/log/deep']);
    expect(log?.children?.[1].children?.[0].path).toBe('/system/log/deep/leaf');
  });

  it('marks external links (http, https, mailto, tel) and keeps their URL as path', () => {
    const docs = sidebar[0].children?.[2];
    expect(docs).toMatchObject({ key: 'https://doc.ruoyi.vip', path: 'https://doc.ruoyi.vip', external: true });
    expect(sidebar[3]).toMatchObject({ path: 'mailto:help@example.com', external: true });
    expect(sidebar[0].external).toBe(false);
  });

  it('InnerLink pages are internal menu entries (the page shows the iframe)', () => {
    expect(sidebar[0].children?.[3]).toMatchObject({ path: '/system/www/baidu/com', external: false, title: '百度' });
  });

  it('resolves children of the top-level Layout at / (isMenuFrame) to /child, with their parsed query', () => {
    expect(sidebar[1]).toMatchObject({ key: '/filling', path: '/filling', title: '志愿填报', query: { type: '1', year: 2024 } });
    expect(sidebar[1].children).toBeUndefined();
  });

  it('shows a single visible child in place of a non-alwaysShow parent, with the parent icon as fallback', () => {
    expect(sidebar[2]).toMatchObject({ key: '/card/release', title: '发卡', icon: 'icon-发卡' });
    const noIcon: RouterItem[] = [
      {
        path: '/p',
        hidden: false,
        component: 'Layout',
        meta: meta('父', { icon: 'parent-icon' }),
        children: [{ path: 'c', hidden: false, component: 'c/index', meta: meta('子', { icon: '' }) }],
      },
    ];
    expect(convertMenus(noIcon).sidebar[0]).toMatchObject({ key: '/p/c', icon: 'parent-icon', title: '子' });
  });

  it('a page whose children are all hidden is a plain link to itself', () => {
    const tree: RouterItem[] = [
      {
        path: '/list',
        hidden: false,
        component: 'list/index',
        meta: meta('列表'),
        children: [{ path: 'detail/:id', hidden: true, component: 'list/detail', meta: meta('详情') }],
      },
    ];
    const [entry] = convertMenus(tree).sidebar;
    expect(entry).toMatchObject({ key: '/list', title: '列表' });
    expect(entry.children).toBeUndefined();
  });

  it('an alwaysShow directory keeps its submenu even with one child', () => {
    const tree: RouterItem[] = [
      {
        path: '/dir',
        hidden: false,
        component: 'Layout',
        alwaysShow: true,
        meta: meta('目录'),
        children: [{ path: 'only', hidden: false, component: 'only/index', meta: meta('唯一') }],
      },
    ];
    const [entry] = convertMenus(tree).sidebar;
    expect(entry.key).toBe('/dir');
    expect(entry.children?.map((c) => c.key)).toEqual(['/dir/only']);
  });

  it('carries activeMenu from meta', () => {
    const tree: RouterItem[] = [
      {
        path: '/',
        hidden: false,
        component: 'Layout',
        meta: null,
        children: [{ path: 'x', hidden: false, component: 'x', meta: meta('X', { activeMenu: '/y' }) }],
      },
    ];
    expect(convertMenus(tree).sidebar[0].activeMenu).toBe('/y');
  });
});

describe('convertMenus — routes', () => {
  const { routes } = convertMenus(TREE);
  const byPath = (p: string) => routes.find((r) => r.fullPath === p);

  it('flattens Layout and ParentView levels away, joining paths', () => {
    expect(routes.map((r) => r.fullPath)).toEqual([
      '/system/user',
      '/system/role',
      '/system/log/operlog',
      '/system/log/deep/leaf',
      '/system/www/baidu/com',
      '/filling',
      '/card/release',
      '/hiddenDir/secret',
    ]);
  });

  it('keeps the component string, name and meta as given', () => {
    expect(byPath('/system/log/operlog')).toMatchObject({ name: 'Operlog', component: 'monitor/operlog/index', meta: { title: '操作日志' } });
  });

  it('keeps hidden pages routable, flagged hidden (own flag or a hidden ancestor)', () => {
    expect(byPath('/system/role')?.hidden).toBe(true);
    expect(byPath('/hiddenDir/secret')?.hidden).toBe(true);
    expect(byPath('/system/user')?.hidden).toBe(false);
  });

  it('leaves external links out and carries meta.link for InnerLink pages', () => {
    expect(routes.some((r) => r.fullPath.includes('doc.ruoyi') || r.fullPath.includes('mailto'))).toBe(false);
    expect(byPath('/system/www/baidu/com')).toMatchObject({ component: 'InnerLink', link: 'https://www.baidu.com' });
    expect(byPath('/system/user')?.link).toBeUndefined();
  });

  it('parses query JSON text into an object, else undefined', () => {
    expect(byPath('/filling')?.query).toEqual({ type: '1', year: 2024 });
    expect(byPath('/card/release')?.query).toBeUndefined();
    expect(byPath('/system/user')?.query).toBeUndefined();
  });

  it('marks pages under a Layout; a bare top-level page renders on its own', () => {
    expect(byPath('/filling')?.inLayout).toBe(true);
    const bare = convertMenus([{ name: 'Big', path: '/bigscreen', hidden: false, component: 'big/index', meta: meta('大屏') }]).routes;
    expect(bare).toEqual([
      { name: 'Big', fullPath: '/bigscreen', component: 'big/index', meta: meta('大屏'), query: undefined, hidden: false, inLayout: false },
    ]);
  });

  it('uses the full path as name when the server sends none', () => {
    const tree: RouterItem[] = [
      { path: '/', hidden: false, component: 'Layout', meta: null, children: [{ path: 'a', hidden: false, component: 'a', meta: null }] },
    ];
    expect(convertMenus(tree).routes[0].name).toBe('/a');
  });
});

describe('convertMenus — topbar', () => {
  it('lists the visible top-level entries, the / frame replaced by its page', () => {
    const { topbar, sidebar } = convertMenus(TREE);
    expect(topbar.map((t) => t.key)).toEqual(['/system', '/filling', '/card/release', 'mailto:help@example.com']);
    expect(topbar[0].children?.length).toBe(sidebar[0].children?.length);
  });
});

describe('allPaths', () => {
  it('lists every flattened page path once, hidden pages included, no directories or external links', () => {
    const tree: RouterItem[] = [
      ...TREE,
      { path: '/', hidden: false, component: 'Layout', meta: null, children: [{ path: 'filling', hidden: false, component: 'Filling/index', meta: null }] },
    ];
    expect(allPaths(tree)).toEqual([
      '/system/user',
      '/system/role',
      '/system/log/operlog',
      '/system/log/deep/leaf',
      '/system/www/baidu/com',
      '/filling',
      '/card/release',
      '/hiddenDir/secret',
    ]);
    expect(allPaths([])).toEqual([]);
  });
});

describe('joinPath / parseQuery', () => {
  it('joins relative paths, keeps absolute children and normalises slashes', () => {
    expect(joinPath('', 'system')).toBe('/system');
    expect(joinPath('/system/', 'user')).toBe('/system/user');
    expect(joinPath('/system', '/abs')).toBe('/abs');
    expect(joinPath('/', '')).toBe('/');
    expect(joinPath('/a//b', 'c/')).toBe('/a/b/c');
  });

  it('accepts only JSON object text', () => {
    expect(parseQuery('{"a":1}')).toEqual({ a: 1 });
    expect(parseQuery('[1,2]')).toBeUndefined();
    expect(parseQuery('3')).toBeUndefined();
    expect(parseQuery('null')).toBeUndefined();
    expect(parseQuery('{bad')).toBeUndefined();
    expect(parseQuery('')).toBeUndefined();
    expect(parseQuery(undefined)).toBeUndefined();
  });
});

describe('filterStaticRoutes', () => {
  const routes = [
    { path: '/system/user-auth/role/:userId', permissions: ['system:user:edit'] },
    { path: '/system/dict-data/index/:dictId', permissions: ['system:dict:list'], roles: ['editor'] },
    { path: '/only-role', roles: ['leader'] },
    { path: '/open' },
    { path: '/empty-lists', permissions: [], roles: [] },
  ];
  const paths = (perms: string[], roles: string[]) => filterStaticRoutes(routes, perms, roles).map((r) => r.path);

  it('keeps routes whose permission the user holds, and ungated routes', () => {
    expect(paths(['system:user:edit'], ['common'])).toEqual(['/system/user-auth/role/:userId', '/open', '/empty-lists']);
  });

  it('falls back to the role list when no listed permission is held', () => {
    expect(paths([], ['editor', 'leader'])).toEqual(['/system/dict-data/index/:dictId', '/only-role', '/open', '/empty-lists']);
  });

  it('honours the wildcard permission and the admin role', () => {
    expect(paths(['*:*:*'], [])).toEqual(['/system/user-auth/role/:userId', '/system/dict-data/index/:dictId', '/open', '/empty-lists']);
    expect(paths([], ['admin'])).toEqual(['/system/dict-data/index/:dictId', '/only-role', '/open', '/empty-lists']);
  });

  it('drops gated routes for a user with nothing', () => {
    expect(paths([], [])).toEqual(['/open', '/empty-lists']);
  });
});
