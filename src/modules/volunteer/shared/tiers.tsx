import { Space, Tag, Tooltip } from 'antd';
import type { Tier } from '@/api/volunteer';

/**
 * Tier colours used everywhere a 冲/稳/保 appears: 冲 red (a reach, risky), 稳 blue (a fair match), 保 green (safe).
 * Text colour, a light background for table rows, and the definition from the engine's bands.
 */
export const TIER_STYLE: Record<Tier, { color: string; bg: string; tag: string; hint: string }> = {
  冲: { color: '#cf1322', bg: '#fff1f0', tag: 'red', hint: '冲刺：录取概率低于 40%' },
  稳: { color: '#0958d9', bg: '#e6f4ff', tag: 'blue', hint: '稳妥：录取概率 40%–80%' },
  保: { color: '#389e0d', bg: '#f6ffed', tag: 'green', hint: '保底：录取概率高于 80%' },
};

/** A coloured 冲/稳/保 tag; "—" when the data allow no estimate. */
export function TierTag({ tier }: { tier: Tier | null | undefined }) {
  if (!tier) {
    return (
      <Tooltip title="历年数据不足，无法估算">
        <Tag>—</Tag>
      </Tooltip>
    );
  }
  return (
    <Tooltip title={TIER_STYLE[tier].hint}>
      <Tag color={TIER_STYLE[tier].tag} style={{ marginInlineEnd: 0, fontWeight: 600 }}>
        {tier}
      </Tag>
    </Tooltip>
  );
}

/** The legend shown above the options table and the plan. */
export function TierLegend() {
  return (
    <Space size={12} wrap aria-label="梯度图例" style={{ fontSize: 12, color: 'rgba(0,0,0,.65)' }}>
      {(Object.keys(TIER_STYLE) as Tier[]).map((t) => (
        <span key={t}>
          <Tag color={TIER_STYLE[t].tag} style={{ marginInlineEnd: 4, fontWeight: 600 }}>
            {t}
          </Tag>
          {TIER_STYLE[t].hint.replace(/^.+：/, '')}
        </span>
      ))}
    </Space>
  );
}

/** "42.62%" from the server's text, else computed; "—" for no estimate. */
export function probabilityLabel(probability: number | null | undefined, text?: string | null): string {
  if (text) return text;
  if (probability == null) return '—';
  return `${Math.min(99.99, Math.max(0.01, probability * 100)).toFixed(2)}%`;
}

/** The probability in its tier's colour. */
export function Probability({ probability, text, tier }: { probability: number | null | undefined; text?: string | null; tier: Tier | null | undefined }) {
  return (
    <span style={{ color: tier ? TIER_STYLE[tier].color : undefined, fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}>
      {probabilityLabel(probability, text)}
    </span>
  );
}
