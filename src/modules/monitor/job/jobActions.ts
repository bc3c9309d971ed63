import type { BaseRecord } from '@refinedev/core';
import { useSyncExternalStore } from 'react';

/**
 * Row and toolbar buttons of 定时任务 are plain callbacks (overrides.tsx); navigation to 调度日志 needs the router and 执行一次
 * the app's confirm dialog, which live in the list page (JobListPage). This tiny store carries the request from one to the other.
 */
export type JobAction = { kind: 'log'; jobId: number } | { kind: 'run'; record: BaseRecord; refresh: () => void } | null;

let current: JobAction = null;
const listeners = new Set<() => void>();

export function requestJobAction(action: JobAction): void {
  current = action;
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useJobAction(): JobAction {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
}
