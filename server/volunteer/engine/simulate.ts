import { type FittedModel, GRID_MIN, GRID_STEP, normalQuantile } from './calibrated.js';
import { splitName } from './identity.js';
import type { LiveEstimate } from './live.js';
import { normalCdf } from './normal.js';
import type { Tier } from './types.js';

/**
 * The whole plan simulated (issue 24): Shandong's parallel 投档 sends the student to the FIRST choice in plan order
 * whose line they clear, and the lines move together (a hard year moves every line), so a plan is judged by drawing
 * whole years, not by adding up the lines' chances. Pure: no database, no clock; the same plan, student and model give
 * the same answer (the generator is seeded from them).
 *
 * One draw is one possible admission year. In log-rank space a line's next min rank is
 *   log R_i = μ_i + s + e_i,   s ~ N(drift, yearShock) common to every line (the fit's year shock),
 * and e_i, the line's own residual, has its cell's residual distribution (FittedModel.residualQuantiles, the same
 * residuals the survival grids are built from, before the shock is added). Lines of one school, and lines of one major
 * category, share part of e_i: e_i = Q_cell(Φ(z_i)) with
 *   z_i = √ρS · Z_school + √ρC · Z_category + √(1 − ρS − ρC) · ε_i,   all standard normal,
 * a Gaussian copula: z_i is standard normal whatever the shares, so e_i keeps exactly its cell's distribution and each
 * line's own chance stays its calibrated 录取概率 — the shared shifts are carved out of the residual, not added on top.
 * ρS, ρC are FittedModel.sharedShifts (calibrated.ts fitSharedShifts, measured on the training years) or 0.
 * The student is admitted at line i when log r ≤ log R_i (the line's min rank is at or behind theirs); for a widened
 * line (a new line estimated from its min score, live.ts) the line's whole move is doubled, as in liveProbability.
 *
 * A model file written before issue 24 has no residual quantiles. Then the cell's survival grid (shock and residual
 * together) is used as the line's whole move, and the year shock enters the copula as a third common factor whose
 * share of the cell's variance is yearShock² / Var(cell): each line's chance is still exactly its calibrated one, and
 * the lines move together about as much (a common normal factor in normal-score space rather than a common shift in
 * log rank). PlanSimulation.method says which was used.
 *
 * A line whose move is not its cell's (model v3, calibrated.ts lineCell: the band's standardised residual times the
 * line's scale, plus a move shared by the lines of its rank band × subject-requirement group beyond the year's) says
 * so in SimChoice.own / SimChoice.common; simChoiceOfCell builds them from a LineCell.
 *
 * Random numbers are counter-based: a draw's year shift comes from (seed, draw), a line's own part from (seed, the
 * line, draw) and a group's shift from (seed, the group, draw), never from a position in the plan. So the same plan
 * always gets the same answer, and an edit changes only what it changes: reordering choices leaves P(admitted at all)
 * exactly as it was (each year admits at the same set of lines), adding a choice at the end can only add admissions —
 * the editor's figures do not jitter with Monte Carlo noise from one edit to the next.
 */

/** One choice of the plan, in plan order, with what the live model knows of its line. */
export interface SimChoice {
  /** log of the estimated min rank for the target year (LiveEstimate.estimate.mu). */
  mu: number;
  /** The line's cell in the model: rank band index and years (1–3), as model.cells[band][years − 1]. */
  band: number;
  years: number;
  /** The spread is doubled (LiveEstimate.widened: a new line estimated from its min score). */
  widened: boolean;
  /** The line's id (the catalogue option id), part of its random stream; optional. */
  id?: string;
  /** School code: lines of one school share a shift. */
  school: string;
  /** Major category key (majorCategory below): lines of one category share a shift. */
  category: string;
  tier: Tier;
  /**
   * The line's own move when it is not its cell's residual: quantiles (0 … 1) of a standardised residual, times scale
   * (model v3). The year shift is added to it as to a cell's residual.
   */
  own?: { quantiles: readonly number[]; scale: number };
  /** A move shared by the lines of one key beyond the year's (model v3: rank band × requirement group): N(0, spread). */
  common?: { key: string; spread: number };
}

export interface SimulateOptions {
  /** Simulated years (default 10 000). */
  draws?: number;
  /** The base seed; by default derived from the student's rank, the draw count and the model (not the order). */
  seed?: number;
  /** Share of the residual common to a school's lines; default model.sharedShifts?.school ?? 0. */
  schoolShare?: number;
  /** Share of the residual common to a category's lines; default model.sharedShifts?.category ?? 0. */
  categoryShare?: number;
}

/** Why a choice (almost) never takes the student: the smaller of the two factors of its landing share. */
export type IdleReason = 'shadowed' | 'unlikely';
export const IDLE_REASON_TEXT: Readonly<Record<IdleReason, string>> = {
  shadowed: '排在前面的志愿几乎总能录取，投档很少排到这里',
  unlikely: '投档排到这里时也几乎不会被录取',
};
/** A choice landing the student in fewer than this share of the draws is reported idle. */
export const IDLE_BELOW = 0.001;

export interface PlanSimulation {
  draws: number;
  seed: number;
  /** 'residuals': every line drawn from residual quantiles with the year's shift; 'grid': some line from an older model file's grid (see above). */
  method: 'residuals' | 'grid';
  /** The shared shares used (of the residual's normal-score variance). */
  shares: { school: number; category: number };
  /** P(admitted at all) = 1 − P(滑档). */
  admitted: number;
  /** P(滑档): no choice admits. */
  slide: number;
  /** P(landing at a choice of that tier). */
  byTier: Record<Tier, number>;
  /** P(landing at choice i), in plan order. */
  landing: number[];
  /** P(投档 gets to choice i): every earlier choice turned the student down. */
  reach: number[];
  /** Choices (0-based) never reached in any draw. */
  neverReached: number[];
  /** Choices landing the student in fewer than IDLE_BELOW of the draws, with why (never-reached ones included). */
  idle: Array<{ index: number; reason: IdleReason }>;
  /** Mean landing position (1-based) over the draws that admit; null when none does. */
  expectedPosition: number | null;
  /**
   * Rank headroom used: the mean over admitting draws of r / the landing line's estimated min rank (exp μ). Near 1:
   * the student lands where their rank is needed; well below 1: the rank could have bought a more selective line.
   */
  headroomUsed: number | null;
}

/** The category key of a major: its base name (before the first bracket), normalised, without a trailing 类. */
export function majorCategory(majorName: string | null | undefined): string {
  if (!majorName) return '';
  const { base } = splitName(majorName);
  return base.length > 1 ? base.replace(/类$/, '') : base;
}

const DEFAULT_DRAWS = 10_000;

/** Standard normal draws by table: Φ⁻¹ at the midpoints of 2^13 equal slices, indexed by a draw's top 13 bits. */
const NORM_BITS = 13;
/** The probability one normal-table level carries: a draw's normal variates move in steps of this much mass. */
export const DRAW_RESOLUTION = 1 / 2 ** NORM_BITS;
const NORM_SHIFT = 32 - NORM_BITS;
const NORM = (() => {
  const n = 1 << NORM_BITS;
  const t = new Float64Array(n);
  for (let k = 0; k < n; k++) t[k] = normalQuantile((k + 0.5) / n);
  return t;
})();

/** A cell's move as a function of its normal score z (Q(Φ(z))), tabulated on [−Z_MAX, Z_MAX]. */
const Z_MAX = 5;
const H_SIZE = 2049;
const H_STEP = (2 * Z_MAX) / (H_SIZE - 1);
const H_INV = 1 / H_STEP;
/** A move below / above the survival grid (grid mode): beyond any threshold the grid answers for. */
const GRID_MAX = GRID_MIN + 400 * GRID_STEP;
/** The year factor never takes more than this of a cell's variance in grid mode (a line keeps a move of its own). */
const YEAR_SHARE_MAX = 0.95;

/** Tables Q(Φ(z)) of residual quantile arrays and of survival grids, built once per array (the model's own arrays). */
const quantileTables = new WeakMap<object, Float64Array>();
const gridTables = new WeakMap<object, { table: Float64Array; variance: number }>();

type SimModel = Pick<FittedModel, 'drift' | 'yearShock' | 'cells' | 'residualQuantiles' | 'sharedShifts'>;

function tableOf(f: (u: number) => number): Float64Array {
  const h = new Float64Array(H_SIZE);
  for (let k = 0; k < H_SIZE; k++) h[k] = f(normalCdf(-Z_MAX + k * H_STEP));
  return h;
}

function quantileTable(q: readonly number[]): Float64Array {
  let t = quantileTables.get(q);
  if (!t) {
    t = tableOf((u) => quantileAt(q, u));
    quantileTables.set(q, t);
  }
  return t;
}

function gridTable(grid: readonly number[]): { table: Float64Array; variance: number } {
  let t = gridTables.get(grid);
  if (!t) {
    t = { table: tableOf((u) => gridQuantileAt(grid, u)), variance: gridVariance(grid) };
    gridTables.set(grid, t);
  }
  return t;
}

/** Piecewise-linear quantile function through q (q[k] at k / (q.length − 1)). */
function quantileAt(q: readonly number[], u: number): number {
  if (q.length === 1) return q[0];
  const pos = u * (q.length - 1);
  const lo = Math.min(q.length - 2, Math.max(0, Math.floor(pos)));
  return q[lo] + (q[lo + 1] - q[lo]) * (pos - lo);
}

/** Quantile function of a survival grid's distribution (P(X ≥ x) = grid), below / beyond it at the ends. */
function gridQuantileAt(grid: readonly number[], u: number): number {
  // F(x) = 1 − grid(x), non-decreasing: the first node with F ≥ u, interpolated from the one before.
  const n = grid.length;
  if (u < 1 - grid[0]) return GRID_MIN - 1;
  if (u > 1 - grid[n - 1]) return GRID_MAX + 1;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (1 - grid[mid] >= u) hi = mid;
    else lo = mid + 1;
  }
  if (lo === 0) return GRID_MIN;
  const f0 = 1 - grid[lo - 1];
  const f1 = 1 - grid[lo];
  const frac = f1 > f0 ? (u - f0) / (f1 - f0) : 1;
  return GRID_MIN + (lo - 1 + frac) * GRID_STEP;
}

/** Variance of a survival grid's distribution (its mass between nodes at the midpoints, the tails at the ends). */
function gridVariance(grid: readonly number[]): number {
  let m1 = 0;
  let m2 = 0;
  const add = (x: number, w: number) => {
    m1 += w * x;
    m2 += w * x * x;
  };
  add(GRID_MIN, 1 - grid[0]);
  for (let i = 0; i + 1 < grid.length; i++) add(GRID_MIN + (i + 0.5) * GRID_STEP, grid[i] - grid[i + 1]);
  add(GRID_MIN + (grid.length - 1) * GRID_STEP, grid[grid.length - 1]);
  return Math.max(0, m2 - m1 * m1);
}

/** FNV-1a, 32 bits, of numbers (their float64 bits) and strings. */
class Fnv {
  private h = 0x811c9dc5;
  private readonly f = new Float64Array(1);
  private readonly w = new Uint32Array(this.f.buffer);
  num(x: number): this {
    this.f[0] = x;
    this.h = Math.imul(this.h ^ this.w[0], 0x01000193);
    this.h = Math.imul(this.h ^ this.w[1], 0x01000193);
    return this;
  }
  str(s: string): this {
    for (let i = 0; i < s.length; i++) this.h = Math.imul(this.h ^ s.charCodeAt(i), 0x01000193);
    this.h = Math.imul(this.h ^ 0xffff, 0x01000193);
    return this;
  }
  get value(): number {
    return this.h >>> 0;
  }
}

/**
 * The 32-bit random word number `d` of the stream `key` (murmur3's finaliser of key + d × golden ratio): a bijective
 * mix with full avalanche, so neighbouring draws and keys give unrelated words; the top bits index NORM.
 */
export function word(key: number, d: number): number {
  let h = (key + Math.imul(d, 0x9e3779b9)) | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Simulates parallel 投档 of a plan (choices in plan order) for a student of rank `studentRank` over `draws` years.
 * Cost: one table lookup per choice examined per draw, stopping at the first admitting choice (bench/simulate.ts).
 */
/** Everything a draw needs of the plan's choices, computed once (simulatePlan and admissionMatrix share it). */
function prepare(model: SimModel, choices: readonly SimChoice[], studentRank: number, options: SimulateOptions) {
  if (!(studentRank > 0)) throw new Error(`simulatePlan: 位次必须为正数（${studentRank}）`);
  const draws = Math.max(1, Math.floor(options.draws ?? DEFAULT_DRAWS));
  const rhoS = clampShare(options.schoolShare ?? model.sharedShifts?.school ?? 0);
  let rhoC = clampShare(options.categoryShare ?? model.sharedShifts?.category ?? 0);
  if (rhoS + rhoC > 1) rhoC = 1 - rhoS;
  const n = choices.length;
  const seed = (options.seed ?? new Fnv().num(studentRank).num(draws).num(model.drift).num(model.yearShock).num(rhoS).num(rhoC).value) >>> 0;
  const rq = model.residualQuantiles;
  const bands = model.cells.length;
  const hasResiduals = rq != null && rq.length === bands && rq.every((b) => b.length === 3);

  // Per choice: the threshold of its move (admitted when move ≥ t), its table Q(Φ(z)) and the scale of what it reads,
  // whether the year shift is added (not when the table is a grid that holds it), copula weights, stream keys.
  const logRank = Math.log(studentRank);
  const t = new Float64Array(n);
  const tables: Float64Array[] = [];
  const scale = new Float64Array(n);
  const withYear = new Float64Array(n);
  const aY = new Float64Array(n);
  const aS = new Float64Array(n);
  const aC = new Float64Array(n);
  const aE = new Float64Array(n);
  const spread = new Float64Array(n);
  // Stream keys: the line's (its content, and the how-manieth time the same content recurs), its school's, category's,
  // common group's.
  const lineKey = new Int32Array(n);
  const schoolKey = new Int32Array(n);
  const categoryKey = new Int32Array(n);
  const commonKey = new Int32Array(n);
  const seen = new Map<number, number>();
  let gridLines = 0;
  for (let i = 0; i < n; i++) {
    const c = choices[i];
    const band = Math.min(bands - 1, Math.max(0, c.band));
    const years = Math.min(3, Math.max(1, c.years));
    const x = logRank - c.mu;
    // Widened: the line's whole move doubled, 2 × move ≥ x (liveProbability looks the grid up at x / 2).
    t[i] = c.widened ? x / 2 : x;
    let yearShare = 0;
    if (c.own) {
      tables.push(quantileTable(c.own.quantiles));
      scale[i] = c.own.scale;
      withYear[i] = 1;
    } else if (hasResiduals) {
      tables.push(quantileTable((rq as number[][][])[band][years - 1]));
      scale[i] = 1;
      withYear[i] = 1;
    } else {
      // An older model file: the grid holds the year shock; the year enters the copula with its share of the variance.
      const g = gridTable(model.cells[band][years - 1]);
      tables.push(g.table);
      scale[i] = 1;
      yearShare = g.variance > 0 ? Math.min(YEAR_SHARE_MAX, model.yearShock ** 2 / g.variance) : 0;
      gridLines++;
    }
    aY[i] = Math.sqrt(yearShare);
    aS[i] = Math.sqrt(rhoS * (1 - yearShare));
    aC[i] = Math.sqrt(rhoC * (1 - yearShare));
    aE[i] = Math.sqrt(Math.max(0, (1 - rhoS - rhoC) * (1 - yearShare)));
    spread[i] = c.common && c.common.spread > 0 ? c.common.spread : 0;
    const content = new Fnv()
      .num(seed)
      .str('line')
      .str(c.id ?? '')
      .num(c.mu)
      .num(band * 3 + years)
      .num(c.widened ? 1 : 0)
      .str(c.school)
      .str(c.category).value;
    const again = seen.get(content) ?? 0;
    seen.set(content, again + 1);
    lineKey[i] = new Fnv().num(content).num(again).value | 0;
    schoolKey[i] = new Fnv().num(seed).str('school').str(c.school).value | 0;
    categoryKey[i] = new Fnv().num(seed).str('category').str(c.category).value | 0;
    commonKey[i] =
      new Fnv()
        .num(seed)
        .str('common')
        .str(c.common?.key ?? '').value | 0;
  }
  const yearKey = new Fnv().num(seed).str('year').value | 0;
  const useSchool = rhoS > 0;
  const useCategory = rhoC > 0;
  const zYear = new Float64Array(draws);
  const shift = new Float64Array(draws);
  for (let d = 0; d < draws; d++) {
    zYear[d] = NORM[word(yearKey, d) >>> NORM_SHIFT];
    shift[d] = model.drift + model.yearShock * zYear[d];
  }
  return {
    n,
    draws,
    seed,
    rhoS,
    rhoC,
    gridLines,
    t,
    tables,
    scale,
    withYear,
    aY,
    aS,
    aC,
    aE,
    spread,
    lineKey,
    schoolKey,
    categoryKey,
    commonKey,
    useSchool,
    useCategory,
    zYear,
    shift,
  };
}

type Prepared = ReturnType<typeof prepare>;

/**
 * Choice i over the draws open[0 … left): the draws it does not admit are moved to the front of `open` (their count is
 * returned), the ones it admits are marked in `admitted` when given. The one place a line's move in a draw is computed
 * (simulatePlan's 投档 and admissionMatrix share it): a choice's constants stay in registers over the draws.
 */
function admitAmong(p: Prepared, i: number, open: Int32Array, left: number, admitted: Uint8Array | null): number {
  const { zYear, shift } = p;
  const h = p.tables[i];
  const ti = p.t[i];
  const ay = p.aY[i];
  const ae = p.aE[i];
  const as = p.useSchool ? p.aS[i] : 0;
  const ac = p.useCategory ? p.aC[i] : 0;
  const sp = p.spread[i];
  const wy = p.withYear[i];
  const sc = p.scale[i];
  const kl = p.lineKey[i];
  const ks = p.schoolKey[i];
  const kc = p.categoryKey[i];
  const kg = p.commonKey[i];
  let kept = 0;
  for (let j = 0; j < left; j++) {
    const d = open[j];
    let z = ay * zYear[d] + ae * NORM[word(kl, d) >>> NORM_SHIFT];
    if (as > 0) z += as * NORM[word(ks, d) >>> NORM_SHIFT];
    if (ac > 0) z += ac * NORM[word(kc, d) >>> NORM_SHIFT];
    let pos = (z + Z_MAX) * H_INV;
    if (pos < 0) pos = 0;
    else if (pos > H_SIZE - 1.000001) pos = H_SIZE - 1.000001;
    const k = pos | 0;
    let move = wy * shift[d] + sc * (h[k] + (h[k + 1] - h[k]) * (pos - k));
    if (sp > 0) move += sp * NORM[word(kg, d) >>> NORM_SHIFT];
    if (move < ti) open[kept++] = d;
    else if (admitted) admitted[d] = 1;
  }
  return kept;
}

export function simulatePlan(model: SimModel, choices: readonly SimChoice[], studentRank: number, options: SimulateOptions = {}): PlanSimulation {
  const p = prepare(model, choices, studentRank, options);
  const { n, draws, seed, rhoS, rhoC, gridLines } = p;
  const land = new Int32Array(n);
  // Choice by choice over the draws not yet placed (the same draws and variates as year by year, choice by choice —
  // each variate is a function of its stream and draw only): a choice's constants stay in registers, and the draws
  // an earlier choice admitted drop out of the list, which is 投档's early exit.
  const open = new Int32Array(draws);
  for (let d = 0; d < draws; d++) open[d] = d;
  let left = draws;
  for (let i = 0; i < n && left > 0; i++) {
    const kept = admitAmong(p, i, open, left, null);
    land[i] = left - kept;
    left = kept;
  }
  const slides = left;
  return summarise(choices, land, slides, draws, seed, gridLines ? 'grid' : 'residuals', rhoS, rhoC, studentRank);
}

/**
 * Which draws admit the student at each choice, every choice looked at in every draw (no 投档 early exit): row i is a
 * Uint8Array over the draws, 1 where the student clears line i. The draws are simulatePlan's own for the same
 * options — a line's variates depend on the seed, its content and the draw only — so a plan built from these rows
 * simulates to exactly the admissions they show. For the auto-fill's optimiser (optimise.ts).
 */
export function admissionMatrix(
  model: SimModel,
  choices: readonly SimChoice[],
  studentRank: number,
  options: SimulateOptions = {},
): { draws: number; seed: number; rows: Uint8Array[] } {
  const p = prepare(model, choices, studentRank, options);
  const all = new Int32Array(p.draws);
  const rows: Uint8Array[] = [];
  for (let i = 0; i < p.n; i++) {
    for (let d = 0; d < p.draws; d++) all[d] = d;
    const row = new Uint8Array(p.draws);
    admitAmong(p, i, all, p.draws, row);
    rows.push(row);
  }
  return { draws: p.draws, seed: p.seed, rows };
}

function clampShare(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}

function summarise(
  choices: readonly SimChoice[],
  land: Int32Array,
  slides: number,
  draws: number,
  seed: number,
  method: PlanSimulation['method'],
  school: number,
  category: number,
  rank: number,
): PlanSimulation {
  const n = choices.length;
  const byTier: Record<Tier, number> = { 冲: 0, 稳: 0, 保: 0 };
  const landing: number[] = [];
  const reach: number[] = [];
  const neverReached: number[] = [];
  const idle: PlanSimulation['idle'] = [];
  let left = draws;
  let admitted = 0;
  let position = 0;
  let headroom = 0;
  for (let i = 0; i < n; i++) {
    const c = land[i];
    reach.push(left / draws);
    landing.push(c / draws);
    if (left === 0) neverReached.push(i);
    if (c / draws < IDLE_BELOW) {
      // landing = reach × P(admitted | reached): the smaller factor is the reason.
      const admitRate = left > 0 ? c / left : 0;
      idle.push({ index: i, reason: left === 0 || left / draws <= admitRate ? 'shadowed' : 'unlikely' });
    }
    byTier[choices[i].tier] += c / draws;
    admitted += c;
    position += c * (i + 1);
    headroom += c * (rank / Math.exp(choices[i].mu));
    left -= c;
  }
  return {
    draws,
    seed,
    method,
    shares: { school, category },
    admitted: admitted / draws,
    slide: slides / draws,
    byTier,
    landing,
    reach,
    neverReached,
    idle,
    expectedPosition: admitted ? position / admitted : null,
    headroomUsed: admitted ? headroom / admitted : null,
  };
}

/** Cells of a model by their grid (the array LiveEstimate.grid points at), built once per model. */
const cellsByGrid = new WeakMap<SimModel, Map<ArrayLike<number>, { band: number; years: number }>>();

function cellOfGrid(model: SimModel, grid: ArrayLike<number>): { band: number; years: number } | undefined {
  let byGrid = cellsByGrid.get(model);
  if (!byGrid) {
    byGrid = new Map();
    for (let band = 0; band < model.cells.length; band++)
      for (let y = 0; y < model.cells[band].length; y++) byGrid.set(model.cells[band][y], { band, years: y + 1 });
    cellsByGrid.set(model, byGrid);
  }
  const hit = byGrid.get(grid);
  if (hit) return hit;
  // A copy of the model's grid (a model serialised and read back): by equal values.
  for (const [g, c] of byGrid) {
    if (g.length !== grid.length) continue;
    let same = true;
    for (let i = 0; same && i < g.length; i++) same = g[i] === grid[i];
    if (same) return c;
  }
  return undefined;
}

type Line = { id?: string; schoolCode: string; majorName?: string | null };
const choiceBase = (line: Line, tier: Tier) => ({ id: line.id, school: line.schoolCode, category: majorCategory(line.majorName), tier });

/**
 * The SimChoice of a live line: its estimate's μ, widening and cell (found by the grid the estimate points at — the
 * model's own array — or, for a copy, by equal values), the school, the category of its major name and its tier.
 */
export function simChoiceOf(model: SimModel, est: Pick<LiveEstimate, 'estimate' | 'widened' | 'grid'>, line: Line, tier: Tier): SimChoice {
  const cell = cellOfGrid(model, est.grid);
  if (!cell) throw new Error('simChoiceOf: 该估计的残差格不属于此模型');
  return { ...choiceBase(line, tier), mu: est.estimate.mu, band: cell.band, years: cell.years, widened: est.widened };
}

/** What simChoiceOfCell reads of a model v3 (calibrated.ts ModelV3). */
interface V3Parts {
  options: { group?: unknown };
  z: number[][];
  groupSpread: number[][];
}

/**
 * The SimChoice of a line's distribution as calibrated.ts lineCell gives it: without v3 the cell of its grid; with v3
 * the band's standardised residual times the line's scale, and the band × requirement group's spread as a move shared
 * by the lines of that group (the year shock is the simulation's own year shift), μ with the group's shift.
 */
export function simChoiceOfCell(
  model: SimModel & { v3?: V3Parts },
  cell: { mu: number; band: number; grid: ArrayLike<number>; v3?: { group: number; scale: number } },
  line: Line,
  tier: Tier,
  widened = false,
): SimChoice {
  const base = { ...choiceBase(line, tier), mu: cell.mu, band: cell.band, widened };
  const v3 = model.v3;
  if (v3 && cell.v3) {
    const spread = v3.options.group ? (v3.groupSpread[cell.band]?.[cell.v3.group] ?? 0) : 0;
    return {
      ...base,
      years: 1,
      own: { quantiles: v3.z[cell.band], scale: cell.v3.scale },
      ...(spread > 0 ? { common: { key: `${cell.band}:${cell.v3.group}`, spread } } : {}),
    };
  }
  const found = cellOfGrid(model, cell.grid);
  if (!found) throw new Error('simChoiceOfCell: 该估计的残差格不属于此模型');
  return { ...base, band: found.band, years: found.years };
}
