import type { PlanSimulationView } from '@common/volunteer/planSimulation';
import { BarChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useMemo, useRef } from 'react';
import type { PlanReportItem } from '@/api/volunteer';
import { TIER_STYLE } from '../shared/tiers';

echarts.use([BarChart, GridComponent, TooltipComponent, SVGRenderer]);

const share = (p: number) => `${(Math.round(p * 1000) / 10).toFixed(1)}%`;
const IDLE_COLOR = '#d9d9d9';
const SLIDE_COLOR = '#820014';

interface Bar {
  label: string;
  name: string;
  value: number;
  color: string;
  note: string | null;
}

/** The bars: one per choice in plan order (its landing share), then 滑档. */
function barsOf(simulation: PlanSimulationView, items: readonly PlanReportItem[]): Bar[] {
  const bySort = new Map(items.map((i) => [i.sort, i]));
  const bars = simulation.choices.map((c): Bar => {
    const it = bySort.get(c.sort);
    const name = it ? [it.schoolName, it.majorName].filter(Boolean).join(' ') : '';
    const note = !c.simulated ? '无法模拟（已失效或缺少历年数据），按不录取计' : c.idle;
    return {
      label: String(c.sort),
      name: `第${c.sort}个志愿 ${name}`.trim(),
      value: c.landing,
      color: note ? IDLE_COLOR : it?.tier ? TIER_STYLE[it.tier].color : '#8c8c8c',
      note,
    };
  });
  bars.push({ label: '滑档', name: '滑档（所有志愿都未被录取）', value: simulation.slide, color: SLIDE_COLOR, note: null });
  return bars;
}

/**
 * 落点分布: where the simulated years land the student, a bar per choice in plan order and 滑档 as the last, labelled
 * bar. Choices the simulation calls idle are grey, their reason listed below the chart and in the bar's tooltip.
 * ECharts with the SVG renderer, like TierChart.
 */
export function LandingChart({ simulation, items, height = 240 }: { simulation: PlanSimulationView; items: readonly PlanReportItem[]; height?: number }) {
  const box = useRef<HTMLDivElement>(null);
  const bars = useMemo(() => barsOf(simulation, items), [simulation, items]);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const chart = echarts.init(el, undefined, { renderer: 'svg' });
    const last = bars.length - 1;
    const topIndex = bars.slice(0, last).reduce((best, b, i) => (b.value > bars[best].value ? i : best), 0);
    chart.setOption({
      // Room on the right for the 「滑档 0.4%」 label over the last bar, below for the axis name under the numbers.
      grid: { left: 44, right: 28, top: 28, bottom: 40 },
      tooltip: {
        trigger: 'item',
        formatter: (p: { dataIndex: number }) => {
          const b = bars[p.dataIndex];
          return [`${b.name}：${share(b.value)}`, b.note].filter(Boolean).join('<br/>');
        },
      },
      xAxis: {
        type: 'category',
        data: bars.map((b) => b.label),
        axisTick: { show: false },
        // Under the numbers: at the axis's end it ran into the 滑档 bar's label.
        name: '志愿序号',
        nameLocation: 'middle',
        nameGap: 22,
        // The first and every fifth order number. The 滑档 bar is named by its own label above it (「滑档 0.4%」), not
        // again under the axis, where it would crowd the 95 of a 96-choice plan.
        axisLabel: { interval: (i: number) => i !== last && (i === 0 || (i + 1) % 5 === 0) },
      },
      yAxis: { type: 'value', min: 0, axisLabel: { formatter: (v: number) => `${Math.round(v * 100)}%` } },
      series: [
        {
          type: 'bar',
          barMaxWidth: 28,
          data: bars.map((b, i) => ({
            value: b.value,
            itemStyle: { color: b.color },
            // Only the most likely landing and 滑档 carry their figure (neighbouring labels would cover each other);
            // every bar has its figure in the tooltip.
            label: { show: i === last || i === topIndex, position: 'top', fontSize: 11, formatter: i === last ? `滑档 ${share(b.value)}` : share(b.value) },
          })),
        },
      ],
    });
    const observer = new ResizeObserver(() => chart.resize());
    observer.observe(el);
    return () => {
      observer.disconnect();
      chart.dispose();
    };
  }, [bars]);

  // The idle choices by reason, as 第3、第7个志愿.
  const idle = new Map<string, number[]>();
  for (const b of bars) if (b.note) idle.set(b.note, [...(idle.get(b.note) ?? []), Number(b.label)]);
  const top = bars.slice(0, -1).reduce<Bar | null>((best, b) => (!best || b.value > best.value ? b : best), null);
  return (
    <div data-testid="landing-chart">
      <div
        ref={box}
        style={{ height, width: '100%' }}
        role="img"
        aria-label={`${simulation.year}年模拟的落点分布：被录取 ${share(simulation.admitted)}，滑档 ${share(simulation.slide)}${
          top && top.value > 0 ? `；最常落在${top.name}（${share(top.value)}）` : ''
        }`}
      />
      {[...idle].map(([reason, sorts]) => (
        <div key={reason} style={{ fontSize: 12, color: '#8c8c8c', display: 'flex', gap: 6, alignItems: 'baseline' }}>
          <span style={{ display: 'inline-block', width: 10, height: 10, background: IDLE_COLOR, flex: 'none' }} />
          <span>
            {sorts.length} 个志愿（第 {rangeText(sorts)} 个）：{reason}
          </span>
        </div>
      ))}
    </div>
  );
}

/** "3、5–9、12": consecutive order numbers as a range. */
function rangeText(sorts: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < sorts.length; ) {
    let j = i;
    while (j + 1 < sorts.length && sorts[j + 1] === sorts[j] + 1) j++;
    out.push(j > i ? `${sorts[i]}–${sorts[j]}` : String(sorts[i]));
    i = j + 1;
  }
  return out.join('、');
}
