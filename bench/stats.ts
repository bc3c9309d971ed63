/** Small numeric and formatting helpers shared by the benches. */

export interface Summary {
  ops: number;
  mean: number;
  p50: number;
  p99: number;
}

/** Mean and nearest-rank percentiles of a set of samples (same unit in and out). */
export function summarize(samples: Float64Array | number[]): Summary {
  const sorted = Float64Array.from(samples).sort();
  const n = sorted.length;
  if (n === 0) return { ops: 0, mean: 0, p50: 0, p99: 0 };
  const rank = (p: number) => sorted[Math.min(n - 1, Math.max(0, Math.ceil((p / 100) * n) - 1))];
  let sum = 0;
  for (const v of sorted) sum += v;
  return { ops: n, mean: sum / n, p50: rank(50), p99: rank(99) };
}

/** Fixed-width text table; numbers are formatted by the caller. `align` has one letter per column, l or r (default: l then r). */
export function table(headers: string[], rows: string[][], align = `l${'r'.repeat(headers.length - 1)}`): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (align[i] === 'l' ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** Rounds to a sensible number of digits for a report. */
export function fmt(value: number): string {
  if (!Number.isFinite(value)) return '-';
  const abs = Math.abs(value);
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  if (abs >= 1) return value.toFixed(2);
  return value.toFixed(3);
}
