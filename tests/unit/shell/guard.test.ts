import { describe, expect, it } from 'vitest';
import { decideNavigation, matchPath, type NavigationInput } from '@/router/guard';

const KNOWN = ['/system/user', '/system/role', '/finance/balance', '/system/user-auth/role/:userId'];
const ALLOWED = ['/system/user', '/system/user-auth/role/:userId'];

function input(path: string, over: Partial<NavigationInput> = {}): NavigationInput {
  return {
    path,
    fullPath: path,
    hasToken: true,
    rolesLoaded: true,
    licenceExpired: false,
    knownPaths: KNOWN,
    allowedPaths: ALLOWED,
    ...over,
  };
}

describe('decideNavigation — no token', () => {
  it.each(['/login', '/register', '/appDetail'])('row 1: whitelisted %s is allowed without a token', (path) => {
    expect(decideNavigation(input(path, { hasToken: false, rolesLoaded: false }))).toEqual({ type: 'allow' });
  });

  it('row 1: whitelist holds even when the licence is expired', () => {
    expect(decideNavigation(input('/register', { hasToken: false, licenceExpired: true }))).toEqual({ type: 'allow' });
  });

  it('row 2: any other path goes to /login with the wanted full path encoded', () => {
    const decision = decideNavigation(input('/system/user', { hasToken: false, fullPath: '/system/user?pageNum=2&x=a b' }));
    expect(decision).toEqual({ type: 'redirect', to: `/login?redirect=${encodeURIComponent('/system/user?pageNum=2&x=a b')}` });
    expect(decision).toEqual({ type: 'redirect', to: '/login?redirect=%2Fsystem%2Fuser%3FpageNum%3D2%26x%3Da%20b' });
  });

  it('row 2: /beOverdue needs a token too (Reading A: only with the expired flag and a token)', () => {
    expect(decideNavigation(input('/beOverdue', { hasToken: false, licenceExpired: true }))).toEqual({
      type: 'redirect',
      to: '/login?redirect=%2FbeOverdue',
    });
  });

  it('row 2: the root path is not whitelisted', () => {
    expect(decideNavigation(input('/', { hasToken: false }))).toEqual({ type: 'redirect', to: '/login?redirect=%2F' });
  });
});

describe('decideNavigation — token present', () => {
  it('row 3: a signed-in visitor on /login goes to /', () => {
    expect(decideNavigation(input('/login'))).toEqual({ type: 'redirect', to: '/' });
  });

  it('row 3: /login goes to / even with an expired licence and before roles load', () => {
    expect(decideNavigation(input('/login', { licenceExpired: true, rolesLoaded: false }))).toEqual({ type: 'redirect', to: '/' });
  });

  it('row 4: /appDetail is always allowed, even expired and before roles load', () => {
    expect(decideNavigation(input('/appDetail', { licenceExpired: true, rolesLoaded: false }))).toEqual({ type: 'allow' });
  });

  it('row 5: /beOverdue is reachable while the licence is expired', () => {
    expect(decideNavigation(input('/beOverdue', { licenceExpired: true, rolesLoaded: false }))).toEqual({ type: 'allow' });
  });

  it.each(['/index', '/', '/system/user', '/register', '/405', '/nowhere'])('row 6: expired licence sends %s to /beOverdue', (path) => {
    expect(decideNavigation(input(path, { licenceExpired: true }))).toEqual({ type: 'redirect', to: '/beOverdue' });
  });

  it('row 6: the licence check precedes loading the user', () => {
    expect(decideNavigation(input('/system/user', { licenceExpired: true, rolesLoaded: false }))).toEqual({ type: 'redirect', to: '/beOverdue' });
  });

  it('row 7: with a valid licence /beOverdue goes to /index', () => {
    expect(decideNavigation(input('/beOverdue'))).toEqual({ type: 'redirect', to: '/index' });
    expect(decideNavigation(input('/beOverdue/', { rolesLoaded: false }))).toEqual({ type: 'redirect', to: '/index' });
  });

  it('row 8: /register stays reachable when signed in, without loading the user', () => {
    expect(decideNavigation(input('/register', { rolesLoaded: false }))).toEqual({ type: 'allow' });
  });

  it('row 9: roles not loaded yet → loadUser, whatever the path', () => {
    expect(decideNavigation(input('/system/role', { rolesLoaded: false }))).toEqual({ type: 'loadUser' });
    expect(decideNavigation(input('/index', { rolesLoaded: false }))).toEqual({ type: 'loadUser' });
  });

  it('row 10: a known route outside the user routes goes to /405', () => {
    expect(decideNavigation(input('/system/role'))).toEqual({ type: 'redirect', to: '/405' });
    expect(decideNavigation(input('/finance/balance/'))).toEqual({ type: 'redirect', to: '/405' });
  });

  it('row 10: a dynamic path matching a known pattern the user lacks goes to /405', () => {
    const decision = decideNavigation(input('/system/user-auth/role/7', { allowedPaths: ['/system/user'] }));
    expect(decision).toEqual({ type: 'redirect', to: '/405' });
  });

  it('row 10: isKnownDynamicPattern makes an unlisted path known', () => {
    expect(decideNavigation(input('/monitor/job-log/index/3', { isKnownDynamicPattern: true }))).toEqual({ type: 'redirect', to: '/405' });
    expect(decideNavigation(input('/monitor/job-log/index/3', { isKnownDynamicPattern: true, allowedPaths: ['/monitor/job-log/index/:jobId'] }))).toEqual({
      type: 'allow',
    });
  });

  it('row 11: an allowed route is allowed, dynamic segments included', () => {
    expect(decideNavigation(input('/system/user'))).toEqual({ type: 'allow' });
    expect(decideNavigation(input('/system/user-auth/role/42'))).toEqual({ type: 'allow' });
  });

  it('row 11: unknown paths and fixed routes are allowed (the 404 / fixed pages handle them)', () => {
    expect(decideNavigation(input('/index'))).toEqual({ type: 'allow' });
    expect(decideNavigation(input('/no/such/page'))).toEqual({ type: 'allow' });
    expect(decideNavigation(input('/405'))).toEqual({ type: 'allow' });
  });
});

describe('matchPath', () => {
  it('matches static paths exactly, ignoring trailing and repeated slashes', () => {
    expect(matchPath('/system/user', '/system/user')).toBe(true);
    expect(matchPath('/system/user', '/system//user/')).toBe(true);
    expect(matchPath('/system/user', '/system/users')).toBe(false);
    expect(matchPath('/system/user', '/system')).toBe(false);
    expect(matchPath('/system', '/system/user')).toBe(false);
    expect(matchPath('/', '/')).toBe(true);
  });

  it('is case-sensitive', () => {
    expect(matchPath('/appDetail', '/appdetail')).toBe(false);
  });

  it('matches one non-empty segment per :param', () => {
    expect(matchPath('/system/user-auth/role/:userId', '/system/user-auth/role/12')).toBe(true);
    expect(matchPath('/system/user-auth/role/:userId', '/system/user-auth/role')).toBe(false);
    expect(matchPath('/system/user-auth/role/:userId', '/system/user-auth/role/12/x')).toBe(false);
    expect(matchPath('/a/:x/c/:y', '/a/1/c/2')).toBe(true);
    expect(matchPath('/a/:x/c/:y', '/a/1/d/2')).toBe(false);
  });

  it('supports optional params and a trailing splat', () => {
    expect(matchPath('/redirect/:path?', '/redirect')).toBe(true);
    expect(matchPath('/redirect/:path?', '/redirect/index')).toBe(true);
    expect(matchPath('/redirect/*', '/redirect/system/user')).toBe(true);
    expect(matchPath('/redirect/*', '/other/system')).toBe(false);
  });

  it('ignores query and hash in the path', () => {
    expect(matchPath('/system/user', '/system/user?a=1#top')).toBe(true);
  });
});
