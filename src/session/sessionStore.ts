import type { PlatformInfo } from '@common/system/platform';
import { useSyncExternalStore } from 'react';
import type { UserInfo } from '@/api/types';
import type { FlatRoute, SidebarItem } from '@/router/types';

/**
 * Client session state (spec §3 User session / Permission state): who is signed in, what they may do, and the
 * routes built from their menu. One small external store read with useSyncExternalStore, so the http layer, the
 * guard and components all see the same values without a provider tree.
 */
export interface SessionState {
  user: UserInfo | null;
  roles: string[];
  permissions: string[];
  /** Flattened router list built from the server menu (§4 step 2). */
  routes: FlatRoute[];
  sidebar: SidebarItem[];
  topbar: SidebarItem[];
  /** Every route path of the platform (routerDataAll) and the user's own (routerData). */
  knownPaths: string[];
  allowedPaths: string[];
  loaded: boolean;
  platform: PlatformInfo | null;
}

const empty: SessionState = {
  user: null,
  roles: [],
  permissions: [],
  routes: [],
  sidebar: [],
  topbar: [],
  knownPaths: [],
  allowedPaths: [],
  loaded: false,
  platform: null,
};

let state: SessionState = empty;
const listeners = new Set<() => void>();

export const sessionStore = {
  get: () => state,
  set(patch: Partial<SessionState>) {
    state = { ...state, ...patch };
    for (const l of listeners) l();
  },
  /** Sign-out: forget everything but the platform info (the sign-in page still needs the title and logo). */
  reset() {
    state = { ...empty, platform: state.platform };
    for (const l of listeners) l();
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useSession(): SessionState {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.get, sessionStore.get);
}
