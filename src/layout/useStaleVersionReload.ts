import Cookies from 'js-cookie';
import { useEffect } from 'react';

/**
 * Stale-version reload (spec §4): opening one of the listed pages compares the publish time in the `publishtime`
 * cookie (set by the server on every answer to the build it currently serves) with this page's build; when they
 * differ the page reloads with a time parameter so the browser fetches the new build. Skipped on localhost and
 * 192.168.* hosts, at most once per 10 s.
 */
export const RELOAD_THROTTLE_MS = 10000;
export const PUBLISH_COOKIE = 'publishtime';
const LAST_RELOAD_KEY = 'version-reload-at';

/** Path fragments of spec §4's list (filling, appointment, examine, card release, …). */
export const VERSION_CHECK_PATHS = [
  'filling',
  'appointment',
  'examine',
  'card/release',
  'card/record',
  'card/date',
  'card/two',
  'manage/userlist',
  'manage/message',
  'manage/appraisal',
  'manage/recycle',
  'operation/specialty',
  'operation/consult',
  'operation/service',
  'operation/classroom',
  'operation/feedback',
  'operation/cooperate',
  'showmanage/theme',
  'showmanage/aboutus',
  'showmanage/friendlink',
  'showmanage/advertisement',
  'showmanage/servicesite',
  'finance/paymentwallet',
  'finance/collectionwallet',
];

export function isCheckedPath(path: string): boolean {
  const p = path.toLowerCase().replace(/[-_]/g, '');
  return VERSION_CHECK_PATHS.some((frag) => p.includes(frag.replace(/[-_]/g, '')));
}

export function isLocalHost(host: string): boolean {
  return host === 'localhost' || host === '127.0.0.1' || host.startsWith('192.168.');
}

/** Pure decision: reload when the remembered publish time differs and the throttle allows it. */
export function shouldReload(input: { path: string; host: string; remembered: string | undefined; build: string; lastReloadAt: number; now: number }): boolean {
  if (!input.build || isLocalHost(input.host) || !isCheckedPath(input.path)) return false;
  if (input.remembered === input.build) return false;
  return input.now - input.lastReloadAt >= RELOAD_THROTTLE_MS;
}

export function useStaleVersionReload(path: string): void {
  useEffect(() => {
    const build = typeof __APP_PUBLISH_TIME__ === 'string' ? __APP_PUBLISH_TIME__ : '';
    if (!build) return;
    const remembered = Cookies.get(PUBLISH_COOKIE);
    if (!remembered) return;
    const now = Date.now();
    const lastReloadAt = Number(sessionStorage.getItem(LAST_RELOAD_KEY) ?? 0);
    if (!shouldReload({ path, host: window.location.hostname, remembered, build, lastReloadAt, now })) return;
    sessionStorage.setItem(LAST_RELOAD_KEY, String(now));
    const url = new URL(window.location.href);
    url.searchParams.set('t', String(now));
    window.location.replace(url.toString());
  }, [path]);
}
