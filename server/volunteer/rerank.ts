import type { Kysely } from 'kysely';
import type { Database } from '../db/types.js';
import { visibleYear } from './asOf.js';
import { prepareSegmentTable, rankForScore } from './engine/index.js';

/**
 * Students move to their own year's 一分一段 table when it arrives (issue 23). A student of exam year E is ranked in
 * E's table when it is loaded, else in the newest loaded table (what the save does; Catalogue.rankYearFor). So after
 * the table of year Y is imported, every student whose table that now is (E = Y, or a later exam year whose own table
 * is not loaded while Y is the newest) gets the rank of their score in Y, with the rank flag rankForScore gives.
 * A rank the expert typed in (rank_flag 'manual'), a student without a score and a deleted student are left alone.
 *
 * Years after ADMISSION_AS_OF do not exist for the server: importing such a table moves nobody. 院校专业组 provinces
 * (3+1+2) rank by their track's table at save time (groups/rank.ts) and are not touched here.
 */

type Db = Kysely<Database>;

/** The table year a student of this exam year is ranked in, given the loaded (visible) table years. */
export function rankYearOf(tableYears: readonly number[], examYear: number): number | null {
  if (tableYears.includes(examYear)) return examYear;
  return tableYears.length ? Math.max(...tableYears) : null;
}

/**
 * Re-ranks the province's students now ranked in the year's table (see above); run it in the import's transaction.
 * Answers how many students' rank (or flag) changed; each of them gets a new version (an edit form opened before the
 * import is then refused as stale instead of writing the old rank back).
 */
export async function rerankStudents(db: Db, province: string, year: number, track?: string, now = Date.now()): Promise<number> {
  if (!visibleYear(year)) return 0;
  const rules = await db.selectFrom('gkProvince').select('zyType').where('province', '=', province).executeTakeFirst();
  if (!rules || rules.zyType === 2) return 0;
  let q = db.selectFrom('gkScoreSegment').select(['year', 'score', 'cumulativeRank']).where('examProvince', '=', province);
  if (track) q = q.where('track', '=', track);
  const segments = await q.execute();
  const tableYears = [...new Set(segments.map((s) => s.year))].filter((y) => visibleYear(y));
  if (!tableYears.includes(year)) return 0;

  const examYears = (await db.selectFrom('volStudent').select('examYear').distinct().where('province', '=', province).where('delFlag', '=', '0').execute()).map(
    (r) => Number(r.examYear),
  );
  const moving = examYears.filter((e) => rankYearOf(tableYears, e) === year);
  if (moving.length === 0) return 0;

  const table = prepareSegmentTable(segments.filter((s) => s.year === year));
  const students = await db
    .selectFrom('volStudent')
    .select(['studentId', 'score', 'rank', 'rankFlag', 'version'])
    .where('province', '=', province)
    .where('delFlag', '=', '0')
    .where('examYear', 'in', moving)
    .where('score', 'is not', null)
    .where((eb) => eb.or([eb('rankFlag', 'is', null), eb('rankFlag', '!=', 'manual')]))
    .execute();
  let changed = 0;
  for (const s of students) {
    const found = rankForScore(table, Number(s.score));
    if (found.rank === s.rank && found.flag === s.rankFlag) continue;
    const res = await db
      .updateTable('volStudent')
      .set({ rank: found.rank, rankFlag: found.flag, updateTime: now, version: s.version + 1 })
      .where('studentId', '=', s.studentId)
      .where('version', '=', s.version)
      .executeTakeFirst();
    changed += Number(res.numUpdatedRows);
  }
  return changed;
}
