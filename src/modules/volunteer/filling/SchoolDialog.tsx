import type { SchoolReferenceView } from '@common/volunteer/schoolReference';
import { Descriptions, Modal, Space, Spin, Tabs, Tag, Typography } from 'antd';
import { type ChanceRow, schoolHome } from '@/api/volunteer';
import { loadSchoolHistory } from '../school/api';
import { SchoolHistory } from '../school/SchoolHistory';
import { SchoolPlans } from '../school/SchoolPlans';
import { DoubleFirstClassPanel, EvaluationPanel, SchoolRank } from '../school/SchoolReference';
import { formatRank } from '../shared/format';
import { RetryAlert } from '../shared/RetryAlert';
import { useLoad } from '../shared/useLoad';
import { OptionLinesTable } from './OptionLinesTable';

export interface SchoolDialogProps {
  schoolCode: string | null;
  studentId: number;
  inPlan: ReadonlySet<number>;
  canAdd: boolean;
  onAdd: (row: ChanceRow) => void;
  onChance: (row: ChanceRow) => void;
  onClose: () => void;
}

/**
 * 院校详情: profile, the school's majors with the student's chances, 历年分数线 (one row per programme over every loaded
 * year, chart and table; a school without lines says so), plan counts, and those of the eight strength tabs (0–7) that
 * have data — a strength tab without data is left out, not shown as 暂无. The 院校百科 parts (软科 2026 rank, 双一流 2022,
 * 第四轮学科评估 2017) are drawn from the answer's `reference` (../school/SchoolReference.tsx).
 */
export function SchoolDialog({ schoolCode, studentId, inPlan, canAdd, onAdd, onChance, onClose }: SchoolDialogProps) {
  const { data, loading, error, reload } = useLoad(() => schoolHome(schoolCode ?? '', studentId), Boolean(schoolCode), [schoolCode, studentId]);
  const history = useLoad(() => loadSchoolHistory(schoolCode ?? ''), Boolean(schoolCode), [schoolCode]);
  const school = data?.school;
  const profile = history.data?.school;
  const hasPlans = Boolean(history.data?.plans.some((p) => p.planTotal != null));
  return (
    <Modal open={Boolean(schoolCode)} title={school ? school.name : '院校详情'} onCancel={onClose} footer={null} width={960} destroyOnHidden>
      <Spin spinning={loading} tip="正在加载院校信息...">
        <RetryAlert error={error} title="院校信息加载失败" onRetry={reload} />
        {data && school ? (
          <>
            <Space wrap style={{ marginBottom: 12 }}>
              {school.tags.map((t) => (
                <Tag key={t} color="gold">
                  {t}
                </Tag>
              ))}
              <Typography.Text type="secondary">
                {[school.province, school.city].filter(Boolean).join(' · ') || '所在地未知'}
                {profile?.ownership ? ` · ${profile.ownership}` : school.isPublic == null ? '' : school.isPublic ? ' · 公办' : ' · 民办'}
                {school.level ? ` · ${school.level}` : ''}
                {profile?.authority ? ` · 主管部门：${profile.authority}` : ''}
              </Typography.Text>
            </Space>
            {data.reference?.bcur ? (
              <div style={{ marginBottom: 8 }}>
                <SchoolRank reference={data.reference} />
              </div>
            ) : null}
            <Descriptions size="small" column={4} bordered style={{ marginBottom: 12 }}>
              <Descriptions.Item label="院校代码">{school.schoolCode}</Descriptions.Item>
              <Descriptions.Item label={`${data.stats.year}年专业数`}>{data.stats.majorCount}</Descriptions.Item>
              <Descriptions.Item label="分数范围">
                {data.stats.minScore ?? '--'} – {data.stats.maxScore ?? '--'}
              </Descriptions.Item>
              <Descriptions.Item label="最低位次">{formatRank(data.stats.minRank)}</Descriptions.Item>
            </Descriptions>
            <Tabs
              items={[
                {
                  key: 'lines',
                  label: '招生专业与录取率',
                  children: <OptionLinesTable rows={data.lines} show="major" inPlan={inPlan} canAdd={canAdd} onAdd={onAdd} onChance={onChance} />,
                },
                // Shown once loaded even without lines: the tab then says the school has no data (not left out silently).
                ...(history.data ? [{ key: 'history', label: '历年分数线', children: <SchoolHistory data={history.data} /> }] : []),
                ...(history.data && hasPlans ? [{ key: 'plans', label: '招生计划', children: <SchoolPlans plans={history.data.plans} /> }] : []),
                ...data.tabs
                  .filter((t) => t.available)
                  .map((t) => ({
                    key: t.key,
                    label: t.name,
                    children: panelOf(t.key, data.reference) ?? (
                      <Typography.Paragraph type={t.available ? undefined : 'secondary'} style={{ whiteSpace: 'pre-wrap', minHeight: 120 }}>
                        {t.content}
                      </Typography.Paragraph>
                    ),
                  })),
              ]}
            />
          </>
        ) : null}
      </Spin>
    </Modal>
  );
}

/** The structured view of a strength tab the reference data fills (else the tab's text is shown). */
function panelOf(key: string, reference: SchoolReferenceView | undefined) {
  if (!reference) return null;
  if (key === 'doubleFirstClass' && reference.doubleFirstClass) return <DoubleFirstClassPanel reference={reference} />;
  if (key === 'evaluation' && reference.evaluation.list.length) return <EvaluationPanel reference={reference} />;
  return null;
}
