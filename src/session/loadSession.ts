import { getRuleList, getStoreRule } from '@/api/menu';
import { getPlatformInfo, getUserInfo } from '@/api/platform';
import { allPaths, convertMenus, filterStaticRoutes } from '@/router/menuToRoutes';
import { CONSTANT_PATHS, GATED_ROUTES } from '@/router/staticRoutes';
import { sessionStore } from './sessionStore';

/** Local-storage keys of §4 step 4: the user's route paths and every route path of the platform. */
export const ROUTER_DATA_KEY = 'routerData';
export const ROUTER_DATA_ALL_KEY = 'routerDataAll';

/**
 * Route generation after sign-in (spec §4): fetch the user's info and rule list (permissions + menu tree), convert
 * the tree three ways, fetch the store rule list, and save the flattened paths under routerData/routerDataAll.
 */
export async function loadSession(): Promise<void> {
  // The schemas this build lacks, asked beside the session's calls (the shell waits for them: src/resources/runtime.ts).
  // A chunk of its own, so the sign-in page downloads none of it.
  import('@/resources/runtime').then((m) => m.loadRuntimeResources()).catch(() => undefined);
  const [user, rules, storeTree] = await Promise.all([getUserInfo(), getRuleList(), getStoreRule()]);
  const { sidebar, routes, topbar } = convertMenus(rules.routes);
  const roles = rules.roles.length ? rules.roles : ['ROLE_DEFAULT'];
  // Gated static routes are kept only when the user passes their permission (or, failing that, role) check.
  const gated = filterStaticRoutes(GATED_ROUTES, rules.permissions, roles);
  const allowedPaths = [...CONSTANT_PATHS, ...gated.map((r) => r.path), ...allPaths(rules.routes)];
  const knownPaths = [...CONSTANT_PATHS, ...GATED_ROUTES.map((r) => r.path), ...allPaths(storeTree)];
  localStorage.setItem(ROUTER_DATA_KEY, JSON.stringify(allowedPaths));
  localStorage.setItem(ROUTER_DATA_ALL_KEY, JSON.stringify(knownPaths));
  sessionStore.set({
    user,
    roles,
    permissions: rules.permissions,
    routes,
    sidebar,
    topbar,
    allowedPaths,
    knownPaths,
    loaded: true,
  });
}

/** Platform info is public: the sign-in page shows the title, and the guard needs the licence flag. */
export async function loadPlatform(): Promise<void> {
  try {
    const platform = await getPlatformInfo();
    sessionStore.set({ platform });
    applyFavicon(platform.favicon);
  } catch {
    // The http layer has already told the user; the console still works with its default title.
  }
}

/** The platform's favicon (平台设置 网站图标) on the browser tab; without one the bundled /favicon.svg stays. */
export function applyFavicon(href: string | null | undefined): void {
  const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!link) return;
  const wanted = href?.trim() || '/favicon.svg';
  if (link.getAttribute('href') !== wanted) link.setAttribute('href', wanted);
}
