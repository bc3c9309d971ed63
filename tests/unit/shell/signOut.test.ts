import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { repeatGuard } from '@/api/repeatGuard';
import { clearSession, landingAfterSignIn, SIGNED_OUT_KEY } from '@/providers/authProvider';
import { rememberQueryClient, TAGS_STORAGE_KEY } from '@/session/forgetUser';
import { ROUTER_DATA_ALL_KEY, ROUTER_DATA_KEY } from '@/session/loadSession';
import { sessionStore } from '@/session/sessionStore';

/** Sign-out forgets everything of the previous user; the next sign-in lands only where that user may go. */
afterEach(() => {
  sessionStore.reset();
  sessionStorage.clear();
  localStorage.clear();
});

describe('clearSession', () => {
  it('drops the open tabs, the stored route lists, the page data cache and the remembered write', () => {
    sessionStorage.setItem(TAGS_STORAGE_KEY, JSON.stringify([{ path: '/system/menu', fullPath: '/system/menu', title: '菜单管理' }]));
    localStorage.setItem(ROUTER_DATA_KEY, '["/system/menu"]');
    localStorage.setItem(ROUTER_DATA_ALL_KEY, '["/system/menu"]');
    const client = new QueryClient();
    client.setQueryData(['users'], [{ userId: 1 }]);
    rememberQueryClient(client);
    repeatGuard.check('post', '/dev-api/api/appointment/add', { a: 1 });

    clearSession();

    expect(sessionStorage.getItem(TAGS_STORAGE_KEY)).toBeNull();
    expect(localStorage.getItem(ROUTER_DATA_KEY)).toBeNull();
    expect(localStorage.getItem(ROUTER_DATA_ALL_KEY)).toBeNull();
    expect(client.getQueryData(['users'])).toBeUndefined();
    // The same write right after is a new intention of the next user, not a double click.
    expect(repeatGuard.check('post', '/dev-api/api/appointment/add', { a: 1 })).toBeNull();
  });
});

describe('landingAfterSignIn', () => {
  const signedIn = () =>
    sessionStore.set({ loaded: true, knownPaths: ['/index', '/system/menu', '/volunteer/list'], allowedPaths: ['/index', '/volunteer/list'] });

  it('keeps a redirect the user may open', () => {
    signedIn();
    expect(landingAfterSignIn('/volunteer/list?x=1')).toBe('/volunteer/list?x=1');
  });

  it('sends to 首页 instead of a page the user may not open (no 405), or with no redirect', () => {
    signedIn();
    expect(landingAfterSignIn('/system/menu')).toBe('/index');
    expect(landingAfterSignIn(undefined)).toBe('/index');
    expect(landingAfterSignIn('//evil.example')).toBe('/index');
  });

  it('ignores the redirect left by an explicit sign-out, once', () => {
    signedIn();
    sessionStorage.setItem(SIGNED_OUT_KEY, '1');
    expect(landingAfterSignIn('/volunteer/list')).toBe('/index');
    expect(landingAfterSignIn('/volunteer/list')).toBe('/volunteer/list');
  });
});
