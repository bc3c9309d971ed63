import type { StoreBrief } from '@common/customer/stores';
import { useEffect, useState } from 'react';
import { getUserFormChoices } from '@/api/system/user';

/**
 * 所属门店 column of 用户管理: the store's name (the list answers its id). The stores come once per page load from the
 * user form's choices; an account without a store shows 未分配.
 */
let stores: Promise<StoreBrief[]> | null = null;
const loadStores = () => {
  stores ??= getUserFormChoices()
    .then((c) => c.stores)
    .catch(() => {
      stores = null; // retried by the next cell
      return [];
    });
  return stores;
};

export function StoreName({ storeId }: { storeId: number | null }) {
  const [name, setName] = useState<string | null>(null);
  useEffect(() => {
    if (storeId == null) return;
    let live = true;
    loadStores().then((list) => {
      if (live) setName(list.find((s) => s.storeId === storeId)?.storeName ?? String(storeId));
    });
    return () => {
      live = false;
    };
  }, [storeId]);
  if (storeId == null) return <span style={{ color: 'var(--ant-color-text-tertiary, #999)' }}>未分配</span>;
  return <span>{name ?? String(storeId)}</span>;
}
