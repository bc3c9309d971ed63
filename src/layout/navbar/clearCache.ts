/** Keys that survive 清除缓存: the sign-in token (whatever its exact key), so the user stays signed in. */
const KEEP = /token/i;

function clear(store: Storage) {
  for (const key of Object.keys(store)) {
    if (!KEEP.test(key)) store.removeItem(key);
  }
}

/** 清除缓存: empty local and session storage except the token. The caller reloads the page. */
export function clearCaches(): void {
  for (const store of [globalThis.localStorage, globalThis.sessionStorage]) {
    try {
      if (store) clear(store);
    } catch {
      // Storage unavailable: nothing cached there.
    }
  }
}
