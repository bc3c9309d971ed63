import { Alert, Button, Descriptions, Drawer, Space, Spin, Table } from 'antd';
import { downloadPlanPdf, type PlanInfoItem, planInfo } from '@/api/volunteer';
import { useDevice } from '@/layout/useDevice';
import { formatRank, formatTime, lineFigures } from '@/modules/volunteer/shared/format';
import { StaleTag } from '@/modules/volunteer/shared/lineTags';
import { PlanStatusTag } from '@/modules/volunteer/shared/PlanStatusTag';
import { RetryAlert } from '@/modules/volunteer/shared/RetryAlert';
import { Probability, TierLegend, TierTag } from '@/modules/volunteer/shared/tiers';
import { useLoad } from '@/modules/volunteer/shared/useLoad';

export interface PlanViewDrawerProps {
  studentId: number | null;
  onClose: () => void;
  /** Shown in the header (审批 buttons of the Examine page). */
  actions?: React.ReactNode;
}

/** A plan read-only: the student, status, ordered items with tier and probability (saved and now), warnings. */
export function PlanViewDrawer({ studentId, onClose, actions }: PlanViewDrawerProps) {
  const mobile = useDevice() === 'mobile';
  const { data, loading, error, reload } = useLoad(() => planInfo(studentId ?? 0), studentId != null, [studentId]);
  const s = data?.student;
  const lapsed = data?.items.filter((i) => i.stale).length ?? 0;
  return (
    <Drawer
      open={studentId != null}
      onClose={onClose}
      width={mobile ? '100%' : 860}
      title={s ? `志愿方案 · ${s.name}` : '志愿方案'}
      extra={
        <Space>
          {s ? (
            <Button onClick={() => downloadPlanPdf(s.studentId, s.name).catch(() => undefined)} disabled={!data?.plan}>
              导出 PDF
            </Button>
          ) : null}
          {actions}
        </Space>
      }
    >
      <Spin spinning={loading} tip="正在加载志愿方案...">
        <RetryAlert error={error} title="志愿方案加载失败" onRetry={reload} />
        {data && s ? (
          <>
            <Descriptions size="small" bordered column={3} style={{ marginBottom: 12 }}>
              <Descriptions.Item label="学生">{s.name}</Descriptions.Item>
              <Descriptions.Item label="高考年份">
                {data.targetYear ?? s.examYear}年{data.year != null ? `（按${data.year}年招生目录）` : ''}
              </Descriptions.Item>
              <Descriptions.Item label="分数 / 位次">
                {s.score ?? '--'} / {formatRank(s.rank)}
              </Descriptions.Item>
              <Descriptions.Item label="选科" span={2}>
                {s.subjectNames || '--'}
              </Descriptions.Item>
              <Descriptions.Item label="状态">
                <PlanStatusTag status={data.plan?.status ?? 'none'} name={data.plan?.statusName} />
              </Descriptions.Item>
              <Descriptions.Item label="版本">{data.plan?.version ?? 0}</Descriptions.Item>
              <Descriptions.Item label="提交时间">{formatTime(data.plan?.submitTime)}</Descriptions.Item>
              {data.plan?.reviewComment ? (
                <Descriptions.Item label="审核意见" span={3}>
                  {data.plan.reviewComment}（{data.plan.reviewByName ?? '--'}，{formatTime(data.plan.reviewTime)}）
                </Descriptions.Item>
              ) : null}
            </Descriptions>
            {lapsed ? (
              <Alert
                type="error"
                showIcon
                style={{ marginBottom: 12 }}
                message={`${lapsed} 个志愿已失效`}
                description="这些志愿已不在当前招生目录中（已停招或更名），请让专家删除并替换后再审批。"
              />
            ) : null}
            {data.warnings.length ? (
              <Alert
                type="warning"
                showIcon
                style={{ marginBottom: 12 }}
                message="梯度检查"
                description={data.warnings.map((w) => <div key={w.message}>{w.message}</div>)}
              />
            ) : null}
            <div style={{ marginBottom: 8 }}>
              <TierLegend />
            </div>
            <Table<PlanInfoItem>
              rowKey="lineId"
              size="small"
              pagination={false}
              virtual
              scroll={{ y: 520 }}
              dataSource={data.items}
              locale={{ emptyText: '志愿表为空' }}
              columns={[
                { title: '序号', dataIndex: 'sort', width: 60 },
                {
                  title: '院校',
                  dataIndex: 'schoolName',
                  ellipsis: true,
                  render: (v: string, r) => (
                    <span>
                      {v} {r.stale ? <StaleTag reason={r.staleReason} /> : null}
                    </span>
                  ),
                },
                {
                  title: '专业',
                  dataIndex: 'majorName',
                  ellipsis: true,
                  render: (v: string | null, r) => (
                    <span
                      title={[r.majorCode ? `专业代号 ${r.majorCode}` : null, r.subjectReq ? `选科 ${r.subjectReq}` : null, r.staleReason]
                        .filter(Boolean)
                        .join(' · ')}
                    >
                      {v || '--'}
                    </span>
                  ),
                },
                { title: '最低分 · 位次', key: 'line', width: 180, render: (_v, r) => lineFigures(r) },
                { title: '梯度', dataIndex: 'tier', width: 64, render: (t) => <TierTag tier={t} /> },
                {
                  title: '保存时概率',
                  dataIndex: 'probability',
                  width: 100,
                  render: (p, r) => <Probability probability={p} text={r.probabilityText} tier={r.tier} />,
                },
                {
                  title: '当前概率',
                  dataIndex: 'currentProbability',
                  width: 90,
                  render: (p, r) => <Probability probability={p ?? null} tier={r.currentTier ?? null} />,
                },
              ]}
            />
          </>
        ) : null}
      </Spin>
    </Drawer>
  );
}
