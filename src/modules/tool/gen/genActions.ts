import type { BaseRecord } from '@refinedev/core';
import { useSyncExternalStore } from 'react';

/**
 * The row and toolbar buttons of 代码生成 are plain callbacks (overrides.tsx); their dialogs (导入表, 代码预览, 生成代码)
 * and the 同步 confirmation live in the list page (GenListPage). This tiny store carries the request from one to the other.
 */
export type GenAction =
  | { kind: 'import'; refresh: () => void }
  | { kind: 'preview'; tableId: number }
  | { kind: 'sync'; record: BaseRecord; refresh: () => void }
  | { kind: 'code'; record: BaseRecord }
  | null;

let current: GenAction = null;
const listeners = new Set<() => void>();

export function requestGenAction(action: GenAction): void {
  current = action;
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useGenAction(): GenAction {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
}
