import { PlusOutlined } from '@ant-design/icons';
import { App, Button, Card, DatePicker, Form, Select, Space, Table, type TableProps, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { type Appointment, type AppointmentQuery, type AppointmentStatus, editAppointment, listAppointments, removeAppointment } from '@/api/volunteer';
import { Access, useAccess } from '@/components/Access';
import { useDevice } from '@/layout/useDevice';
import { ExpertSelect } from '@/modules/volunteer/shared/ExpertSelect';
import { formatTime } from '@/modules/volunteer/shared/format';
import { type AppointmentDialogMode, AppointmentFormDialog } from './AppointmentFormDialog';

const PAGE_SIZES = [10, 20, 30, 50];
const STATUS: Record<AppointmentStatus, { text: string; color: string }> = {
  pending: { text: '待服务', color: 'processing' },
  done: { text: '已完成', color: 'success' },
  cancelled: { text: '已取消', color: 'default' },
  remade: { text: '已改约', color: 'warning' },
};

interface SearchValues {
  status?: AppointmentStatus;
  expertId?: number;
  range?: [Dayjs, Dayjs];
}

/** 预约管理 (menu component appointment/index): appointments with add, edit, complete, cancel, 改约 and delete. */
export default function AppointmentPage() {
  const { modal, message } = App.useApp();
  const { can } = useAccess();
  const mobile = useDevice() === 'mobile';
  const leader = can('volunteer:approval:list');
  const [form] = Form.useForm<SearchValues>();
  const [query, setQuery] = useState<AppointmentQuery>({ pageNum: 1, pageSize: 20 });
  // A link may carry the filter (the home page's 今日预约: ?status=pending&dateFrom=<ms>&dateTo=<ms>): shown in the
  // form and applied with the exact bounds it names.
  const [searchParams] = useSearchParams();
  useEffect(() => {
    const status = searchParams.get('status') as AppointmentStatus | null;
    const from = Number(searchParams.get('dateFrom') || Number.NaN);
    const to = Number(searchParams.get('dateTo') || Number.NaN);
    const bounded = Number.isFinite(from) && Number.isFinite(to) && from <= to;
    if (!status && !bounded) return;
    const wanted = status && STATUS[status] ? status : undefined;
    form.setFieldsValue({ status: wanted, range: bounded ? [dayjs(from), dayjs(to)] : undefined });
    setQuery((q) => ({ pageNum: 1, pageSize: q.pageSize, status: wanted, dateFrom: bounded ? from : undefined, dateTo: bounded ? to : undefined }));
  }, [searchParams, form]);
  const [rows, setRows] = useState<Appointment[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(false);
  const [dialog, setDialog] = useState<AppointmentDialogMode | null>(null);

  const load = useCallback(async (q: AppointmentQuery) => {
    setLoading(true);
    try {
      const page = await listAppointments(q);
      setRows(page.rows);
      setTotal(page.total);
    } catch {
      // shown by the http layer
    } finally {
      setLoading(false);
    }
  }, []);
  useEffect(() => {
    load(query);
  }, [load, query]);

  const setStatus = (a: Appointment, status: 'done' | 'cancelled') =>
    modal.confirm({
      title: '确认提示',
      content: `确定将 ${a.studentName} ${dayjs(a.appointTime).format('MM-DD HH:mm')} 的预约标记为「${status === 'done' ? '已完成' : '已取消'}」吗？`,
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        message.success(await editAppointment({ appointmentId: a.appointmentId, version: a.version, status }));
        await load(query);
      },
    });
  const remove = (a: Appointment) =>
    modal.confirm({
      title: '系统提示',
      content: `是否确认删除 ${a.studentName} 的预约？`,
      okText: '删除',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        message.success(await removeAppointment(a.appointmentId));
        await load(query);
      },
    });

  const columns: TableProps<Appointment>['columns'] = [
    { title: '学生', dataIndex: 'studentName', width: 100 },
    { title: '专家', dataIndex: 'expertName', width: 100, render: (v) => v || '--' },
    { title: '预约时间', dataIndex: 'appointTime', width: 170, render: formatTime },
    { title: '时长', dataIndex: 'duration', width: 80, render: (v) => `${v} 分钟` },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      render: (s: AppointmentStatus, r) => <Tag color={STATUS[s]?.color}>{r.statusName || STATUS[s]?.text}</Tag>,
    },
    { title: '备注', dataIndex: 'remark', ellipsis: true, render: (v) => v || '--' },
    { title: '改约自', dataIndex: 'remadeFrom', width: 80, render: (v) => (v ? `#${v}` : '--') },
    { title: '创建时间', dataIndex: 'createTime', width: 170, render: formatTime },
    {
      title: '操作',
      key: 'action',
      width: 260,
      // Not fixed to the right: over a table wider than the page it covered data. The table scrolls as a whole.
      render: (_v, a) =>
        a.status === 'pending' ? (
          <Space size={0} wrap>
            <Access permissions={['volunteer:appointment:edit']}>
              <Button type="link" size="small" onClick={() => setDialog({ kind: 'edit', appointment: a })}>
                修改
              </Button>
              <Button type="link" size="small" onClick={() => setDialog({ kind: 'remake', appointment: a })}>
                改约
              </Button>
              <Button type="link" size="small" onClick={() => setStatus(a, 'done')}>
                完成
              </Button>
              <Button type="link" size="small" onClick={() => setStatus(a, 'cancelled')}>
                取消
              </Button>
            </Access>
            <Access permissions={['volunteer:appointment:remove']}>
              <Button type="link" size="small" danger onClick={() => remove(a)}>
                删除
              </Button>
            </Access>
          </Space>
        ) : a.status === 'cancelled' ? (
          <Access permissions={['volunteer:appointment:remove']}>
            <Button type="link" size="small" danger onClick={() => remove(a)}>
              删除
            </Button>
          </Access>
        ) : null,
    },
  ];

  return (
    <div style={{ padding: 16 }}>
      <Card>
        <Form<SearchValues>
          form={form}
          layout="inline"
          style={{ marginBottom: 16, rowGap: 8 }}
          onFinish={(v) =>
            setQuery((q) => ({
              pageNum: 1,
              pageSize: q.pageSize,
              status: v.status,
              expertId: v.expertId,
              dateFrom: v.range?.[0]?.startOf('day').valueOf(),
              dateTo: v.range?.[1]?.endOf('day').valueOf(),
            }))
          }
        >
          <Form.Item label="状态" name="status">
            <Select
              allowClear
              placeholder="全部"
              style={{ width: 110 }}
              options={(Object.keys(STATUS) as AppointmentStatus[]).map((s) => ({ value: s, label: STATUS[s].text }))}
            />
          </Form.Item>
          {leader ? (
            <Form.Item label="专家" name="expertId">
              <ExpertSelect />
            </Form.Item>
          ) : null}
          <Form.Item label="日期" name="range">
            <DatePicker.RangePicker />
          </Form.Item>
          <Form.Item>
            <Space>
              <Button type="primary" htmlType="submit">
                搜索
              </Button>
              <Button
                onClick={() => {
                  form.resetFields();
                  setQuery((q) => ({ pageNum: 1, pageSize: q.pageSize }));
                }}
              >
                重置
              </Button>
            </Space>
          </Form.Item>
        </Form>
        <Access permissions={['volunteer:appointment:add']}>
          <Button type="primary" ghost icon={<PlusOutlined />} style={{ marginBottom: 12 }} onClick={() => setDialog({ kind: 'add' })}>
            新增预约
          </Button>
        </Access>
        <Table<Appointment>
          rowKey="appointmentId"
          size="middle"
          loading={loading}
          columns={columns}
          dataSource={rows}
          scroll={{ x: (columns ?? []).reduce((sum, c) => sum + Number(c.width ?? 120), 0) }}
          locale={{ emptyText: '暂无预约' }}
          pagination={{
            current: query.pageNum,
            pageSize: query.pageSize,
            total,
            showSizeChanger: true,
            pageSizeOptions: PAGE_SIZES,
            showTotal: (t) => `共 ${t} 条`,
            showLessItems: mobile,
            onChange: (pageNum, pageSize) => setQuery((q) => ({ ...q, pageNum, pageSize })),
          }}
        />
      </Card>
      <AppointmentFormDialog
        mode={dialog}
        onClose={() => setDialog(null)}
        onDone={() => {
          setDialog(null);
          load(query);
        }}
      />
    </div>
  );
}
