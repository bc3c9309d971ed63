import { bandOf, RANK_BANDS } from '../engine/calibrated.js';
import { normalCdf } from '../engine/normal.js';

/**
 * Spread of a one-year estimate for 院校专业组 lines. Hubei and Guangdong have one year of data (2025), so a spread
 * cannot be fitted on their own year-to-year changes. It is borrowed from Shandong: the half-width between the 16th
 * and 84th percentiles of log(min rank of year Y / equivalent min rank of year Y−1) over every line present in two
 * consecutive years of 2021–2025 (47,211 pairs), per rank band of engine/calibrated.ts (RANK_BANDS). Method in
 * docs/volunteer-model.md (§ 3+1+2 provinces), measured 2026-11-24:
 *
 *   band        <2k    2k–10k  10k–30k 30k–60k 60k–120k 120k–250k ≥250k
 *   pairs       351    1544    5871    8403    10502    17929     2611
 *   σ (log)     0.278  0.259   0.186   0.182   0.182    0.145     0.077
 *
 * Flagged in every answer (spreadSource 'shandong-one-year'): a 院校专业组 pools several majors and may move less than
 * one Shandong major line, and the medians (−6 % … +4.5 %) are not applied as a drift.
 */
export const ONE_YEAR_SIGMA = [0.278, 0.259, 0.186, 0.182, 0.182, 0.145, 0.077] as const;
export const SPREAD_SOURCE = 'shandong-one-year';
export const SPREAD_NOTE = '仅有 2025 年一年数据：按位次段借用山东 2021–2025 年相邻年份位次波动（对数标准差）估计，仅供参考';

if (ONE_YEAR_SIGMA.length !== RANK_BANDS.length + 1) throw new Error('ONE_YEAR_SIGMA must have one value per rank band');

/**
 * Geometric centre of each band (the open ends: half the first edge, 1.4 × the last), where its σ applies exactly.
 * Between centres σ is interpolated in log rank, so a group's probability does not jump where two bands meet
 * (a step there made a harder group look safer than an easier one next to it).
 */
const CENTRES = [RANK_BANDS[0] / 2, ...RANK_BANDS.slice(1).map((b, i) => Math.sqrt(b * RANK_BANDS[i])), RANK_BANDS[RANK_BANDS.length - 1] * 1.4];

export function sigmaFor(lineRank: number): number {
  const r = Math.max(1, lineRank);
  if (r <= CENTRES[0]) return ONE_YEAR_SIGMA[0];
  const last = CENTRES.length - 1;
  if (r >= CENTRES[last]) return ONE_YEAR_SIGMA[last];
  const i = CENTRES.findIndex((c) => c > r) - 1;
  const f = Math.log(r / CENTRES[i]) / Math.log(CENTRES[i + 1] / CENTRES[i]);
  return ONE_YEAR_SIGMA[i] + f * (ONE_YEAR_SIGMA[i + 1] - ONE_YEAR_SIGMA[i]);
}

/** The rank band (engine/calibrated.ts) of a line, for the explanation. */
export const bandOfLine = (lineRank: number) => bandOf(lineRank);

/**
 * P(admitted) for a student of rank `studentRank` to a group whose last min rank was `lineRank`: the coming year's
 * min rank is taken log-normal around last year's with σ of its band; admitted when it is not better than the
 * student's rank.
 */
export function groupProbability(studentRank: number, lineRank: number): number {
  const sigma = sigmaFor(lineRank);
  return normalCdf((Math.log(lineRank) - Math.log(studentRank)) / sigma);
}
