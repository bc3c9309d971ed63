import { describe, expect, it } from 'vitest';
import {
  bandOf,
  fitModel,
  fitV3,
  type LineInfo,
  lineCell,
  PLAN_CLASS_UPPER,
  pastVolatility,
  planClassOf,
  predict,
  requirementGroup,
  UNKNOWN_GROUP,
  type YearPoint,
} from '../../../server/volunteer/engine/calibrated.js';

/**
 * Model v3 (server/volunteer/engine/calibrated.ts fitV3, issue 24) on synthetic lines whose moves are known: the band ×
 * requirement group move (a shift when every training year shows it, spread otherwise), the own spread by plan size
 * and by the line's past volatility, and that only the training years are read.
 */
const YEARS = [2021, 2022, 2023, 2024, 2025, 2026];
const cohorts = new Map(YEARS.map((y) => [y, 600_000]));
const TRAIN = [2022, 2023, 2024];
/** n deterministic values evenly spread over [−half, half] (symmetric: median 0). */
const spread = (n: number, half: number) => Array.from({ length: n }, (_, i) => (n === 1 ? 0 : ((2 * i) / (n - 1) - 1) * half));

interface Synthetic {
  lines: YearPoint[][];
  info: LineInfo[];
}

/**
 * Lines at two base ranks (bands 10k–30k and 60k–120k), 80 of 物理+化学 and 80 of 不限 at each; in year y the 物理+化学
 * lines move by groupMove(y) and the 不限 lines by −groupMove(y) (log rank), each line also by its own noise of ±0.05.
 */
function groupLines(groupMove: (year: number) => number): Synthetic {
  const out: Synthetic = { lines: [], info: [] };
  for (const base of [17_000, 85_000])
    for (const group of [0, 2])
      for (const [i, noise] of spread(80, 0.05).entries()) {
        let log = Math.log(base);
        const points: YearPoint[] = [];
        for (const year of YEARS.slice(0, 5)) {
          if (year > YEARS[0]) log += (group === 0 ? 1 : -1) * groupMove(year) + (i % 2 ? noise : -noise);
          points.push({ year, minRank: Math.round(Math.exp(log)), planCount: 20 });
        }
        out.lines.push(points);
        out.info.push({ group });
      }
  return out;
}

const upTo = (lines: YearPoint[][], year: number) => lines.map((l) => l.filter((p) => p.year <= year));

describe('requirement groups', () => {
  it('reads the group off the requirement as printed', () => {
    expect(requirementGroup('物理、化学')).toBe(0);
    expect(requirementGroup('物理、化学、生物')).toBe(0);
    expect(requirementGroup('物理')).toBe(1);
    expect(requirementGroup('物理、地理')).toBe(1);
    expect(requirementGroup('不限')).toBe(2);
    expect(requirementGroup('历史')).toBe(3);
    expect(requirementGroup('化学、生物')).toBe(3);
    expect(requirementGroup('思想政治、历史')).toBe(3);
    expect(requirementGroup('')).toBe(UNKNOWN_GROUP);
    expect(requirementGroup(null)).toBe(UNKNOWN_GROUP);
  });
});

describe('plan class and past volatility', () => {
  it('takes the last plan known before the target year', () => {
    const points: YearPoint[] = [
      { year: 2023, minRank: 1_000, planCount: 3 },
      { year: 2024, minRank: 1_000, planCount: null },
      { year: 2025, minRank: 1_000, planCount: 1 },
    ];
    // 2025's own plan is not known before filling 2025; 2024 published none: 2023's 3 (class 3–5).
    expect(planClassOf(points, 2025)).toBe(2);
    expect(planClassOf(points, 2026)).toBe(1);
    expect(planClassOf([{ year: 2024, minRank: 1_000, planCount: 11 }], 2025)).toBe(PLAN_CLASS_UPPER.length + 1);
    expect(planClassOf([{ year: 2024, minRank: 1_000, planCount: null }], 2025)).toBe(0);
  });

  it('is the root mean square of the line’s past moves with each year’s common move removed', () => {
    const points: YearPoint[] = [
      { year: 2021, minRank: 10_000, planCount: 5 },
      { year: 2022, minRank: 11_000, planCount: 5 },
      { year: 2023, minRank: 9_000, planCount: 5 },
    ];
    const model = { weights: [1], planBeta: 0, cohortPower: 1 };
    const moves = { yearMoves: { 2022: 0.01, 2023: -0.02 }, groupMoves: {} };
    const m2022 = Math.log(11_000 / 10_000) - 0.01;
    const m2023 = Math.log(9_000 / 11_000) + 0.02;
    expect(pastVolatility(model, moves, points, 2024, cohorts, null)).toBeCloseTo(Math.sqrt((m2022 ** 2 + m2023 ** 2) / 2), 12);
    // Before 2023 only the 2022 move was known; before 2022 none.
    expect(pastVolatility(model, moves, points, 2023, cohorts, null)).toBeCloseTo(Math.abs(m2022), 12);
    expect(pastVolatility(model, moves, points, 2022, cohorts, null)).toBeNaN();
    // With groups on, the band × group move of each year is removed too.
    const grouped = { yearMoves: moves.yearMoves, groupMoves: { 2022: [[], [], [0, 0, 0.05]], 2023: [[], [], [0, 0, 0]] } };
    expect(bandOf(10_000)).toBe(2);
    expect(pastVolatility(model, grouped, points, 2023, cohorts, 2)).toBeCloseTo(Math.abs(m2022 - 0.05), 12);
  });
});

describe('band × requirement group move', () => {
  const last = (s: Synthetic, k: number) => s.lines[k].filter((p) => p.year <= 2024);

  it('is a predictable shift when every training year moved the group the same way', () => {
    const s = groupLines(() => 0.1);
    const train = upTo(s.lines, 2024);
    const base = fitModel(train, TRAIN, cohorts);
    const auto = fitV3(base, train, TRAIN, cohorts, s.info, { group: 'auto' });
    const pc = last(s, 0);
    const open = last(s, 80);
    const band = bandOf(pc[pc.length - 1].minRank);
    expect(auto.v3?.groupShift[band][0]).toBeCloseTo(0.1, 2);
    expect(auto.v3?.groupShift[bandOf(open[open.length - 1].minRank)][2]).toBeCloseTo(-0.1, 2);
    // At the line's last rank: the 物理+化学 line is expected 10 % further down the table (easier), 不限 harder.
    const pAt = (m: typeof base, pts: YearPoint[], info: LineInfo) =>
      predict(m, pts, 2025, cohorts, pts[pts.length - 1].minRank, null, info)?.probability as number;
    expect(pAt(auto, pc, s.info[0])).toBeGreaterThan(0.8);
    expect(pAt(auto, open, s.info[80])).toBeLessThan(0.2);
    expect(Math.abs(pAt(base, pc, s.info[0]) - 0.5)).toBeLessThan(0.1);
    // 'spread' never shifts.
    const spreadOnly = fitV3(base, train, TRAIN, cohorts, s.info, { group: 'spread' });
    expect(spreadOnly.v3?.groupShift.flat().every((x) => x === 0)).toBe(true);
  });

  it('is extra spread when the training years moved it both ways', () => {
    const s = groupLines((year) => (year % 2 ? 0.1 : -0.1));
    const train = upTo(s.lines, 2024);
    const base = fitModel(train, TRAIN, cohorts);
    const auto = fitV3(base, train, TRAIN, cohorts, s.info, { group: 'auto' });
    // The same lines without any group move.
    const calmLines = upTo(groupLines(() => 0).lines, 2024);
    const calm = fitV3(fitModel(calmLines, TRAIN, cohorts), calmLines, TRAIN, cohorts, s.info, { group: 'auto' });
    const pc = last(s, 0);
    const band = bandOf(pc[pc.length - 1].minRank);
    expect(auto.v3?.groupShift[band][0]).toBe(0);
    // At most the root mean square of ±0.1; at least half of it: the fit may estimate from a mean of past years
    // (its weights), which meets a zigzag half-way, and the medians' sampling noise is taken off.
    expect(auto.v3?.groupSpread[band][0]).toBeGreaterThan(0.045);
    expect(auto.v3?.groupSpread[band][0]).toBeLessThanOrEqual(0.1 + 1e-9);
    const rank = pc[pc.length - 1].minRank;
    expect(calm.v3?.groupSpread[band][0]).toBeLessThan(0.01);
    const at = (m: typeof base, pts: YearPoint[], r: number) => predict(m, pts, 2025, cohorts, r, null, s.info[0])?.probability as number;
    // Even at the last rank, and less sure at a 10 % margin either way than where the group never moved.
    const calmLine = calmLines[0];
    const calmRank = calmLine[calmLine.length - 1].minRank;
    expect(Math.abs(at(auto, pc, rank) - 0.5)).toBeLessThan(0.1);
    expect(at(auto, pc, rank * 0.9)).toBeLessThan(at(calm, calmLine, calmRank * 0.9));
    expect(at(auto, pc, rank * 1.1)).toBeGreaterThan(at(calm, calmLine, calmRank * 1.1));
  });

  it('learns nothing from years after its training years', () => {
    const s = groupLines((year) => (year === 2025 ? 0.5 : 0.1));
    const withLater = s.lines;
    const without = upTo(s.lines, 2024);
    const a = fitV3(fitModel(withLater, TRAIN, cohorts), withLater, TRAIN, cohorts, s.info, { group: 'auto', plan: true, volatility: true });
    const b = fitV3(fitModel(without, TRAIN, cohorts), without, TRAIN, cohorts, s.info, { group: 'auto', plan: true, volatility: true });
    expect(a.v3).toEqual(b.v3);
  });
});

/**
 * Lines in the band 10k–30k that oscillate around their base rank: the moves alternate in sign each year, by
 * `size(i)` for line i, each line's size fixed for all years; planOf(i) its plan.
 */
function oscillating(n: number, size: (i: number) => number, planOf: (i: number) => number): YearPoint[][] {
  return Array.from({ length: n }, (_, i) =>
    YEARS.slice(0, 5).map((year, k) => ({
      year,
      minRank: Math.round(20_000 * Math.exp((k % 2 ? 1 : -1) * size(i) * (0.5 + (i % 7) / 12))),
      planCount: planOf(i),
    })),
  );
}

describe('own spread by plan size and by volatility', () => {
  it('widens the lines with a small plan where they moved more', () => {
    // Half the lines have 1 place and move 4× as much as the other half with 50.
    const lines = upTo(
      oscillating(
        400,
        (i) => (i % 2 ? 0.2 : 0.05),
        (i) => (i % 2 ? 1 : 50),
      ),
      2024,
    );
    const info = lines.map(() => ({ group: 0 }));
    const base = fitModel(lines, TRAIN, cohorts);
    const model = fitV3(base, lines, TRAIN, cohorts, info, { plan: true });
    const band = bandOf(20_000);
    const scale = model.v3?.planScale[band] as number[];
    expect(scale[1]).toBeGreaterThan(1);
    expect(scale[PLAN_CLASS_UPPER.length + 1]).toBeLessThan(1);
    const small = [{ year: 2024, minRank: 20_000, planCount: 1 }];
    const large = [{ year: 2024, minRank: 20_000, planCount: 50 }];
    const at = (pts: YearPoint[], r: number) => predict(model, pts, 2025, cohorts, r, null, info[0])?.probability as number;
    expect(at(small, 18_000)).toBeLessThan(at(large, 18_000));
    expect(at(small, 22_000)).toBeGreaterThan(at(large, 22_000));
    // Monotone in the student's rank.
    let prev = 1;
    for (let r = 10_000; r <= 40_000; r += 500) {
      const p = at(small, r);
      expect(p).toBeLessThanOrEqual(prev + 1e-12);
      expect(p).toBeGreaterThanOrEqual(0);
      prev = p;
    }
  });

  it('widens the lines whose own past moved more', () => {
    // Every line has the same plan; a third of them keep moving by a lot, the rest by little.
    const lines = upTo(
      oscillating(
        600,
        (i) => (i % 3 === 0 ? 0.25 : 0.04),
        () => 20,
      ),
      2024,
    );
    const info = lines.map(() => ({ group: 0 }));
    const model = fitV3(fitModel(lines, TRAIN, cohorts), lines, TRAIN, cohorts, info, { volatility: true });
    expect(model.v3?.volCuts.length).toBe(2);
    const cellOf = (k: number) => lineCell(model, lines[k], 2025, cohorts, null, info[k]);
    const volatile = cellOf(0);
    const calm = cellOf(1);
    expect(volatile?.v3?.volClass).toBe(3);
    expect(calm?.v3?.volClass).toBeLessThan(3);
    expect(volatile?.v3?.scale).toBeGreaterThan(calm?.v3?.scale as number);
  });

  it('without any part, gives the current model’s probabilities', () => {
    // Lines of two points each: every estimate rests on one year, so the current cells are by band alone as v3's.
    const lines: YearPoint[][] = [];
    for (const [i, m] of spread(300, 0.2).entries()) {
      const y = 2021 + (i % 3);
      const base = [5_000, 40_000, 150_000][i % 3];
      lines.push([
        { year: y, minRank: base, planCount: 10 },
        { year: y + 1, minRank: Math.round(base * Math.exp(m)), planCount: 10 },
      ]);
    }
    const info = lines.map(() => ({ group: 0 }));
    const base = fitModel(lines, TRAIN, cohorts);
    const model = fitV3(base, lines, TRAIN, cohorts, info, {});
    for (const rank of [5_000, 40_000, 150_000]) {
      const pts = [{ year: 2024, minRank: rank, planCount: 10 }];
      for (const f of [0.8, 0.95, 1, 1.05, 1.2]) {
        const p0 = predict(base, pts, 2025, cohorts, rank * f, null)?.probability as number;
        const p3 = predict(model, pts, 2025, cohorts, rank * f, null, info[0])?.probability as number;
        // The same residuals and shock; v3 rounds the common spread to 0.001 when building its grid.
        expect(Math.abs(p3 - p0)).toBeLessThan(0.005);
      }
    }
  });
});
