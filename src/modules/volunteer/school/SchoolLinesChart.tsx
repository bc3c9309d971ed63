import { LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import type { SchoolYearLine } from '@/api/volunteer';

echarts.use([LineChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

/**
 * One major's line over the years: the admitted minimum score, and the derived score (the same rank share on the
 * newest year's scale), which is what compares across years. Loaded lazily from SchoolHistory, so ECharts is only
 * fetched when a school's history is opened.
 */
export default function SchoolLinesChart({ lines, scaleYear }: { lines: SchoolYearLine[]; scaleYear: number | null }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const sorted = [...lines].sort((a, b) => a.year - b.year);
    const values = sorted.flatMap((l) => [l.minScore, l.derivedScore]).filter((v): v is number => v != null);
    // A fixed window around the data (ECharts' own scale starts far below when there is a single year).
    const yMin = Math.floor((Math.min(...values) - 10) / 10) * 10;
    const yMax = Math.ceil((Math.max(...values) + 10) / 10) * 10;
    const chart = echarts.init(el, undefined, { renderer: 'svg' });
    chart.setOption({
      tooltip: { trigger: 'axis' },
      legend: { bottom: 0 },
      grid: { left: 48, right: 24, top: 24, bottom: 48 },
      xAxis: { type: 'category', data: sorted.map((l) => `${l.year}年`) },
      yAxis: { type: 'value', min: yMin, max: yMax, name: '分数' },
      series: [
        { name: '最低分', type: 'line', data: sorted.map((l) => l.minScore), label: { show: true } },
        { name: `换算到${scaleYear ?? ''}年的分数`, type: 'line', data: sorted.map((l) => l.derivedScore), lineStyle: { type: 'dashed' } },
      ],
    });
    const observer = new ResizeObserver(() => chart.resize());
    observer.observe(el);
    return () => {
      observer.disconnect();
      chart.dispose();
    };
  }, [lines, scaleYear]);
  return <div ref={box} style={{ height: 260 }} role="img" aria-label="历年分数线走势图" />;
}
