import { LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import type { SchoolYearLine } from './api';

echarts.use([LineChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

/**
 * One programme's line over the years: the admitted minimum score, and the derived score (the same rank share on the
 * newest year's scale), which is what compares across years. A loaded year without the programme is a gap, not a
 * point. Loaded lazily from SchoolHistory, so ECharts is only fetched when a school's history is opened.
 */
export default function SchoolLinesChart({ lines, years, scaleYear }: { lines: SchoolYearLine[]; years?: readonly number[]; scaleYear: number | null }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const first = Math.min(...lines.map((l) => l.year));
    const axis = [...new Set([...(years ?? []).filter((y) => y >= first), ...lines.map((l) => l.year)])].sort((a, b) => a - b);
    const sorted = axis.map((year) => lines.find((l) => l.year === year));
    const values = lines.flatMap((l) => [l.minScore, l.derivedScore]).filter((v): v is number => v != null);
    // A fixed window around the data (ECharts' own scale starts far below when there is a single year).
    const yMin = Math.floor((Math.min(...values) - 10) / 10) * 10;
    const yMax = Math.ceil((Math.max(...values) + 10) / 10) * 10;
    const chart = echarts.init(el, undefined, { renderer: 'svg' });
    chart.setOption({
      tooltip: { trigger: 'axis' },
      legend: { bottom: 0 },
      grid: { left: 48, right: 24, top: 24, bottom: 48 },
      xAxis: { type: 'category', data: axis.map((y) => `${y}年`) },
      yAxis: { type: 'value', min: yMin, max: yMax, name: '分数' },
      series: [
        { name: '最低分', type: 'line', data: sorted.map((l) => l?.minScore ?? null), label: { show: true } },
        {
          name: `换算到${scaleYear ?? ''}年的分数`,
          type: 'line',
          data: sorted.map((l) => l?.derivedScore ?? null),
          lineStyle: { type: 'dashed' },
        },
      ],
    });
    const observer = new ResizeObserver(() => chart.resize());
    observer.observe(el);
    return () => {
      observer.disconnect();
      chart.dispose();
    };
  }, [lines, years, scaleYear]);
  return <div ref={box} style={{ height: 260 }} role="img" aria-label="历年分数线走势图" />;
}
