import type { BaseRecord } from '@refinedev/core';
import type { Customer } from '@/api/customer';
import type { RowAction } from '@/engine/resource';
import { createActionChannel } from '@/utils/actionChannel';

/**
 * The row buttons of the overrides of 用户列表, 回收站 (userList/override.tsx) and 客户资料 (clientData/override.tsx)
 * are plain callbacks; what they open lives in the list pages (CustomerListPage, ClientDataPage), reached through an
 * action channel (src/utils/actionChannel.ts). A request names the resource it came from: those pages stay mounted
 * side by side in their kept tabs (AppMain), and only the page of that resource answers it.
 */
export type CustomerDialog = 'openCard' | 'edit' | 'history' | 'fill' | 'address' | 'deliver';
export interface CustomerRequest {
  resource: string;
  dialog: CustomerDialog;
  customer: Customer;
}

const channel = createActionChannel<CustomerRequest>();

export function openCustomerDialog(resource: string, dialog: CustomerDialog, record: BaseRecord): void {
  channel.request({ resource, dialog, customer: record as unknown as Customer });
}

/** Ends the open request (one at a time: its dialog covers the page and the tabs). */
export function closeCustomerDialog(): void {
  channel.request(null);
}

/** The open request of this resource's page, if any. */
export function useCustomerRequest(resource: string): CustomerRequest | null {
  const request = channel.use();
  return request?.resource === resource ? request : null;
}

/** A row button that opens one of those dialogs (or, 志愿方案, the filling page) for its row. */
export const dialogAction = (resource: string, dialog: CustomerDialog, label: string, permission?: string): RowAction => ({
  key: dialog,
  label,
  permission,
  onClick: (record) => openCustomerDialog(resource, dialog, record),
});
