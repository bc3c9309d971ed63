import { Alert, Button, Descriptions, Modal, Space, Spin, Table, Typography } from 'antd';
import { type ChanceRow, enrollChance } from '@/api/volunteer';
import { figureYear, formatRank, historyFigures, lineFigures, targetYearOf } from '../shared/format';
import { LineFlagTags, SubjectReq } from '../shared/lineTags';
import { RetryAlert } from '../shared/RetryAlert';
import { Probability, TIER_STYLE, TierLegend, TierTag } from '../shared/tiers';
import { useLoad } from '../shared/useLoad';
import { explain } from './explanation';

export interface ChanceTarget {
  lineId: number;
  schoolCode: string;
  schoolName: string;
  majorName: string | null;
}

export interface ChanceDialogProps {
  /** The option; unless it already carries its explanation, it is looked up afresh with it. */
  target: (ChanceTarget & Partial<ChanceRow>) | null;
  studentId: number;
  studentScore: number | null;
  studentRank: number | null;
  onClose: () => void;
  onAdd?: (row: ChanceRow) => void;
  canAdd?: boolean;
}

/** The option's row with its explanation: list rows come without it (it is most of a row's weight). */
async function lookUp(target: ChanceTarget, studentId: number): Promise<ChanceRow | null> {
  const r = await enrollChance({ studentId, lineId: target.lineId, includeUnreachable: true, pageSize: 1 });
  return r.rows[0] ?? null;
}

/** 录取率: the engine's reasoning for one option — years used, ranks, estimate, σ, the student's value, probability. */
export function ChanceDialog({ target, studentId, studentScore, studentRank, onClose, onAdd, canAdd }: ChanceDialogProps) {
  const hasExplanation = Boolean(target?.explanation);
  const { data, loading, error, reload } = useLoad(
    async () => (target && !hasExplanation ? lookUp(target, studentId) : ((target as ChanceRow | null) ?? null)),
    Boolean(target),
    [target?.lineId, studentId, hasExplanation],
  );
  const row = hasExplanation ? (target as ChanceRow) : data;
  const e = row ? explain(row) : null;
  const usedYears = e ? e.years.filter((y) => (y.weight ?? 0) > 0) : [];
  const rankMethod = e?.method === 'rank';
  const year = row ? figureYear(row) : null;
  const examYear = row ? targetYearOf(row) : null;
  const forTarget = examYear != null ? `${examYear} ` : '';

  return (
    <Modal
      open={Boolean(target)}
      title={target ? `录取率 · ${target.schoolName}${target.majorName ? ` · ${target.majorName}` : ''}` : '录取率'}
      onCancel={onClose}
      width={680}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={onClose}>关闭</Button>
          {onAdd && row ? (
            <Button type="primary" disabled={!canAdd} onClick={() => onAdd(row)}>
              加入志愿表
            </Button>
          ) : null}
        </Space>
      }
    >
      <Spin spinning={loading} tip="正在计算录取概率...">
        <RetryAlert error={error} title="录取率计算失败" onRetry={reload} />
        {row && e ? (
          <>
            <div style={{ display: 'flex', alignItems: 'center', gap: 16, padding: '8px 0 16px' }}>
              <div style={{ fontSize: 32, lineHeight: 1 }}>
                <Probability probability={row.probability} text={row.probabilityText} tier={row.tier} />
              </div>
              <TierTag tier={row.tier} />
              <Typography.Text type="secondary">
                {examYear != null ? `${examYear}年录取概率。` : ''}
                {row.tier ? TIER_STYLE[row.tier].hint : '历年数据不足，无法估算录取概率'}
              </Typography.Text>
            </div>
            <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 8, marginBottom: 12 }}>
              <Typography.Text>
                最近一年：<b>{lineFigures({ year, minScore: row.minScore, minRank: row.minRank })}</b>
              </Typography.Text>
              {row.majorCode ? <Typography.Text type="secondary">专业代号 {row.majorCode}</Typography.Text> : null}
              <SubjectReq subjectReq={row.subjectReq} />
              <LineFlagTags row={{ ...row, year }} />
            </div>
            <Descriptions size="small" bordered column={2}>
              <Descriptions.Item label="计算方法">{e.methodName}</Descriptions.Item>
              {/* The years the estimate rests on (weight > 0); the full history is the table below. */}
              <Descriptions.Item label="估计所用年份">
                {usedYears.length ? `${usedYears.map((y) => y.year).join('、')}（${usedYears.length}年数据）` : '--'}
              </Descriptions.Item>
              <Descriptions.Item label={rankMethod ? `${forTarget}估计位次` : `${forTarget}估计线差`}>
                {rankMethod ? formatRank(e.estimate) : (e.estimate ?? '--')}
              </Descriptions.Item>
              {e.calibrated ? (
                <Descriptions.Item label="波动依据">{e.cell ?? '--'}</Descriptions.Item>
              ) : (
                <Descriptions.Item label="标准差 σ">{e.sigma ?? '--'}</Descriptions.Item>
              )}
              <Descriptions.Item label={rankMethod ? '学生位次' : '学生线差'}>
                {rankMethod ? formatRank(e.student ?? studentRank) : (e.student ?? '--')}
              </Descriptions.Item>
              <Descriptions.Item label="学生分数">{studentScore ?? '--'}</Descriptions.Item>
            </Descriptions>
            <Table
              style={{ marginTop: 16 }}
              size="small"
              rowKey="year"
              pagination={false}
              dataSource={e.years}
              locale={{ emptyText: '没有可用的历年录取数据' }}
              columns={[
                { title: '年份', dataIndex: 'year' },
                { title: '权重', dataIndex: 'weight', render: (w: number | null) => (w == null ? '--' : `${Math.round(w * 100)}%`) },
                { title: '最低分 · 位次', key: 'line', render: (_v, y) => lineFigures(y) },
              ]}
            />
            {row.years && row.years.length > 0 ? (
              <div style={{ marginTop: 12 }}>
                <Typography.Text strong>历年录取（同一专业，按年份）</Typography.Text>
                <ul aria-label="历年录取" style={{ margin: '4px 0 0', paddingLeft: 20, fontVariantNumeric: 'tabular-nums' }}>
                  {row.years.map((y) => (
                    <li key={y.year}>{historyFigures(y, row.majorName)}</li>
                  ))}
                </ul>
              </div>
            ) : null}
            {e.text ? <Alert style={{ marginTop: 16 }} type="info" message={e.text} /> : null}
            <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0, fontSize: 12 }}>
              {e.calibrated
                ? '概率 = 该专业明年最低位次不高于学生位次的可能：以最近一年最低位次为估计（按计划数变化微调），波动取自同一位次段历年同类专业的实际涨跌（含整体年份波动），按已导入各年的山东真实数据校准。'
                : rankMethod
                  ? '概率 = Φ((估计录取位次 − 学生位次) / σ)：近三年最低位次按 50%/30%/20% 加权，σ 取历年波动与估计位次 5% 中较大者。'
                  : '概率 = Φ((学生线差 − 估计线差) / σ)：线差 = 分数 − 批次线，近三年按 50%/30%/20% 加权，σ 至少 5 分。'}
            </Typography.Paragraph>
            <div style={{ marginTop: 8 }}>
              <TierLegend />
            </div>
          </>
        ) : null}
      </Spin>
    </Modal>
  );
}
