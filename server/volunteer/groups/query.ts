import type { Kysely } from 'kysely';
import type { GroupOptionRow } from '../../../common/volunteer/groupOptions.js';
import type { Database } from '../../db/types.js';
import { fail } from '../../http/envelope.js';
import { probabilityText } from '../catalogue.js';
import { parseSubjects, SUBJECTS } from '../common.js';
import { tierFor } from '../engine/index.js';
import type { Track } from './parse.js';
import { groupProbability, SPREAD_NOTE, SPREAD_SOURCE, sigmaFor } from './spread.js';

/**
 * The acceptance query of a 3+1+2 province (湖北, 广东): 院校专业组 lines of the student's track (物理类 / 历史类) whose
 * 再选 requirement the student meets, with a group probability from the one-year spread (spread.ts); below the
 * province's 本科 batch line no 本科 group at all.
 */

type Db = Kysely<Database>;

/** The batch line (gk_batch_line.batch) that bars 本科 groups. */
export const UNDERGRAD_BATCH_LINE = '本科批';

export interface GroupRules {
  province: string;
  slotLimit: number;
  groupMajorLimit: number;
}

/** The province's rules when it plans by 院校专业组 (gk_province.zy_type 2), else null. */
export async function groupRules(db: Db, province: string): Promise<GroupRules | null> {
  const p = await db.selectFrom('gkProvince').selectAll().where('province', '=', province).executeTakeFirst();
  if (p?.zyType !== 2) return null;
  return { province, slotLimit: p.slotLimit, groupMajorLimit: p.groupMajorLimit };
}

/** 物理类 / 历史类 from the student's subjects (1 物理, 4 历史); null when neither. */
export function trackOf(subjects: string | null | undefined): Track | null {
  const ids = parseSubjects(subjects);
  if (ids.includes(1)) return '物理类';
  if (ids.includes(4)) return '历史类';
  return null;
}

/** The student's 再选 subjects (化学 / 生物 / 地理 / 政治). */
export function reselectOf(subjects: string | null | undefined): string[] {
  return parseSubjects(subjects)
    .filter((n) => n !== 1 && n !== 4)
    .map((n) => SUBJECTS[n]);
}

/** Whether a student with these 再选 subjects meets the requirement ('' = 不限; '化学、生物' = both required). */
export function meetsRequirement(req: string | null, reselect: readonly string[]): boolean {
  if (!req) return true;
  return req.split('、').every((s) => reselect.includes(s));
}

export interface GroupStudent {
  province: string;
  score: number | null;
  rank: number | null;
  subjects: string;
}

/** One scored group line (the type is shared with the console). */
export type GroupOption = GroupOptionRow;

export interface GroupQuery {
  province: string;
  year: number | null;
  track: Track;
  reselect: string[];
  batchLine: number | null;
  belowBatchLine: boolean;
  message: string | null;
  spreadSource: string;
  spreadNote: string;
  options: GroupOption[];
}

/** Every group line the student may fill, scored (best chance last is the caller's concern: sorted by min rank). */
export async function groupOptions(db: Db, student: GroupStudent): Promise<GroupQuery> {
  const rules = await groupRules(db, student.province);
  if (!rules) throw fail(`${student.province}不按院校专业组填报`);
  const track = trackOf(student.subjects);
  if (!track) throw fail('请先填写选考科目：首选物理或历史，再选化学、生物、地理、政治中的两门');
  const reselect = reselectOf(student.subjects);
  const latest = await db
    .selectFrom('gkAdmissionLine')
    .select((eb) => eb.fn.max('year').as('year'))
    .where('examProvince', '=', student.province)
    .where('groupCode', 'is not', null)
    .executeTakeFirst();
  const year = latest?.year == null ? null : Number(latest.year);
  const base = { province: student.province, year, track, reselect, spreadSource: SPREAD_SOURCE, spreadNote: SPREAD_NOTE };
  if (year == null) return { ...base, batchLine: null, belowBatchLine: false, message: `暂无${student.province}的院校专业组投档数据`, options: [] };
  const bl = await db
    .selectFrom('gkBatchLine')
    .select('minScore')
    .where('examProvince', '=', student.province)
    .where('year', '=', year)
    .where('track', '=', track)
    .where('batch', '=', UNDERGRAD_BATCH_LINE)
    .executeTakeFirst();
  const batchLine = bl?.minScore ?? null;
  if (batchLine != null && student.score != null && student.score < batchLine) {
    return {
      ...base,
      batchLine,
      belowBatchLine: true,
      message: `考生分数 ${student.score} 低于${student.province} ${year} 年${track}本科线 ${batchLine} 分，不能填报本科院校专业组`,
      options: [],
    };
  }
  const rows = await db
    .selectFrom('gkAdmissionLine as l')
    .leftJoin('gkSchool as s', (j) => j.onRef('s.schoolCode', '=', 'l.schoolCode').onRef('s.examProvince', '=', 'l.examProvince'))
    .select([
      'l.lineId',
      'l.year',
      'l.track',
      'l.batch',
      'l.schoolCode',
      'l.groupCode',
      'l.subjectReq',
      'l.planCount',
      'l.minScore',
      'l.minRank',
      's.name',
      's.province',
      's.city',
      's.tags',
    ])
    .where('l.examProvince', '=', student.province)
    .where('l.year', '=', year)
    .where('l.track', '=', track)
    .where('l.groupCode', 'is not', null)
    .execute();
  const options: GroupOption[] = [];
  for (const r of rows) {
    if (!meetsRequirement(r.subjectReq, reselect)) continue;
    const p = student.rank != null && r.minRank != null ? groupProbability(student.rank, r.minRank) : null;
    options.push({
      lineId: r.lineId,
      year: r.year,
      track: r.track,
      batch: r.batch,
      schoolCode: r.schoolCode,
      schoolName: r.name ?? r.schoolCode,
      province: r.province ?? null,
      city: r.city ?? null,
      tags: r.tags ? r.tags.split('|') : [],
      groupCode: r.groupCode as string,
      subjectReq: r.subjectReq || '不限',
      planCount: r.planCount,
      minScore: r.minScore,
      minRank: r.minRank,
      probability: p,
      probabilityText: probabilityText(p),
      tier: p == null ? null : tierFor(p),
      sigma: r.minRank != null ? sigmaFor(r.minRank) : null,
    });
  }
  options.sort((a, b) => (a.minRank ?? Number.MAX_SAFE_INTEGER) - (b.minRank ?? Number.MAX_SAFE_INTEGER) || a.lineId - b.lineId);
  const message = student.rank == null ? '请填写考生位次后再计算录取概率' : null;
  return { ...base, batchLine, belowBatchLine: false, message, options };
}
