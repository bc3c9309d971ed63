/**
 * One conversion of the server menu tree three ways (spec §4 route generation, RuoYi permission store):
 * - sidebar: the tree as sent, paths made absolute, hidden entries dropped, RuoYi's menu shortcuts applied;
 * - routes: the flat list the router registers (Layout / ParentView levels flattened away, paths joined);
 * - topbar: the top-level entries for the optional top navigation.
 * Pure: the React shell maps component strings to views and wires navigation.
 */

import type { RouterItem } from '@common/menu/routes';
import { isExternal } from '@/utils/format';
import { hasPermiOr, hasRoleOr } from '@/utils/permission';
import type { ConvertedMenus, FlatRoute, SidebarItem } from './types';

/** Container components: they only group children and never become a page of their own. */
const CONTAINERS = new Set(['Layout', 'ParentView', '']);

/**
 * Absolute path of `path` under `base`, like path.resolve in RuoYi's sidebar: an absolute child stands on its own,
 * a relative one is joined with '/'. Repeated and trailing slashes are removed so '/system/' + 'user' is '/system/user'.
 */
export function joinPath(base: string, path: string): string {
  const joined = path.startsWith('/') ? path : `${base}/${path}`;
  const clean = `/${joined}`.replace(/\/{2,}/g, '/');
  return clean.length > 1 ? clean.replace(/\/+$/, '') : clean;
}

/** The menu's `query` JSON text as an object; anything else (bad JSON, arrays, numbers) is ignored. */
export function parseQuery(text: string | undefined): Record<string, unknown> | undefined {
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** RuoYi isMenuFrame: the server wraps a top-level single page in a Layout at '/', whose child is the real entry. */
function isRootFrame(item: RouterItem): boolean {
  return (item.path === '/' || item.path === '') && item.component === 'Layout';
}

// ---------------------------------------------------------------------------------------------------------------
// Sidebar

function sidebarPath(base: string, path: string): string {
  if (isExternal(path)) return path;
  // Children of an external entry can only point at that link (RuoYi resolvePath).
  if (isExternal(base)) return base;
  return joinPath(base, path);
}

function leaf(item: RouterItem, fullPath: string, fallbackIcon = ''): SidebarItem {
  const external = isExternal(fullPath);
  const entry: SidebarItem = {
    key: fullPath,
    title: item.meta?.title ?? item.name ?? '',
    icon: item.meta?.icon || fallbackIcon,
    path: fullPath,
    external,
    hidden: false,
  };
  if (item.meta?.activeMenu) entry.activeMenu = item.meta.activeMenu;
  const query = external ? undefined : parseQuery(item.query);
  if (query) entry.query = query;
  return entry;
}

function toSidebar(items: readonly RouterItem[], base: string): SidebarItem[] {
  const out: SidebarItem[] = [];
  for (const item of items) {
    if (item.hidden) continue;
    const children = item.children ?? [];
    if (base === '' && isRootFrame(item)) {
      // A top-level single page: its entries stand at the top level as '/child'.
      out.push(...toSidebar(children, '/'));
      continue;
    }
    const fullPath = sidebarPath(base, item.path);
    const shown = children.filter((c) => !c.hidden);
    if (children.length > 0 && !item.alwaysShow) {
      // RuoYi hasOneShowingChild: one visible leaf child is shown in place of its parent (parent icon as fallback) ...
      const only = shown[0];
      if (shown.length === 1 && !(only.children ?? []).some((c) => !c.hidden)) {
        out.push(leaf(only, sidebarPath(fullPath, only.path), item.meta?.icon ?? ''));
        continue;
      }
      // ... and a page whose children are all hidden (detail pages) is a plain link to itself.
      if (shown.length === 0) {
        out.push(leaf(item, fullPath));
        continue;
      }
    }
    const entry = leaf(item, fullPath);
    if (shown.length > 0 || item.alwaysShow) entry.children = toSidebar(shown, fullPath);
    out.push(entry);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Router

function toRoutes(items: readonly RouterItem[], base: string, hiddenAbove: boolean, inLayout: boolean, out: FlatRoute[]): FlatRoute[] {
  for (const item of items) {
    // External links are opened in a new tab; neither they nor anything under them is a route.
    if (isExternal(item.path)) continue;
    const fullPath = joinPath(base, item.path);
    const hidden = hiddenAbove || item.hidden;
    if (!CONTAINERS.has(item.component)) {
      const route: FlatRoute = {
        name: item.name || fullPath,
        fullPath,
        component: item.component,
        meta: item.meta,
        query: parseQuery(item.query),
        hidden,
        inLayout,
      };
      if (item.meta?.link) route.link = item.meta.link;
      out.push(route);
    }
    // A page may also carry children (hidden detail pages); they are registered beside it, path joined.
    if (item.children?.length) toRoutes(item.children, fullPath, hidden, inLayout || item.component === 'Layout', out);
  }
  return out;
}

/**
 * Convert the server menu tree (getRuleList `data`) three ways. Hidden entries are left out of the sidebar and the
 * top bar but stay routable; external links appear in the menus only.
 */
export function convertMenus(tree: readonly RouterItem[]): ConvertedMenus {
  const sidebar = toSidebar(tree, '');
  return {
    sidebar,
    routes: toRoutes(tree, '', false, false, []),
    // The top bar lists the same top-level entries (with their children, which the sidebar shows once one is picked).
    topbar: sidebar,
  };
}

/**
 * Every flattened route path of the tree (spec §4 step 4: stored as routerData / routerDataAll for the route guard).
 * Directories and external links are not pages, so they are not listed.
 */
export function allPaths(tree: readonly RouterItem[]): string[] {
  return [...new Set(toRoutes(tree, '', false, false, []).map((r) => r.fullPath))];
}

/**
 * Static permission-gated routes (spec §4 step 3, §6): kept when the user holds any listed permission or, failing
 * that, any listed role (wildcard and admin included). A route that lists neither is open to every signed-in user.
 * Unlike RuoYi's filterDynamicRoutes, which drops such routes silently, they are kept.
 */
export function filterStaticRoutes<T extends { permissions?: string[]; roles?: string[] }>(routes: T[], permissions: string[], roles: string[]): T[] {
  return routes.filter((route) => {
    // An empty list means "not gated by that kind", not a coding error as it is for an element tag.
    const perms = route.permissions?.length ? route.permissions : undefined;
    const needRoles = route.roles?.length ? route.roles : undefined;
    if (!perms && !needRoles) return true;
    if (perms && hasPermiOr(permissions, perms)) return true;
    return needRoles ? hasRoleOr(roles, needRoles) : false;
  });
}
