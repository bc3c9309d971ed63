import { normalCdf } from './normal.js';

/**
 * The acceptance model fitted on the data (issue 14, docs/volunteer-model.md): pure functions, no database.
 *
 * A line's next min rank is estimated in log-rank space from its past years, each brought to the target year's
 * cohort (equivalent rank r × N_now / N_then):
 *   μ = Σ w_i · log(eqRank_i) over the newest up to three years (weights chosen on the training years)
 *     + β · log(plan_now / plan_last)   (plan-count effect, fitted by least squares; 0 when a plan is unknown)
 * and P(admitted | student rank r) = P(log R_next ≥ log r) = S(log r − μ), where S is the survival function of the
 * training residuals (log R_actual − μ) of lines in the same cell: the estimate's rank band × how many years it
 * rests on (1, 2, 3+). Empirical residuals rather than a normal curve: year-to-year moves have heavy tails (a line
 * that jumps by half its rank), and the quantiles carry them as they were, so the probabilities are calibrated by
 * construction on the training years; the backtest (scripts/backtest.ts) measures them on a year not used to fit.
 */

export interface YearPoint {
  year: number;
  minRank: number;
  planCount: number | null;
}

/** Upper bounds of the estimate's rank bands (equivalent rank in the target year); the last band is open. */
export const RANK_BANDS = [2_000, 10_000, 30_000, 60_000, 120_000, 250_000];
/** Residual quantiles stored per cell: enough to interpolate a survival function to well under 1 pp. */
const QUANTILES = 200;
/** A cell with fewer training residuals borrows its neighbour's (the same band, fewer years, or the nearest band). */
const MIN_CELL = 200;

export interface FittedModel {
  /** Weights, newest first; renormalised over the years present. */
  weights: number[];
  /** Equivalent rank = rank × (N_now / N_then)^cohortPower: 1 is proportional to the cohort, 0 raw ranks. */
  cohortPower: number;
  /** Plan-count effect on log rank per unit of log(plan_now / plan_last). */
  planBeta: number;
  /** Centre of the year shock (log rank): 0 with the default fit, the mean of the training years' moves with shock 'sd'. */
  drift: number;
  /** Spread of the whole year's shift (√mean of the squared yearly moves by default, with a floor): unpredictable, common. */
  yearShock: number;
  /** Survival grid: P(residual ≥ x) for x = GRID_MIN + i × GRID_STEP, [band][years − 1][i]. */
  cells: number[][][];
  /** Training residuals per cell (for the docs). */
  counts: number[][];
  trainedOn: number[];
  /** FitOptions.cellYears of the fit ('used' when absent). */
  cellYears?: 'used' | 'history';
  /** Model v3 (issue 24; FitOptions.v3, fitV3): absent in a fit without it and in files written before. */
  v3?: ModelV3;
  /**
   * The residuals alone per cell, before the year shock is added: QUANTILES + 1 quantiles (0 … 1), [band][years − 1].
   * The survival grids already convolve the shock in; the plan simulation (simulate.ts) draws one shock for the whole
   * year and needs the lines' own part apart from it. Absent in model files written before issue 24.
   */
  residualQuantiles?: number[][][];
  /** Share of the residual (normal-score) variance common to one school's / one major category's lines in a year. */
  sharedShifts?: SharedShifts;
}

/** The years index (1–3) of a line's cell for an estimate: the years it used, or the years of history it has. */
export function cellYearsOf(
  model: Pick<FittedModel, 'cellYears'>,
  points: readonly YearPoint[],
  target: number,
  cohorts: ReadonlyMap<number, number>,
  e: Estimate,
): number {
  if (model.cellYears !== 'history') return e.years;
  let n = 0;
  for (const p of points) if (p.year < target && p.minRank > 0 && cohorts.has(p.year)) n++;
  return Math.max(1, Math.min(3, n));
}

/** Survival grids run over log-rank residuals from −2 to 2 (a factor of e² either way) in steps of 0.01. */
export const GRID_MIN = -2;
export const GRID_STEP = 0.01;
const GRID_SIZE = 401;
/** Floor of the year shock when the training years are too few to measure it (one year: no spread at all). */
const YEAR_SHOCK_FLOOR = 0.04;

export function bandOf(rank: number): number {
  const i = RANK_BANDS.findIndex((b) => rank < b);
  return i === -1 ? RANK_BANDS.length : i;
}

export const bandLabel = (b: number) =>
  b === 0 ? `< ${RANK_BANDS[0]}` : b === RANK_BANDS.length ? `≥ ${RANK_BANDS[b - 1]}` : `${RANK_BANDS[b - 1]}–${RANK_BANDS[b]}`;

export interface Estimate {
  /** log of the estimated equivalent min rank. */
  mu: number;
  /** Years the estimate rests on (capped at 3). */
  years: number;
  /** exp(μ) rounded: the estimated min rank in the target year's cohort. */
  rank: number;
  /** log(plan_now / plan_last) × β applied, or 0. */
  planShift: number;
}

/**
 * The estimate for year `target` from the points before it (newest first after sorting). cohorts gives each
 * year's candidate count; planNow the target year's plan when known.
 */
export function estimate(
  points: readonly YearPoint[],
  target: number,
  cohorts: ReadonlyMap<number, number>,
  weights: readonly number[],
  planBeta: number,
  planNow: number | null,
  cohortPower = 1,
): Estimate | null {
  const nNow = cohorts.get(target);
  const used = points
    .filter((p) => p.year < target && p.minRank > 0 && cohorts.has(p.year))
    .sort((a, b) => b.year - a.year)
    .slice(0, weights.length);
  if (used.length === 0 || nNow == null) return null;
  let wSum = 0;
  let mu = 0;
  used.forEach((p, i) => {
    const eq = p.minRank * (nNow / (cohorts.get(p.year) as number)) ** cohortPower;
    mu += weights[i] * Math.log(eq);
    wSum += weights[i];
  });
  mu /= wSum;
  const last = used[0].planCount;
  const planShift = planNow != null && last != null && planNow > 0 && last > 0 ? planBeta * Math.log(planNow / last) : 0;
  mu += planShift;
  return { mu, years: Math.min(3, used.length), rank: Math.round(Math.exp(mu)), planShift };
}

function quantiles(sorted: number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i <= QUANTILES; i++) {
    const pos = (i / QUANTILES) * (sorted.length - 1);
    const lo = Math.floor(pos);
    const hi = Math.min(sorted.length - 1, lo + 1);
    out.push(sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo));
  }
  return out;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2 : 0;
};

/** P(residual ≥ x) from a survival grid (linear interpolation; 1 / 0 beyond it). */
export function survival(grid: ArrayLike<number>, x: number): number {
  const pos = (x - GRID_MIN) / GRID_STEP;
  if (pos <= 0) return grid[0];
  if (pos >= grid.length - 1) return grid[grid.length - 1];
  const i = Math.floor(pos);
  return grid[i] + (grid[i + 1] - grid[i]) * (pos - i);
}

/** One training case: a line's points and the year to predict (its actual rank is in points). */
interface Case {
  points: readonly YearPoint[];
  target: number;
  actual: YearPoint;
}

function casesOf(lines: Iterable<readonly YearPoint[]>, targets: readonly number[]): Case[] {
  const cases: Case[] = [];
  for (const points of lines)
    for (const t of targets) {
      const actual = points.find((p) => p.year === t);
      if (actual && actual.minRank > 0 && points.some((p) => p.year < t)) cases.push({ points, target: t, actual });
    }
  return cases;
}

/**
 * Choices of the fit that the backtest compares (`npm run backtest -- --variants`; docs/volunteer-model.md lists the
 * figures). The default is the one kept.
 */
export interface FitOptions {
  /**
   * How the weights and cohort power are chosen: 'line' = smallest error once each year's median move is removed
   * (what a line does apart from the whole year), 'total' = once only the mean move of the training years is removed.
   */
  select: 'line' | 'total';
  /**
   * The whole year's move: 'rms' = zero mean (the moves change sign from year to year, none carried over) with the
   * spread √mean(move²) of the training years' moves; 'sd' = around their mean (a drift) with their standard
   * deviation; 'predictive' = the same, sd × √(1 + 1/n) for the uncertainty of the mean.
   */
  shock: 'sd' | 'predictive' | 'rms';
  /** Floor of the shock's spread (log rank), for one or two training years; YEAR_SHOCK_FLOOR by default. */
  shockFloor?: number;
  /** The cells' years dimension: the years the estimate used ('used'), or the years of history the line has. */
  cellYears?: 'used' | 'history';
  /** Model v3 parts (fitV3 / fitModelV3; fitModel alone ignores it). */
  v3?: V3Options;
}
export const DEFAULT_FIT: FitOptions = { select: 'line', shock: 'rms' };

const WEIGHT_CHOICES = [[1], [0.6, 0.4], [0.5, 0.3, 0.2], [0.4, 0.35, 0.25], [0.34, 0.33, 0.33]];
/**
 * Proportional scaling first: a tie (the residuals cannot tell the powers apart, as with one training year, where the
 * cohort ratio moves every line alike and the year's own shift absorbs it) keeps ranks proportional to the cohort —
 * a rank is a share of the candidates — rather than raw ranks.
 */
const COHORT_POWERS = [1, 0.5, 0];

/**
 * Fits the model on lines (each a list of yearly points) using only the years in `trainYears` as targets (so a
 * backtest for Y passes the years before Y, and the lines' points must not include Y or later).
 */
export function fitModel(
  lines: ReadonlyArray<readonly YearPoint[]>,
  trainYears: readonly number[],
  cohorts: ReadonlyMap<number, number>,
  options: FitOptions = DEFAULT_FIT,
): FittedModel {
  const cases = casesOf(lines, trainYears);
  // Weights and cohort scaling: the pair whose residuals, once each year's common shift is removed, are smallest
  // (mean absolute log error): what a line does apart from the whole year's move.
  let weights = WEIGHT_CHOICES[0];
  let cohortPower = 1;
  let best = Number.POSITIVE_INFINITY;
  for (const w of WEIGHT_CHOICES)
    for (const a of COHORT_POWERS) {
      const byYear = new Map<number, number[]>();
      for (const c of cases) {
        const e = estimate(c.points, c.target, cohorts, w, 0, null, a);
        if (!e) continue;
        const list = byYear.get(c.target);
        if (list) list.push(Math.log(c.actual.minRank) - e.mu);
        else byYear.set(c.target, [Math.log(c.actual.minRank) - e.mu]);
      }
      let err = 0;
      let n = 0;
      const medians = new Map([...byYear].map(([y, rs]) => [y, median(rs)]));
      const meanMove = [...medians.values()].reduce((a, b) => a + b, 0) / Math.max(1, medians.size);
      for (const [y, rs] of byYear) {
        const centre = options.select === 'total' ? meanMove : (medians.get(y) as number);
        for (const r of rs) err += Math.abs(r - centre);
        n += rs.length;
      }
      if (n && err / n < best - 1e-9) {
        best = err / n;
        weights = w;
        cohortPower = a;
      }
    }
  // Plan effect: least squares of the residual on log(plan ratio), over cases where both plans are known; the
  // slope is shrunk to 0 when its estimate is not clearly away from it (|t| < 2).
  let sxx = 0;
  let sxy = 0;
  const pairs: Array<[number, number]> = [];
  for (const c of cases) {
    const e = estimate(c.points, c.target, cohorts, weights, 0, null, cohortPower);
    const prev = c.points.filter((p) => p.year < c.target).sort((a, b) => b.year - a.year)[0];
    if (!e || prev.planCount == null || c.actual.planCount == null || prev.planCount <= 0 || c.actual.planCount <= 0) continue;
    const x = Math.log(c.actual.planCount / prev.planCount);
    const y = Math.log(c.actual.minRank) - e.mu;
    pairs.push([x, y]);
    sxx += x * x;
    sxy += x * y;
  }
  let planBeta = sxx > 0 ? sxy / sxx : 0;
  if (pairs.length > 2 && sxx > 0) {
    let rss = 0;
    for (const [x, y] of pairs) rss += (y - planBeta * x) ** 2;
    const se = Math.sqrt(rss / (pairs.length - 1) / sxx);
    if (Math.abs(planBeta / se) < 2) planBeta = 0;
  }
  // Residuals, each year's common shift (its median residual) removed; the shifts give the year shock (FitOptions).
  const res: Array<{ year: number; band: number; years: number; r: number }> = [];
  for (const c of cases) {
    const e = estimate(c.points, c.target, cohorts, weights, planBeta, c.actual.planCount, cohortPower);
    if (e)
      res.push({ year: c.target, band: bandOf(e.rank), years: cellYearsOf(options, c.points, c.target, cohorts, e), r: Math.log(c.actual.minRank) - e.mu });
  }
  const shifts = new Map<number, number>();
  for (const y of trainYears) shifts.set(y, median(res.filter((x) => x.year === y).map((x) => x.r)));
  const shiftList = [...shifts.values()];
  const n = shiftList.length;
  const meanMove = shiftList.reduce((a, b) => a + b, 0) / Math.max(1, n);
  const drift = options.shock === 'rms' ? 0 : meanMove;
  let spread = 0;
  if (options.shock === 'rms') spread = Math.sqrt(shiftList.reduce((a, b) => a + b * b, 0) / Math.max(1, n));
  else if (n > 1) {
    const sd = Math.sqrt(shiftList.reduce((a, b) => a + (b - drift) ** 2, 0) / (n - 1));
    spread = options.shock === 'predictive' ? sd * Math.sqrt(1 + 1 / n) : sd;
  }
  const yearShock = Math.max(options.shockFloor ?? YEAR_SHOCK_FLOOR, spread);
  const raw: number[][][] = Array.from({ length: RANK_BANDS.length + 1 }, () => [[], [], []]);
  for (const x of res) raw[x.band][x.years - 1].push(x.r - (shifts.get(x.year) ?? 0));
  const cells: number[][][] = [];
  const counts: number[][] = [];
  const residualQuantiles: number[][][] = [];
  for (let b = 0; b < raw.length; b++) {
    cells.push([]);
    counts.push([]);
    residualQuantiles.push([]);
    for (let y = 0; y < 3; y++) {
      // Too few cases: pool with fewer years of the same band, then with the neighbouring bands.
      let pool = raw[b][y];
      for (let yy = y - 1; pool.length < MIN_CELL && yy >= 0; yy--) pool = pool.concat(raw[b][yy]);
      for (let d = 1; pool.length < MIN_CELL && d < raw.length; d++)
        for (const bb of [b - d, b + d]) if (bb >= 0 && bb < raw.length) pool = pool.concat(raw[bb][y]);
      const q = pool.length ? quantiles([...pool].sort((a, z) => a - z)) : [0];
      residualQuantiles[b].push(q);
      // P(drift + shock + idiosyncratic ≥ x), the shock normal: the mean over the idiosyncratic quantiles.
      const grid: number[] = [];
      for (let i = 0; i < GRID_SIZE; i++) {
        const x = GRID_MIN + i * GRID_STEP;
        let p = 0;
        for (const v of q) p += normalCdf((drift + v - x) / yearShock);
        grid.push(p / q.length);
      }
      cells[b].push(grid);
      counts[b].push(raw[b][y].length);
    }
  }
  return {
    weights,
    cohortPower,
    planBeta,
    drift,
    yearShock,
    cells,
    counts,
    trainedOn: [...trainYears],
    ...(options.cellYears === 'history' ? { cellYears: 'history' as const } : {}),
    residualQuantiles,
  };
}

/*
 * Model v3 (issue 24): what moves a line beyond the whole year's shift, learnt from the training years only.
 * - The move of a rank band × subject-requirement group: in 2024 the lines needing 物理+化学 became 6–20 % easier in
 *   rank and 不限 lines up to 13 % harder (Shandong's new subject rules). Where every training year moved a band ×
 *   group the same way, clearly, the mean move is a predictable shift of μ; otherwise its spread over the training
 *   years is extra common spread for the lines of that band × group (like the year shock: shared by them, unknowable).
 * - The line's own residual (its year's and its group's move removed) scaled by its plan size (the last known plan)
 *   and by the volatility of its own past moves; the scaled residuals of a band give one distribution.
 * P(admitted | r) = P(N(drift, yearShock² + groupSpread²) + scale · z ≥ log r − μ − groupShift), z from the band's
 * standardised residuals. The grids are built from the stored quantiles on first use (cached per model).
 */

/** Subject-requirement groups (index = the group's number). */
export const REQUIREMENT_GROUPS = ['物理+化学', '物理', '不限', '其他', '未知'] as const;
/** A line without a requirement (no line of its identity in the requirement table). */
export const UNKNOWN_GROUP = 4;

/**
 * The group of a 选考科目要求 as printed (物理、化学 / 物理 / 不限 / …): both 物理 and 化学 required (with or without a
 * third subject) → 物理+化学; 物理 without 化学 → 物理; 不限 → 不限; anything else (历史, 思想政治, 化学、生物 …) → 其他;
 * empty or null → 未知.
 */
export function requirementGroup(req: string | null | undefined): number {
  const s = (req ?? '').trim();
  if (!s) return UNKNOWN_GROUP;
  if (s === '不限') return 2;
  const subjects = s.split(/[、，,/\s]+/);
  if (subjects.includes('物理') && subjects.includes('化学')) return 0;
  if (subjects.includes('物理')) return 1;
  return 3;
}

/** What the v3 model needs of a line beyond its points. */
export interface LineInfo {
  /** requirementGroup of the line's identity in the requirement table (the newest year's; earlier years use it too). */
  group: number;
}

/** The v3 parts of a fit (FitOptions.v3); each is off when absent. */
export interface V3Options {
  /**
   * The move by rank band × requirement group: 'auto' = a shift of μ where every training year (at least two) moved
   * the band × group the same way and clearly (|mean| ≥ 2 standard errors), extra spread elsewhere; 'spread' = extra
   * spread always.
   */
  group?: 'auto' | 'spread';
  /** The own residual's spread by plan size (class of the last known plan: 1–2, 3–5, 6–10, > 10, unknown). */
  plan?: boolean;
  /** The own residual's spread by the volatility of the line's own past moves (terciles, or none before a move). */
  volatility?: boolean;
}

/** Upper bounds of the plan classes 1 … 3; class 4 is above the last, class 0 an unknown plan. */
export const PLAN_CLASS_UPPER = [2, 5, 10];
/** A line's volatility: the root mean square of its newest up to this many past moves. */
const VOL_MOVES = 3;
/** A band × group of one year with fewer lines has no move of its own (0), and a class this few lines is shrunk. */
const MIN_GROUP = 30;
/** Shrinkage of a class's spread ratio towards 1: weight n / (n + SCALE_PRIOR). */
const SCALE_PRIOR = 100;
/** The grids' scale and common spread are rounded to these steps (one grid per distinct pair, per band). */
const SCALE_STEP = 0.02;
const COMMON_STEP = 0.001;

export interface ModelV3 {
  options: V3Options;
  /** Each training year's common move (median residual): a line's past moves are measured apart from it. */
  yearMoves: Record<string, number>;
  /** Each training year's band × group move beyond the year's own, [band][group]; 0 where under MIN_GROUP lines. */
  groupMoves: Record<string, number[][]>;
  /** Predictable part of the band × group move (0 unless persistent), [band][group]. */
  groupShift: number[][];
  /** Spread of the unpredictable band × group move, [band][group] (log rank). */
  groupSpread: number[][];
  /** Multiplier of the own residual by plan class, [band][class] (class 0: unknown plan). */
  planScale: number[][];
  /** Cuts between the volatility classes 1 | 2 | 3 (RMS of the past moves, year and group moves removed). */
  volCuts: number[];
  /** Multiplier of the own residual by volatility class, [band][class] (class 0: no past move). */
  volScale: number[][];
  /** Quantiles (0 … 1) of the standardised own residual per band (neighbouring bands pooled under MIN_CELL). */
  z: number[][];
  /** Training cases per band. */
  counts: number[];
}

const BANDS = RANK_BANDS.length + 1;
const GROUPS = REQUIREMENT_GROUPS.length;
const zeros = (rows: number, cols: number, fill = 0) => Array.from({ length: rows }, () => new Array<number>(cols).fill(fill));

/** Plan class of a line for target year `target`: its last known plan before it (the target year's plan is not used). */
export function planClassOf(points: readonly YearPoint[], target: number): number {
  let best: YearPoint | null = null;
  for (const p of points) if (p.year < target && p.planCount != null && p.planCount > 0 && (!best || p.year > best.year)) best = p;
  if (!best) return 0;
  const plan = best.planCount as number;
  const i = PLAN_CLASS_UPPER.findIndex((u) => plan <= u);
  return i === -1 ? PLAN_CLASS_UPPER.length + 1 : i + 1;
}

type V3Moves = Pick<ModelV3, 'yearMoves' | 'groupMoves'>;

/**
 * The line's own past moves before `target`: for each of its newest up to VOL_MOVES years that had an earlier year,
 * its residual then (as in the fit: log min rank − that year's estimate) less that year's common move and, with
 * groups on, its band × group move. The root mean square, NaN without a past move.
 */
export function pastVolatility(
  model: Pick<FittedModel, 'weights' | 'planBeta' | 'cohortPower'>,
  moves: V3Moves,
  points: readonly YearPoint[],
  target: number,
  cohorts: ReadonlyMap<number, number>,
  group: number | null,
): number {
  const past = points.filter((p) => p.year < target && p.minRank > 0 && cohorts.has(p.year)).sort((a, b) => b.year - a.year);
  let s = 0;
  let n = 0;
  for (const p of past) {
    if (n >= VOL_MOVES) break;
    const move = moves.yearMoves[p.year];
    if (move == null) continue;
    const e = estimate(points, p.year, cohorts, model.weights, model.planBeta, p.planCount, model.cohortPower);
    if (!e) continue;
    let u = Math.log(p.minRank) - e.mu - move;
    if (group != null) u -= moves.groupMoves[p.year]?.[bandOf(e.rank)]?.[group] ?? 0;
    s += u * u;
    n++;
  }
  return n ? Math.sqrt(s / n) : Number.NaN;
}

const volClassOf = (vol: number, cuts: readonly number[]) => (Number.isNaN(vol) ? 0 : 1 + cuts.filter((c) => vol > c).length);

/**
 * Spread ratio of each class within a band: per training year, the median |u / divisor| of the class over that of
 * the band's year (so a class seen in one year only is not that year's spread), averaged over the years by the
 * class's cases and shrunk towards 1 by SCALE_PRIOR.
 */
function classScales(
  cases: ReadonlyArray<{ year: number; u: number }>,
  classOf: (i: number) => number,
  divisor: (i: number) => number,
  classes: number,
): number[] {
  const byYear = new Map<number, number[]>();
  cases.forEach((c, i) => {
    const list = byYear.get(c.year);
    if (list) list.push(i);
    else byYear.set(c.year, [i]);
  });
  const num = new Array<number>(classes).fill(0);
  const den = new Array<number>(classes).fill(0);
  for (const idx of byYear.values()) {
    const all = median(idx.map((i) => Math.abs(cases[i].u / divisor(i))));
    if (!(all > 0)) continue;
    for (let k = 0; k < classes; k++) {
      const mine = idx.filter((i) => classOf(i) === k);
      if (mine.length < MIN_GROUP) continue;
      num[k] += mine.length * (median(mine.map((i) => Math.abs(cases[i].u / divisor(i)))) / all);
      den[k] += mine.length;
    }
  }
  return num.map((s, k) => (s + SCALE_PRIOR) / (den[k] + SCALE_PRIOR));
}

/**
 * Adds the v3 parts (V3Options) to a fitted model, from the same training cases: `info[i]` is the requirement group of
 * `lines[i]` (missing: 未知). The model's estimate, year shock and cells are kept (a caller without v3 reads them).
 */
export function fitV3(
  base: FittedModel,
  lines: ReadonlyArray<readonly YearPoint[]>,
  trainYears: readonly number[],
  cohorts: ReadonlyMap<number, number>,
  info: ReadonlyArray<LineInfo | null | undefined>,
  options: V3Options,
): FittedModel {
  const cases: Array<{ line: number; year: number; band: number; group: number; r: number; u: number; plan: number; vol: number }> = [];
  lines.forEach((points, line) => {
    const group = info[line]?.group ?? UNKNOWN_GROUP;
    for (const t of trainYears) {
      const actual = points.find((p) => p.year === t);
      if (!actual || !(actual.minRank > 0)) continue;
      const e = estimate(points, t, cohorts, base.weights, base.planBeta, actual.planCount, base.cohortPower);
      if (!e) continue;
      const r = Math.log(actual.minRank) - e.mu;
      cases.push({ line, year: t, band: bandOf(e.rank), group, r, u: r, plan: planClassOf(points, t), vol: Number.NaN });
    }
  });
  const yearMoves: Record<string, number> = {};
  for (const t of trainYears) yearMoves[t] = median(cases.filter((c) => c.year === t).map((c) => c.r));
  // Band × group moves of each year, and the sampling variance of each (of a median: (1.2533 σ)² / n, σ from the MAD).
  const groupMoves: Record<string, number[][]> = {};
  const noise: Record<string, number[][]> = {};
  const seen: Record<string, number[][]> = {};
  for (const t of trainYears) {
    const cells = Array.from({ length: BANDS }, () => Array.from({ length: GROUPS }, () => [] as number[]));
    for (const c of cases) if (c.year === t) cells[c.band][c.group].push(c.r - yearMoves[t]);
    groupMoves[t] = zeros(BANDS, GROUPS);
    noise[t] = zeros(BANDS, GROUPS);
    seen[t] = zeros(BANDS, GROUPS);
    for (let b = 0; b < BANDS; b++)
      for (let g = 0; g < GROUPS; g++) {
        const rs = cells[b][g];
        if (!options.group || rs.length < MIN_GROUP) continue;
        const m = median(rs);
        const sd = 1.4826 * median(rs.map((x) => Math.abs(x - m)));
        groupMoves[t][b][g] = m;
        seen[t][b][g] = rs.length;
        noise[t][b][g] = (1.2533 * sd) ** 2 / rs.length;
      }
  }
  const groupShift = zeros(BANDS, GROUPS);
  const groupSpread = zeros(BANDS, GROUPS);
  if (options.group) {
    const known = zeros(BANDS, GROUPS, Number.NaN);
    for (let b = 0; b < BANDS; b++)
      for (let g = 0; g < GROUPS; g++) {
        const ds: number[] = [];
        let nv = 0;
        for (const t of trainYears)
          if (seen[t][b][g] > 0) {
            ds.push(groupMoves[t][b][g]);
            nv += noise[t][b][g];
          }
        if (!ds.length) continue;
        nv /= ds.length;
        const mean = ds.reduce((a, x) => a + x, 0) / ds.length;
        const sd = ds.length > 1 ? Math.sqrt(ds.reduce((a, x) => a + (x - mean) ** 2, 0) / (ds.length - 1)) : Number.POSITIVE_INFINITY;
        const sameSign = ds.every((x) => Math.sign(x) === Math.sign(mean));
        if (options.group === 'auto' && ds.length >= 2 && sameSign && Math.abs(mean) >= (2 * sd) / Math.sqrt(ds.length)) {
          groupShift[b][g] = mean;
          known[b][g] = Math.sqrt(Math.max(0, sd * sd - nv));
        } else known[b][g] = Math.sqrt(Math.max(0, ds.reduce((a, x) => a + x * x, 0) / ds.length - nv));
      }
    // A band × group never seen with MIN_GROUP lines takes the root mean square of its band's other groups (else 0).
    for (let b = 0; b < BANDS; b++) {
      const measured = known[b].filter((x) => !Number.isNaN(x));
      const fallback = measured.length ? Math.sqrt(measured.reduce((a, x) => a + x * x, 0) / measured.length) : 0;
      for (let g = 0; g < GROUPS; g++) groupSpread[b][g] = Number.isNaN(known[b][g]) ? fallback : known[b][g];
    }
  }
  const moves: V3Moves = { yearMoves, groupMoves };
  const volsSeen: number[] = [];
  for (const c of cases) {
    c.u = c.r - yearMoves[c.year] - (options.group ? groupMoves[c.year][c.band][c.group] : 0);
    if (options.volatility) {
      c.vol = pastVolatility(base, moves, lines[c.line], c.year, cohorts, options.group ? c.group : null);
      if (!Number.isNaN(c.vol)) volsSeen.push(c.vol);
    }
  }
  volsSeen.sort((a, b) => a - b);
  const at = (q: number) => volsSeen[Math.floor(q * (volsSeen.length - 1))];
  const volCuts = options.volatility && volsSeen.length >= 3 * MIN_GROUP ? [at(1 / 3), at(2 / 3)] : [];
  const planScale = zeros(BANDS, PLAN_CLASS_UPPER.length + 2, 1);
  const volScale = zeros(BANDS, 4, 1);
  const byBand = Array.from({ length: BANDS }, () => [] as typeof cases);
  for (const c of cases) byBand[c.band].push(c);
  for (let b = 0; b < BANDS; b++) {
    const cs = byBand[b];
    const pc = (i: number) => cs[i].plan;
    const vc = (i: number) => volClassOf(cs[i].vol, volCuts);
    // Plan first, volatility on what plan leaves, plan again on what volatility leaves: the two are correlated (small
    // plans move more and so have volatile pasts), and each ratio should be its own part.
    if (options.plan) planScale[b] = classScales(cs, pc, () => 1, planScale[b].length);
    if (options.volatility && volCuts.length) volScale[b] = classScales(cs, vc, (i) => planScale[b][pc(i)], 4);
    if (options.plan && options.volatility && volCuts.length) planScale[b] = classScales(cs, pc, (i) => volScale[b][vc(i)], planScale[b].length);
  }
  const raw = byBand.map((cs) => cs.map((c) => c.u / (planScale[c.band][c.plan] * volScale[c.band][volClassOf(c.vol, volCuts)])));
  const z: number[][] = [];
  for (let b = 0; b < BANDS; b++) {
    let pool = raw[b];
    for (let d = 1; pool.length < MIN_CELL && d < BANDS; d++) for (const bb of [b - d, b + d]) if (bb >= 0 && bb < BANDS) pool = pool.concat(raw[bb]);
    z.push(pool.length ? quantiles([...pool].sort((a, x) => a - x)) : [0]);
  }
  const v3: ModelV3 = {
    options: { ...options },
    yearMoves,
    groupMoves,
    groupShift,
    groupSpread,
    planScale,
    volCuts,
    volScale,
    z,
    counts: raw.map((r) => r.length),
  };
  return { ...base, v3 };
}

/** fitModel, then fitV3 when options.v3 is set (`info` parallel to `lines`). */
export function fitModelV3(
  lines: ReadonlyArray<readonly YearPoint[]>,
  trainYears: readonly number[],
  cohorts: ReadonlyMap<number, number>,
  options: FitOptions = DEFAULT_FIT,
  info: ReadonlyArray<LineInfo | null | undefined> = [],
): FittedModel {
  const base = fitModel(lines, trainYears, cohorts, options);
  return options.v3 ? fitV3(base, lines, trainYears, cohorts, info, options.v3) : base;
}

const gridCache = new WeakMap<ModelV3, Map<string, Float64Array>>();

/** The survival grid of band `band` at own-residual scale `scale` and common spread `common` (rounded; cached). */
function gridV3(model: FittedModel, v3: ModelV3, band: number, scale: number, common: number): Float64Array {
  const k = Math.round(Math.log(scale) / SCALE_STEP);
  const c = Math.max(COMMON_STEP, Math.round(common / COMMON_STEP) * COMMON_STEP);
  const key = `${band}:${k}:${c.toFixed(3)}`;
  let cache = gridCache.get(v3);
  if (!cache) {
    cache = new Map();
    gridCache.set(v3, cache);
  }
  let grid = cache.get(key);
  if (!grid) {
    const s = Math.exp(k * SCALE_STEP);
    const q = v3.z[band];
    grid = new Float64Array(GRID_SIZE);
    for (let i = 0; i < GRID_SIZE; i++) {
      const x = GRID_MIN + i * GRID_STEP;
      let p = 0;
      for (const v of q) p += normalCdf((model.drift + s * v - x) / c);
      grid[i] = p / q.length;
    }
    cache.set(key, grid);
  }
  return grid;
}

/** A line's distribution for a target year: its estimate, the μ the grid is read at, the grid and what chose it. */
export interface LineCell {
  estimate: Estimate;
  /** μ the survival grid is read at: the estimate's, plus the band × group shift under v3. */
  mu: number;
  grid: ArrayLike<number>;
  band: number;
  /** The v3 classes (absent for a model without v3). */
  v3?: { group: number; planClass: number; volClass: number; scale: number; common: number; shift: number };
}

/**
 * The line's distribution for year `target` under `model` (with v3 when the model has it; `info` gives the line's
 * requirement group, 未知 when absent), or null without an estimate. P(admitted | r) = survival(grid, log r − mu).
 */
export function lineCell(
  model: FittedModel,
  points: readonly YearPoint[],
  target: number,
  cohorts: ReadonlyMap<number, number>,
  planNow: number | null,
  info?: LineInfo | null,
): LineCell | null {
  const e = estimate(points, target, cohorts, model.weights, model.planBeta, planNow, model.cohortPower);
  if (!e) return null;
  const band = bandOf(e.rank);
  const v3 = model.v3;
  if (!v3) return { estimate: e, mu: e.mu, grid: model.cells[band][cellYearsOf(model, points, target, cohorts, e) - 1], band };
  const o = v3.options;
  const group = info?.group ?? UNKNOWN_GROUP;
  const shift = o.group ? v3.groupShift[band][group] : 0;
  const common = Math.sqrt(model.yearShock ** 2 + (o.group ? v3.groupSpread[band][group] ** 2 : 0));
  const planClass = o.plan ? planClassOf(points, target) : 0;
  const volClass = o.volatility && v3.volCuts.length ? volClassOf(pastVolatility(model, v3, points, target, cohorts, o.group ? group : null), v3.volCuts) : 0;
  const scale = v3.planScale[band][planClass] * v3.volScale[band][volClass];
  return {
    estimate: e,
    mu: e.mu + shift,
    grid: gridV3(model, v3, band, scale, common),
    band,
    v3: { group, planClass, volClass, scale, common, shift },
  };
}

export interface Prediction extends Estimate {
  probability: number;
}

/** The student's chance on a line in year `target`, or null without usable history. */
export function predict(
  model: FittedModel,
  points: readonly YearPoint[],
  target: number,
  cohorts: ReadonlyMap<number, number>,
  studentRank: number,
  planNow: number | null,
  /** The line's requirement group, for a model with v3 (未知 when absent). */
  info?: LineInfo | null,
): Prediction | null {
  const c = lineCell(model, points, target, cohorts, planNow, info);
  if (!c) return null;
  const shifted = c.mu === c.estimate.mu ? {} : { mu: c.mu, rank: Math.round(Math.exp(c.mu)) };
  return { ...c.estimate, ...shifted, probability: survival(c.grid, Math.log(studentRank) - c.mu) };
}

/**
 * Φ⁻¹(p), the standard normal quantile: Acklam's rational approximation (relative error 1.2e-9) refined by one
 * Halley step on normalCdf, so to about machine precision. ±Infinity at 0 and 1.
 */
export function normalQuantile(p: number): number {
  if (!(p > 0)) return p === 0 ? Number.NEGATIVE_INFINITY : Number.NaN;
  if (!(p < 1)) return p === 1 ? Number.POSITIVE_INFINITY : Number.NaN;
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  let x: number;
  if (p < 0.02425) {
    const q = Math.sqrt(-2 * Math.log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else if (p > 1 - 0.02425) {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else {
    const q = p - 0.5;
    const r = q * q;
    x = ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  }
  const e = normalCdf(x) - p;
  const u = e * Math.sqrt(2 * Math.PI) * Math.exp((x * x) / 2);
  return x - u / (1 + (x * u) / 2);
}

/**
 * How much of a line's own move (its residual once the year's common move is removed) it shares with the other lines
 * of its school, and with the lines of its major category, in the same year. The plan simulation (simulate.ts) draws
 * these as shifts shared within a school / a category, carved out of the residual (so each line's own chance is
 * unchanged); a plan of ten lines of one school then fails together as often as the data says it does.
 */
export interface SharedShifts {
  /** Share of the residual's normal-score variance common to the lines of one school in one year (other categories). */
  school: number;
  /** The same for the lines of one major category in one year (other schools). */
  category: number;
  /** Pairs of lines behind each share: same school and year, other category / same category and year, other school. */
  schoolPairs: number;
  categoryPairs: number;
}

/** A line of the training data with what the shared shifts group by. */
export interface KeyedLine {
  /** School code. */
  school: string;
  /** Major category key (simulate.ts majorCategory: the base name without its 类). */
  category: string;
  points: readonly YearPoint[];
  /**
   * A group whose common move the model already carries apart from the year's (model v3: rank band × requirement
   * group, simulated as SimChoice.common): each year's move of the group is removed first, so it is not counted again
   * as a school's or a category's.
   */
  moveGroup?: string;
}

/** The shares never take more than this of the residual together: a line keeps a move of its own. */
const SHARED_MAX = 0.9;

/**
 * SharedShifts measured on the training years of `model` (the same cases, estimates and cells as fitModel): each
 * residual, its year's median removed (its year and move group's, KeyedLine.moveGroup), becomes a normal score within
 * its cell (rank → Φ⁻¹), the mean score of its year (and move group) removed; the share for schools is the mean product of the scores of two lines of one school, one year and different
 * categories (their covariance: the scores have unit variance), the share for categories that of two lines of one
 * category, one year and different schools. Pairs sharing both are left out of both. Negative shares count as 0;
 * together at most SHARED_MAX.
 */
export function fitSharedShifts(
  lines: readonly KeyedLine[],
  model: FittedModel,
  trainYears: readonly number[],
  cohorts: ReadonlyMap<number, number>,
): SharedShifts {
  const res: Array<{ year: number; cell: number; r: number; school: string; category: string; move: string; z: number }> = [];
  for (const l of lines)
    for (const t of trainYears) {
      const actual = l.points.find((p) => p.year === t);
      if (!actual || !(actual.minRank > 0) || !l.points.some((p) => p.year < t)) continue;
      const e = estimate(l.points, t, cohorts, model.weights, model.planBeta, actual.planCount, model.cohortPower);
      if (!e) continue;
      const cell = bandOf(e.rank) * 3 + cellYearsOf(model, l.points, t, cohorts, e) - 1;
      const move = `${t}\u0000${l.moveGroup ?? ''}`;
      res.push({ year: t, cell, r: Math.log(actual.minRank) - e.mu, school: l.school, category: l.category, move, z: 0 });
    }
  // The common move of each year (and move group): its median residual.
  const moves = new Map<string, number[]>();
  for (const x of res) {
    const list = moves.get(x.move);
    if (list) list.push(x.r);
    else moves.set(x.move, [x.r]);
  }
  const shift = new Map([...moves].map(([k, rs]) => [k, median(rs)]));
  const byCell = new Map<number, typeof res>();
  for (const x of res) {
    x.r -= shift.get(x.move) ?? 0;
    const list = byCell.get(x.cell);
    if (list) list.push(x);
    else byCell.set(x.cell, [x]);
  }
  for (const list of byCell.values()) {
    list.sort((a, b) => a.r - b.r);
    list.forEach((x, i) => {
      x.z = normalQuantile((i + 0.5) / list.length);
    });
  }
  const moveMean = new Map<string, { s: number; n: number }>();
  for (const x of res) {
    const m = moveMean.get(x.move) ?? { s: 0, n: 0 };
    m.s += x.z;
    m.n++;
    moveMean.set(x.move, m);
  }
  for (const x of res) {
    const m = moveMean.get(x.move) as { s: number; n: number };
    x.z -= m.s / m.n;
  }
  // Σ over pairs i ≠ j of one group of z_i z_j = (Σz)² − Σz²; pairs n(n − 1) (ordered, as the products).
  const pairSums = (key: (x: (typeof res)[number]) => string) => {
    const groups = new Map<string, { s: number; s2: number; n: number }>();
    for (const x of res) {
      const k = key(x);
      const g = groups.get(k) ?? { s: 0, s2: 0, n: 0 };
      g.s += x.z;
      g.s2 += x.z * x.z;
      g.n++;
      groups.set(k, g);
    }
    let sum = 0;
    let pairs = 0;
    for (const g of groups.values()) {
      sum += g.s * g.s - g.s2;
      pairs += g.n * (g.n - 1);
    }
    return { sum, pairs };
  };
  const sameSchool = pairSums((x) => `${x.year}\u0000${x.school}`);
  const sameCategory = pairSums((x) => `${x.year}\u0000${x.category}`);
  const both = pairSums((x) => `${x.year}\u0000${x.school}\u0000${x.category}`);
  const share = (g: { sum: number; pairs: number }) => {
    const pairs = g.pairs - both.pairs;
    return { value: pairs > 0 ? Math.max(0, (g.sum - both.sum) / pairs) : 0, pairs: pairs / 2 };
  };
  const s = share(sameSchool);
  const c = share(sameCategory);
  const scale = s.value + c.value > SHARED_MAX ? SHARED_MAX / (s.value + c.value) : 1;
  return { school: s.value * scale, category: c.value * scale, schoolPairs: s.pairs, categoryPairs: c.pairs };
}
