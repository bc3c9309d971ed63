import { Button, Card, Form, Input, Segmented, Space, Table, type TableProps } from 'antd';
import { Fragment, useCallback, useEffect, useState } from 'react';
import { type ExamineQuery, type ExamineRow, listExamine, type PlanStatus, type TierCounts } from '@/api/volunteer';
import { Access } from '@/components/Access';
import { useDevice } from '@/layout/useDevice';
import { ExpertSelect } from '@/modules/volunteer/shared/ExpertSelect';
import { formatRank, formatTime } from '@/modules/volunteer/shared/format';
import { PlanHistoryDialog } from '@/modules/volunteer/shared/PlanHistoryDialog';
import { PlanStatusTag } from '@/modules/volunteer/shared/PlanStatusTag';
import { TIER_STYLE } from '@/modules/volunteer/shared/tiers';
import { PlanViewDrawer } from './PlanViewDrawer';
import { ReviewDialog, type ReviewTarget } from './ReviewDialog';

const PAGE_SIZES = [10, 20, 30, 50];
type StatusFilter = NonNullable<ExamineQuery['status']>;

function TierCountsCell({ counts }: { counts: TierCounts }) {
  return (
    <Space size={8}>
      {(['冲', '稳', '保'] as const).map((t) => (
        <span key={t} style={{ color: TIER_STYLE[t].color }}>
          {t}
          {counts?.[t] ?? 0}
        </span>
      ))}
    </Space>
  );
}

/** 志愿审核 (menu component Examine/index): plans awaiting review; view, approve / reject with a comment, history. */
/** `embedded`: shown inside another page's tab (领导审批), without its own padding and card. */
export default function ExaminePage({ embedded = false }: { embedded?: boolean } = {}) {
  const mobile = useDevice() === 'mobile';
  const [form] = Form.useForm<{ name?: string; ownerId?: number }>();
  const [query, setQuery] = useState<ExamineQuery>({ pageNum: 1, pageSize: 20, status: 'submitted' });
  const [rows, setRows] = useState<ExamineRow[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(false);
  const [viewing, setViewing] = useState<ExamineRow | null>(null);
  const [review, setReview] = useState<{ target: ReviewTarget; mode: 'approve' | 'reject' } | null>(null);
  const [history, setHistory] = useState<ExamineRow | null>(null);

  const load = useCallback(async (q: ExamineQuery) => {
    setLoading(true);
    try {
      const page = await listExamine(q);
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

  const startReview = (r: ExamineRow, mode: 'approve' | 'reject') =>
    setReview({ mode, target: { studentId: r.studentId, studentName: r.studentName, version: r.version, itemCount: r.itemCount } });

  const reviewButtons = (r: ExamineRow) =>
    r.status === 'submitted' ? (
      <Access permissions={['volunteer:examine:approve']}>
        <Button type="link" size="small" onClick={() => startReview(r, 'approve')}>
          通过
        </Button>
        <Button type="link" size="small" danger onClick={() => startReview(r, 'reject')}>
          驳回
        </Button>
      </Access>
    ) : null;

  const columns: TableProps<ExamineRow>['columns'] = [
    { title: '学生', dataIndex: 'studentName', width: 90, fixed: mobile ? undefined : 'left' },
    { title: '分数', dataIndex: 'score', width: 70, render: (v) => v ?? '--' },
    { title: '位次', dataIndex: 'rank', width: 90, render: formatRank },
    { title: '负责专家', dataIndex: 'ownerName', width: 100, render: (v) => v || '--' },
    { title: '志愿数', dataIndex: 'itemCount', width: 70 },
    { title: '梯度分布', dataIndex: 'tierCounts', width: 150, render: (c: TierCounts) => <TierCountsCell counts={c} /> },
    { title: '状态', dataIndex: 'status', width: 90, render: (s: PlanStatus, r) => <PlanStatusTag status={s} name={r.statusName} /> },
    { title: '提交时间', dataIndex: 'submitTime', width: 170, render: formatTime },
    { title: '审核人', dataIndex: 'reviewByName', width: 90, render: (v) => v || '--' },
    { title: '审核意见', dataIndex: 'reviewComment', width: 160, ellipsis: true, render: (v) => v || '--' },
    {
      title: '操作',
      key: 'action',
      width: 210,
      // Not fixed to the right: over a table wider than the page it covered data. The table scrolls as a whole.
      render: (_v, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setViewing(r)}>
            查看
          </Button>
          {reviewButtons(r)}
          <Button type="link" size="small" onClick={() => setHistory(r)}>
            记录
          </Button>
        </Space>
      ),
    },
  ];

  const Frame = embedded ? Fragment : Card;
  return (
    <div style={embedded ? undefined : { padding: 16 }}>
      <Frame>
        <Space wrap style={{ marginBottom: 16 }} size={16}>
          <Segmented<StatusFilter>
            value={query.status}
            onChange={(status) => setQuery((q) => ({ ...q, pageNum: 1, status }))}
            options={[
              { value: 'submitted', label: '待审核' },
              { value: 'approved', label: '已通过' },
              { value: 'rejected', label: '已驳回' },
              { value: 'all', label: '全部' },
            ]}
          />
          <Form
            form={form}
            layout="inline"
            onFinish={(v) => setQuery((q) => ({ ...q, pageNum: 1, name: v.name?.trim() || undefined, ownerId: v.ownerId }))}
            style={{ rowGap: 8 }}
          >
            <Form.Item label="学生" name="name">
              <Input placeholder="请输入学生姓名" allowClear maxLength={20} style={{ width: 150 }} />
            </Form.Item>
            <Form.Item label="负责专家" name="ownerId">
              <ExpertSelect />
            </Form.Item>
            <Form.Item>
              <Space>
                <Button type="primary" htmlType="submit">
                  搜索
                </Button>
                <Button
                  onClick={() => {
                    form.resetFields();
                    setQuery((q) => ({ pageNum: 1, pageSize: q.pageSize, status: q.status }));
                  }}
                >
                  重置
                </Button>
              </Space>
            </Form.Item>
          </Form>
        </Space>
        <Table<ExamineRow>
          rowKey="planId"
          size="middle"
          loading={loading}
          columns={columns}
          dataSource={rows}
          scroll={{ x: (columns ?? []).reduce((sum, c) => sum + Number(c.width ?? 120), 0) }}
          locale={{ emptyText: query.status === 'submitted' ? '没有待审核的志愿方案' : '暂无数据' }}
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
      </Frame>
      <PlanViewDrawer studentId={viewing?.studentId ?? null} onClose={() => setViewing(null)} actions={viewing ? reviewButtons(viewing) : null} />
      <ReviewDialog
        target={review?.target ?? null}
        mode={review?.mode ?? 'approve'}
        onClose={() => setReview(null)}
        onDone={() => {
          setReview(null);
          setViewing(null);
          load(query);
        }}
      />
      <PlanHistoryDialog
        open={history != null}
        title="审批记录"
        source="examine"
        studentId={history?.studentId ?? 0}
        studentName={history?.studentName}
        onClose={() => setHistory(null)}
      />
    </div>
  );
}
