import type { BaseRecord } from '@refinedev/core';
import { useSyncExternalStore } from 'react';
import type { Customer } from '@/api/customer';
import type { RowAction } from '@/engine/resource';

/**
 * The row buttons of the overrides (userList/, clientData/) are plain callbacks; the dialogs they open live in the
 * list pages (CustomerListPage, ClientDataPage).
 * A request names the resource it came from: 用户列表 and 回收站 stay mounted side by side in their kept tabs, and only
 * the page of that resource answers it.
 */
export type CustomerDialog = 'openCard' | 'edit' | 'history' | 'fill' | 'address' | 'deliver';
export interface CustomerRequest {
  resource: string;
  dialog: CustomerDialog;
  customer: Customer;
}

let current: CustomerRequest | null = null;
const listeners = new Set<() => void>();

export function requestCustomerDialog(resource: string, dialog: CustomerDialog, record: BaseRecord | null): void {
  current = record ? { resource, dialog, customer: record as unknown as Customer } : null;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The open request of this resource's page, if any. */
export function useCustomerRequest(resource: string): CustomerRequest | null {
  const request = useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
  return request?.resource === resource ? request : null;
}

/** A row button that opens one of those dialogs for its row. */
export const dialogAction = (resource: string, dialog: CustomerDialog, label: string, permission?: string): RowAction => ({
  key: dialog,
  label,
  permission,
  onClick: (record) => requestCustomerDialog(resource, dialog, record),
});
