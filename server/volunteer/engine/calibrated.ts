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
}
export const DEFAULT_FIT: FitOptions = { select: 'line', shock: 'rms' };

const WEIGHT_CHOICES = [[1], [0.6, 0.4], [0.5, 0.3, 0.2], [0.4, 0.35, 0.25], [0.34, 0.33, 0.33]];
const COHORT_POWERS = [0, 0.5, 1];

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
  for (let b = 0; b < raw.length; b++) {
    cells.push([]);
    counts.push([]);
    for (let y = 0; y < 3; y++) {
      // Too few cases: pool with fewer years of the same band, then with the neighbouring bands.
      let pool = raw[b][y];
      for (let yy = y - 1; pool.length < MIN_CELL && yy >= 0; yy--) pool = pool.concat(raw[b][yy]);
      for (let d = 1; pool.length < MIN_CELL && d < raw.length; d++)
        for (const bb of [b - d, b + d]) if (bb >= 0 && bb < raw.length) pool = pool.concat(raw[bb][y]);
      const q = pool.length ? quantiles([...pool].sort((a, z) => a - z)) : [0];
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
): Prediction | null {
  const e = estimate(points, target, cohorts, model.weights, model.planBeta, planNow, model.cohortPower);
  if (!e) return null;
  return { ...e, probability: survival(model.cells[bandOf(e.rank)][cellYearsOf(model, points, target, cohorts, e) - 1], Math.log(studentRank) - e.mu) };
}
