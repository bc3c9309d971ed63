import type { BaseRecord } from '@refinedev/core';
import { useSyncExternalStore } from 'react';

/**
 * Row buttons of 角色管理 are plain callbacks (overrides.tsx rowActions); what they open (the 数据权限 dialog, the
 * 分配用户 page) is handled by the list page (RoleListPage). This tiny store carries the request from one to the other.
 */
export type RoleAction = { kind: 'dataScope'; record: BaseRecord; refresh: () => void } | { kind: 'authUser'; roleId: number } | null;

let current: RoleAction = null;
const listeners = new Set<() => void>();

export function requestRoleAction(action: RoleAction): void {
  current = action;
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useRoleAction(): RoleAction {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
}
