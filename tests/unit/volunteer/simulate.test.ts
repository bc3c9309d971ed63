import { describe, expect, it } from 'vitest';
import {
  type FittedModel,
  fitModel,
  fitSharedShifts,
  GRID_MIN,
  GRID_STEP,
  type KeyedLine,
  normalQuantile,
  survival,
  type YearPoint,
} from '../../../server/volunteer/engine/calibrated.js';
import { normalCdf } from '../../../server/volunteer/engine/normal.js';
import { DRAW_RESOLUTION, majorCategory, type SimChoice, simChoiceOf, simChoiceOfCell, simulatePlan } from '../../../server/volunteer/engine/simulate.js';
import type { Tier } from '../../../server/volunteer/engine/types.js';

/**
 * The whole-plan simulation (server/volunteer/engine/simulate.ts) against cases solved by hand.
 *
 * Error bounds: a simulated share p̂ over N draws has standard error √(p(1 − p) / N); every comparison allows 4 of them
 * (a false alarm about once in 16 000 comparisons), plus what the method itself moves the answer by, stated where it
 * applies: the draws' normal variates come from a table of 2^13 levels, which can move a threshold by one level's
 * mass (DRAW_RESOLUTION) per variate; a fitted survival grid treats its Q + 1 residual quantiles as equal atoms while
 * the simulation interpolates between them, and the two distributions differ by at most 1 / (Q + 1) anywhere.
 */

const N = 20_000;
const RANK = 10_000;
const bound = (p: number, n = N) => 4 * Math.sqrt(Math.max(p * (1 - p), 1 / n) / n);
/** Quantiles of the uniform distribution on [−½, ½]: piecewise-linear through them is that distribution exactly. */
const UNIFORM = Array.from({ length: 201 }, (_, k) => -0.5 + k / 200);
const ATOMS = 1 / UNIFORM.length;

type Model = Pick<FittedModel, 'drift' | 'yearShock' | 'cells' | 'residualQuantiles' | 'sharedShifts'>;

/** A model whose every cell has residual quantiles q, its grid built as fitModel builds it (the mean over the atoms). */
function handModel(q: readonly number[], yearShock: number, withQuantiles = true): Model {
  const grid: number[] = [];
  for (let i = 0; i <= 400; i++) {
    const x = GRID_MIN + i * GRID_STEP;
    let p = 0;
    for (const v of q) p += yearShock > 0 ? normalCdf((v - x) / yearShock) : v >= x ? 1 : 0;
    grid.push(p / q.length);
  }
  return {
    drift: 0,
    yearShock,
    cells: Array.from({ length: 7 }, () => [grid, grid, grid]),
    ...(withQuantiles ? { residualQuantiles: Array.from({ length: 7 }, () => [[...q], [...q], [...q]]) } : {}),
  };
}

/** A line where the student's move threshold is x (log r − μ), i.e. P = P(move ≥ x). */
const line = (x: number, over: Partial<SimChoice> = {}): SimChoice => ({
  mu: Math.log(RANK) - x,
  band: 2,
  years: 1,
  widened: false,
  school: 'A',
  category: '计算机',
  tier: '稳',
  ...over,
});

/** P(two standard normals of correlation ρ both fall below c), by quadrature over the common factor. */
function bothBelow(c: number, rho: number): number {
  let sum = 0;
  const h = 0.001;
  for (let w = -8; w <= 8; w += h) {
    const one = normalCdf((c - Math.sqrt(rho) * w) / Math.sqrt(1 - rho));
    sum += (Math.exp((-w * w) / 2) / Math.sqrt(2 * Math.PI)) * one * one * h;
  }
  return sum;
}

describe('plan simulation (parallel 投档 over correlated years)', () => {
  it('one line: P(admitted) is the line’s calibrated survival at the student’s rank', () => {
    const model = handModel(UNIFORM, 0.1);
    for (const x of [-0.4, -0.1, 0.1, 0.35]) {
      const p = survival(model.cells[2][0], x);
      const sim = simulatePlan(model, [line(x)], RANK, { draws: N });
      expect(sim.method).toBe('residuals');
      expect(sim.draws).toBe(N);
      // One residual variate and one year variate: two table levels; the grid's atoms against the interpolation: 1/201.
      expect(Math.abs(sim.admitted - p)).toBeLessThanOrEqual(bound(p) + 2 * DRAW_RESOLUTION + ATOMS);
      expect(sim.slide).toBeCloseTo(1 - sim.admitted, 12);
      expect(sim.landing[0]).toBe(sim.admitted);
    }
  });

  it('two independent lines, no year shock: P(at all) = 1 − (1 − p1)(1 − p2), landing p1 then (1 − p1)p2', () => {
    const model = handModel(UNIFORM, 0);
    // Uniform residual on [−½, ½]: P(e ≥ x) = ½ − x exactly.
    const [p1, p2] = [0.3, 0.6];
    const plan = [line(0.5 - p1, { school: 'A', category: '数学' }), line(0.5 - p2, { school: 'B', category: '物理' })];
    const sim = simulatePlan(model, plan, RANK, { draws: N, schoolShare: 0, categoryShare: 0 });
    const all = 1 - (1 - p1) * (1 - p2);
    expect(Math.abs(sim.admitted - all)).toBeLessThanOrEqual(bound(all) + 2 * DRAW_RESOLUTION);
    expect(Math.abs(sim.landing[0] - p1)).toBeLessThanOrEqual(bound(p1) + DRAW_RESOLUTION);
    expect(Math.abs(sim.landing[1] - (1 - p1) * p2)).toBeLessThanOrEqual(bound((1 - p1) * p2) + 2 * DRAW_RESOLUTION);
    expect(sim.reach[1]).toBeCloseTo(1 - sim.landing[0], 12);
  });

  it('two fully correlated identical lines: P(at all) = p, and the second never takes the student', () => {
    const model = handModel(UNIFORM, 0.1);
    const x = 0.1;
    const p = survival(model.cells[2][0], x);
    // The whole residual shared by the school: the two lines move as one.
    const plan = [line(x, { id: '1' }), line(x, { id: '2' })];
    const sim = simulatePlan(model, plan, RANK, { draws: N, schoolShare: 1, categoryShare: 0 });
    expect(Math.abs(sim.admitted - p)).toBeLessThanOrEqual(bound(p) + 2 * DRAW_RESOLUTION + ATOMS);
    expect(sim.landing[1]).toBe(0);
    // Reached whenever the first fails, and then it fails too.
    expect(sim.reach[1]).toBeCloseTo(1 - sim.admitted, 12);
    expect(sim.idle).toEqual([{ index: 1, reason: 'unlikely' }]);
  });

  it('two lines of one school sharing part of their move: P(at all) from the bivariate normal, between p and independence', () => {
    const model = handModel(UNIFORM, 0);
    const p = 0.4;
    const rho = 0.5;
    const plan = [line(0.5 - p, { id: '1' }), line(0.5 - p, { id: '2' })];
    const sim = simulatePlan(model, plan, RANK, { draws: N, schoolShare: rho, categoryShare: 0 });
    // Admitted at a line when its normal score z ≥ Φ⁻¹(1 − p); the two scores have correlation ρ.
    const all = 1 - bothBelow(normalQuantile(1 - p), rho);
    expect(all).toBeGreaterThan(p);
    expect(all).toBeLessThan(1 - (1 - p) ** 2);
    expect(Math.abs(sim.admitted - all)).toBeLessThanOrEqual(bound(all) + 4 * DRAW_RESOLUTION);
  });

  it('a plan whose first choice always admits: lands at 1, every other choice never reached', () => {
    const model = handModel(UNIFORM, 0.05);
    // The move is at least −½ − 5 × 0.05 (the normal table stops at 3.84 sd): x = −1 is always cleared.
    const tiers: Tier[] = ['冲', '冲', '稳', '保'];
    const plan = [line(-1, { tier: '保' }), ...tiers.map((tier, i) => line(0.2 - i * 0.2, { tier, school: `S${i}` }))];
    const sim = simulatePlan(model, plan, RANK, { draws: 5_000 });
    expect(sim.admitted).toBe(1);
    expect(sim.slide).toBe(0);
    expect(sim.landing).toEqual([1, 0, 0, 0, 0]);
    expect(sim.neverReached).toEqual([1, 2, 3, 4]);
    expect(sim.idle.map((i) => i.index)).toEqual([1, 2, 3, 4]);
    expect(sim.idle.every((i) => i.reason === 'shadowed')).toBe(true);
    expect(sim.expectedPosition).toBe(1);
    expect(sim.byTier).toEqual({ 冲: 0, 稳: 0, 保: 1 });
    // Headroom used: r over the landing line's estimated rank, exp(μ) = r × e^{x}.
    expect(sim.headroomUsed).toBeCloseTo(Math.exp(-1), 12);
  });

  it('the order matters for where the student lands, not for whether they are admitted', () => {
    const model = handModel(UNIFORM, 0.1);
    const rush = line(0.2, { tier: '冲', school: 'A', category: '计算机' });
    const safe = line(-0.35, { tier: '保', school: 'B', category: '会计' });
    const a = simulatePlan(model, [rush, safe], RANK, { draws: N, schoolShare: 0.2, categoryShare: 0.1 });
    const b = simulatePlan(model, [safe, rush], RANK, { draws: N, schoolShare: 0.2, categoryShare: 0.1 });
    // Each line's random stream belongs to the line, not its position: every simulated year admits at the same lines.
    expect(b.admitted).toBe(a.admitted);
    expect(b.byTier.冲 + b.byTier.保).toBeCloseTo(a.byTier.冲 + a.byTier.保, 12);
    // The rush line first: it takes the student whenever it admits; behind the safe line it is rarely reached.
    const pRush = survival(model.cells[2][0], 0.2);
    expect(Math.abs(a.byTier.冲 - pRush)).toBeLessThanOrEqual(bound(pRush) + 4 * DRAW_RESOLUTION + ATOMS);
    expect(b.byTier.冲).toBeLessThan(a.byTier.冲 / 2);
    expect(b.landing[0]).toBeGreaterThan(a.landing[1]);
    expect(b.expectedPosition).toBeLessThan(a.expectedPosition as number);
  });

  it('is deterministic: the same plan gives the same answer, another seed other draws of the same distribution', () => {
    const model = handModel(UNIFORM, 0.1);
    const plan = [line(0.3), line(0.1, { school: 'B' }), line(-0.2, { school: 'C', category: '法学' })];
    const first = simulatePlan(model, plan, RANK, { schoolShare: 0.3, categoryShare: 0.1 });
    expect(simulatePlan(model, plan, RANK, { schoolShare: 0.3, categoryShare: 0.1 })).toEqual(first);
    const other = simulatePlan(model, plan, RANK, { schoolShare: 0.3, categoryShare: 0.1, seed: first.seed + 1 });
    expect(other.landing).not.toEqual(first.landing);
    const n = first.draws;
    expect(Math.abs(other.admitted - first.admitted)).toBeLessThanOrEqual(Math.SQRT2 * bound(first.admitted, n));
  });

  it('keeps each line’s own chance with shared shifts on (fitted model, its residual quantiles)', () => {
    const cohorts = new Map([2021, 2022, 2023, 2024, 2025].map((y) => [y, 600_000]));
    const lines: YearPoint[][] = [];
    for (const base of [5_000, 20_000, 40_000, 90_000])
      for (let i = 0; i < 400; i++) {
        const m = (((i * 7919) % 401) / 400 - 0.5) * 0.4;
        lines.push([2021, 2022, 2023, 2024].map((year, k) => ({ year, minRank: Math.round(base * Math.exp(k % 2 ? m : -m / 2)), planCount: null })));
      }
    const fitted = fitModel(lines, [2022, 2023, 2024], cohorts);
    expect(fitted.residualQuantiles?.length).toBe(fitted.cells.length);
    const model = { ...fitted, sharedShifts: { school: 0.3, category: 0.2, schoolPairs: 0, categoryPairs: 0 } };
    const Q = fitted.residualQuantiles?.[0][0].length as number;
    // Six lines of one school, three categories, at margins from well inside to well outside the estimate.
    const xs = [-0.25, -0.1, 0, 0.05, 0.15, 0.3];
    const band = 3;
    const grid = model.cells[band][0];
    const plan = xs.map((x, i) =>
      simChoiceOf(
        model,
        { estimate: { mu: Math.log(RANK) - x, years: 1, rank: Math.round(RANK * Math.exp(-x)), planShift: 0 }, widened: false, grid },
        { id: String(i), schoolCode: 'S1', majorName: ['计算机类', '软件工程(中外合作办学)', '数学类'][i % 3] },
        '稳',
      ),
    );
    expect(plan[0].band).toBe(band);
    expect(plan[1].category).toBe('软件工程');
    // Line j's own chance = the landing share at choice 1 when it is first (its stream does not depend on its place).
    for (let j = 0; j < plan.length; j++) {
      const order = [plan[j], ...plan.filter((_, k) => k !== j)];
      const sim = simulatePlan(model, order, RANK, { draws: N });
      expect(sim.shares).toEqual({ school: 0.3, category: 0.2 });
      const p = survival(grid, xs[j]);
      // Year, line, school and category variates: four table levels; atoms against interpolation: 1/Q.
      expect(Math.abs(sim.landing[0] - p)).toBeLessThanOrEqual(bound(p) + 4 * DRAW_RESOLUTION + 1 / Q);
    }
  });

  it('a widened line: its whole move doubled, P = survival at half the margin', () => {
    const model = handModel(UNIFORM, 0.1);
    const x = 0.5;
    const sim = simulatePlan(model, [line(x, { widened: true })], RANK, { draws: N });
    const p = survival(model.cells[2][0], x / 2);
    expect(Math.abs(sim.admitted - p)).toBeLessThanOrEqual(bound(p) + 2 * DRAW_RESOLUTION + ATOMS);
  });

  it('a model v3 line: the band’s standardised residual × the line’s scale, plus its group’s shared move', () => {
    const yearShock = 0.1;
    const spread = 0.05;
    const scale = 0.6;
    const model = {
      ...handModel(UNIFORM, yearShock),
      v3: { options: { group: 'auto' }, z: Array.from({ length: 7 }, () => UNIFORM), groupSpread: Array.from({ length: 7 }, () => [0, spread, 0, 0, 0]) },
    };
    const cellOf = (x: number) => ({ mu: Math.log(RANK) - x, band: 3, grid: [] as number[], v3: { group: 1, scale } });
    for (const x of [-0.2, 0.05, 0.25]) {
      const choice = simChoiceOfCell(model, cellOf(x), { schoolCode: 'A', majorName: '法学' }, '稳');
      expect(choice.common).toEqual({ key: '3:1', spread });
      const sim = simulatePlan(model, [choice], RANK, { draws: N });
      // The line's distribution: N(0, yearShock² + spread²) + scale × U, as fitModel builds a grid (the atoms' mean).
      const c = Math.hypot(yearShock, spread);
      const p = UNIFORM.reduce((a, v) => a + normalCdf((scale * v - x) / c), 0) / UNIFORM.length;
      // Year, line and group variates: three levels; atoms against interpolation: 1/201.
      expect(Math.abs(sim.admitted - p)).toBeLessThanOrEqual(bound(p) + 3 * DRAW_RESOLUTION + ATOMS);
    }
  });

  it('lines of one common group move together, of two groups apart', () => {
    // No year shock and no own move: a line's move is its group's N(0, 0.2) alone.
    const model = handModel(UNIFORM, 0);
    const x = 0.1;
    const p = 1 - normalCdf(x / 0.2);
    const own = { quantiles: UNIFORM, scale: 0 };
    const inGroup = (id: string, key: string) => line(x, { id, school: id, category: id, own, common: { key, spread: 0.2 } });
    const same = simulatePlan(model, [inGroup('1', 'g'), inGroup('2', 'g')], RANK, { draws: N });
    expect(same.landing[1]).toBe(0);
    expect(Math.abs(same.admitted - p)).toBeLessThanOrEqual(bound(p) + DRAW_RESOLUTION);
    const apart = simulatePlan(model, [inGroup('1', 'g'), inGroup('2', 'h')], RANK, { draws: N });
    const all = 1 - (1 - p) ** 2;
    expect(Math.abs(apart.admitted - all)).toBeLessThanOrEqual(bound(all) + 2 * DRAW_RESOLUTION);
  });

  it('an older model file without residual quantiles: the grid with the year in the copula, chances kept, lines still move together', () => {
    const model = handModel(UNIFORM, 0.15, false);
    const grid = model.cells[2][0];
    for (const x of [-0.3, 0, 0.25]) {
      const sim = simulatePlan(model, [line(x)], RANK, { draws: N });
      expect(sim.method).toBe('grid');
      const p = survival(grid, x);
      // The grid inverted, no atoms: the year and the line's variate, two levels.
      expect(Math.abs(sim.admitted - p)).toBeLessThanOrEqual(bound(p) + 2 * DRAW_RESOLUTION);
    }
    // Two lines of different schools and categories: the year alone makes them fail together more often than apart.
    const p = survival(grid, 0.1);
    const sim = simulatePlan(model, [line(0.1, { id: '1' }), line(0.1, { id: '2', school: 'B', category: '法学' })], RANK, { draws: N });
    const independent = 1 - (1 - p) ** 2;
    expect(sim.admitted).toBeLessThan(independent - bound(independent));
  });
});

describe('shared shifts measured on training lines (fitSharedShifts)', () => {
  /** mulberry32 and Box–Muller: a fixed synthetic history. */
  function normals(seed: number) {
    let a = seed;
    const u = () => {
      a = (a + 0x6d2b79f5) | 0;
      let t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    return () => Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());
  }
  const cohorts = new Map([2021, 2022, 2023, 2024].map((y) => [y, 600_000]));
  const SCHOOLS = 200;
  const PER_SCHOOL = 10;
  const CATEGORIES = 20;

  /** Random-walk lines: each year's move = σ(√ρS · school-year + √ρC · category-year + √(1 − ρS − ρC) · own). */
  function history(rhoS: number, rhoC: number): KeyedLine[] {
    const z = normals(12345);
    const out: KeyedLine[] = [];
    const shared = new Map<string, number>();
    const get = (k: string) => {
      const v = shared.get(k) ?? z();
      shared.set(k, v);
      return v;
    };
    for (let s = 0; s < SCHOOLS; s++)
      for (let j = 0; j < PER_SCHOOL; j++) {
        // One school's lines in ten different categories, so no pair shares both.
        const category = `C${(s + j) % CATEGORIES}`;
        let log = Math.log(3_000 + (((s * PER_SCHOOL + j) * 97) % 150_000));
        const points: YearPoint[] = [];
        for (const year of [2021, 2022, 2023, 2024]) {
          if (year > 2021)
            log += 0.1 * (Math.sqrt(rhoS) * get(`${year}|${s}`) + Math.sqrt(rhoC) * get(`${year}|${category}`) + Math.sqrt(1 - rhoS - rhoC) * z());
          points.push({ year, minRank: Math.round(Math.exp(log)), planCount: null });
        }
        out.push({ school: `S${s}`, category, points });
      }
    return out;
  }
  /** Large-sample standard error of an intra-class correlation from G groups of m (Fisher). */
  const iccSe = (rho: number, m: number, groups: number) => Math.sqrt((2 * (1 - rho) ** 2 * (1 + (m - 1) * rho) ** 2) / (m * (m - 1) * (groups - 1)));

  it('recovers the shares the history was made with, within four standard errors', () => {
    const [rhoS, rhoC] = [0.3, 0.1];
    const lines = history(rhoS, rhoC);
    const train = [2022, 2023, 2024];
    const model = fitModel(
      lines.map((l) => l.points),
      train,
      cohorts,
    );
    const shares = fitSharedShifts(lines, model, train, cohorts);
    expect(shares.schoolPairs).toBe(train.length * SCHOOLS * ((PER_SCHOOL * (PER_SCHOOL - 1)) / 2));
    expect(Math.abs(shares.school - rhoS)).toBeLessThanOrEqual(4 * iccSe(rhoS, PER_SCHOOL, SCHOOLS * train.length));
    const perCategory = (SCHOOLS * PER_SCHOOL) / CATEGORIES;
    expect(Math.abs(shares.category - rhoC)).toBeLessThanOrEqual(4 * iccSe(rhoC, perCategory, CATEGORIES * train.length));
  });

  it('does not count again a move the model carries by group (model v3’s band × requirement group)', () => {
    // The categories' shared move, declared as the lines' move group: nothing is left for the categories.
    const lines = history(0.2, 0.3).map((l) => ({ ...l, moveGroup: l.category }));
    const train = [2022, 2023, 2024];
    const model = fitModel(
      lines.map((l) => l.points),
      train,
      cohorts,
    );
    const shares = fitSharedShifts(lines, model, train, cohorts);
    expect(shares.category).toBeLessThanOrEqual(4 * iccSe(0, (SCHOOLS * PER_SCHOOL) / CATEGORIES, CATEGORIES * train.length));
    // The school's share of what is left once the group's move is removed: 0.2 / (1 − 0.3).
    const school = 0.2 / 0.7;
    expect(Math.abs(shares.school - school)).toBeLessThanOrEqual(4 * iccSe(school, PER_SCHOOL, SCHOOLS * train.length));
  });

  it('finds no shared part in independent moves', () => {
    const lines = history(0, 0);
    const train = [2022, 2023, 2024];
    const model = fitModel(
      lines.map((l) => l.points),
      train,
      cohorts,
    );
    const shares = fitSharedShifts(lines, model, train, cohorts);
    expect(shares.school).toBeLessThanOrEqual(4 * iccSe(0, PER_SCHOOL, SCHOOLS * train.length));
    expect(shares.category).toBeLessThanOrEqual(4 * iccSe(0, (SCHOOLS * PER_SCHOOL) / CATEGORIES, CATEGORIES * train.length));
  });
});

describe('majorCategory', () => {
  it('is the base name without its brackets and trailing 类', () => {
    expect(majorCategory('计算机类(含人工智能)')).toBe('计算机');
    expect(majorCategory('计算机科学与技术（中外合作办学）')).toBe('计算机科学与技术');
    expect(majorCategory('类')).toBe('类');
    expect(majorCategory(null)).toBe('');
  });
});
