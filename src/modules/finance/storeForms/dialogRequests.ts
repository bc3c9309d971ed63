import type { BaseRecord } from '@refinedev/core';
import { useSyncExternalStore } from 'react';
import type { ActionContext } from '@/engine/resource';

/**
 * Toolbar and row buttons of the finance screens are plain callbacks (overrides.tsx); the bespoke dialogs they open
 * (申请提现, 银行账户, 开票, 在线充值 …) live in the screen's list page around the generic list. This tiny store carries
 * the request from one to the other, with the list's context (its search values and refresh()).
 */
export interface DialogRequest {
  /** Which dialog: each list page knows its own kinds. */
  kind: string;
  ctx: ActionContext;
  record?: BaseRecord;
}

let current: DialogRequest | null = null;
const listeners = new Set<() => void>();

export function openDialog(kind: string, ctx: ActionContext, record?: BaseRecord): void {
  current = { kind, ctx, record };
  for (const l of listeners) l();
}

export function closeDialog(): void {
  current = null;
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The open dialog request, if any (null after closeDialog). */
export function useDialogRequest(): DialogRequest | null {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
}

/** The store a headquarters user picked in the list's search (undefined: its own / every store). */
export function storeOfQuery(ctx: ActionContext | undefined): number | undefined {
  const v = ctx?.query?.storeId;
  const n = typeof v === 'number' ? v : typeof v === 'string' && v ? Number(v) : undefined;
  return n && Number.isFinite(n) ? n : undefined;
}
