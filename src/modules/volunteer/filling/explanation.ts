import type { ChanceRow } from '@/api/volunteer';

/** What the 录取率 dialog shows, read from the engine's one-line explanation. */
export interface ExplainedChance {
  method: 'rank' | 'score-diff' | 'none';
  methodName: string;
  years: Array<{ year: number; weight: number | null; minScore: number | null; minRank: number | null; lineDiff?: number | null }>;
  estimate: number | null;
  sigma: number | null;
  student: number | null;
  text: string;
  /** The fitted model's answer (docs/volunteer-model.md): its spread cell instead of σ. */
  calibrated: boolean;
  /** 校准模型: the cell the spread comes from, e.g. 位次段 10000–30000 × 1年数据. */
  cell: string | null;
}

const METHOD_NAME = { rank: '位次法', 'score-diff': '线差法', none: '数据不足' } as const;

const isCalibrated = (text: string) => text.startsWith('按校准模型') || text.startsWith('新增专业');
const cellOf = (text: string) => text.match(/波动取自(.+?)的历年实际偏差/)?.[1] ?? null;

const num = (text: string, re: RegExp): number | null => {
  const m = text.match(re);
  return m ? Number(m[1].replace(/,/g, '')) : null;
};

/** Reads the explanation; the text form is parsed for σ, the estimate and the student's value. */
export function explain(row: Pick<ChanceRow, 'explanation' | 'method' | 'years' | 'estimatedRank'>): ExplainedChance {
  const text = row.explanation ?? '';
  const method = row.method ?? (text.startsWith('按位次法') ? 'rank' : text.startsWith('按线差法') ? 'score-diff' : 'none');
  const years = row.years ?? [];
  const calibrated = isCalibrated(text);
  // The fitted model rests on the newest year alone (its weights are 1, docs/volunteer-model.md); the engine before
  // weighted three years 50/30/20.
  const weights = (calibrated ? [1] : [0.5, 0.3, 0.2]).slice(0, years.length);
  const sum = weights.reduce((a, b) => a + b, 0) || 1;
  return {
    method,
    methodName: calibrated ? '校准模型（位次）' : METHOD_NAME[method],
    years: [...years]
      .sort((a, b) => b.year - a.year)
      .map((y, i) => ({ year: y.year, weight: i < weights.length ? weights[i] / sum : null, minScore: y.minScore, minRank: y.minRank })),
    estimate: method === 'rank' ? (row.estimatedRank ?? num(text, /估计录取位次\s*([\d,]+)/)) : num(text, /估计线差\s*([+-]?[\d.]+)/),
    sigma: num(text, /σ=([\d.,]+)/),
    student: method === 'rank' ? num(text, /你的位次\s*([\d,]+)/) : num(text, /你的线差\s*([+-]?[\d.]+)/),
    text,
    calibrated,
    cell: cellOf(text),
  };
}
