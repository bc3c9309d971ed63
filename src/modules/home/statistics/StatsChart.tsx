import type { DayFigures, Figure } from '@common/home/statistics';
import { BarChart, LineChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import { FIGURE_TITLES } from '@/api/home';

echarts.use([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, DataZoomComponent, SVGRenderer]);

const COUNTS: Figure[] = ['newCustomers', 'activatedCards', 'submittedPlans', 'approvedPlans', 'registrations'];
const COLORS = ['#409EFF', '#67C23A', '#E6A23C', '#9B59B6', '#00CED1'];

/**
 * The figures by day (ECharts, SVG renderer): counts as bars, revenue (元) as a line on its own axis, page views
 * hidden at first (a click on the legend shows them). Loaded with a dynamic import, so only pages with a chart pay for it.
 */
export default function StatsChart({ days, height = 340 }: { days: DayFigures[]; height?: number }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const chart = echarts.init(el, undefined, { renderer: 'svg' });
    chart.setOption({
      tooltip: { trigger: 'axis' },
      legend: { top: 0, selected: { [FIGURE_TITLES.pageViews]: false } },
      grid: { left: 48, right: 60, top: 40, bottom: days.length > 45 ? 56 : 30 },
      dataZoom: days.length > 45 ? [{ type: 'slider', bottom: 8, height: 18 }] : [],
      xAxis: { type: 'category', data: days.map((d) => (days.length > 45 ? d.date : d.date.slice(5))) },
      yAxis: [
        { type: 'value', minInterval: 1, name: '数量' },
        { type: 'value', name: '元', splitLine: { show: false } },
      ],
      series: [
        ...COUNTS.map((f, i) => ({ name: FIGURE_TITLES[f], type: 'bar', data: days.map((d) => d[f]), itemStyle: { color: COLORS[i] } })),
        { name: FIGURE_TITLES.revenue, type: 'line', yAxisIndex: 1, smooth: true, data: days.map((d) => d.revenue / 100), itemStyle: { color: '#F56C6C' } },
        { name: FIGURE_TITLES.pageViews, type: 'line', data: days.map((d) => d.pageViews), itemStyle: { color: '#909399' } },
      ],
    });
    const observer = new ResizeObserver(() => chart.resize());
    observer.observe(el);
    return () => {
      observer.disconnect();
      chart.dispose();
    };
  }, [days]);
  const sum = (f: Figure) => days.reduce((n, d) => n + d[f], 0);
  return (
    <div
      ref={box}
      style={{ height, width: '100%' }}
      role="img"
      data-chart="statistics"
      aria-label={`${days[0]?.date ?? ''} 至 ${days.at(-1)?.date ?? ''}：新增客户 ${sum('newCustomers')}，提交方案 ${sum('submittedPlans')}，通过方案 ${sum('approvedPlans')}`}
    />
  );
}
