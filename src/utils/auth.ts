import Cookies from 'js-cookie';

/** Spec §4 Session: the token lives in the Admin-Token cookie for 15 days. */
const TOKEN_KEY = 'Admin-Token';
const TOKEN_DAYS = 15;

export function getToken(): string | undefined {
  return Cookies.get(TOKEN_KEY) || undefined;
}

export function setToken(token: string): void {
  // The token is sent as a header by script, never needed on cross-site navigations; Secure whenever served over HTTPS.
  Cookies.set(TOKEN_KEY, token, { expires: TOKEN_DAYS, sameSite: 'strict', secure: window.location.protocol === 'https:' });
}

export function removeToken(): void {
  Cookies.remove(TOKEN_KEY);
}
