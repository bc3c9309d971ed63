import { PieChart } from 'echarts/charts';
import { LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import type { Tier, TierCounts } from '@/api/volunteer';
import { TIER_STYLE } from '../shared/tiers';

echarts.use([PieChart, LegendComponent, TooltipComponent, SVGRenderer]);

/** The plan's 冲/稳/保 distribution as a doughnut in the tier colours (ECharts, SVG renderer). */
export function TierChart({ counts, height = 260 }: { counts: TierCounts; height?: number }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const chart = echarts.init(el, undefined, { renderer: 'svg' });
    const tiers: Tier[] = ['冲', '稳', '保'];
    chart.setOption({
      tooltip: { trigger: 'item', formatter: '{b}：{c} 个（{d}%）' },
      legend: { bottom: 0 },
      series: [
        {
          type: 'pie',
          radius: ['45%', '70%'],
          center: ['50%', '45%'],
          label: { formatter: '{b} {c}' },
          data: [
            ...tiers.map((t) => ({ name: t, value: counts[t] ?? 0, itemStyle: { color: TIER_STYLE[t].color } })),
            ...(counts.none ? [{ name: '无法估算', value: counts.none, itemStyle: { color: '#bfbfbf' } }] : []),
          ],
        },
      ],
    });
    const observer = new ResizeObserver(() => chart.resize());
    observer.observe(el);
    return () => {
      observer.disconnect();
      chart.dispose();
    };
  }, [counts]);
  return <div ref={box} style={{ height, width: '100%' }} role="img" aria-label={`梯度分布：冲 ${counts.冲} 个，稳 ${counts.稳} 个，保 ${counts.保} 个`} />;
}
