import type { BaseRecord } from '@refinedev/core';
import { useSyncExternalStore } from 'react';

/**
 * The row button 新增 of 菜单管理 is a plain callback (overrides.tsx rowActions); the list page (MenuListPage)
 * opens the dialog for a child of that row. This tiny store carries the request from one to the other.
 */
export type MenuAction = { kind: 'addChild'; parent: BaseRecord; refresh: () => void } | null;

let current: MenuAction = null;
const listeners = new Set<() => void>();

export function requestMenuAction(action: MenuAction): void {
  current = action;
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useMenuAction(): MenuAction {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
}
