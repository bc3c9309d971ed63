import { bandLabel, bandOf, cellYearsOf, type Estimate, estimate, type FittedModel, survival, type YearPoint } from './calibrated.js';
import { DEFAULT_BANDS, tierFor } from './probability.js';
import type { AdmissionOption, Explanation, OptionFlag, ScoredOption, Tier, TierBands, YearUsed } from './types.js';

/**
 * The fitted model (calibrated.ts) applied to the live catalogue: the estimate of every line is computed once per
 * catalogue (it does not depend on the student), a student then costs one survival-grid lookup per line.
 *
 * - A line with a past min rank gets the calibrated probability of its cell (estimate's rank band × years used).
 * - A line without any past min rank (a new line: only a min score, or nothing usable) gets a flagged 'new-line'
 *   estimate when a rank can be read off its min score: the residual is halved before the lookup, i.e. the
 *   one-year cell's spread is doubled in log-rank space (docs/volunteer-model.md "New lines" says why).
 * - Tiers are cut on the calibrated probability with the engine's bands (冲 < 40 % ≤ 稳 ≤ 80 % < 保).
 */

/** Log-rank spread multiplier for a line without rank history (see docs/volunteer-model.md, "New lines"). */
export const NEW_LINE_WIDENING = 2;
/** Below this probability a line is flagged unreachable (as in the engine before). */
export const UNREACHABLE_BELOW = 0.05;
const WASTEFUL_ABOVE = 0.99;
const WASTEFUL_MARGIN = 20;

export interface LiveLine {
  option: AdmissionOption;
  points: readonly YearPoint[];
  /** A min rank read off the line's newest min score (一分一段), used only when points hold no rank. */
  rankFromScore: number | null;
  /** Reference score for ordering 线差 options by difficulty (the newest min score). */
  referenceScore: number | null;
  /**
   * 新增: the line is first offered in the newest year (no earlier year, while earlier years are loaded). Flagged
   * new-line for the expert; estimated from its own min rank like any one-year line (see LiveEstimate.widened).
   */
  newLine?: boolean;
}

export interface LiveEstimate {
  estimate: Estimate;
  /** 新增: first offered in the newest year, or without any past rank (flag new-line). */
  isNew: boolean;
  /**
   * The spread is widened (NEW_LINE_WIDENING): only for a line without any rank of its own, estimated from its min
   * score. A line new in the newest year with its own min rank is not widened: measured on Shandong 2022–2026, a
   * line's move from its first year to its second is as large as any line's (median |move| ratio 0.83–1.04, 90th
   * percentile 0.91–1.01 against lines with an earlier year), so its one-year cell already holds its spread.
   */
  widened: boolean;
  /** Grid of the estimate's cell. */
  grid: readonly number[];
  cell: string;
  years: YearUsed[];
}

/** Per-line estimates for the target year (the year after the newest data). null: nothing to estimate from. */
export function prepareLive(model: FittedModel, lines: readonly LiveLine[], target: number, cohorts: ReadonlyMap<number, number>): Array<LiveEstimate | null> {
  return lines.map((l) => {
    const planNow = l.option.planNow ?? null;
    let e = estimate(l.points, target, cohorts, model.weights, model.planBeta, planNow, model.cohortPower);
    let isNew = l.newLine === true;
    let widened = false;
    if (!e && l.rankFromScore != null && l.rankFromScore > 0) {
      e = { mu: Math.log(l.rankFromScore), years: 1, rank: Math.round(l.rankFromScore), planShift: 0 };
      isNew = true;
      widened = true;
    }
    if (!e) return null;
    const band = bandOf(e.rank);
    const used = l.points
      .filter((p) => p.year < target && p.minRank > 0 && cohorts.has(p.year))
      .sort((a, b) => b.year - a.year)
      .slice(0, model.weights.length);
    const wSum = model.weights.slice(0, used.length).reduce((a, b) => a + b, 0) || 1;
    const hist = l.option.history;
    const years: YearUsed[] = used.map((p, i) => ({
      year: p.year,
      weight: model.weights[i] / wSum,
      minScore: hist.find((h) => h.year === p.year)?.minScore ?? null,
      minRank: p.minRank,
    }));
    const cellYears = isNew ? 1 : cellYearsOf(model, l.points, target, cohorts, e);
    return { estimate: e, isNew, widened, grid: model.cells[band][cellYears - 1], cell: `位次段 ${bandLabel(band)} × ${cellYears}年数据`, years };
  });
}

/** The calibrated chance: P(next min rank ≥ the student's rank). Non-increasing in studentRank. */
export function liveProbability(est: LiveEstimate, studentRank: number, logRank = Math.log(studentRank)): number {
  const x = logRank - est.estimate.mu;
  return survival(est.grid, est.widened ? x / NEW_LINE_WIDENING : x);
}

const pct = (p: number) => `${Math.min(99.99, Math.max(0.01, p * 100)).toFixed(2)}%`;

/** A scored line of the calibrated model; the Chinese explanation is built on first read. */
class CalibratedScored implements ScoredOption {
  readonly method = 'rank' as const;
  private why: Explanation | null = null;
  constructor(
    readonly option: AdmissionOption,
    private readonly est: LiveEstimate,
    readonly probability: number,
    readonly tier: Tier,
    readonly flags: readonly OptionFlag[],
    readonly referenceScore: number | null,
    private readonly studentRank: number,
    readonly estimatedRank: number,
  ) {}

  get explanation(): Explanation {
    if (this.why) return this.why;
    const e = this.est;
    const used = e.years.map((y) => `${y.year}年最低位次 ${y.minRank}`).join('、');
    const shift = e.estimate.planShift ? `，计划数变化使估计位次移动 ${(Math.expm1(e.estimate.planShift) * 100).toFixed(1)}%` : '';
    const head = !e.isNew
      ? `按校准模型：${used}（${e.estimate.years}年数据），估计录取位次 ${e.estimate.rank}${shift}`
      : e.years.length
        ? `新增专业（${e.years[0].year}年首次招生）：${used}，估计录取位次 ${e.estimate.rank}${shift}`
        : `新增专业（无历年位次），按最低分折算位次 ${e.estimate.rank}，波动按一年数据的两倍估计`;
    let text = `${head}，波动取自${e.cell}的历年实际偏差，你的位次 ${this.studentRank}，录取概率 ${pct(this.probability)}，${this.tier}`;
    if (this.flags.includes('unreachable')) text += '（几乎无望，不建议填报）';
    if (this.flags.includes('wasteful') && this.referenceScore != null) text += '（分数远高于该专业，可能浪费分数）';
    this.why = {
      method: 'rank',
      years: e.years,
      estimate: e.estimate.rank,
      sigma: null,
      student: this.studentRank,
      probability: this.probability,
      tier: this.tier,
      planFactor: e.estimate.planShift ? Math.exp(e.estimate.planShift) : null,
      referenceScore: this.referenceScore,
      flags: this.flags,
      text,
    };
    return this.why;
  }

  toJSON(): ScoredOption {
    const { option, method, probability, tier, flags, estimatedRank, referenceScore, explanation } = this;
    return { option, method, probability, tier, flags, estimatedRank, referenceScore, explanation };
  }
}

const NEW_LINE: readonly OptionFlag[] = Object.freeze(['new-line'] as OptionFlag[]);
const NEW_UNREACHABLE: readonly OptionFlag[] = Object.freeze(['new-line', 'unreachable'] as OptionFlag[]);
const NEW_WASTEFUL: readonly OptionFlag[] = Object.freeze(['new-line', 'wasteful'] as OptionFlag[]);
const UNREACHABLE: readonly OptionFlag[] = Object.freeze(['unreachable'] as OptionFlag[]);
const WASTEFUL: readonly OptionFlag[] = Object.freeze(['wasteful'] as OptionFlag[]);
const NONE: readonly OptionFlag[] = Object.freeze([]);

/**
 * Scores one line for a student with the calibrated model; null when the line has no estimate (the caller keeps the
 * engine's 线差法 answer or none).
 */
export function scoreLive(
  line: LiveLine,
  est: LiveEstimate | null,
  studentRank: number | null,
  studentScore: number,
  bands: TierBands = DEFAULT_BANDS,
  /** log(studentRank), computed once by a caller scoring many lines. */
  logRank?: number,
): ScoredOption | null {
  if (!est || studentRank == null || studentRank <= 0) return null;
  const p = liveProbability(est, studentRank, logRank ?? Math.log(studentRank));
  return scored(line.option, est, p, est.isNew, line.referenceScore, studentRank, studentScore, est.estimate.rank, bands);
}

function scored(
  option: AdmissionOption,
  est: LiveEstimate,
  p: number,
  isNew: boolean,
  referenceScore: number | null,
  studentRank: number,
  studentScore: number,
  estimatedRank: number,
  bands: TierBands,
): ScoredOption {
  const low = p < UNREACHABLE_BELOW;
  // Near-certain and 20+ points above the line's reference score: the score would be wasted (as in the engine before).
  const waste = p > WASTEFUL_ABOVE && referenceScore != null && studentScore - referenceScore >= WASTEFUL_MARGIN;
  const flags = isNew ? (low ? NEW_UNREACHABLE : waste ? NEW_WASTEFUL : NEW_LINE) : low ? UNREACHABLE : waste ? WASTEFUL : NONE;
  return new CalibratedScored(option, est, p, tierFor(p, bands), flags, referenceScore, studentRank, estimatedRank);
}

/**
 * The numbers a student's score needs from each line's estimate, in typed arrays indexed like the catalogue's
 * options. Why: the acceptance query scores every line of five years (31 139) for each request, in rank order;
 * reading μ and the cell from contiguous arrays instead of one estimate object per line (scattered in memory)
 * keeps that loop in cache. Built once per catalogue (liveModel.ts), with exactly the values scoreLive reads.
 */
export interface LiveColumns {
  /** μ of the estimate (log rank); NaN when the line has none. */
  mu: Float64Array;
  /** The estimate's rounded rank. */
  rank: Float64Array;
  /** Index into `grids` of the estimate's cell; −1 when the line has no estimate. */
  cell: Int16Array;
  isNew: Uint8Array;
  widened: Uint8Array;
  /** The line's reference score; NaN for none. */
  referenceScore: Float64Array;
  grids: Float64Array[];
}

export function liveColumns(lines: readonly LiveLine[], estimates: ReadonlyArray<LiveEstimate | null>): LiveColumns {
  const n = lines.length;
  const c: LiveColumns = {
    mu: new Float64Array(n).fill(Number.NaN),
    rank: new Float64Array(n),
    cell: new Int16Array(n).fill(-1),
    isNew: new Uint8Array(n),
    widened: new Uint8Array(n),
    referenceScore: new Float64Array(n).fill(Number.NaN),
    grids: [],
  };
  const gridIds = new Map<readonly number[], number>();
  for (let i = 0; i < n; i++) {
    const ref = lines[i].referenceScore;
    if (ref != null) c.referenceScore[i] = ref;
    const e = estimates[i];
    if (!e) continue;
    let g = gridIds.get(e.grid);
    if (g === undefined) {
      g = c.grids.length;
      gridIds.set(e.grid, g);
      c.grids.push(Float64Array.from(e.grid));
    }
    c.cell[i] = g;
    c.mu[i] = e.estimate.mu;
    c.rank[i] = e.estimate.rank;
    c.isNew[i] = e.isNew ? 1 : 0;
    c.widened[i] = e.widened ? 1 : 0;
  }
  return c;
}

/**
 * scoreLive for line i of prepared columns: the same probability, tier, flags and explanation, null when the line
 * has no estimate. `option` and `est` are only stored (for the row and the explanation), not read.
 */
export function scoreLiveColumn(
  c: LiveColumns,
  i: number,
  option: AdmissionOption,
  est: LiveEstimate | null,
  studentRank: number,
  logRank: number,
  studentScore: number,
  bands: TierBands = DEFAULT_BANDS,
): ScoredOption | null {
  const cell = c.cell[i];
  if (cell < 0 || est == null || !(studentRank > 0)) return null;
  const x = logRank - c.mu[i];
  const isNew = c.isNew[i] === 1;
  const p = survival(c.grids[cell], c.widened[i] === 1 ? x / NEW_LINE_WIDENING : x);
  const ref = c.referenceScore[i];
  return scored(option, est, p, isNew, Number.isNaN(ref) ? null : ref, studentRank, studentScore, c.rank[i], bands);
}
