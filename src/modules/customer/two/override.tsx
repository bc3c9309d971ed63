import { SwapOutlined } from '@ant-design/icons';
import { Modal, message, Select, Space } from 'antd';
import { useEffect, useState } from 'react';
import { type Store, transferCards } from '@/api/customer';
import type { ActionContext, ResourceOverride } from '@/engine/resource';
import { loadStores, storeSearchField, useSeesAllStores } from '../storeSearch';

/** The store picker of 调拨 (headquarters only; the stores come from the server, active ones only). */
function TransferBody({ count, stores, onChange }: { count: number; stores: Store[]; onChange: (storeId: number | undefined) => void }) {
  const [value, setValue] = useState<number>();
  useEffect(() => onChange(value), [value, onChange]);
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <span>将所选 {count} 张未使用的卡调入：</span>
      <Select
        allowClear
        placeholder="请选择调入门店"
        style={{ width: '100%' }}
        value={value}
        onChange={setValue}
        options={stores.map((s) => ({ value: s.storeId, label: s.storeName }))}
      />
    </Space>
  );
}

/** 调拨: unused cards to another store (headquarters only; the server refuses a store's staff and any card not unused). */
async function transfer(ctx: ActionContext): Promise<void> {
  const { stores } = await loadStores();
  const ids = ctx.selectedRowKeys.map(Number);
  let to: number | undefined;
  Modal.confirm({
    title: '调拨会员卡',
    icon: null,
    content: <TransferBody count={ids.length} stores={stores} onChange={(v) => (to = v)} />,
    okText: '调拨',
    cancelText: '取消',
    onOk: async () => {
      if (!to) {
        message.warning('请选择调入门店');
        throw new Error('请选择调入门店'); // keeps the dialog open
      }
      const res = await transferCards(ids, to);
      message.success(res.msg);
      ctx.refresh();
    },
  });
}

/**
 * 卡片二 (card, card/two/index): the generic list of schemas/customer/card.json — the counts by state above it, 作废
 * declared in the schema (a call with the reason as comment) — plus, for headquarters, the 门店 filter and 调拨; 用户
 * shows -- while the card is unbound.
 */
export const cardOverride: ResourceOverride = {
  cells: { studentName: (value) => (value == null || value === '' ? '--' : String(value)) },
  searchFields: { storeId: storeSearchField },
  toolbar: [
    {
      key: 'transfer',
      label: '调拨',
      permission: 'card:two:transfer',
      selection: 'multiple',
      icon: <SwapOutlined />,
      visible: useSeesAllStores,
      onClick: transfer,
    },
  ],
};
