import type { BaseRecord } from '@refinedev/core';
import { Table } from 'antd';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { type Delivery, listDeliveries } from '@/api/customer';
import { formatTime } from '../shared/format';

// A 邮寄 just registered: the expanded 邮寄记录 of that customer read again.
let registered = 0;
const listeners = new Set<() => void>();
export function deliveryRegistered(): void {
  registered += 1;
  for (const listener of listeners) listener();
}
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** 客户资料's expanded row (override `expandedRow`): the customer's 邮寄记录, newest first. */
export function Deliveries({ record }: { record: BaseRecord }) {
  const studentId = Number(record.studentId);
  const version = useSyncExternalStore(
    subscribe,
    () => registered,
    () => 0,
  );
  const [rows, setRows] = useState<Delivery[] | null>(null);
  useEffect(() => {
    void version; // read again after each 邮寄
    listDeliveries(studentId)
      .then(setRows)
      .catch(() => setRows([]));
  }, [studentId, version]);
  return (
    <Table<Delivery>
      size="small"
      rowKey="deliveryId"
      pagination={false}
      loading={rows === null}
      dataSource={rows ?? []}
      locale={{ emptyText: '暂无邮寄记录' }}
      columns={[
        { title: '邮寄物品', dataIndex: 'item' },
        { title: '快递公司', dataIndex: 'carrier' },
        { title: '快递单号', dataIndex: 'trackingNo' },
        { title: '寄往', dataIndex: 'address' },
        { title: '登记人', dataIndex: 'createByName' },
        { title: '登记时间', dataIndex: 'createTime', render: formatTime },
      ]}
    />
  );
}
