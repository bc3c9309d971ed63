import type { StudentQuery } from '@common/volunteer/students';
import { Button, Checkbox, Form, Input, Select, Space, Table, type TableProps } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { type Expert, listLeaderStudents, type PlanStatus, type Student } from '@/api/volunteer';
import { Access } from '@/components/Access';
import { formatRank, formatTime } from '@/modules/volunteer/shared/format';
import { PLAN_STATUS_OPTIONS, PlanStatusTag } from '@/modules/volunteer/shared/PlanStatusTag';
import { DistributeDialog } from './DistributeDialog';

const PAGE_SIZES = [10, 20, 30, 50];

interface SearchValues {
  name?: string;
  ownerId?: number;
  planStatus?: PlanStatus;
  unassigned?: boolean;
}

export interface StudentsTabProps {
  experts: Expert[];
  /** Pre-set 负责专家 filter (from the expert list). */
  ownerId?: number;
  onChanged: () => void;
}

/** Every student with its expert and plan status; select some and 批量分配 them to an expert. */
export function StudentsTab({ experts, ownerId, onChanged }: StudentsTabProps) {
  const [form] = Form.useForm<SearchValues>();
  const [query, setQuery] = useState<StudentQuery>({ pageNum: 1, pageSize: 20, ownerId });
  const [rows, setRows] = useState<Student[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(false);
  const [selected, setSelected] = useState<Student[]>([]);
  const [distributing, setDistributing] = useState(false);

  useEffect(() => {
    form.setFieldValue('ownerId', ownerId);
    setQuery((q) => ({ ...q, pageNum: 1, ownerId }));
  }, [ownerId, form]);

  const load = useCallback(async (q: StudentQuery) => {
    setLoading(true);
    try {
      const page = await listLeaderStudents(q);
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

  const columns: TableProps<Student>['columns'] = [
    { title: '姓名', dataIndex: 'name', width: 100 },
    { title: '手机号', dataIndex: 'mobile', width: 120, render: (v) => v || '--' },
    { title: '分数', dataIndex: 'score', width: 70, render: (v) => v ?? '--' },
    { title: '位次', dataIndex: 'rank', width: 90, render: formatRank },
    { title: '选科', dataIndex: 'subjectNames', width: 130 },
    { title: '门店', dataIndex: 'storeName', width: 110, render: (v) => v || '--' },
    { title: '负责专家', dataIndex: 'ownerName', width: 100, render: (v) => v || <span style={{ color: '#d46b08' }}>未分配</span> },
    { title: '方案状态', dataIndex: 'planStatus', width: 90, render: (s: PlanStatus, r) => <PlanStatusTag status={s} name={r.planStatusName} /> },
    { title: '志愿数', dataIndex: 'planItemCount', width: 70 },
    { title: '更新时间', dataIndex: 'updateTime', width: 170, render: formatTime },
  ];

  return (
    <>
      <Form<SearchValues>
        form={form}
        layout="inline"
        style={{ marginBottom: 12, rowGap: 8 }}
        onFinish={(v) =>
          setQuery((q) => ({
            pageNum: 1,
            pageSize: q.pageSize,
            name: v.name?.trim() || undefined,
            ownerId: v.ownerId,
            planStatus: v.planStatus,
            unassigned: v.unassigned ? 1 : undefined,
          }))
        }
      >
        <Form.Item label="姓名" name="name">
          <Input placeholder="请输入学生姓名" allowClear maxLength={20} style={{ width: 140 }} />
        </Form.Item>
        <Form.Item label="负责专家" name="ownerId">
          <Select allowClear placeholder="全部" style={{ width: 140 }} options={experts.map((e) => ({ value: e.userId, label: e.nickName || e.userName }))} />
        </Form.Item>
        <Form.Item label="方案状态" name="planStatus">
          <Select allowClear placeholder="全部" style={{ width: 110 }} options={PLAN_STATUS_OPTIONS} />
        </Form.Item>
        <Form.Item name="unassigned" valuePropName="checked">
          <Checkbox>只看未分配</Checkbox>
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
      <Access permissions={['volunteer:approval:distribute']}>
        <Button type="primary" disabled={selected.length === 0} style={{ marginBottom: 12 }} onClick={() => setDistributing(true)}>
          批量分配{selected.length ? `（${selected.length}）` : ''}
        </Button>
      </Access>
      <Table<Student>
        rowKey="studentId"
        size="middle"
        loading={loading}
        columns={columns}
        dataSource={rows}
        scroll={{ x: 1000 }}
        rowSelection={{ selectedRowKeys: selected.map((s) => s.studentId), onChange: (_k, list) => setSelected(list), preserveSelectedRowKeys: true }}
        pagination={{
          current: query.pageNum,
          pageSize: query.pageSize,
          total,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZES,
          showTotal: (t) => `共 ${t} 名学生`,
          onChange: (pageNum, pageSize) => setQuery((q) => ({ ...q, pageNum, pageSize })),
        }}
      />
      <DistributeDialog
        open={distributing}
        students={selected}
        experts={experts}
        onClose={() => setDistributing(false)}
        onDone={() => {
          setDistributing(false);
          setSelected([]);
          load(query);
          onChanged();
        }}
      />
    </>
  );
}
