import { Segmented, Typography } from 'antd';
import type { ReactNode } from 'react';
import { TIERS, type Tier } from '@/api/volunteer';
import { TIER_STYLE } from '../shared/tiers';

/**
 * The bar above an options table (志愿填报, 院校专业组): 全部 / 冲 / 稳 / 保 tabs with their counts, the board's own
 * switches (`children`), and how many options the query found (or that it is still computing).
 */
export function TierBar(props: {
  value: Tier | 'all';
  onChange: (tier: Tier | 'all') => void;
  counts: Record<Tier, number>;
  loading: boolean;
  total: number;
  children?: ReactNode;
}) {
  const { value, onChange, counts, loading, total, children } = props;
  const tabs = [
    { value: 'all', label: `全部 ${counts.冲 + counts.稳 + counts.保}` },
    ...TIERS.map((t) => ({
      value: t,
      label: (
        <span style={{ color: TIER_STYLE[t].color, fontWeight: 600 }}>
          {t} {counts[t]}
        </span>
      ),
    })),
  ];
  return (
    <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 8, margin: '8px 0' }}>
      <Segmented aria-label="梯度" value={value} options={tabs} onChange={(v) => onChange(v as Tier | 'all')} />
      {children}
      <Typography.Text type="secondary" style={{ marginLeft: 'auto' }} aria-live="polite">
        {loading ? '正在计算录取概率...' : `共 ${total.toLocaleString('zh-CN')} 条`}
      </Typography.Text>
    </div>
  );
}
