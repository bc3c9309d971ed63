import { type BaseRecord, useCustom } from '@refinedev/core';
import { Table } from 'antd';
import type { Delivery } from '@/api/customer';
import { formatTime } from '../shared/format';

/** The customer module's route of one customer's 邮寄记录 (server/customer/customers.ts), newest first. */
const DELIVERIES_URL = '/dev-api/customer/client/deliveries';

/**
 * 客户资料's expanded row (override `expandedRow`): the customer's 邮寄记录, newest first.
 *
 * Its query is keyed under the cus_client list (as 备忘录's due panel, DueMemos), so the list's refresh and the
 * invalidation after a write — 邮寄 or 修改资料 in ClientDataPage — read an open 邮寄记录 again too.
 */
export function Deliveries({ record }: { record: BaseRecord }) {
  const studentId = Number(record.studentId);
  const { query } = useCustom<Delivery[]>({
    url: DELIVERIES_URL,
    method: 'get',
    config: { query: { studentId } },
    queryOptions: { queryKey: ['data', 'default', 'cus_client', 'list', 'deliveries', studentId] },
    // The http layer reports a failed read; the table then shows 暂无邮寄记录.
    errorNotification: false,
  });
  return (
    <Table<Delivery>
      size="small"
      rowKey="deliveryId"
      pagination={false}
      loading={query.isLoading}
      // Not `result.data`: Refine answers {} for it until the first read is in.
      dataSource={query.data?.data ?? []}
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
