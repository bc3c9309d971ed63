import type { BaseRecord } from '@refinedev/core';
import { useSyncExternalStore } from 'react';

/**
 * Row buttons of 用户管理 are plain callbacks (overrides.tsx rowActions); the dialogs they open live in the list
 * page (UserListPage). This tiny store carries the request from one to the other.
 */
export type UserAction = { kind: 'resetPwd'; record: BaseRecord } | { kind: 'authRole'; userId: number } | null;

let current: UserAction = null;
const listeners = new Set<() => void>();

export function requestUserAction(action: UserAction): void {
  current = action;
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useUserAction(): UserAction {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
}
