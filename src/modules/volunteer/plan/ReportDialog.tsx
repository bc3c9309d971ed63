import { CAUTION_LABELS, type CautionKind } from '@common/volunteer/cautions';
import type { PlanSimulationView } from '@common/volunteer/planSimulation';
import { Alert, Col, Descriptions, Empty, List, Modal, Row, Spin, Statistic, Table, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { type PlanReportItem, planReport } from '@/api/volunteer';
import { formatRank, lineFigures } from '../shared/format';
import { StaleTag } from '../shared/lineTags';
import { PlanStatusTag } from '../shared/PlanStatusTag';
import { RetryAlert } from '../shared/RetryAlert';
import { Probability, probabilityLabel, TierTag } from '../shared/tiers';
import { useLoad } from '../shared/useLoad';
import { LandingChart } from './LandingChart';
import { TierChart } from './TierChart';

export interface ReportDialogProps {
  open: boolean;
  studentId: number;
  studentName: string;
  /** The editor has unsaved changes: the report describes the saved plan. */
  dirty: boolean;
  onClose: () => void;
}

/** 方案报告: tier distribution chart, probability range, risks, warnings, and entries whose tier changed since saving. */
export function ReportDialog({ open, studentId, studentName, dirty, onClose }: ReportDialogProps) {
  const { data, loading, error, reload } = useLoad(() => planReport(studentId), open, [studentId]);
  return (
    <Modal open={open} title={`志愿方案报告 · ${studentName}`} onCancel={onClose} footer={null} width={860} destroyOnHidden>
      <Spin spinning={loading} tip="正在生成方案报告...">
        {dirty ? (
          <Alert type="info" showIcon message="志愿表有未保存的修改，报告依据的是上次保存的方案；保存后重新打开可看到最新结果。" style={{ marginBottom: 12 }} />
        ) : null}
        <RetryAlert error={error} title="报告生成失败" description="如果还没有保存过志愿方案，请先添加志愿并保存。" onRetry={reload} />
        {data ? (
          <>
            {/* Three a row: four squeezed 「2027年（按2026年招生目录）」 and the rank with its year onto three lines each. */}
            <Descriptions size="small" column={3} style={{ marginBottom: 12 }}>
              <Descriptions.Item label="学生">{data.student.name}</Descriptions.Item>
              <Descriptions.Item label="高考年份">
                {data.targetYear ?? data.student.examYear}年{data.year != null ? `（按${data.year}年招生目录）` : ''}
              </Descriptions.Item>
              <Descriptions.Item label="分数 / 位次">
                {data.student.score ?? '--'} / {formatRank(data.student.rank)}
                {data.rankYear != null ? `（${data.rankYear}年一分一段）` : ''}
              </Descriptions.Item>
              <Descriptions.Item label="状态">
                <PlanStatusTag status={data.plan.status} name={data.plan.statusName} />
              </Descriptions.Item>
              <Descriptions.Item label="志愿数">{data.plan.itemCount}</Descriptions.Item>
            </Descriptions>
            <Row gutter={16}>
              <Col xs={24} md={12}>
                <Typography.Title level={5}>梯度分布</Typography.Title>
                <TierChart counts={data.tierDistribution} />
              </Col>
              <Col xs={24} md={12}>
                <Typography.Title level={5}>{data.targetYear ?? data.student.examYear}年录取概率</Typography.Title>
                <Row gutter={8} style={{ marginBottom: 16 }}>
                  <Col span={8}>
                    <Statistic title="最低" value={probabilityLabel(data.probability.min)} />
                  </Col>
                  <Col span={8}>
                    <Statistic title="平均" value={probabilityLabel(data.probability.mean)} />
                  </Col>
                  <Col span={8}>
                    <Statistic title="最高" value={probabilityLabel(data.probability.max)} />
                  </Col>
                </Row>
                <Typography.Title level={5}>风险提示</Typography.Title>
                <Risks risks={data.risks} warnings={data.warnings.map((w) => w.message)} simulated={data.simulation != null} />
              </Col>
            </Row>
            {data.simulation ? <SimulationBlock simulation={data.simulation} items={data.items ?? []} /> : null}
            {data.summary ? <Alert type="info" message={data.summary} style={{ marginTop: 16 }} /> : null}
            {data.warnings.length > 0 ? <GradientChecks messages={data.warnings.map((w) => w.message)} /> : null}
            <Typography.Title level={5} style={{ marginTop: 16 }}>
              保存后梯度有变化的志愿
            </Typography.Title>
            {data.changedSinceSave.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有变化" />
            ) : (
              <Table
                size="small"
                rowKey="lineId"
                pagination={false}
                dataSource={data.changedSinceSave}
                columns={[
                  { title: '序号', dataIndex: 'sort', width: 70 },
                  {
                    title: '志愿',
                    key: 'name',
                    ellipsis: true,
                    render: (_v, r) => [r.schoolName, r.majorName].filter(Boolean).join(' · ') || '--',
                  },
                  { title: '保存时', dataIndex: 'savedTier', render: (t) => <TierTag tier={t} /> },
                  { title: '现在', dataIndex: 'currentTier', render: (t) => <TierTag tier={t} /> },
                ]}
              />
            )}
            {data.items?.length ? <ReportItems items={data.items} /> : null}
          </>
        ) : null}
      </Spin>
    </Modal>
  );
}

const share = (p: number) => `${(Math.round(p * 1000) / 10).toFixed(1)}%`;

/** How many 梯度检查 lines show before 展开: a re-ordered 96-choice plan can have dozens, all alike. */
const CHECKS_SHOWN = 5;

/**
 * 风险提示: the plan's own risks (the simulation's, cautions, lapsed choices) in red. The server counts each 梯度检查
 * line as a risk too; listed here they repeated the 梯度检查 section line by line (36 for one re-optimised 96-choice
 * plan) and pushed the simulation out of sight, so they are folded into one line that points to it.
 */
function Risks({ risks, warnings, simulated }: { risks: readonly string[]; warnings: readonly string[]; simulated: boolean }) {
  const checks = new Set(warnings);
  const own = risks.filter((r) => !checks.has(r));
  const folded = risks.length - own.length;
  if (risks.length === 0) return <Alert type="success" showIcon message={simulated ? '未发现其他风险' : '未发现明显风险'} />;
  return (
    <List
      size="small"
      bordered
      dataSource={folded ? [...own, `梯度检查 ${folded} 条提醒，见下方「梯度检查」`] : own}
      renderItem={(r) => <List.Item style={{ color: '#cf1322' }}>{r}</List.Item>}
    />
  );
}

/** 梯度检查: the first few, the rest on 展开 (as under the plan in the editor). */
function GradientChecks({ messages }: { messages: readonly string[] }) {
  const [all, setAll] = useState(false);
  const shown = messages.slice(0, all ? messages.length : CHECKS_SHOWN);
  return (
    <>
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        梯度检查（{messages.length} 条）
      </Typography.Title>
      <List size="small" dataSource={shown} renderItem={(m) => <List.Item>{m}</List.Item>} />
      {messages.length > CHECKS_SHOWN ? (
        <Typography.Link onClick={() => setAll(!all)}>{all ? '收起' : `展开其余 ${messages.length - CHECKS_SHOWN} 条`}</Typography.Link>
      ) : null}
    </>
  );
}

/**
 * 整体模拟: the plan's parallel 投档 simulated over many years — P(录取), P(滑档), where the student lands by tier. Why
 * here: each line's own chance says little about the plan (order decides where the student lands).
 */
function SimulationBlock({ simulation: s, items }: { simulation: PlanSimulationView; items: readonly PlanReportItem[] }) {
  return (
    <div style={{ marginTop: 16 }} data-testid="plan-simulation">
      <Typography.Title level={5}>
        {s.year}年整体模拟（{s.draws.toLocaleString('en-US')} 次平行投档）
      </Typography.Title>
      <Row gutter={8}>
        <Col span={5}>
          <Statistic title="被录取" value={share(s.admitted)} />
        </Col>
        <Col span={5}>
          <Statistic title="滑档" value={share(s.slide)} valueStyle={s.slide >= 0.01 ? { color: '#cf1322' } : undefined} />
        </Col>
        <Col span={4}>
          <Statistic title="落在冲" value={share(s.byTier.冲)} />
        </Col>
        <Col span={4}>
          <Statistic title="落在稳" value={share(s.byTier.稳)} />
        </Col>
        <Col span={4}>
          <Statistic title="落在保" value={share(s.byTier.保)} />
        </Col>
      </Row>
      <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
        {s.text}
        {s.expectedPosition != null ? `；平均在第 ${s.expectedPosition.toFixed(1)} 个志愿被录取` : ''}
      </Typography.Paragraph>
      <Typography.Title level={5} style={{ marginTop: 12 }}>
        {s.year}年模拟落点分布（录取落在各志愿的概率）
      </Typography.Title>
      <LandingChart simulation={s} items={items} />
    </div>
  );
}

/** The plan's choices with each line figure's year ("2026 · 581分 · 29,348名"); 失效 ones are marked. */
function ReportItems({ items }: { items: PlanReportItem[] }) {
  return (
    <>
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        志愿明细
      </Typography.Title>
      <Table<PlanReportItem>
        size="small"
        rowKey="lineId"
        pagination={false}
        virtual
        scroll={{ y: 360 }}
        dataSource={items}
        columns={[
          { title: '序号', dataIndex: 'sort', width: 60 },
          {
            title: '院校 · 专业',
            key: 'name',
            ellipsis: true,
            render: (_v, r) => (
              <>
                <span
                  title={[r.majorCode ? `专业代号 ${r.majorCode}` : null, r.subjectText ?? (r.subjectReq ? `选科 ${r.subjectReq}` : null), r.feeNote]
                    .filter(Boolean)
                    .join(' · ')}
                >
                  {[r.schoolName, r.majorName].filter(Boolean).join(' · ')}
                </span>{' '}
                {r.stale ? <StaleTag reason={r.staleReason} /> : null}
                {/* Outside the titled name: a caution's own tooltip, not the name's, on hover. */}
                <Cautions cautions={r.cautions} />
              </>
            ),
          },
          { title: '最低分 · 位次', key: 'line', width: 190, render: (_v, r) => r.figureText || lineFigures(r) },
          { title: '梯度', dataIndex: 'tier', width: 64, render: (t) => <TierTag tier={t} /> },
          {
            title: '落在此志愿',
            key: 'landing',
            width: 96,
            // Greyed with the reason when the simulation almost never lands here (shadowed by earlier choices, or hopeless).
            render: (_v, r) =>
              r.landing == null ? (
                '--'
              ) : (
                <span title={r.idleReason ?? undefined} style={r.idleReason ? { color: '#999' } : undefined}>
                  {share(r.landing)}
                </span>
              ),
          },
          {
            title: '录取概率 / 估计',
            key: 'estimate',
            width: 220,
            // The server's text names the exam year it is for ("2027 录取概率 53.20%；2027 估计位次 30,120").
            render: (_v, r) => r.estimateText || <Probability probability={r.probability} text={r.probabilityText} tier={r.tier} />,
          },
        ]}
      />
    </>
  );
}

const CAUTION_TAG = { marginInlineStart: 4, marginInlineEnd: 0, fontSize: 11, lineHeight: '16px', padding: '0 3px' };

/** What to know before filling a choice (位次波动大, 学费较高 …): a small orange tag each, the server's sentence on hover. */
function Cautions({ cautions }: { cautions?: PlanReportItem['cautions'] }) {
  if (!cautions?.length) return null;
  return (
    <>
      {cautions.map((c) => (
        <Tooltip key={`${c.kind}|${c.text}`} title={c.text}>
          <Tag color="orange" bordered={false} style={CAUTION_TAG} data-testid="caution-tag">
            {CAUTION_LABELS[c.kind as CautionKind] ?? '注意'}
          </Tag>
        </Tooltip>
      ))}
    </>
  );
}
