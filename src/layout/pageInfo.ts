import { matchPath } from 'react-router';
import { GATED_ROUTES } from '@/router/staticRoutes';
import type { FlatRoute } from '@/router/types';

/** What the shell needs to know about the page at a path: tab title, cache flags, iframe link, menu to highlight. */
export interface PageInfo {
  /** The route pattern (e.g. '/system/user-auth/role/:userId') or the path itself. */
  pattern: string;
  title: string;
  name: string;
  affix?: boolean;
  noCache?: boolean;
  /** meta.link of an InnerLink page, shown in an iframe. */
  link?: string;
  activeMenu?: string;
}

/** Fixed pages inside the layout (spec §2.1) that have a tab title. */
const FIXED: Record<string, Omit<PageInfo, 'pattern'>> = {
  '/index': { title: '首页', name: 'Index', affix: true },
  '/user/profile': { title: '个人中心', name: 'Profile' },
  '/log': { title: '更新日志', name: 'Log' },
  '/test1': { title: '连接检测', name: 'Test1' },
  '/test2': { title: '浏览器检测', name: 'Test2' },
};

/** The page at `pathname`, or undefined for paths without a title (redirects, error pages). */
export function pageInfo(pathname: string, routes: readonly FlatRoute[]): PageInfo | undefined {
  const fixed = FIXED[pathname];
  if (fixed) return { pattern: pathname, ...fixed };
  const route = routes.find((r) => r.fullPath === pathname) ?? routes.find((r) => r.fullPath.includes(':') && matchPath(r.fullPath, pathname));
  if (route?.meta) {
    const info: PageInfo = { pattern: route.fullPath, title: route.meta.title, name: route.name };
    if (route.meta.affix) info.affix = true;
    if (route.meta.noCache) info.noCache = true;
    const link = route.link ?? route.meta.link ?? undefined;
    if (link) info.link = link;
    if (route.meta.activeMenu) info.activeMenu = route.meta.activeMenu;
    return info;
  }
  const gated = GATED_ROUTES.find((g) => matchPath(g.path, pathname));
  if (gated) return { pattern: gated.path, title: gated.title, name: gated.path, activeMenu: gated.activeMenu };
  return undefined;
}
