import { describe, expect, it } from 'vitest';
import {
  bestReachable,
  landingWaste,
  naivePlan,
  quantile,
  type ReplayChoice,
  replayPlan,
  replayStudent,
  scoreAtRank,
  summarise,
} from '../../../server/volunteer/replay/replay.js';

/**
 * The pure parts of `npm run replay` (server/volunteer/replay/replay.ts) on small hand-made cases: parallel 投档 of a
 * plan on a year's lines, the landing waste, the score of a rank, the naive planner.
 */
const live = (minRank: number, subjects: ReplayChoice['subjects'] = 'ok'): ReplayChoice => ({ minRank, subjects });
const dead: ReplayChoice = { minRank: null, subjects: 'unknown' };

describe('parallel 投档 of one plan', () => {
  it('admits at the first choice in plan order whose min rank is at or after the student, not the best one', () => {
    // Student 10,000: choice 1 (8,000) is too high, choice 2 (12,000) admits although choice 3 (10,500) was better.
    const out = replayPlan([live(8_000), live(12_000), live(10_500)], 10_000);
    expect(out).toEqual({ choices: 3, dead: 0, violations: 0, landedAt: 2, landedRank: 12_000 });
  });

  it('a line whose last admitted rank equals the student rank admits them', () => {
    expect(replayPlan([live(10_000)], 10_000).landedAt).toBe(1);
  });

  it('skips dead choices and counts them, wherever they stand', () => {
    const out = replayPlan([dead, live(9_000), dead, live(20_000), dead], 10_000);
    expect(out.dead).toBe(3);
    expect(out.landedAt).toBe(4);
    expect(out.landedRank).toBe(20_000);
  });

  it("a choice the student's subjects do not allow never admits and is counted", () => {
    const out = replayPlan([live(50_000, 'violation'), live(30_000, 'unknown'), live(40_000, 'violation')], 10_000);
    expect(out.violations).toBe(2);
    // An unknown requirement is not a violation: the student lands there.
    expect(out.landedAt).toBe(2);
  });

  it('滑档 when no choice admits; an empty plan too', () => {
    expect(replayPlan([live(1_000), live(5_000), dead], 10_000)).toMatchObject({ landedAt: null, landedRank: null, dead: 1 });
    expect(replayPlan([], 10_000)).toEqual({ choices: 0, dead: 0, violations: 0, landedAt: null, landedRank: null });
  });
});

describe('landing waste', () => {
  it('is the admitted rank over the best reachable rank, minus one', () => {
    expect(landingWaste(15_000, 10_000)).toBeCloseTo(0.5, 12);
    expect(landingWaste(10_000, 10_000)).toBe(0);
    expect(() => landingWaste(10_000, 0)).toThrow();
  });

  it('the best reachable line is the smallest min rank at or after the student', () => {
    expect(bestReachable([3_000, 12_000, 10_000, 50_000, 9_999], 10_000)).toBe(10_000);
    expect(bestReachable([1_000, 2_000], 10_000)).toBeNull();
    expect(bestReachable([], 10_000)).toBeNull();
  });

  it('replayStudent: 0 when landing on the best line, larger when landing lower, null for 滑档', () => {
    const best = bestReachable([8_000, 11_000, 22_000], 10_000) as number;
    expect(replayStudent([live(11_000)], 10_000, best).waste).toBe(0);
    expect(replayStudent([live(8_000), live(22_000)], 10_000, best).waste).toBeCloseTo(1, 12);
    expect(replayStudent([live(8_000)], 10_000, best).waste).toBeNull();
  });

  it('is never negative: a landed line missing from the best list stands in for it', () => {
    expect(replayStudent([live(10_500)], 10_000, 11_000).waste).toBe(0);
    expect(replayStudent([live(10_500)], 10_000, null).waste).toBe(0);
  });
});

describe('the score at a rank of a 一分一段 table', () => {
  // 700 is a top bucket of 50 candidates, 699 adds 30 (cumulative 80), 698 adds 40 (120).
  const table = [
    { score: 698, cumulativeRank: 120 },
    { score: 700, cumulativeRank: 50 },
    { score: 699, cumulativeRank: 80 },
  ];

  it('is the score of the first row whose cumulative count reaches the rank', () => {
    expect(scoreAtRank(table, 1)).toBe(700);
    expect(scoreAtRank(table, 50)).toBe(700);
    expect(scoreAtRank(table, 51)).toBe(699);
    expect(scoreAtRank(table, 80)).toBe(699);
    expect(scoreAtRank(table, 81)).toBe(698);
  });

  it('past the last row, the lowest score', () => {
    expect(scoreAtRank(table, 1_000)).toBe(698);
  });
});

describe('the naive planner', () => {
  /** Lines every 100 ranks from 100 to 100,000: id = min rank. */
  const grid = Array.from({ length: 1_000 }, (_, i) => ({ id: (i + 1) * 100, minRank: (i + 1) * 100 }));

  it('takes count lines inside the window, most selective first, no line twice', () => {
    const plan = naivePlan(grid, 10_000);
    expect(plan).toHaveLength(96);
    expect(new Set(plan).size).toBe(96);
    for (const r of plan) {
      expect(r).toBeGreaterThanOrEqual(8_000);
      expect(r).toBeLessThanOrEqual(25_000);
    }
    expect([...plan].sort((a, b) => a - b)).toEqual(plan);
  });

  it('spreads evenly in log rank: as many choices in each half of the window (in log terms)', () => {
    const plan = naivePlan(grid, 10_000, { low: 0.8, high: 3.2, count: 20 });
    // The log midpoint of 8,000 … 32,000 is 16,000.
    const below = plan.filter((r) => r < 16_000).length;
    expect(below).toBe(10);
  });

  it('when the window holds too few lines, takes them all, then the less selective ones past it, then the more selective', () => {
    const lines = [
      { id: 'a', minRank: 1_000 },
      { id: 'b', minRank: 7_000 },
      { id: 'c', minRank: 9_000 },
      { id: 'd', minRank: 20_000 },
      { id: 'e', minRank: 40_000 },
      { id: 'f', minRank: 60_000 },
    ];
    expect(naivePlan(lines, 10_000, { low: 0.8, high: 2.5, count: 4 })).toEqual(['c', 'd', 'e', 'f']);
    expect(naivePlan(lines, 10_000, { low: 0.8, high: 2.5, count: 5 })).toEqual(['b', 'c', 'd', 'e', 'f']);
    expect(naivePlan(lines, 10_000, { low: 0.8, high: 2.5, count: 10 })).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });

  it('a plan replayed on an unchanged year lands where the window starts', () => {
    // If year Y's lines were year Y−1's, a student of rank 10,000 lands on the first choice at or after 10,000.
    const plan = naivePlan(grid, 10_000);
    const out = replayPlan(
      plan.map((r) => live(r)),
      10_000,
    );
    expect(out.landedRank).toBe(plan.find((r) => r >= 10_000));
  });
});

describe('summary of replayed plans', () => {
  it('shares, 滑档, medians and p90 over the admitted', () => {
    const rows = [
      replayStudent([live(11_000), dead], 10_000, 10_000), // lands at 1, waste 0.1
      replayStudent([dead, live(30_000, 'violation'), live(20_000)], 10_000, 10_000), // lands at 3, waste 1
      replayStudent([live(5_000), dead], 10_000, 10_000), // 滑档
    ];
    const s = summarise(rows);
    expect(s.plans).toBe(3);
    expect(s.choices).toBe(7);
    expect(s.dead).toBe(3);
    expect(s.deadShare).toBeCloseTo(3 / 7, 12);
    expect(s.violations).toBe(1);
    expect(s.plansWithViolation).toBe(1);
    expect(s.slides).toBe(1);
    expect(s.slideShare).toBeCloseTo(1 / 3, 12);
    expect(s.landingMedian).toBe(2);
    expect(s.wasteMedian).toBeCloseTo(0.55, 12);
    expect(s.wasteP90).toBeCloseTo(0.1 + 0.9 * 0.9, 12);
  });

  it('quantile interpolates between order statistics', () => {
    expect(quantile([3, 1, 2], 0.5)).toBe(2);
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([1, 2, 3, 4], 1)).toBe(4);
    expect(quantile([], 0.5)).toBeNaN();
  });
});
