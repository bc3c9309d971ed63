import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import type { CardDaily } from '@/api/customer';

echarts.use([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

/** Activations (bars) and expiries (line) per day (ECharts, SVG renderer). */
export function DailyChart({ days, height = 360 }: { days: CardDaily['days']; height?: number }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const chart = echarts.init(el, undefined, { renderer: 'svg' });
    chart.setOption({
      tooltip: { trigger: 'axis' },
      legend: { top: 0 },
      grid: { left: 40, right: 20, top: 40, bottom: 30 },
      xAxis: { type: 'category', data: days.map((d) => d.date.slice(5)) },
      yAxis: { type: 'value', minInterval: 1 },
      series: [
        { name: '激活', type: 'bar', data: days.map((d) => d.activated), itemStyle: { color: '#409EFF' } },
        { name: '到期', type: 'line', data: days.map((d) => d.expired), itemStyle: { color: '#E6A23C' } },
      ],
    });
    const observer = new ResizeObserver(() => chart.resize());
    observer.observe(el);
    return () => {
      observer.disconnect();
      chart.dispose();
    };
  }, [days]);
  const total = (k: 'activated' | 'expired') => days.reduce((n, d) => n + d[k], 0);
  return <div ref={box} style={{ height, width: '100%' }} role="img" aria-label={`每日激活 ${total('activated')} 张，到期 ${total('expired')} 张`} />;
}
