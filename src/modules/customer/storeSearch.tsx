import { Select } from 'antd';
import { useEffect, useState } from 'react';
import { listStores, type Store } from '@/api/customer';
import type { SearchInputProps } from '@/engine/resource';
import { getToken } from '@/utils/auth';

/**
 * The 门店 search of 发卡记录 and 卡片二 (override `searchFields.storeId`): a select of the active stores, shown only to
 * users who see every store (headquarters) — a store's staff only ever see their own. One read of
 * /dev-api/customer/stores per page load serves the search field, its visibility and 调拨's store list.
 */
type Stores = { stores: Store[]; storeId: number; allStores: boolean };
let loading: { token: string | undefined; stores: Promise<Stores> } | null = null;

/** Read once per signed-in session (another sign-in in the same tab reads again). */
export function loadStores(): Promise<Stores> {
  const token = getToken();
  if (loading && loading.token === token) return loading.stores;
  const stores = listStores().catch((error: unknown) => {
    loading = null; // asked again next time
    throw error;
  });
  loading = { token, stores };
  return stores;
}

/** The stores the caller may see (null while loading or refused). */
export function useStores(): Stores | null {
  const [state, setState] = useState<Stores | null>(null);
  useEffect(() => {
    let live = true;
    loadStores()
      .then((s) => live && setState(s))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return state;
}

/** Whether the caller sees every store (the 门店 filter and 调拨 are for them only). */
export function useSeesAllStores(): boolean {
  return useStores()?.allStores === true;
}

export function StoreSearchInput({ value, onChange, placeholder }: SearchInputProps) {
  const stores = useStores();
  return (
    <Select
      allowClear
      style={{ width: 200 }}
      placeholder={placeholder ?? '请选择门店'}
      value={(value as number | undefined) ?? undefined}
      onChange={(v) => onChange?.(v)}
      options={(stores?.stores ?? []).map((s) => ({ value: s.storeId, label: s.storeName }))}
    />
  );
}

/** The override entry of a 门店 search field. */
export const storeSearchField = { input: StoreSearchInput, useVisible: useSeesAllStores };
