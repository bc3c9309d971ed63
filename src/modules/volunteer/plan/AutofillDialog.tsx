import { Alert, Button, Checkbox, Form, InputNumber, Modal, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { type AutofillProposal, autofillProposal, type ChanceQuery, type ChanceRow, TIERS, type Tier } from '@/api/volunteer';
import { figureYear, lineFigures, targetYearOf } from '../shared/format';
import { LineFlagTags } from '../shared/lineTags';
import { Probability, TIER_STYLE, TierTag } from '../shared/tiers';

export interface AutofillDialogProps {
  open: boolean;
  studentId: number;
  slotLimit: number;
  /** The filling page's current filters, applied when 按当前筛选条件 is ticked. */
  filters: ChanceQuery;
  readOnly: boolean;
  currentCount: number;
  onApply: (rows: ChanceRow[], replace: boolean) => void;
  onClose: () => void;
}

const PRESETS: Array<{ name: string; counts: Record<Tier, number> }> = [
  { name: '均衡', counts: { 冲: 20, 稳: 40, 保: 36 } },
  { name: '稳妥', counts: { 冲: 12, 稳: 40, 保: 44 } },
  { name: '冲刺', counts: { 冲: 32, 稳: 36, 保: 28 } },
];

interface Values {
  counts: Record<Tier, number>;
  useFilters: boolean;
  allowWasteful: boolean;
}

/** 智能填报: choose how many 冲/稳/保, get the engine's proposal, then replace or extend the plan (saved with 保存). */
export function AutofillDialog({ open, studentId, slotLimit, filters, readOnly, currentCount, onApply, onClose }: AutofillDialogProps) {
  const [form] = Form.useForm<Values>();
  const [proposal, setProposal] = useState<AutofillProposal | null>(null);
  const [loading, setLoading] = useState(false);
  const counts = Form.useWatch('counts', form);
  const total = counts ? TIERS.reduce((s, t) => s + (counts[t] ?? 0), 0) : 0;
  const sumError = total > slotLimit ? `三档合计 ${total} 个，超过上限 ${slotLimit} 个，请减少` : null;

  const run = async (v: Values) => {
    if (sumError) return;
    if (total === 0) {
      form.setFields([{ name: ['counts', '冲'], errors: ['请至少填写一个志愿数'] }]);
      return;
    }
    setLoading(true);
    try {
      const { studentId: _s, pageNum: _p, pageSize: _z, all: _a, explain: _e, tier: _t, ...rest } = filters;
      setProposal(await autofillProposal({ ...(v.useFilters ? rest : {}), studentId, counts: v.counts, allowWasteful: v.allowWasteful }));
    } catch {
      // shown by the http layer
    } finally {
      setLoading(false);
    }
  };

  const target = proposal?.items.length ? targetYearOf(proposal.items[0]) : null;

  const apply = (replace: boolean) => {
    if (!proposal) return;
    onApply(proposal.items, replace);
    setProposal(null);
    onClose();
  };

  return (
    <Modal
      open={open}
      title="智能填报"
      width={880}
      onCancel={onClose}
      destroyOnHidden
      footer={
        proposal ? (
          <Space>
            <Button onClick={() => setProposal(null)}>重新设置</Button>
            <Button disabled={readOnly || proposal.items.length === 0} onClick={() => apply(false)}>
              追加到志愿表
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
          initialValues={{ counts: PRESETS[0].counts, useFilters: false, allowWasteful: false }}
          onFinish={run}
          disabled={loading}
        >
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
          <Form.Item name="useFilters" valuePropName="checked" style={{ marginBottom: 4 }}>
            <Checkbox>按当前筛选条件（地区、标签、院校/专业名称等）挑选</Checkbox>
          </Form.Item>
          <Form.Item name="allowWasteful" valuePropName="checked" style={{ marginBottom: 0 }}>
            <Checkbox>保底不足时，允许使用分数明显偏低的院校</Checkbox>
          </Form.Item>
        </Form>
      </div>
      {proposal ? (
        <>
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
              { title: '补位', dataIndex: 'filledFor', width: 70, render: (f: Tier, r) => (f !== r.tier ? `补${f}` : '') },
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
