/**
 * Route-guard decision (spec §2.2), kept pure so every branch is unit-tested; the shell runs it before each navigation.
 *
 * The spec gives two readings. Reading B (token-based, RuoYi permission.js) is the base. Reading A adds the licence
 * rules, with its flag read the sensible way round: the licence is EXPIRED when the platform expiry date is past
 * (Reading A literally sends *valid* licences to /beOverdue, i.e. the flag is named backwards).
 *
 * Decision table — checked top to bottom, first match wins:
 *
 * | #  | token | condition                                         | decision                                   |
 * |----|-------|---------------------------------------------------|--------------------------------------------|
 * | 1  | no    | path is /login, /register or /appDetail           | allow                                      |
 * | 2  | no    | any other path (incl. /beOverdue)                 | redirect /login?redirect=<encoded fullPath> |
 * | 3  | yes   | path is /login                                    | redirect /                                 |
 * | 4  | yes   | path is /appDetail                                | allow (always reachable, even when expired) |
 * | 5  | yes   | licence expired, path is /beOverdue               | allow                                      |
 * | 6  | yes   | licence expired, any other path                   | redirect /beOverdue                        |
 * | 7  | yes   | licence valid, path is /beOverdue                 | redirect /index                            |
 * | 8  | yes   | path is /register                                 | allow (whitelisted)                        |
 * | 9  | yes   | roles not loaded yet                              | loadUser (fetch user, build routes, retry) |
 * | 10 | yes   | known route (routerDataAll) not in routerData     | redirect /405                              |
 * | 11 | yes   | anything else                                     | allow (unknown paths reach the 404 page)   |
 *
 * Why this order: sign-in comes first because nothing else can be decided without a session; the licence comes
 * before loading the user because it only needs platform info and an expired platform should not build menus;
 * the 405 check needs routerData, which exists only once the user (and their routes) are loaded.
 * "Known" also covers `isKnownDynamicPattern`: the caller sets it when the path matches a permission-gated
 * pattern of §2.1 (e.g. /system/user-auth/role/:userId) that is not in routerDataAll.
 */

export const WHITE_LIST = ['/login', '/register', '/appDetail'];
export const LOGIN_PATH = '/login';
export const APP_DETAIL_PATH = '/appDetail';
export const REGISTER_PATH = '/register';
export const OVERDUE_PATH = '/beOverdue';
export const HOME_PATH = '/index';
export const FORBIDDEN_PATH = '/405';

export interface NavigationInput {
  /** Path only, no query or hash. */
  path: string;
  /** Path with query and hash, kept for the post-login redirect. */
  fullPath: string;
  hasToken: boolean;
  rolesLoaded: boolean;
  /** The platform expiry date is past. */
  licenceExpired: boolean;
  /** routerDataAll: every route path of the platform (patterns allowed). */
  knownPaths: readonly string[];
  /** routerData: the route paths this user may open (patterns allowed). */
  allowedPaths: readonly string[];
  /** The path matches a known permission-gated route pattern not listed in knownPaths. */
  isKnownDynamicPattern?: boolean;
}

export type NavigationDecision = { type: 'allow' } | { type: 'redirect'; to: string } | { type: 'loadUser' };

/** Path segments without empty ones, so repeated and trailing slashes do not matter. */
function segments(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

/** A concrete path's segments without its query and hash ('?' in a pattern marks an optional param instead). */
function pathSegments(path: string): string[] {
  return segments(path.replace(/[?#].*$/, ''));
}

/**
 * Does `path` match a route `pattern`? ':name' matches one non-empty segment, ':name?' an optional one,
 * and a final '*' the rest of the path (possibly nothing). Other segments must match exactly (case-sensitive).
 */
export function matchPath(pattern: string, path: string): boolean {
  const want = segments(pattern);
  const have = pathSegments(path);
  for (let i = 0; i < want.length; i++) {
    const seg = want[i];
    if (seg === '*' && i === want.length - 1) return true;
    if (seg.startsWith(':') && seg.endsWith('?')) {
      // Optional parameters only make sense at the end, as in React Router.
      if (i >= have.length) return want.slice(i).every((s) => s.startsWith(':') && s.endsWith('?'));
      continue;
    }
    if (i >= have.length) return false;
    if (seg.startsWith(':')) continue;
    if (seg !== have[i]) return false;
  }
  return have.length === want.length;
}

function matchesAny(patterns: readonly string[], path: string): boolean {
  return patterns.some((p) => matchPath(p, path));
}

const allow: NavigationDecision = { type: 'allow' };
const redirect = (to: string): NavigationDecision => ({ type: 'redirect', to });

/** Decide what to do with one navigation; see the decision table at the top of the file. */
export function decideNavigation(input: NavigationInput): NavigationDecision {
  const path = `/${pathSegments(input.path).join('/')}`;

  if (!input.hasToken) {
    if (WHITE_LIST.includes(path)) return allow;
    return redirect(`${LOGIN_PATH}?redirect=${encodeURIComponent(input.fullPath)}`);
  }

  if (path === LOGIN_PATH) return redirect('/');
  if (path === APP_DETAIL_PATH) return allow;

  if (input.licenceExpired) return path === OVERDUE_PATH ? allow : redirect(OVERDUE_PATH);
  if (path === OVERDUE_PATH) return redirect(HOME_PATH);

  if (path === REGISTER_PATH) return allow;
  if (!input.rolesLoaded) return { type: 'loadUser' };

  const known = input.isKnownDynamicPattern === true || matchesAny(input.knownPaths, path);
  if (known && !matchesAny(input.allowedPaths, path)) return redirect(FORBIDDEN_PATH);
  return allow;
}
