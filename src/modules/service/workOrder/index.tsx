import { WORK_ORDER_FORMS, WORK_ORDER_STATUS_NAMES } from '@common/service/workOrders';
import { App, Button, Card, Form, Input, Select, Space, type TableProps } from 'antd';
import { useEffect, useState } from 'react';
import { assignWorkOrder, handleWorkOrder, listWorkOrders, rejectWorkOrder, type WorkOrderQuery, type WorkOrderRow, workOrderHandlers } from '@/api/service';
import { PagedTable, SearchForm } from '@/modules/customer/shared/SearchTable';
import { StoreSelect, useStores } from '@/modules/customer/shared/StoreSelect';
import { statusFromLink, useApplyLinkedFilter, useLinkedFilter } from '@/modules/customer/shared/useLinkedFilter';
import { usePaged } from '@/modules/customer/shared/usePaged';
import { formatTime, WorkOrderDrawer, WorkOrderStatusTag } from '../shared/WorkOrderParts';

const OPEN = [0, 1];
type SearchValues = { status?: number; form?: string; storeId?: number; orderNo?: string };
/** The home page's 待处理工单 links here with ?status=0. */
const readLink = statusFromLink<SearchValues, WorkOrderQuery>(WORK_ORDER_STATUS_NAMES);

/**
 * 工单管理 (serviceCenter/workOrder/index, headquarters: service:workorder:handle): every store's orders; per order
 * 指派 (待处理 → 处理中), 处理 (performs the change, docs/service.md) and 驳回 with the reply the submitter sees.
 */
export default function WorkOrderManagePage() {
  const { modal, message } = App.useApp();
  const stores = useStores();
  const linked = useLinkedFilter(readLink);
  const paged = usePaged(listWorkOrders, { pageNum: 1, pageSize: 20, ...linked?.query } as WorkOrderQuery);
  const [form] = Form.useForm<SearchValues>();
  useApplyLinkedFilter(readLink, form, paged.setQuery);
  const [open, setOpen] = useState<number | null>(null);
  const [handlers, setHandlers] = useState<Array<{ userId: number; nickName: string }>>([]);
  useEffect(() => {
    workOrderHandlers()
      .then(setHandlers)
      .catch(() => undefined);
  }, []);

  const done = async (msg: string) => {
    message.success(msg);
    setOpen(null);
    await paged.reload();
  };

  /** 处理 / 驳回: a dialog with the reply (required to reject); the server's refusal is shown and the dialog stays. */
  const act = (row: WorkOrderRow, kind: 'handle' | 'reject') => {
    let reply = '';
    modal.confirm({
      title: kind === 'handle' ? `处理工单 ${row.orderNo}` : `驳回工单 ${row.orderNo}`,
      width: 520,
      content: (
        <Space direction="vertical" style={{ width: '100%' }}>
          <span>{kind === 'handle' ? `确认处理“${row.title}”吗？处理将立即执行该工单的变更。` : `确认驳回“${row.title}”吗？驳回不改动任何数据。`}</span>
          <Input.TextArea
            rows={3}
            maxLength={500}
            placeholder={kind === 'handle' ? '回复内容（选填，提交人可见）' : '驳回原因（必填，提交人可见）'}
            onChange={(e) => (reply = e.target.value)}
          />
        </Space>
      ),
      okText: kind === 'handle' ? '确认处理' : '确认驳回',
      okButtonProps: { danger: kind === 'reject' },
      cancelText: '取消',
      onOk: async () => {
        const res =
          kind === 'handle' ? await handleWorkOrder(row.workOrderId, reply.trim() || undefined) : await rejectWorkOrder(row.workOrderId, reply.trim());
        await done(res.msg);
      },
    });
  };

  const assign = (row: WorkOrderRow) => {
    let assigneeId: number | undefined;
    let reply = '';
    modal.confirm({
      title: `指派工单 ${row.orderNo}`,
      content: (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Select
            style={{ width: '100%' }}
            placeholder="处理人（默认本人）"
            allowClear
            options={handlers.map((h) => ({ value: h.userId, label: h.nickName }))}
            onChange={(v) => (assigneeId = v)}
          />
          <Input.TextArea rows={2} maxLength={500} placeholder="回复内容（选填，提交人可见）" onChange={(e) => (reply = e.target.value)} />
        </Space>
      ),
      okText: '指派',
      cancelText: '取消',
      onOk: async () => done((await assignWorkOrder(row.workOrderId, assigneeId, reply.trim() || undefined)).msg),
    });
  };

  const buttons = (r: WorkOrderRow) =>
    OPEN.includes(r.status) ? (
      <Space size={0}>
        {r.status === 0 && (
          <Button type="link" size="small" onClick={() => assign(r)}>
            指派
          </Button>
        )}
        <Button type="link" size="small" onClick={() => act(r, 'handle')}>
          处理
        </Button>
        <Button type="link" size="small" danger onClick={() => act(r, 'reject')}>
          驳回
        </Button>
      </Space>
    ) : null;

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
    { title: '门店', dataIndex: 'storeName', width: 110 },
    { title: '工单类型', dataIndex: 'formName', width: 110 },
    { title: '标题', dataIndex: 'title', ellipsis: true },
    { title: '提交人', dataIndex: 'submitByName', width: 100 },
    { title: '状态', dataIndex: 'status', width: 90, render: (v: number, r) => <WorkOrderStatusTag status={v} name={r.statusName} /> },
    { title: '处理人', key: 'who', width: 100, render: (_: unknown, r) => r.handleByName ?? r.assigneeName ?? '--' },
    { title: '提交时间', dataIndex: 'createTime', width: 170, render: formatTime },
    {
      title: '操作',
      key: 'op',
      width: 200,
      fixed: 'right',
      render: (_: unknown, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setOpen(r.workOrderId)}>
            详情
          </Button>
          {buttons(r)}
        </Space>
      ),
    },
  ];

  return (
    <div style={{ padding: 16 }}>
      <Card size="small">
        <SearchForm
          form={form}
          paged={paged}
          toQuery={(v) => ({ status: v.status, form: v.form, storeId: v.storeId, orderNo: v.orderNo?.trim() || undefined })}
          keep={{}}
        >
          <Form.Item name="orderNo" label="工单号">
            <Input allowClear style={{ width: 200 }} />
          </Form.Item>
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
          {stores?.allStores && (
            <Form.Item name="storeId" label="门店">
              <StoreSelect stores={stores.stores} style={{ width: 140 }} />
            </Form.Item>
          )}
        </SearchForm>
        <PagedTable<WorkOrderRow, WorkOrderQuery> paged={paged} rowKey="workOrderId" columns={columns} scroll={{ x: 1200 }} />
      </Card>
      <WorkOrderDrawer workOrderId={open} onClose={() => setOpen(null)} actions={buttons} />
    </div>
  );
}
