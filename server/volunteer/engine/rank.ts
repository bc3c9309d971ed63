import type { RankLookup, SegmentRow, SegmentTable } from './types.js';

/**
 * Sorts a 一分一段 table by score, highest first, and checks it: scores unique, cumulative counts positive and
 * non-decreasing as the score falls.
 */
export function prepareSegmentTable(rows: readonly SegmentRow[]): SegmentTable {
  if (rows.length === 0) throw new Error('一分一段表为空');
  const sorted = rows.map((r) => ({ score: r.score, cumulativeRank: r.cumulativeRank })).sort((a, b) => b.score - a.score);
  for (let i = 0; i < sorted.length; i++) {
    const row = sorted[i];
    if (!Number.isFinite(row.score) || !Number.isFinite(row.cumulativeRank) || row.cumulativeRank < 1) {
      throw new Error(`一分一段表第 ${i + 1} 行无效: ${row.score} 分 / ${row.cumulativeRank}`);
    }
    if (i > 0) {
      const prev = sorted[i - 1];
      if (prev.score === row.score) throw new Error(`一分一段表分数重复: ${row.score}`);
      if (row.cumulativeRank < prev.cumulativeRank) throw new Error(`一分一段表累计人数不应随分数降低而减少: ${row.score} 分`);
    }
  }
  return { rows: sorted, top: sorted[0].score, bottom: sorted[sorted.length - 1].score, total: sorted[sorted.length - 1].cumulativeRank };
}

function isPrepared(t: SegmentTable | readonly SegmentRow[]): t is SegmentTable {
  return !Array.isArray(t);
}

/**
 * A student's 位次: the cumulative count at their score in this year's 一分一段 table.
 *  - exact score in the table → its cumulative count ('exact');
 *  - a score between two rows (the table skips it) → linear interpolation between the neighbouring rows, rounded
 *    to a whole rank ('interpolated');
 *  - above the top row → the top row's count ('above-table'): the top row usually reads "N 分及以上", so the student
 *    is somewhere among those candidates; taking the row's count is the cautious end of that range;
 *  - below the bottom row → the bottom row's count, everybody in the table ('below-table').
 * Pass a prepared table (prepareSegmentTable) when looking up many scores; a plain row list is prepared per call.
 */
export function rankForScore(table: SegmentTable | readonly SegmentRow[], score: number): RankLookup {
  const t = isPrepared(table) ? table : prepareSegmentTable(table);
  const rows = t.rows;
  if (score > t.top) return { rank: rows[0].cumulativeRank, flag: 'above-table' };
  if (score < t.bottom) return { rank: t.total, flag: 'below-table' };
  // Binary search in the descending scores for the first row with row.score <= score.
  let lo = 0;
  let hi = rows.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid].score <= score) hi = mid;
    else lo = mid + 1;
  }
  const below = rows[lo];
  if (below.score === score) return { rank: below.cumulativeRank, flag: 'exact' };
  const above = rows[lo - 1]; // exists: score <= top and no exact match, so lo > 0
  const share = (above.score - score) / (above.score - below.score);
  return { rank: Math.round(above.cumulativeRank + (below.cumulativeRank - above.cumulativeRank) * share), flag: 'interpolated' };
}

/**
 * Equivalent rank across years of different cohort sizes: rank r among nNow candidates sits at the same share of
 * the cohort as r × nThen / nNow among nThen candidates. (Symmetric: to bring a past rank into this year, pass
 * nThen = this year's cohort and nNow = the past year's.)
 */
export function equivalentRank(r: number, nThen: number, nNow: number): number {
  if (!(nThen > 0) || !(nNow > 0)) throw new Error('考生人数必须为正数');
  return (r * nThen) / nNow;
}
