import type { BaseRecord } from '@refinedev/core';
import type { ActionContext } from '@/engine/resource';
import { createActionChannel } from '@/utils/actionChannel';

/**
 * Toolbar and row buttons of the finance screens are plain callbacks (overrides.tsx); the bespoke dialogs they open
 * (申请提现, 银行账户, 开票, 在线充值 …) live in the screen's list page around the generic list. An action channel
 * (src/utils/actionChannel.ts) carries the request from one to the other, with the list's context (its search values
 * and refresh()); FinanceList hands a page only the requests of its own resource.
 */
export interface DialogRequest {
  /** Which dialog: each list page knows its own kinds. */
  kind: string;
  ctx: ActionContext;
  record?: BaseRecord;
}

const channel = createActionChannel<DialogRequest>();

export function openDialog(kind: string, ctx: ActionContext, record?: BaseRecord): void {
  channel.request({ kind, ctx, record });
}

export function closeDialog(): void {
  channel.request(null);
}

/** After a dialog's success: close it and read the list again. */
export function closeAndRefresh(request: DialogRequest): void {
  closeDialog();
  request.ctx.refresh();
}

/** The open dialog request, if any (null after closeDialog). */
export const useDialogRequest = channel.use;

/** The store a headquarters user picked in the list's search (undefined: its own / every store). */
export function storeOfQuery(ctx: ActionContext | undefined): number | undefined {
  const v = ctx?.query?.storeId;
  const n = typeof v === 'number' ? v : typeof v === 'string' && v ? Number(v) : undefined;
  return n && Number.isFinite(n) ? n : undefined;
}
