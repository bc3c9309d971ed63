import { Select } from 'antd';
import { useEffect, useState } from 'react';
import { listStores, type Store } from '@/api/customer';
import type { SearchFieldOverride, SearchInputProps } from '@/engine/resource';

/**
 * The 门店 search field of 提现, 发票管理 and 充值管理 (override `searchFields.storeId`): headquarters picks a store
 * (the list and the wallet figures follow it); a store's staff only ever see their own, so the field is left out for
 * them. The server decides either way (storeFilter in server/finance/storeScope.ts).
 */
type Stores = { stores: Store[]; allStores: boolean };

function useStoreChoices(): Stores | null {
  const [state, setState] = useState<Stores | null>(null);
  useEffect(() => {
    let live = true;
    listStores().then(
      (s) => live && setState(s),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return state;
}

/** `id` comes from the search form's Form.Item, so the 门店 label points at the select. */
function StoreInput({ value, onChange, id }: SearchInputProps & { id?: string }) {
  const choices = useStoreChoices();
  return (
    <Select
      id={id}
      style={{ width: 200 }}
      allowClear
      showSearch
      optionFilterProp="label"
      placeholder="全部门店"
      value={value ?? undefined}
      onChange={onChange}
      options={(choices?.stores ?? []).map((s) => ({ value: s.storeId, label: s.storeName }))}
    />
  );
}

export const storeSearch: SearchFieldOverride = {
  input: StoreInput,
  useVisible: () => useStoreChoices()?.allStores === true,
};
