import type { ChanceQuery } from '@common/volunteer/chances';
import type { DisciplineNode } from '@common/volunteer/majorClasses';
import { Alert, Button, Checkbox, Form, InputNumber, Modal, Radio, Select, Space, Table, Tag, Tooltip, TreeSelect, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import {
  type AutofillProposal,
  type AutofillQuery,
  autofillProposal,
  type ChanceRow,
  type FilterChoices,
  majorClassTree,
  type PlanReportItem,
  TIERS,
  type Tier,
} from '@/api/volunteer';
import { figureYear, lineFigures, targetYearOf } from '../shared/format';
import { LineFlagTags } from '../shared/lineTags';
import { Probability, TIER_STYLE, TierTag } from '../shared/tiers';
import { LandingChart } from './LandingChart';

export interface AutofillDialogProps {
  open: boolean;
  studentId: number;
  slotLimit: number;
  /** The filling page's current filters, applied when 按当前筛选条件 is ticked. */
  filters: ChanceQuery;
  readOnly: boolean;
  currentCount: number;
  /** The filling page's filter choices (its regions with their line counts), already loaded by the page. */
  choices?: FilterChoices | null;
  /** The plan's current choices, which the expert may lock in place before re-optimising the rest. */
  currentItems?: ReadonlyArray<{ lineId: number; schoolName: string | null; majorName: string | null }>;
  onApply: (rows: ChanceRow[], replace: boolean) => void;
  onClose: () => void;
}

const PRESETS: Array<{ name: string; counts: Record<Tier, number> }> = [
  { name: '均衡', counts: { 冲: 20, 稳: 40, 保: 36 } },
  { name: '稳妥', counts: { 冲: 12, 稳: 40, 保: 44 } },
  { name: '冲刺', counts: { 冲: 32, 稳: 36, 保: 28 } },
];

interface Values {
  strategy: 'landing' | 'tiers';
  counts: Record<Tier, number>;
  useFilters: boolean;
  allowWasteful: boolean;
  regions: string[];
  publicOnly: boolean;
  majorClass: string[];
  majorClassOnly: boolean;
  avoidClass: string[];
  /** Percent. */
  chongFloor: number;
  /** Percent. */
  slideTarget: number;
  maxPerSchool: number;
  /** Line ids of current choices kept in their places. */
  locked: number[];
}

/** Short labels of the cautions (server/volunteer/cautions.ts). */
const CAUTION_LABEL: Record<string, string> = {
  volatile: '波动大',
  'single-place': '招生少',
  fee: '学费高',
  'military-police': '政审体检',
  'subject-unknown': '选科未知',
};

/** The 说明 tags close together (the Space sets the gap, not each tag's own right margin). */
const WHY_TAG = { marginInlineEnd: 0 };

const pct = (p: number) => `${(Math.round(p * 1000) / 10).toFixed(1)}%`;

/** The 门类 → 专业类 picker's tree (a 门类 code picks every class in it). */
function classTreeData(tree: readonly DisciplineNode[]) {
  return tree.map((d) => ({
    title: `${d.name}（门类）`,
    value: d.code,
    children: d.classes.map((c) => ({ title: c.name, value: c.code })),
  }));
}

/**
 * 智能填报: by default the plan is chosen and ordered for the best place the student can safely reach (the family's
 * regions, 公办, 专业类, a 冲 floor and a 滑档 target; locked choices stay), or by fixed 冲/稳/保 counts; the proposal
 * shows its simulated landing and why, then replaces or extends the plan (saved with 保存).
 */
export function AutofillDialog({
  open,
  studentId,
  slotLimit,
  filters,
  readOnly,
  currentCount,
  choices = null,
  currentItems = [],
  onApply,
  onClose,
}: AutofillDialogProps) {
  const [form] = Form.useForm<Values>();
  const [proposal, setProposal] = useState<AutofillProposal | null>(null);
  const [loading, setLoading] = useState(false);
  const [tree, setTree] = useState<DisciplineNode[]>([]);
  const strategy = Form.useWatch('strategy', form) ?? 'landing';
  const counts = Form.useWatch('counts', form);
  const total = counts ? TIERS.reduce((s, t) => s + (counts[t] ?? 0), 0) : 0;
  const sumError = strategy === 'tiers' && total > slotLimit ? `三档合计 ${total} 个，超过上限 ${slotLimit} 个，请减少` : null;

  useEffect(() => {
    if (!open) return;
    let live = true;
    majorClassTree()
      .then((t) => live && setTree(t))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [open]);
  const treeData = useMemo(() => classTreeData(tree), [tree]);
  const regionOptions = useMemo(
    () => (choices?.regions ?? []).filter((r) => r.value).map((r) => ({ value: r.value as string, label: `${r.label}（${r.count}）` })),
    [choices],
  );

  const run = async (v: Values) => {
    if (sumError) return;
    if (v.strategy === 'tiers' && total === 0) {
      form.setFields([{ name: ['counts', '冲'], errors: ['请至少填写一个志愿数'] }]);
      return;
    }
    setLoading(true);
    try {
      const { studentId: _s, pageNum: _p, pageSize: _z, all: _a, explain: _e, tier: _t, ...rest } = filters;
      const base = { ...(v.useFilters ? rest : {}), studentId };
      const query: AutofillQuery =
        v.strategy === 'tiers'
          ? { ...base, strategy: 'tiers', counts: v.counts, allowWasteful: v.allowWasteful }
          : {
              ...base,
              strategy: 'landing',
              ...(v.regions.length ? { region: v.regions } : {}),
              ...(v.publicOnly ? { isPublic: 1 } : {}),
              majorClass: v.majorClass,
              majorClassOnly: v.majorClassOnly ? 1 : 0,
              avoidClass: v.avoidClass,
              chongFloor: v.chongFloor / 100,
              slideTarget: v.slideTarget / 100,
              maxPerSchool: v.maxPerSchool,
              locked: v.locked.map((id) => ({ lineId: id, sort: currentItems.findIndex((i) => i.lineId === id) + 1 })).filter((l) => l.sort > 0),
            };
      setProposal(await autofillProposal(query));
    } catch {
      // shown by the http layer
    } finally {
      setLoading(false);
    }
  };

  const target = proposal?.items.length ? targetYearOf(proposal.items[0]) : null;

  // 追加 adds only what the plan lacks, up to its free places (the locked choices are already in it).
  const inPlan = new Set(currentItems.map((i) => i.lineId));
  const additions = proposal ? proposal.items.filter((r) => !inPlan.has(r.lineId)) : [];
  const free = Math.max(0, slotLimit - currentCount);
  const apply = (replace: boolean) => {
    if (!proposal) return;
    onApply(replace ? proposal.items : additions.slice(0, free), replace);
    setProposal(null);
    onClose();
  };

  return (
    <Modal
      open={open}
      title="智能填报"
      // Wide enough for the three pickers on one row, and for a proposal row's name, major and its tags (锁定, 意向专业,
      // a caution) side by side rather than stacked.
      width={1000}
      onCancel={onClose}
      destroyOnHidden
      footer={
        proposal ? (
          <Space>
            <Button onClick={() => setProposal(null)}>重新设置</Button>
            <Button disabled={readOnly || additions.length === 0 || free === 0} onClick={() => apply(false)}>
              {free === 0 ? '志愿表已满，不能追加' : `追加到志愿表（${Math.min(free, additions.length)} 个）`}
            </Button>
            <Button type="primary" disabled={readOnly || proposal.items.length === 0} onClick={() => apply(true)}>
              替换志愿表（{proposal.items.length} 个）
            </Button>
          </Space>
        ) : (
          <Space>
            <Button onClick={onClose}>取消</Button>
            <Button type="primary" loading={loading} onClick={() => form.submit()}>
              生成方案
            </Button>
          </Space>
        )
      }
    >
      {readOnly ? <Alert type="warning" showIcon message="志愿方案已提交或已通过审核，只能查看建议，不能写入志愿表" style={{ marginBottom: 12 }} /> : null}
      <div style={{ display: proposal ? 'none' : undefined }}>
        <Form<Values>
          form={form}
          layout="vertical"
          initialValues={{
            strategy: 'landing',
            counts: PRESETS[0].counts,
            useFilters: false,
            allowWasteful: false,
            regions: [],
            publicOnly: false,
            majorClass: [],
            majorClassOnly: false,
            avoidClass: [],
            chongFloor: 15,
            slideTarget: 0.5,
            maxPerSchool: 3,
            locked: [],
          }}
          onFinish={run}
          disabled={loading}
        >
          <Form.Item name="strategy" label="填报方式" style={{ marginBottom: 12 }}>
            <Radio.Group
              optionType="button"
              options={[
                { value: 'landing', label: '按录取去向优化（推荐）' },
                { value: 'tiers', label: '按冲稳保数量' },
              ]}
            />
          </Form.Item>
          {strategy === 'landing' ? (
            <>
              <Typography.Paragraph type="secondary" style={{ marginTop: -4 }}>
                模拟多种录取年份，选出并排序志愿，使考生最终被录取的院校专业尽量好，同时把滑档风险控制在目标以内；越想去的排在越前。
              </Typography.Paragraph>
              <Space size="middle" wrap align="start">
                <Form.Item name="regions" label="院校所在地区" style={{ width: 300 }}>
                  <Select mode="multiple" allowClear placeholder="不限（默认按学生意向）" options={regionOptions} optionFilterProp="label" />
                </Form.Item>
                <Form.Item name="majorClass" label="想学的专业类" style={{ width: 340 }}>
                  <TreeSelect treeData={treeData} multiple allowClear showSearch treeNodeFilterProp="title" placeholder="例如 计算机类、电子信息类" />
                </Form.Item>
                <Form.Item name="avoidClass" label="不考虑的专业类" style={{ width: 260 }}>
                  <TreeSelect treeData={treeData} multiple allowClear showSearch treeNodeFilterProp="title" placeholder="不限" />
                </Form.Item>
              </Space>
              {/* A row of its own (Space is inline): the numbers below start on the next line. */}
              <Space size="large" wrap style={{ display: 'flex' }}>
                <Form.Item name="publicOnly" valuePropName="checked" style={{ marginBottom: 8 }}>
                  <Checkbox>只要公办院校</Checkbox>
                </Form.Item>
                <Form.Item name="majorClassOnly" valuePropName="checked" style={{ marginBottom: 8 }}>
                  <Checkbox>只填所选专业类</Checkbox>
                </Form.Item>
              </Space>
              <Space size="large" wrap>
                <Form.Item name="chongFloor" label="冲刺志愿最低录取概率">
                  <InputNumber min={5} max={50} precision={0} addonAfter="%" style={{ width: 130 }} />
                </Form.Item>
                <Form.Item name="slideTarget" label="滑档风险不超过">
                  <InputNumber min={0} max={5} step={0.1} precision={1} addonAfter="%" style={{ width: 130 }} />
                </Form.Item>
                <Form.Item name="maxPerSchool" label="每所院校最多">
                  <InputNumber min={1} max={20} precision={0} addonAfter="个" style={{ width: 120 }} />
                </Form.Item>
              </Space>
              <Form.Item
                name="locked"
                label={`锁定志愿（保持原位，其余重新优化；当前志愿表 ${currentCount} 个）`}
                extra={
                  currentCount > 0 && currentCount < slotLimit
                    ? `未锁定的志愿不保留：「替换志愿表」覆盖现有 ${currentCount} 个；「追加到志愿表」只补满剩余 ${slotLimit - currentCount} 个位置`
                    : undefined
                }
              >
                <Select
                  mode="multiple"
                  allowClear
                  placeholder={currentItems.length ? '选择要保留的志愿' : '志愿表为空'}
                  disabled={!currentItems.length}
                  optionFilterProp="label"
                  options={currentItems.map((it, i) => ({
                    value: it.lineId,
                    label: `第${i + 1}个 ${[it.schoolName, it.majorName].filter(Boolean).join(' ')}`,
                  }))}
                />
              </Form.Item>
            </>
          ) : (
            <>
              <Space style={{ marginBottom: 12 }} wrap>
                <Typography.Text type="secondary">预设：</Typography.Text>
                {PRESETS.map((p) => (
                  <Button key={p.name} size="small" onClick={() => form.setFieldValue('counts', p.counts)}>
                    {p.name}（{TIERS.map((t) => p.counts[t]).join('/')}）
                  </Button>
                ))}
              </Space>
              <Space size="large" wrap>
                {TIERS.map((t) => (
                  <Form.Item
                    key={t}
                    label={
                      <span style={{ color: TIER_STYLE[t].color, fontWeight: 600 }}>
                        {t}（{TIER_STYLE[t].hint.replace(/^.+：/, '')}）
                      </span>
                    }
                    name={['counts', t]}
                    rules={[{ required: true, message: `请输入${t}的个数` }]}
                  >
                    <InputNumber min={0} max={slotLimit} precision={0} addonAfter="个" style={{ width: 140 }} />
                  </Form.Item>
                ))}
              </Space>
              <Typography.Paragraph type={sumError ? 'danger' : 'secondary'} role={sumError ? 'alert' : undefined}>
                {sumError ?? `合计 ${total} 个，上限 ${slotLimit} 个；当前志愿表已有 ${currentCount} 个。`}
              </Typography.Paragraph>
            </>
          )}
          <Form.Item name="useFilters" valuePropName="checked" style={{ marginBottom: 4 }}>
            <Checkbox>按当前筛选条件（地区、标签、院校/专业名称等）挑选</Checkbox>
          </Form.Item>
          {strategy === 'tiers' ? (
            <Form.Item name="allowWasteful" valuePropName="checked" style={{ marginBottom: 0 }}>
              <Checkbox>保底不足时，允许使用分数明显偏低的院校</Checkbox>
            </Form.Item>
          ) : null}
        </Form>
      </div>
      {proposal ? (
        <>
          {proposal.simulation ? (
            <Alert
              type={proposal.simulation.slide > 0.005 ? 'warning' : 'success'}
              showIcon
              style={{ marginBottom: 8 }}
              message={`${proposal.simulation.year}年模拟 ${proposal.simulation.draws.toLocaleString('en-US')} 次平行投档：被录取 ${pct(proposal.simulation.admitted)}，滑档 ${pct(proposal.simulation.slide)}；录取落在冲 ${pct(proposal.simulation.byTier.冲)}、稳 ${pct(proposal.simulation.byTier.稳)}、保 ${pct(proposal.simulation.byTier.保)}`}
            />
          ) : null}
          {proposal.explanation.length ? (
            <ul className="zy-autofill-explanation" style={{ margin: '0 0 8px', paddingLeft: 20 }}>
              {proposal.explanation.map((line) => (
                <li key={line}>
                  <Typography.Text type="secondary">{line}</Typography.Text>
                </li>
              ))}
            </ul>
          ) : null}
          {proposal.simulation ? <LandingChart simulation={proposal.simulation} items={proposal.items as unknown as PlanReportItem[]} height={200} /> : null}
          <Space wrap style={{ marginBottom: 8 }}>
            {proposal.shortfalls.map((s) => (
              <Tag key={s.tier} color={s.missing > 0 ? 'orange' : TIER_STYLE[s.tier].tag}>
                {s.tier}：要 {s.requested}，本档 {s.own}
                {s.borrowed ? `，借 ${s.borrowed}` : ''}
                {s.missing ? `，缺 ${s.missing}` : ''}
              </Tag>
            ))}
          </Space>
          {proposal.notes.length > 0 ? <Alert type="info" showIcon message={proposal.notes.join('；')} style={{ marginBottom: 8 }} /> : null}
          <Table
            rowKey="lineId"
            size="small"
            virtual
            scroll={{ y: 360 }}
            pagination={false}
            dataSource={proposal.items}
            columns={[
              { title: '序号', dataIndex: 'sort', width: 60 },
              { title: '院校', dataIndex: 'schoolName', ellipsis: true },
              {
                title: '专业',
                dataIndex: 'majorName',
                ellipsis: true,
                render: (v: string | null, r) => (
                  <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4, maxWidth: '100%' }}>
                    <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{v || '--'}</span>
                    <LineFlagTags row={{ ...r, year: figureYear(r) }} />
                  </span>
                ),
              },
              {
                title: '最低分 · 位次',
                key: 'line',
                width: 170,
                render: (_v, r) => lineFigures({ year: figureYear(r), minScore: r.minScore, minRank: r.minRank }),
              },
              { title: '梯度', dataIndex: 'tier', width: 70, render: (t) => <TierTag tier={t} /> },
              proposal.strategy === 'tiers'
                ? { title: '补位', dataIndex: 'filledFor', width: 70, render: (f: Tier, r) => (f !== r.tier ? `补${f}` : '') }
                : {
                    title: '说明',
                    key: 'why',
                    // Three tags (意向专业, 招生少, 学费高) on one line: a row of the list stays one line high.
                    width: 190,
                    render: (_v, r) => (
                      <Space size={3} wrap>
                        {r.locked ? (
                          <Tag color="blue" style={WHY_TAG}>
                            锁定
                          </Tag>
                        ) : null}
                        {r.preferred ? (
                          <Tag color="green" style={WHY_TAG}>
                            意向专业
                          </Tag>
                        ) : null}
                        {r.safety ? <Tag style={WHY_TAG}>保底</Tag> : null}
                        {(r.cautions ?? []).map((c) => (
                          <Tooltip key={c.kind} title={c.text}>
                            <Tag color="orange" style={WHY_TAG}>
                              {CAUTION_LABEL[c.kind] ?? '提示'}
                            </Tag>
                          </Tooltip>
                        ))}
                      </Space>
                    ),
                  },
              {
                title: proposal.simulation ? `${proposal.simulation.year}落点` : '落点',
                key: 'landing',
                width: 80,
                render: (_v, r) => {
                  const c = proposal.simulation?.choices.find((x) => x.sort === r.sort);
                  return c ? <Tooltip title={c.idle ?? undefined}>{c.landing < 0.001 ? '<0.1%' : pct(c.landing)}</Tooltip> : '--';
                },
              },
              {
                title: target ? `${target}概率` : '概率',
                dataIndex: 'probability',
                width: 90,
                render: (p, r) => <Probability probability={p} text={r.probabilityText} tier={r.tier} />,
              },
            ]}
          />
        </>
      ) : null}
    </Modal>
  );
}
