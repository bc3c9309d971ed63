import { WORK_ORDER_FORMS, WORK_ORDER_STATUS_NAMES } from '@common/service/workOrders';
import { Button, Card, Form, Select, type TableProps } from 'antd';
import { useState } from 'react';
import { listWorkOrders, type WorkOrderQuery, type WorkOrderRow } from '@/api/service';
import { Access } from '@/components/Access';
import { PagedTable, SearchForm } from '@/modules/customer/shared/SearchTable';
import { statusFromLink, useApplyLinkedFilter, useLinkedFilter } from '@/modules/customer/shared/useLinkedFilter';
import { usePaged } from '@/modules/customer/shared/usePaged';
import { formatTime, WorkOrderDrawer, WorkOrderStatusTag } from '../shared/WorkOrderParts';
import { WorkOrderForm } from './WorkOrderForm';

/** The home page's to-do count links here with ?status=0. */
const readLink = statusFromLink<{ status?: number; form?: string }, WorkOrderQuery>(WORK_ORDER_STATUS_NAMES);

/** 提交工单 (serviceCenter/submitWorkOrder/index): the eight forms, and my orders with their status and reply. */
export default function SubmitWorkOrderPage() {
  const linked = useLinkedFilter(readLink);
  const paged = usePaged(listWorkOrders, { pageNum: 1, pageSize: 10, mine: 1, ...linked?.query } as WorkOrderQuery);
  const [form] = Form.useForm<{ status?: number; form?: string }>();
  useApplyLinkedFilter(readLink, form, paged.setQuery);
  const [open, setOpen] = useState<number | null>(null);

  const columns: TableProps<WorkOrderRow>['columns'] = [
    {
      title: '工单号',
      dataIndex: 'orderNo',
      width: 200,
      render: (v: string, r) => (
        <Button type="link" size="small" onClick={() => setOpen(r.workOrderId)}>
          {v}
        </Button>
      ),
    },
    { title: '工单类型', dataIndex: 'formName', width: 110 },
    { title: '标题', dataIndex: 'title', ellipsis: true },
    { title: '状态', dataIndex: 'status', width: 90, render: (v: number, r) => <WorkOrderStatusTag status={v} name={r.statusName} /> },
    { title: '回复', dataIndex: 'reply', ellipsis: true, render: (v: string | null) => v ?? '--' },
    { title: '提交时间', dataIndex: 'createTime', width: 170, render: formatTime },
    {
      title: '操作',
      key: 'op',
      width: 80,
      render: (_: unknown, r) => (
        <Button type="link" size="small" onClick={() => setOpen(r.workOrderId)}>
          详情
        </Button>
      ),
    },
  ];

  return (
    <div style={{ padding: 16, display: 'flex', flexDirection: 'column', gap: 16 }}>
      <Access permissions={['service:workorder:add']}>
        <Card title="提交工单" size="small">
          <WorkOrderForm onSubmitted={() => paged.reload()} />
        </Card>
      </Access>
      <Card title="我的工单" size="small">
        <SearchForm form={form} paged={paged} keep={{ mine: 1 }} toQuery={(v) => ({ status: v.status, form: v.form })}>
          <Form.Item name="form" label="工单类型">
            <Select allowClear style={{ width: 140 }} placeholder="全部" options={WORK_ORDER_FORMS.map((f) => ({ label: f.name, value: f.key }))} />
          </Form.Item>
          <Form.Item name="status" label="状态">
            <Select
              allowClear
              style={{ width: 120 }}
              placeholder="全部"
              options={Object.entries(WORK_ORDER_STATUS_NAMES).map(([v, label]) => ({ value: Number(v), label }))}
            />
          </Form.Item>
        </SearchForm>
        <PagedTable<WorkOrderRow, WorkOrderQuery> paged={paged} rowKey="workOrderId" columns={columns} />
      </Card>
      <WorkOrderDrawer workOrderId={open} onClose={() => setOpen(null)} />
    </div>
  );
}
