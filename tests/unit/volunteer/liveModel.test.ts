// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { bandOf, RANK_BANDS } from '../../../server/volunteer/engine/calibrated.js';
import {
  type LiveLine,
  liveColumns,
  liveProbability,
  NEW_LINE_WIDENING,
  prepareLive,
  scoreLive,
  scoreLiveColumn,
} from '../../../server/volunteer/engine/live.js';
import type { AdmissionOption } from '../../../server/volunteer/engine/types.js';
import { fittedModelOf } from '../../../server/volunteer/liveModel.js';

/**
 * The fitted Shandong model (model-shandong-2025.json, one of the files `npm run backtest -- --write-model` writes per as-of year) as the live
 * engine applies it (server/volunteer/engine/live.ts): one 2025 line, a student filling for 2026.
 */
const model = fittedModelOf('山东', 2025);
if (!model) throw new Error('model-shandong-2025.json is missing: run npm run backtest -- --write-model');
const cohorts = new Map([
  [2024, 700_000],
  [2025, 681_127],
  [2026, 681_127],
]);

function line(minRank: number | null, opts: { planLast?: number; planNow?: number; minScore?: number; rankFromScore?: number } = {}): LiveLine {
  const option: AdmissionOption = {
    id: `L${minRank}`,
    schoolCode: 'A001',
    majorName: '测试专业',
    history: [{ year: 2025, minScore: opts.minScore ?? 600, minRank, planCount: opts.planLast ?? null }],
    planNow: opts.planNow ?? null,
  };
  const points = minRank == null ? [] : [{ year: 2025, minRank, planCount: opts.planLast ?? null }];
  return { option, points, rankFromScore: opts.rankFromScore ?? null, referenceScore: opts.minScore ?? 600 };
}

const prep = (l: LiveLine) => {
  const [e] = prepareLive(model, [l], 2026, cohorts);
  if (!e) throw new Error('no estimate');
  return e;
};

describe('calibrated model in the live engine', () => {
  it('is monotone in the student rank and crosses 50 % near the line’s estimated rank', () => {
    const e = prep(line(20_000));
    let last = 1;
    for (let r = 5_000; r <= 60_000; r += 250) {
      const p = liveProbability(e, r);
      expect(p).toBeLessThanOrEqual(last + 1e-12);
      last = p;
    }
    expect(liveProbability(e, 10_000)).toBeGreaterThan(0.9);
    expect(liveProbability(e, 40_000)).toBeLessThan(0.1);
    expect(Math.abs(liveProbability(e, e.estimate.rank) - 0.5)).toBeLessThan(0.1);
  });

  it('spreads as the training years did in each rank band: the same relative margin is judged per band', () => {
    // P at a rank 20 % behind the estimate, per band: the cells differ because the lines' moves differed.
    const ps = RANK_BANDS.map((b) => {
      const e = prep(line(Math.round(b * 0.9)));
      expect(bandOf(e.estimate.rank)).toBe(RANK_BANDS.indexOf(b));
      return liveProbability(e, e.estimate.rank * 1.2);
    });
    expect(new Set(ps.map((p) => p.toFixed(4))).size).toBeGreaterThan(1);
    for (const p of ps) expect(p).toBeLessThan(0.5);
  });

  it('moves the estimate by the fitted plan effect for a doubled plan, not ×2', () => {
    const same = prep(line(20_000, { planLast: 10, planNow: 10 }));
    const doubled = prep(line(20_000, { planLast: 10, planNow: 20 }));
    const factor = doubled.estimate.rank / same.estimate.rank;
    expect(factor).toBeCloseTo(2 ** model.planBeta, 3);
    expect(factor).toBeGreaterThan(1);
    expect(factor).toBeLessThan(1.2);
    const s = scoreLive(line(20_000, { planLast: 10, planNow: 20 }), doubled, 20_000, 600);
    expect(s?.explanation.text).toContain('计划数变化使估计位次移动');
  });

  it('gives a line without a past rank a flagged, wider estimate instead of nothing', () => {
    const known = prep(line(20_000));
    const fresh = prep(line(null, { rankFromScore: 20_000 }));
    expect(fresh.isNew).toBe(true);
    expect(fresh.estimate.rank).toBe(20_000);
    // Wider: at the same margin the new line's chance is nearer 50 % on both sides.
    expect(liveProbability(fresh, 16_000)).toBeLessThan(liveProbability(known, 16_000));
    expect(liveProbability(fresh, 25_000)).toBeGreaterThan(liveProbability(known, 25_000));
    expect(NEW_LINE_WIDENING).toBeGreaterThan(1);
    const s = scoreLive(line(null, { rankFromScore: 20_000 }), fresh, 18_000, 600);
    expect(s?.flags).toContain('new-line');
    expect(s?.explanation.text).toMatch(/^新增专业（无历年位次），按最低分折算位次 20000/);
    expect(prepareLive(model, [line(null)], 2026, cohorts)[0]).toBeNull();
  });

  it('flags a line first offered in the newest year 新增 but judges it with its own rank’s spread, wasteful included', () => {
    const known = prep(line(20_000, { minScore: 560 }));
    const first = prep({ ...line(20_000, { minScore: 560 }), newLine: true });
    expect(first.isNew).toBe(true);
    expect(first.widened).toBe(false);
    // Measured (docs/volunteer-model.md): a first-year line moves the next year as much as any line, no more.
    for (const r of [12_000, 18_000, 20_000, 24_000]) expect(liveProbability(first, r)).toBe(liveProbability(known, r));
    const s = scoreLive({ ...line(20_000, { minScore: 560 }), newLine: true }, first, 18_000, 600);
    expect(s?.flags).toContain('new-line');
    expect(s?.explanation.text).toMatch(/^新增专业（2025年首次招生）：2025年最低位次 20000/);
    // Far above it, a new line wastes the score like any other (the auto-fill keeps both out of 保 alike).
    expect(scoreLive({ ...line(20_000, { minScore: 560 }), newLine: true }, first, 3_000, 640)?.flags).toEqual(['new-line', 'wasteful']);
  });

  it('cuts tiers at 40 % and 80 % of the calibrated chance, flags hopeless and wasteful lines, explains itself', () => {
    const e = prep(line(20_000, { minScore: 560 }));
    const at = (r: number, score = 600) => scoreLive(line(20_000, { minScore: 560 }), e, r, score);
    for (const r of [8_000, 15_000, 19_000, 20_000, 21_000, 24_000, 30_000, 50_000]) {
      const s = at(r);
      const p = s?.probability as number;
      expect(s?.tier).toBe(p < 0.4 ? '冲' : p > 0.8 ? '保' : '稳');
      expect(s?.flags.includes('unreachable')).toBe(p < 0.05);
    }
    expect(at(50_000)?.flags).toEqual(['unreachable']);
    expect(at(3_000, 640)?.flags).toEqual(['wasteful']);
    expect(at(3_000, 570)?.flags).toEqual([]);
    const text = at(21_000)?.explanation.text as string;
    expect(text).toMatch(
      /^按校准模型：2025年最低位次 20000（1年数据），估计录取位次 \d+，波动取自位次段 10000–30000 × 1年数据的历年实际偏差，你的位次 21000，录取概率 \d+\.\d\d%，[冲稳保]$/,
    );
    expect(scoreLive(line(20_000), e, null, 600)).toBeNull();
  });

  it('answers the same from the per-catalogue typed arrays as from the estimates (the acceptance query’s path)', () => {
    const lines = [
      line(20_000, { minScore: 560 }),
      line(1_500, { planLast: 10, planNow: 20 }),
      line(300_000),
      line(null, { rankFromScore: 20_000 }),
      line(null),
    ];
    const estimates = prepareLive(model, lines, 2026, cohorts);
    const columns = liveColumns(lines, estimates);
    for (const [score, rank] of [
      [640, 3_000],
      [600, 21_000],
      [560, 35_000],
      [450, 290_000],
    ]) {
      lines.forEach((l, i) => {
        const want = scoreLive(l, estimates[i], rank, score);
        const got = scoreLiveColumn(columns, i, l.option, estimates[i], rank, Math.log(rank), score);
        if (want == null) expect(got).toBeNull();
        else expect(JSON.stringify(got)).toBe(JSON.stringify(want));
      });
    }
  });
});
