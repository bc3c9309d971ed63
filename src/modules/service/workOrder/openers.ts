import { useSyncExternalStore } from 'react';
import type { WorkOrderRow } from '@/api/service';

/**
 * What the work-order row buttons (overrides.tsx, plain callbacks) ask the pages to show: the detail drawer of an
 * order, and 指派's dialog (with the list's refresh).
 */
/** `detail.resource`: the list it was opened from (工单管理 and 提交工单 may both be open, each in its kept tab). */
type Shown = { detail: { id: number; resource: string } | null; assign: { row: WorkOrderRow; refresh: () => void } | null };
let shown: Shown = { detail: null, assign: null };
const listeners = new Set<() => void>();

export function showWorkOrder(next: Partial<Shown>): void {
  shown = { ...shown, ...next };
  for (const l of listeners) l();
}

export const useShownWorkOrder = (): Shown =>
  useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => shown,
    () => shown,
  );
