import { Select } from 'antd';
import { useEffect, useState } from 'react';
import { listStores, type Store } from '@/api/customer';

/** Picks a store (机构/门店); a store's staff only ever see their own store, so the select hides itself for them. */
export function useStores() {
  const [state, setState] = useState<{ stores: Store[]; storeId: number; allStores: boolean } | null>(null);
  useEffect(() => {
    listStores()
      .then(setState)
      .catch(() => undefined);
  }, []);
  return state;
}

export function StoreSelect({
  stores,
  value,
  onChange,
  placeholder = '全部门店',
  allowClear = true,
  style,
}: {
  stores: Store[];
  value?: number;
  onChange?: (v: number | undefined) => void;
  placeholder?: string;
  allowClear?: boolean;
  style?: React.CSSProperties;
}) {
  return (
    <Select
      allowClear={allowClear}
      value={value}
      onChange={onChange}
      placeholder={placeholder}
      style={{ minWidth: 140, ...style }}
      options={stores.map((s) => ({ value: s.storeId, label: s.storeName }))}
    />
  );
}

/** The 门店 search field of an engine list (override `searchFields.storeId`), for other modules too: ../storeSearch.tsx. */
export { storeSearchField } from '../storeSearch';
