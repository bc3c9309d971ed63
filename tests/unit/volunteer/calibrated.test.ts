import { describe, expect, it } from 'vitest';
import { bandOf, estimate, fitModel, predict, type YearPoint } from '../../../server/volunteer/engine/calibrated.js';

/**
 * The fitted acceptance model (server/volunteer/engine/calibrated.ts) on synthetic lines whose year-to-year moves
 * are known: a steady cohort, every line moving by a fixed set of log factors, wider for low-ranked lines.
 */
const cohorts = new Map([2021, 2022, 2023, 2024, 2025].map((y) => [y, 600_000]));
/** Deterministic moves: a spread of ±spread around 0 in log rank. */
const moves = (spread: number) => Array.from({ length: 41 }, (_, i) => ((i - 20) / 20) * spread);

function lines(): YearPoint[][] {
  const out: YearPoint[][] = [];
  for (const base of [1_000, 5_000, 20_000, 40_000, 90_000, 200_000, 300_000]) {
    const spread = base > 100_000 ? 0.3 : 0.08;
    for (const [i, m] of moves(spread).entries()) {
      const plan = 10 + (i % 5);
      out.push(
        [2021, 2022, 2023, 2024].map((year, k) => ({
          year,
          minRank: Math.round(base * Math.exp(k % 2 ? m : -m / 2)),
          planCount: k % 2 ? plan * 2 : plan,
        })),
      );
    }
  }
  return out;
}

describe('fitted acceptance model', () => {
  const model = fitModel(lines(), [2022, 2023, 2024], cohorts);
  const line: YearPoint[] = [
    { year: 2023, minRank: 20_000, planCount: 10 },
    { year: 2024, minRank: 20_000, planCount: 10 },
  ];

  it('is monotone in the student rank: a better rank never lowers the chance', () => {
    let last = 1;
    for (let r = 5_000; r <= 60_000; r += 500) {
      const p = predict(model, line, 2025, cohorts, r, 10)?.probability as number;
      expect(p).toBeLessThanOrEqual(last + 1e-12);
      last = p;
    }
    expect(predict(model, line, 2025, cohorts, 5_000, 10)?.probability).toBeGreaterThan(0.99);
    expect(predict(model, line, 2025, cohorts, 60_000, 10)?.probability).toBeLessThan(0.01);
  });

  it('spreads wider where the lines moved more: the same relative margin is less certain for low-ranked lines', () => {
    const top = [{ year: 2024, minRank: 20_000, planCount: 10 }];
    const low = [{ year: 2024, minRank: 200_000, planCount: 10 }];
    expect(bandOf(20_000)).not.toBe(bandOf(200_000));
    // 10 % better than the estimate on both.
    const pTop = predict(model, top, 2025, cohorts, 18_000, 10)?.probability as number;
    const pLow = predict(model, low, 2025, cohorts, 180_000, 10)?.probability as number;
    expect(pTop).toBeGreaterThan(pLow);
    expect(pLow).toBeLessThan(0.8);
  });

  it('moves the estimate by the fitted plan effect, far less than ×2 for a doubled plan', () => {
    const same = estimate(line, 2025, cohorts, model.weights, model.planBeta, 10, model.cohortPower);
    const doubled = estimate(line, 2025, cohorts, model.weights, model.planBeta, 20, model.cohortPower);
    const factor = (doubled?.rank as number) / (same?.rank as number);
    expect(factor).toBeCloseTo(Math.exp(model.planBeta * Math.log(2)), 3);
    expect(factor).toBeLessThan(1.2);
  });

  it('does not carry the training years’ common move into the next year, but is less sure for it', () => {
    // The same lines, every one of them 10 % further down the table each year: a common move, not the lines' own.
    const moving = lines().map((pts) => pts.map((p) => ({ ...p, minRank: Math.round(p.minRank * Math.exp(0.1 * (p.year - 2021))) })));
    const moved = fitModel(moving, [2022, 2023, 2024], cohorts);
    expect(moved.drift).toBe(0);
    expect(moved.yearShock).toBeGreaterThan(model.yearShock);
    const last = [{ year: 2024, minRank: 20_000, planCount: 10 }];
    // At the line's last rank: an even chance, as before — the move changed sign in the real years and is not assumed.
    expect(Math.abs((predict(moved, last, 2025, cohorts, 20_000, 10)?.probability as number) - 0.5)).toBeLessThan(0.05);
    // 10 % better than it: less certain than the model whose years had no common move.
    const pMoved = predict(moved, last, 2025, cohorts, 18_000, 10)?.probability as number;
    const pStill = predict(model, last, 2025, cohorts, 18_000, 10)?.probability as number;
    expect(pMoved).toBeLessThan(pStill);
  });

  it('learns from a year whose table publishes no plan counts (Shandong 2026) and applies no plan shift after it', () => {
    // The same lines with one more year whose plan count is unknown (null, not 0).
    const withYear = lines().map((pts) => [...pts, { year: 2025, minRank: pts[pts.length - 1].minRank, planCount: null }]);
    const all = new Map([...cohorts, [2026, 600_000]]);
    const later = fitModel(withYear, [2022, 2023, 2024, 2025], all);
    expect(later.trainedOn).toContain(2025);
    // The unknown year's lines add cases to the spread; the plan effect stays the one the known plans gave.
    const cases = (m: typeof model) => m.counts.flat().reduce((a, b) => a + b, 0);
    expect(cases(later)).toBeGreaterThan(cases(model));
    expect(Number.isFinite(later.planBeta)).toBe(true);
    const last = withYear[0];
    const e = estimate(last, 2026, all, later.weights, later.planBeta, 20, later.cohortPower);
    expect(e?.planShift).toBe(0);
    expect(predict(later, last, 2026, all, e?.rank as number, 20)?.probability).toBeGreaterThan(0);
  });

  it('has no estimate without an earlier year', () => {
    expect(predict(model, [{ year: 2025, minRank: 100, planCount: 1 }], 2025, cohorts, 50, 1)).toBeNull();
  });
});
