import type { AuthProvider } from '@refinedev/core';
import { login as apiLogin, logout as apiLogout } from '@/api/login';
import { loadSession, ROUTER_DATA_ALL_KEY, ROUTER_DATA_KEY } from '@/session/loadSession';
import { sessionStore } from '@/session/sessionStore';
import { getToken, removeToken, setToken } from '@/utils/auth';

export type LoginVariables = { username: string; password: string } | { mobile: string; code: string; loginType: 'sms' };

/** Clears token, roles, permissions and the cookie (spec §4 Session). */
export function clearSession(): void {
  removeToken();
  localStorage.removeItem(ROUTER_DATA_KEY);
  localStorage.removeItem(ROUTER_DATA_ALL_KEY);
  sessionStore.reset();
}

/** Refine's auth provider over the console's sign-in API; the token lives in the Admin-Token cookie (15 days). */
export const authProvider: AuthProvider = {
  async login(variables: LoginVariables & { redirect?: string }) {
    try {
      const token = await apiLogin(variables);
      setToken(token);
      await loadSession();
      return { success: true, redirectTo: variables.redirect || '/index' };
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
