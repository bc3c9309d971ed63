import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { fail } from '../../http/envelope.js';
import { prepareSegmentTable, rankForScore } from '../engine/index.js';
import { trackOf } from './query.js';

type Db = Kysely<Database>;

/** The newest year of the province's 院校专业组 lines (a new student's default exam year), else this year. */
export async function groupYear(db: Db, province: string): Promise<number> {
  const r = await db
    .selectFrom('gkAdmissionLine')
    .select((eb) => eb.fn.max('year').as('year'))
    .where('examProvince', '=', province)
    .where('groupCode', 'is not', null)
    .executeTakeFirst();
  return r?.year == null ? new Date().getFullYear() : Number(r.year);
}

/**
 * The student's rank from the province's newest 一分一段 table of their track (湖北). Where the province has none
 * (广东 2025) the rank must be entered: refused with a message that says so.
 */
export async function groupRankFor(db: Db, province: string, subjects: string, score: number) {
  const track = trackOf(subjects);
  if (!track) throw fail('请先填写选考科目：首选物理或历史，再选化学、生物、地理、政治中的两门');
  const segs = await db
    .selectFrom('gkScoreSegment')
    .select(['year', 'score', 'cumulativeRank'])
    .where('examProvince', '=', province)
    .where('track', '=', track)
    .execute();
  if (segs.length === 0) throw fail(`${province}暂无${track}一分一段表，无法由分数换算位次，请填写考生的全省位次`);
  const year = Math.max(...segs.map((s) => s.year));
  return rankForScore(prepareSegmentTable(segs.filter((s) => s.year === year)), score);
}
