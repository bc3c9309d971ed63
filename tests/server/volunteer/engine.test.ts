import { describe, expect, it } from 'vitest';
import {
  type AdmissionOption,
  autofill,
  checkGradient,
  equivalentRank,
  groupLines,
  type HistoryYear,
  normalCdf,
  type PlanEntry,
  prepareOptions,
  prepareSegmentTable,
  rankForScore,
  type ScoredOption,
  type StudentProfile,
  scoreAll,
  scoreOption,
  type Tier,
  tierFor,
} from '../../../server/volunteer/engine/index.js';

// Rows given out of order on purpose: the table is sorted by score, highest first.
const ROWS = [
  { score: 689, cumulativeRank: 60 },
  { score: 700, cumulativeRank: 5 },
  { score: 680, cumulativeRank: 200 },
  { score: 690, cumulativeRank: 50 },
  { score: 685, cumulativeRank: 100 },
];
const TABLE = prepareSegmentTable(ROWS);

function option(history: HistoryYear[], extra: Partial<AdmissionOption> = {}): AdmissionOption {
  return { id: extra.id ?? 'x', schoolCode: 'S1', majorName: '法学', history, ...extra };
}
const rankYear = (year: number, minRank: number | null, more: Partial<HistoryYear> = {}): HistoryYear => ({ year, minScore: null, minRank, ...more });
const student = (rank: number | null, more: Partial<StudentProfile> = {}): StudentProfile => ({ score: 600, rank, year: 2025, ...more });

describe('rankForScore', () => {
  it('returns the cumulative count at an exact score', () => {
    expect(rankForScore(TABLE, 689)).toEqual({ rank: 60, flag: 'exact' });
    expect(rankForScore(TABLE, 700)).toEqual({ rank: 5, flag: 'exact' }); // top row itself
    expect(rankForScore(TABLE, 680)).toEqual({ rank: 200, flag: 'exact' }); // bottom row itself
  });

  it('interpolates linearly between rows when the score is missing', () => {
    // 687 lies between 689 (60) and 685 (100): 60 + (100 − 60) × (689 − 687)/(689 − 685) = 60 + 40 × 2/4 = 80
    expect(rankForScore(TABLE, 687)).toEqual({ rank: 80, flag: 'interpolated' });
    // 695 between 700 (5) and 690 (50): 5 + 45 × 5/10 = 27.5 → rounded 28
    expect(rankForScore(TABLE, 695)).toEqual({ rank: 28, flag: 'interpolated' });
    // 682 between 685 (100) and 680 (200): 100 + 100 × 3/5 = 160
    expect(rankForScore(TABLE, 682)).toEqual({ rank: 160, flag: 'interpolated' });
  });

  it('clamps at both table edges and says so', () => {
    expect(rankForScore(TABLE, 701)).toEqual({ rank: 5, flag: 'above-table' }); // the top row's count
    expect(rankForScore(TABLE, 750)).toEqual({ rank: 5, flag: 'above-table' });
    expect(rankForScore(TABLE, 679)).toEqual({ rank: 200, flag: 'below-table' }); // everybody in the table
    expect(rankForScore(TABLE, 0)).toEqual({ rank: 200, flag: 'below-table' });
  });

  it('accepts a plain row list and rejects inconsistent tables', () => {
    expect(rankForScore(ROWS, 687).rank).toBe(80);
    expect(TABLE.total).toBe(200);
    expect(() =>
      prepareSegmentTable([
        { score: 600, cumulativeRank: 10 },
        { score: 600, cumulativeRank: 12 },
      ]),
    ).toThrow('重复');
    expect(() =>
      prepareSegmentTable([
        { score: 600, cumulativeRank: 10 },
        { score: 599, cumulativeRank: 9 },
      ]),
    ).toThrow('累计人数');
    expect(() => prepareSegmentTable([])).toThrow();
  });
});

describe('equivalentRank', () => {
  it('scales a rank by the cohort sizes', () => {
    // 10000 × 600000 / 500000 = 12000
    expect(equivalentRank(10000, 600000, 500000)).toBe(12000);
    // and back: 12000 × 500000 / 600000 = 10000
    expect(equivalentRank(12000, 500000, 600000)).toBe(10000);
    expect(() => equivalentRank(1, 0, 10)).toThrow();
  });
});

describe('normalCdf', () => {
  it('matches tabulated values', () => {
    expect(normalCdf(0)).toBe(0.5);
    expect(normalCdf(1)).toBeCloseTo(0.8413447460685429, 12);
    expect(normalCdf(-1)).toBeCloseTo(0.15865525393145707, 12);
    expect(normalCdf(1.96)).toBeCloseTo(0.9750021048517795, 12);
    expect(normalCdf(-1.96)).toBeCloseTo(0.024997895148220435, 12);
    expect(normalCdf(40)).toBe(1);
    expect(normalCdf(-40)).toBe(0);
  });

  it('is symmetric and monotone', () => {
    let prev = -1;
    for (let x = -8; x <= 8; x += 0.05) {
      expect(normalCdf(x) + normalCdf(-x)).toBeCloseTo(1, 14);
      expect(normalCdf(x)).toBeGreaterThanOrEqual(prev);
      prev = normalCdf(x);
    }
  });
});

describe('probability, rank method', () => {
  it('one year: R is the year rank, σ the 5 % floor; the explanation line spells it out', () => {
    // R = 12345; σ = max(0, 0.05 × 12345 = 617.25) = 617.25; z = (12345 − 10000)/617.25 = 3.7991; P = Φ(3.7991) = 0.999927
    const r = scoreOption(option([rankYear(2025, 12345, { minScore: 640 })]), student(10000, { score: 650 }));
    expect(r.method).toBe('rank');
    expect(r.explanation.estimate).toBe(12345);
    expect(r.explanation.sigma).toBeCloseTo(617.25, 10);
    expect(r.probability).toBeCloseTo(0.9999273913761798, 9);
    expect(r.tier).toBe('保');
    // reference score 640 (same-year line, raw scores), 650 − 640 = 10 < 20: not wasteful
    expect(r.flags).toEqual([]);
    expect(r.explanation.text).toBe('按位次法：2025年最低位次 12345（1年数据），估计录取位次 12345，σ=617，你的位次 10000，录取概率 99.99%，保');
    expect(r.explanation.years).toEqual([{ year: 2025, weight: 1, minScore: 640, minRank: 12345, scaledRank: 12345 }]);
    expect(JSON.parse(JSON.stringify(r)).explanation.text).toBe(r.explanation.text);
  });

  it('three years weighted 0.5/0.3/0.2 newest first; σ the sample standard deviation', () => {
    const hist = [rankYear(2023, 12000), rankYear(2025, 10000), rankYear(2024, 11000)];
    // R = 0.5 × 10000 + 0.3 × 11000 + 0.2 × 12000 = 5000 + 3300 + 2400 = 10700
    // sd: mean 11000, deviations −1000, 0, +1000 → √((1e6 + 0 + 1e6)/2) = 1000 > 5 % × 10700 = 535 → σ = 1000
    const at = scoreOption(option(hist), student(10700));
    expect(at.explanation.estimate).toBeCloseTo(10700, 9);
    expect(at.explanation.sigma).toBeCloseTo(1000, 9);
    expect(at.probability).toBeCloseTo(0.5, 12); // r = R
    expect(at.tier).toBe('稳');
    // r = 9700: z = (10700 − 9700)/1000 = 1 → Φ(1) = 0.841345
    expect(scoreOption(option(hist), student(9700)).probability).toBeCloseTo(0.8413447460685429, 9);
    expect(at.explanation.text).toContain('2025年最低位次 10000、2024年最低位次 11000、2023年最低位次 12000（3年数据），估计录取位次 10700，σ=1000');
    // a fourth, older year is ignored; a year after the student's is ignored too
    const more = scoreOption(option([...hist, rankYear(2022, 50000), rankYear(2026, 1)]), student(10700));
    expect(more.explanation.estimate).toBeCloseTo(10700, 9);
  });

  it('renormalises the weights over fewer years', () => {
    // two years: weights 0.5/0.8 = 0.625 and 0.3/0.8 = 0.375 → R = 0.625 × 10000 + 0.375 × 12000 = 6250 + 4500 = 10750
    // sd = |12000 − 10000|/√2 = 1414.21 > 537.5 → σ = 1414.21; r = 10000: z = 750/1414.21 = 0.53033 → P = 0.702058
    const r = scoreOption(option([rankYear(2025, 10000), rankYear(2024, 12000)]), student(10000));
    const [w1, w2] = r.explanation.years.map((y) => y.weight);
    expect(w1).toBeCloseTo(0.625, 12);
    expect(w2).toBeCloseTo(0.375, 12);
    expect(r.explanation.estimate).toBeCloseTo(10750, 9);
    expect(r.explanation.sigma).toBeCloseTo(1414.2135623730951, 9);
    expect(r.probability).toBeCloseTo(0.7020584547174111, 9);
    // a year without a rank is skipped: 2024 (11000) and 2023 (12000) take 0.625/0.375 → 6875 + 4500 = 11375
    const gap = scoreOption(option([rankYear(2025, null), rankYear(2024, 11000), rankYear(2023, 12000)]), student(10000));
    expect(gap.explanation.estimate).toBeCloseTo(11375, 9);
  });

  it('brings past ranks to this year’s cohort', () => {
    // 2024 rank 10000 among 500000 → this year (600000): 10000 × 600000/500000 = 12000
    const r = scoreOption(option([rankYear(2024, 10000, { cohortSize: 500000 })]), student(12000, { cohortSize: 600000 }));
    expect(r.explanation.estimate).toBeCloseTo(12000, 9);
    expect(r.probability).toBeCloseTo(0.5, 12);
    expect(r.explanation.text).toContain('2024年最低位次 10000（折算 12000）');
    // cohort sizes from settings work as well
    const s = scoreOption(option([rankYear(2024, 10000)]), student(12000), { cohortByYear: { 2024: 500000, 2025: 600000 } });
    expect(s.explanation.estimate).toBeCloseTo(12000, 9);
  });

  it('adjusts R by the plan size', () => {
    // plan 20 → 30: factor 30/20 = 1.5; R = 10000 × 1.5 = 15000; σ = 5 % × 15000 = 750
    const r = scoreOption(option([rankYear(2025, 10000, { planCount: 20 })], { planNow: 30 }), student(15000));
    expect(r.explanation.planFactor).toBe(1.5);
    expect(r.explanation.estimate).toBe(15000);
    expect(r.explanation.sigma).toBe(750);
    expect(r.probability).toBeCloseTo(0.5, 12);
    expect(r.explanation.text).toContain('估计录取位次 15000（今年计划 30，往年平均 20，×1.50）');
    // two years, plans 20 and 40 → average 30; plan now 45 → 1.5; R = (0.625 × 10000 + 0.375 × 12000) × 1.5 = 10750 × 1.5 = 16125
    const two = scoreOption(option([rankYear(2025, 10000, { planCount: 20 }), rankYear(2024, 12000, { planCount: 40 })], { planNow: 45 }), student(10000));
    expect(two.explanation.estimate).toBeCloseTo(16125, 9);
    // clamped: 100/20 = 5 → 2 (default range 0.5–2); R = 20000
    const big = scoreOption(option([rankYear(2025, 10000, { planCount: 20 })], { planNow: 100 }), student(10000));
    expect(big.explanation.planFactor).toBe(2);
    expect(big.explanation.estimate).toBe(20000);
    // no plan counts: no adjustment
    expect(scoreOption(option([rankYear(2025, 10000)], { planNow: 30 }), student(10000)).explanation.planFactor).toBeNull();
  });

  it('floors σ at 5 % of R', () => {
    // ranks 10000, 10100, 9900: R = 5000 + 3030 + 1980 = 10010; sd = √((0 + 100² + 100²)/2) = 100 < 5 % × 10010 = 500.5
    const r = scoreOption(option([rankYear(2025, 10000), rankYear(2024, 10100), rankYear(2023, 9900)]), student(9509.5));
    expect(r.explanation.estimate).toBeCloseTo(10010, 9);
    expect(r.explanation.sigma).toBeCloseTo(500.5, 9);
    // z = (10010 − 9509.5)/500.5 = 1 → Φ(1)
    expect(r.probability).toBeCloseTo(0.8413447460685429, 9);
  });

  it('is monotone in the student’s rank (a better rank never lowers P)', () => {
    const opts = [
      option([rankYear(2025, 5000)]),
      option([rankYear(2025, 20000), rankYear(2024, 26000), rankYear(2023, 18000)]),
      option([rankYear(2025, 80000, { planCount: 10 })], { planNow: 14 }),
    ];
    for (const o of opts) {
      let prev = 2;
      // the last option's R is 80000 × 14/10 = 112000 with σ = 5600; r = 150000 is 6.8 σ behind it
      for (let r = 1; r <= 150000; r += 97) {
        const p = scoreOption(o, student(r)).probability as number;
        expect(p).toBeLessThanOrEqual(prev);
        prev = p;
      }
      expect(prev).toBeLessThan(0.01); // far behind every R
    }
  });

  it('flags unreachable and wasteful options', () => {
    // R = 10000, σ = 500, r = 12000: z = −4 → P = 3.17e-5 < 0.05
    const far = scoreOption(option([rankYear(2025, 10000)]), student(12000));
    expect(far.probability).toBeCloseTo(3.1671241833119965e-5, 12);
    expect(far.tier).toBe('冲');
    expect(far.flags).toEqual(['unreachable']);
    expect(far.explanation.text).toContain('几乎无望');
    // R = 20000, σ = 1000, r = 10000: z = 10 → P ≈ 1 > 0.99; score 660 vs the line's 630: 30 ≥ 20 points → wasteful
    const easy = option([rankYear(2025, 20000, { minScore: 630 })]);
    const w = scoreOption(easy, student(10000, { score: 660 }));
    expect(w.flags).toEqual(['wasteful']);
    expect(w.explanation.text).toContain('分数高出约 30 分');
    // 645 − 630 = 15 < 20: safe, not wasteful
    expect(scoreOption(easy, student(10000, { score: 645 })).flags).toEqual([]);
    // the margin is configurable
    expect(scoreOption(easy, student(10000, { score: 645 }), { wastefulScoreMargin: 10 }).flags).toEqual(['wasteful']);
  });
});

describe('tiers', () => {
  it('uses the default bands 冲 < 0.40 ≤ 稳 ≤ 0.80 < 保', () => {
    expect(tierFor(0.3999)).toBe('冲');
    expect(tierFor(0.4)).toBe('稳');
    expect(tierFor(0.8)).toBe('稳');
    expect(tierFor(0.8001)).toBe('保');
    expect(tierFor(0)).toBe('冲');
    expect(tierFor(1)).toBe('保');
  });

  it('takes configured bands, also through scoring', () => {
    expect(tierFor(0.69, { rushBelow: 0.3, safeAbove: 0.7 })).toBe('稳');
    expect(tierFor(0.71, { rushBelow: 0.3, safeAbove: 0.7 })).toBe('保');
    expect(tierFor(0.29, { rushBelow: 0.3, safeAbove: 0.7 })).toBe('冲');
    // r = 9700 gives P = Φ(1) = 0.8413 (see above): 保 by default, 稳 with safeAbove 0.85
    const hist = [rankYear(2025, 10000), rankYear(2024, 11000), rankYear(2023, 12000)];
    expect(scoreOption(option(hist), student(9700)).tier).toBe('保');
    expect(scoreOption(option(hist), student(9700), { bands: { rushBelow: 0.4, safeAbove: 0.85 } }).tier).toBe('稳');
    expect(() => scoreOption(option(hist), student(9700), { bands: { rushBelow: 0.9, safeAbove: 0.5 } })).toThrow();
  });
});

describe('probability, 线差法 fallback', () => {
  const hist = [
    { year: 2024, minScore: 560, minRank: null, batchLine: 440 },
    { year: 2023, minScore: 548, minRank: null, batchLine: 432 },
  ];

  it('compares line differences when ranks are missing', () => {
    // line differences 560 − 440 = 120 (2024), 548 − 432 = 116 (2023); weights 0.625/0.375 → D = 75 + 43.5 = 118.5
    // sd = 4/√2 = 2.83 < floor 5 points → σ = 5; student 565 − 441 = 124 → z = (124 − 118.5)/5 = 1.1 → Φ(1.1) = 0.864334
    const r = scoreOption(option(hist), { score: 565, rank: null, year: 2025, batchLine: 441 });
    expect(r.method).toBe('score-diff');
    expect(r.explanation.estimate).toBeCloseTo(118.5, 9);
    expect(r.explanation.sigma).toBe(5);
    expect(r.explanation.student).toBe(124);
    expect(r.probability).toBeCloseTo(0.8643339390536173, 9);
    expect(r.tier).toBe('保');
    expect(r.explanation.text).toBe(
      '按线差法：2024年线差 +120（560−440）、2023年线差 +116（548−432）（2年数据），估计线差 +119，σ=5.0，你的线差 +124，录取概率 86.43%，保',
    );
    // the reference score is D re-based on this year's line: 118.5 + 441 = 559.5
    expect(r.referenceScore).toBeCloseTo(559.5, 9);
  });

  it('uses the spread across years when it exceeds the floor', () => {
    // differences 120 and 100: sd = 20/√2 = 14.14 > 5; D = 0.625 × 120 + 0.375 × 100 = 112.5
    // student 441 + 112.5 + 14.14 → z = 1
    const h2 = [hist[0], { year: 2023, minScore: 532, minRank: null, batchLine: 432 }];
    const r = scoreOption(option(h2), { score: 441 + 112.5 + 14.142135623730951, rank: null, year: 2025, batchLine: 441 });
    expect(r.explanation.sigma).toBeCloseTo(14.142135623730951, 9);
    expect(r.probability).toBeCloseTo(0.8413447460685429, 9);
  });

  it('falls back when the student has no rank, and takes batch lines from settings', () => {
    const withRanks = option([rankYear(2024, 30000, { minScore: 560 })]);
    const r = scoreOption(withRanks, { score: 565, year: 2025, batchLine: 441 }, { batchLineByYear: { 2024: 440 } });
    // D = 120, σ = 5, d = 124 → z = 0.8 → Φ(0.8) = 0.788145
    expect(r.method).toBe('score-diff');
    expect(r.probability).toBeCloseTo(0.7881446014166034, 9);
  });

  it('reports none without usable data', () => {
    const r = scoreOption(option([rankYear(2024, null)]), student(1000));
    expect(r.method).toBe('none');
    expect(r.probability).toBeNull();
    expect(r.tier).toBeNull();
    expect(r.explanation.text).toContain('无法估计');
    // a past score without any batch line cannot be compared
    expect(scoreOption(option([{ year: 2024, minScore: 560, minRank: null }]), { score: 600, year: 2025 }).method).toBe('none');
  });
});

/** A scored option with a given P and R, for the auto-fill tests (the student is implied). */
function fake(id: string, p: number, flags: ScoredOption['flags'] = [], school = id): ScoredOption {
  const rank = 10000 + p * 10000; // a harder option (smaller R) has a smaller P for the same student
  return {
    option: { id, schoolCode: school, majorName: `专业${id}`, history: [] },
    method: 'rank',
    probability: p,
    tier: tierFor(p),
    flags,
    estimatedRank: rank,
    referenceScore: 600 - p * 10,
    explanation: {
      method: 'rank',
      years: [],
      estimate: rank,
      sigma: 500,
      student: 10000,
      probability: p,
      tier: tierFor(p),
      planFactor: null,
      referenceScore: null,
      flags,
      text: '',
    },
  };
}
const ps = (picks: { scored: ScoredOption }[]) => picks.map((x) => x.scored.probability);

describe('autofill', () => {
  const pool = [0.06, 0.1, 0.2, 0.3, 0.35, 0.45, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.99, 0.995].map((p, i) => fake(`o${i}`, p));

  it('picks the requested counts: 冲 and 稳 spread over their tier, 保 safest first; ordered 冲 → 稳 → 保 by difficulty', () => {
    // 冲 (5 options, P ascending) choose 2: strata midpoints ⌊0.5 × 5/2⌋ = 1 → 0.10, ⌊1.5 × 5/2⌋ = 3 → 0.30
    // 稳 (6) choose 3: ⌊0.5 × 2⌋ = 1 → 0.50, ⌊1.5 × 2⌋ = 3 → 0.70, ⌊2.5 × 2⌋ = 5 → 0.80
    // 保 (5) choose 2, safest first: 0.995, 0.99; the plan lists them hardest (smaller R) first
    const r = autofill(pool.slice().reverse(), { counts: { 冲: 2, 稳: 3, 保: 2 }, slotLimit: 96 });
    expect(ps(r.picks)).toEqual([0.1, 0.3, 0.5, 0.7, 0.8, 0.99, 0.995]);
    expect(r.picks.map((x) => x.tier)).toEqual(['冲', '冲', '稳', '稳', '稳', '保', '保']);
    expect(r.picks.every((x) => x.tier === x.filledFor)).toBe(true);
    expect(r.shortfalls.every((s) => s.missing === 0 && s.borrowed === 0)).toBe(true);
    expect(r.notes).toEqual([]);
    expect(
      checkGradient(
        r.picks.map((x) => ({ ...x.scored.option, tier: x.tier })),
        { slotLimit: 96 },
      ),
    ).toEqual([]);
  });

  it('borrows from the neighbouring tier when one runs short and reports what is missing', () => {
    const opts = [fake('u', 0.01, ['unreachable']), fake('c', 0.2), fake('w1', 0.45), fake('w2', 0.5), fake('w3', 0.6), fake('w4', 0.7), fake('b', 0.9)];
    // 冲: only 0.2 (0.01 is unreachable). 稳 2 of 4 → strata 1 and 3 → 0.5, 0.7. 保: only 0.9.
    // 保 short 1 → the safest remaining 稳: 0.6. 冲 short 2 → the riskiest remaining 稳: 0.45; then nothing is left.
    const r = autofill(opts, { counts: { 冲: 3, 稳: 2, 保: 2 }, slotLimit: 96 });
    expect(ps(r.picks)).toEqual([0.2, 0.45, 0.5, 0.6, 0.7, 0.9]);
    expect(r.picks.map((x) => `${x.tier}/${x.filledFor}`)).toEqual(['冲/冲', '稳/冲', '稳/稳', '稳/保', '稳/稳', '保/保']);
    expect(r.shortfalls).toEqual([
      { tier: '冲', requested: 3, own: 1, borrowed: 1, missing: 1 },
      { tier: '稳', requested: 2, own: 2, borrowed: 0, missing: 0 },
      { tier: '保', requested: 2, own: 1, borrowed: 1, missing: 0 },
    ]);
    expect(r.notes).toContain('冲档仍缺 1 个：没有更多可用的候选志愿');
  });

  it('fills a short 稳 from the riskiest 保, then the safest 冲', () => {
    const opts = [fake('c1', 0.1), fake('c2', 0.3), fake('w', 0.5), fake('b1', 0.85), fake('b2', 0.99)];
    // 冲 1 of 2 → stratum midpoint ⌊0.5 × 2/1⌋ = 1 → 0.3; 稳 has only 0.5; 保 wants 1 → the safest, 0.99.
    // 稳 is 2 short: it borrows 0.85 (the riskiest remaining 保), then 0.1 (the safest remaining 冲).
    // The plan lists each option under its own tier: 冲 0.1 (R 11000) before 0.3 (R 13000), 稳 0.5, 保 0.85, 0.99.
    const r = autofill(opts, { counts: { 冲: 1, 稳: 3, 保: 1 }, slotLimit: 96 });
    expect(r.shortfalls[1]).toEqual({ tier: '稳', requested: 3, own: 1, borrowed: 2, missing: 0 });
    expect(ps(r.picks)).toEqual([0.1, 0.3, 0.5, 0.85, 0.99]);
    expect(r.picks.find((x) => x.scored.probability === 0.85)?.filledFor).toBe('稳');
  });

  it('never exceeds the slot limit: trims 冲 first, then 稳', () => {
    const many = Array.from({ length: 60 }, (_, i) => fake(`m${i}`, 0.06 + (i * 0.93) / 60));
    // requested 10 + 10 + 10 = 30 > 12: excess 18 → 冲 10 → 0 (8 left), 稳 10 → 2, 保 stays 10
    const r = autofill(many, { counts: { 冲: 10, 稳: 10, 保: 10 }, slotLimit: 12 });
    expect(r.effectiveCounts).toEqual({ 冲: 0, 稳: 2, 保: 10 });
    expect(r.picks).toHaveLength(12);
    expect(r.notes[0]).toContain('超过上限 12');
    const ok = autofill(many, { counts: { 冲: 5, 稳: 5, 保: 5 }, slotLimit: 96 });
    expect(ok.picks).toHaveLength(15);
  });

  it('skips duplicates, unscored and wasteful options (wasteful allowed as a last resort)', () => {
    const dupA = fake('d1', 0.9, [], 'SAME');
    const dupB = { ...fake('d2', 0.95, [], 'SAME'), option: { ...dupA.option, id: 'd2' } }; // same school + major
    const none: ScoredOption = { ...fake('n', 0.5), probability: null, tier: null, method: 'none' };
    const waste = fake('w', 0.999, ['wasteful']);
    const r = autofill([dupA, dupB, none, waste], { counts: { 冲: 0, 稳: 1, 保: 3 }, slotLimit: 96 });
    expect(r.picks.map((x) => x.scored.option.id)).toEqual(['d1']);
    expect(r.shortfalls[2].missing).toBe(2);
    const allowed = autofill([dupA, dupB, waste], { counts: { 冲: 0, 稳: 0, 保: 2 }, slotLimit: 96, allowWasteful: true });
    expect(allowed.picks.map((x) => x.scored.option.id)).toEqual(['d1', 'w']); // non-wasteful first in the 保 pool, plan by difficulty
  });

  it('prefers the hardest among near-certain 保 options', () => {
    // all above 99.9 % count as equally safe; then the smaller R (harder) wins: 0.9991 (R 19991) before 0.9999 (R 19999)
    const r = autofill([fake('a', 0.9999), fake('b', 0.9991), fake('c', 0.95)], { counts: { 冲: 0, 稳: 0, 保: 1 }, slotLimit: 96 });
    expect(ps(r.picks)).toEqual([0.9991]);
  });
});

describe('checkGradient', () => {
  const e = (tier: Tier | null, school = 'S', major = `M${Math.random()}`, group: string | null = null): PlanEntry => ({
    schoolCode: school,
    majorName: major,
    groupCode: group,
    tier,
  });

  it('passes a well-formed plan', () => {
    expect(checkGradient([e('冲'), e('稳'), e('稳'), e('保')], { slotLimit: 96 })).toEqual([]);
  });

  it('warns when a safer option precedes a riskier one', () => {
    const w = checkGradient([e('稳'), e('冲'), e('保'), e('稳')], { slotLimit: 96 });
    expect(w.map((x) => x.code)).toEqual(['tier-order', 'tier-order']);
    expect(w[0].positions).toEqual([0, 1]);
    expect(w[0].message).toBe('梯度倒挂：第2个志愿（冲）排在更稳妥的第1个志愿（稳）之后，被前面的志愿录取后将不会再投档到它');
    expect(w[1].positions).toEqual([2, 3]);
  });

  it('warns about too many 冲 (over 50 % by default, configurable)', () => {
    // 3 of 5 = 60 % > 50 %
    const w = checkGradient([e('冲'), e('冲'), e('冲'), e('稳'), e('保')], { slotLimit: 96 });
    expect(w.map((x) => x.code)).toEqual(['too-many-rush']);
    expect(w[0].message).toContain('占 60%');
    // 2 of 4 = 50 %: allowed
    expect(checkGradient([e('冲'), e('冲'), e('稳'), e('保')], { slotLimit: 96 })).toEqual([]);
    expect(checkGradient([e('冲'), e('冲'), e('稳'), e('保')], { slotLimit: 96, maxRushShare: 0.4 }).map((x) => x.code)).toEqual(['too-many-rush']);
  });

  it('warns when there is no 保', () => {
    const w = checkGradient([e('冲'), e('稳')], { slotLimit: 96 });
    expect(w.map((x) => x.code)).toEqual(['no-safety']);
    expect(w[0].message).toBe('方案中没有保底志愿，存在滑档风险');
    expect(checkGradient([], { slotLimit: 96 })).toEqual([]);
  });

  it('finds duplicates (same school + major)', () => {
    const plan = [e('冲', 'A001', '法学'), e('稳', 'A002', '法学'), { ...e('稳', 'A001', '法学'), schoolName: '北京大学' }, e('保')];
    const w = checkGradient(plan, { slotLimit: 96 });
    expect(w.map((x) => x.code)).toEqual(['duplicate']);
    expect(w[0].positions).toEqual([0, 2]);
    expect(w[0].message).toBe('第1、第3个志愿重复：A001 法学');
  });

  it('warns when the slot limit is exceeded', () => {
    const w = checkGradient([e('冲'), e('稳'), e('保'), e('保')], { slotLimit: 3 });
    expect(w.map((x) => x.code)).toEqual(['slot-limit']);
    expect(w[0].message).toBe('志愿数 4 超过上限 3 个，超出的 1 个无法提交');
    expect(w[0].positions).toEqual([3]);
  });

  it('checks the majors per 院校专业组 (3+1+2)', () => {
    const group = (n: number) => Array.from({ length: n }, (_, i) => e('稳', 'B100', `专业${i}`, '01'));
    // 7 majors in group 01 with a limit of 6
    const w = checkGradient([...group(7), e('保')], { slotLimit: 45, groupMajorLimit: 6 });
    expect(w.map((x) => x.code)).toEqual(['group-major-limit']);
    expect(w[0].message).toBe('B100 01组 填了 7 个专业，超过每组 6 个的上限');
    expect(checkGradient([...group(6), e('保')], { slotLimit: 45, groupMajorLimit: 6 })).toEqual([]);
    expect(checkGradient([...group(7), e('保')], { slotLimit: 45 })).toEqual([]); // 0 = no limit (3+3)
  });
});

describe('scoreAll', () => {
  const flat = [
    { year: 2025, schoolCode: 'A', majorName: '法学', minScore: 640, minRank: 12345 },
    { year: 2024, schoolCode: 'A', majorName: '法学', minScore: 630, minRank: 13000 },
    { year: 2025, schoolCode: 'B', majorName: '数学', minScore: 600, minRank: 30000 },
    { year: 2025, schoolCode: 'C', majorName: '历史学', minScore: 560, minRank: null, batchLine: 441 },
  ];
  const lines = groupLines(flat);

  it('groups yearly lines into options', () => {
    expect(lines.map((o) => [o.id, o.history.length])).toEqual([
      ['A||法学', 2],
      ['B||数学', 1],
      ['C||历史学', 1],
    ]);
  });

  it('gives the same results as scoring one option at a time, in input order', () => {
    for (const s of [
      student(10000, { score: 650, batchLine: 441 }),
      student(31000, { score: 598, batchLine: 441 }),
      student(null, { score: 580, batchLine: 441 }),
    ]) {
      const all = scoreAll(lines, s);
      expect(all.map((x) => x.option.id)).toEqual(lines.map((o) => o.id));
      for (const [i, o] of lines.entries()) {
        const one = scoreOption(o, s);
        expect(all[i].probability).toBe(one.probability);
        expect(all[i].tier).toBe(one.tier);
        expect(all[i].method).toBe(one.method);
        expect(all[i].explanation.text).toBe(one.explanation.text);
      }
    }
    // C has no rank: 线差法 with the same-year line 560 − 441 = 119, σ = 5; student 580 − 441 = 139 → z = 4
    const c = scoreAll(lines, student(10000, { score: 580, batchLine: 441 }))[2];
    expect(c.method).toBe('score-diff');
    expect(c.probability).toBeCloseTo(normalCdf(4), 12);
  });

  it('reuses the compiled aggregates and checks the context of a prepared set', () => {
    const s = student(20000, { batchLine: 441 });
    const prepared = prepareOptions(lines, s);
    expect(prepareOptions(lines, { ...s, score: 610, rank: 15000 })).toBe(prepared); // same year context: cached
    expect(scoreAll(prepared, { ...s, rank: 15000 })[0].probability).toBe(scoreAll(lines, { ...s, rank: 15000 })[0].probability);
    expect(() => scoreAll(prepared, { ...s, year: 2026 })).toThrow();
  });
});
