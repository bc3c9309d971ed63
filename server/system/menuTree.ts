import type { RouterItem } from '../../common/menu/routes.js';
import type { MenuTable } from '../db/types.js';

type MenuRow = Omit<MenuTable, 'menuId'> & { menuId: number };

const isHttp = (p: string) => /^(https?:|mailto:|tel:)/.test(p);
const capitalize = (s: string) => (s ? s[0].toUpperCase() + s.slice(1) : s);
const innerLinkPath = (p: string) => p.replace(/^(https?:\/\/|www\.)/, '').replace(/[.:]/g, '/');

interface Node extends MenuRow {
  children: Node[];
}

export function buildMenuTree(rows: MenuRow[]): Node[] {
  const nodes = new Map<number, Node>(rows.map((r) => [r.menuId, { ...r, children: [] }]));
  const roots: Node[] = [];
  for (const n of [...nodes.values()].sort((a, b) => a.orderNum - b.orderNum || a.menuId - b.menuId)) {
    const parent = nodes.get(n.parentId);
    if (parent) parent.children.push(n);
    else roots.push(n);
  }
  return roots;
}

const isMenuFrame = (m: Node) => m.parentId === 0 && m.menuType === 'C' && m.isFrame === 1;
const isInnerLink = (m: Node) => m.isFrame === 1 && isHttp(m.path);
const isParentView = (m: Node) => m.parentId !== 0 && m.menuType === 'M';

/** Unique route name: the capitalised path segments from the top (e.g. SystemLogOperlog), so view caching never confuses two pages. */
function routeName(m: Node, prefix: string): string {
  if (m.routeName) return m.routeName;
  return isMenuFrame(m) ? '' : prefix + capitalize(m.path.replace(/[^A-Za-z0-9]/g, ''));
}

function routerPath(m: Node): string {
  if (m.parentId !== 0 && isInnerLink(m)) return innerLinkPath(m.path);
  if (m.parentId === 0 && m.menuType === 'M' && m.isFrame === 1) return `/${m.path}`;
  if (isMenuFrame(m)) return '/';
  return m.path;
}

function component(m: Node): string {
  if (m.component && !isMenuFrame(m)) return m.component;
  if (!m.component && m.parentId !== 0 && isInnerLink(m)) return 'InnerLink';
  if (!m.component && isParentView(m)) return 'ParentView';
  return 'Layout';
}

function meta(m: Node): NonNullable<RouterItem['meta']> {
  return {
    title: m.menuName,
    icon: m.icon ?? '#',
    noCache: m.isCache === 1,
    link: isHttp(m.path) ? m.path : null,
    ...(m.affix ? { affix: true } : {}),
    ...(m.activeMenu ? { activeMenu: m.activeMenu } : {}),
  };
}

/** Menu tree (M and C only) → router items, following RuoYi's SysMenuServiceImpl.buildMenus. */
export function buildRouters(tree: Node[], prefix = ''): RouterItem[] {
  return tree
    .filter((m) => m.menuType !== 'F')
    .map((m) => {
      const children = m.children.filter((c) => c.menuType !== 'F');
      const router: RouterItem = {
        name: routeName(m, prefix),
        path: routerPath(m),
        hidden: m.visible === '1',
        component: component(m),
        ...(m.query ? { query: m.query } : {}),
        meta: meta(m),
      };
      if (children.length > 0 && m.menuType === 'M') {
        router.alwaysShow = true;
        router.redirect = 'noRedirect';
        router.children = buildRouters(children, routeName(m, prefix));
      } else if (isMenuFrame(m)) {
        router.meta = null;
        router.children = [
          { name: capitalize(m.path), path: m.path, hidden: false, component: m.component ?? 'Layout', meta: meta(m), ...(m.query ? { query: m.query } : {}) },
        ];
      } else if (m.parentId === 0 && isInnerLink(m)) {
        router.meta = { title: m.menuName, icon: m.icon ?? '#', noCache: false, link: null };
        router.path = '/';
        router.children = [
          { name: capitalize(innerLinkPath(m.path).replace(/\//g, '')), path: innerLinkPath(m.path), hidden: false, component: 'InnerLink', meta: meta(m) },
        ];
      }
      return router;
    });
}
