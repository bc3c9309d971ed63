import type { AuthProvider } from '@refinedev/core';
import { login as apiLogin, logout as apiLogout } from '@/api/login';
import { decideNavigation, HOME_PATH } from '@/router/guard';
import { forgetUserData } from '@/session/forgetUser';
import { loadSession, ROUTER_DATA_ALL_KEY, ROUTER_DATA_KEY } from '@/session/loadSession';
import { sessionStore } from '@/session/sessionStore';
import { getToken, removeToken, setToken } from '@/utils/auth';

export type LoginVariables = { username: string; password: string } | { mobile: string; code: string; loginType: 'sms' };

/**
 * Set by 退出登录: the guard then sends the visitor to /login?redirect=<the page they were on>, but that page was the
 * previous user's; the next sign-in on this browser starts at 首页 instead (RuoYi also lands on /index after logout).
 */
export const SIGNED_OUT_KEY = 'signed-out';

/** Clears token, roles, permissions, the cookie (spec §4 Session) and everything else the user left (forgetUser.ts). */
export function clearSession(): void {
  removeToken();
  localStorage.removeItem(ROUTER_DATA_KEY);
  localStorage.removeItem(ROUTER_DATA_ALL_KEY);
  forgetUserData();
  sessionStore.reset();
}

/**
 * Where a fresh sign-in lands: the ?redirect page when this user may open it, else 首页 — never the 405 page of a
 * route that belonged to someone else, and never a page kept from before an explicit sign-out.
 */
export function landingAfterSignIn(redirect: string | undefined): string {
  let signedOut = false;
  try {
    signedOut = sessionStorage.getItem(SIGNED_OUT_KEY) !== null;
    sessionStorage.removeItem(SIGNED_OUT_KEY);
  } catch {
    // Storage unavailable: judge the redirect by the user's routes alone.
  }
  if (!redirect || signedOut || !redirect.startsWith('/') || redirect.startsWith('//')) return HOME_PATH;
  const session = sessionStore.get();
  const path = redirect.replace(/[?#].*$/, '');
  const decision = decideNavigation({
    path,
    fullPath: redirect,
    hasToken: true,
    rolesLoaded: true,
    licenceExpired: false,
    knownPaths: session.knownPaths,
    allowedPaths: session.allowedPaths,
  });
  return decision.type === 'allow' ? redirect : HOME_PATH;
}

/** Refine's auth provider over the console's sign-in API; the token lives in the Admin-Token cookie (15 days). */
export const authProvider: AuthProvider = {
  async login(variables: LoginVariables & { redirect?: string }) {
    try {
      const token = await apiLogin(variables);
      // Whatever an earlier session left behind (an expired one is not signed out explicitly) is not this user's.
      forgetUserData();
      setToken(token);
      await loadSession();
      return { success: true, redirectTo: landingAfterSignIn(variables.redirect) };
    } catch (error) {
      // The http layer already showed the server's message; Refine must not show a second one.
      return { success: false, error: { name: '登录失败', message: (error as Error).message } };
    }
  },
  async logout() {
    try {
      if (getToken()) await apiLogout();
    } catch {
      // Signing out locally must work even when the server is unreachable or the session already expired.
    }
    try {
      sessionStorage.setItem(SIGNED_OUT_KEY, '1');
    } catch {
      // Storage unavailable: the next sign-in still refuses a redirect this user may not open.
    }
    clearSession();
    // No second navigation from Refine: clearing the session already makes the route guard send the visitor to
    // /login?redirect=… . Two navigations in one tick (guard → /login, Refine → /index) could be rendered as one, leaving
    // the guard's <Navigate> mounted with unchanged props and the page blank at /index.
    return { success: true };
  },
  async check() {
    return getToken() ? { authenticated: true } : { authenticated: false, logout: true, redirectTo: '/login' };
  },
  async getPermissions() {
    return sessionStore.get().permissions;
  },
  async getIdentity() {
    const { user } = sessionStore.get();
    return user ? { id: user.userId, name: user.realName, avatar: user.avatar, roleName: user.roleName } : null;
  },
  async onError(error: { code?: number; status?: number }) {
    if (error?.code === 401 || error?.status === 401) return { logout: true, redirectTo: '/login' };
    return {};
  },
};
