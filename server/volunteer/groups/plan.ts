import type { Kysely, Selectable } from 'kysely';
import type { Database, VolPlanItemTable } from '../../db/types.js';
import { fail } from '../../http/envelope.js';
import { intParam } from '../common.js';
import { type GroupRules, type GroupStudent, groupOptions, groupRules } from './query.js';

/**
 * Plan items of a 院校专业组 province: each item is one group line with up to groupMajorLimit (6) majors and 服从调剂;
 * a plan holds up to slotLimit (45) groups. The majors are stored in vol_plan_item.major_name joined by '、' (a
 * major name may not contain '、'), so plans.ts / export.ts show them without a schema change.
 */

type Db = Kysely<Database>;
type ItemRow = Omit<Selectable<VolPlanItemTable>, 'planId'>;

export const MAJOR_SEPARATOR = '、';
const MAJOR_MAX_LENGTH = 50;

/** The majors of a stored group item. */
export const majorsOf = (majorName: string | null): string[] => (majorName ? majorName.split(MAJOR_SEPARATOR) : []);

function majorsOfInput(raw: unknown, i: number, limit: number): string[] {
  if (raw == null) return [];
  if (!Array.isArray(raw)) throw fail(`第${i + 1}个志愿的专业格式不正确，应为专业名称列表`);
  const majors = raw.map((m) => (typeof m === 'string' ? m.trim() : ''));
  if (majors.length > limit) throw fail(`第${i + 1}个志愿最多填报 ${limit} 个专业，当前 ${majors.length} 个`);
  majors.forEach((m) => {
    if (!m) throw fail(`第${i + 1}个志愿的专业名称不能为空`);
    if (m.length > MAJOR_MAX_LENGTH) throw fail(`第${i + 1}个志愿的专业名称不能超过 ${MAJOR_MAX_LENGTH} 个字`);
    if (m.includes(MAJOR_SEPARATOR)) throw fail(`第${i + 1}个志愿的专业名称不能包含「${MAJOR_SEPARATOR}」`);
  });
  if (new Set(majors).size !== majors.length) throw fail(`第${i + 1}个志愿的专业不能重复`);
  return majors;
}

/**
 * The item rows for a group province's plan (checked: count, track, 再选, batch line, duplicates, majors); null when
 * the student's province does not plan by 院校专业组 (plans.ts then takes the catalogue path).
 */
export async function groupPlanRows(db: Db, student: GroupStudent, raw: unknown): Promise<ItemRow[] | null> {
  const rules = await groupRules(db, student.province);
  if (!rules) return null;
  return groupItemRows(db, rules, student, raw);
}

export async function groupItemRows(db: Db, rules: GroupRules, student: GroupStudent, raw: unknown): Promise<ItemRow[]> {
  if (raw == null) throw fail('志愿列表不能为空（清空方案请传空数组）');
  if (!Array.isArray(raw)) throw fail('志愿列表格式不正确，应为数组');
  if (raw.length > rules.slotLimit) throw fail(`志愿数量超过上限：${rules.province}本科批最多填报 ${rules.slotLimit} 个院校专业组，当前 ${raw.length} 个`);
  if (raw.length === 0) return [];
  const q = await groupOptions(db, student);
  if (q.belowBatchLine) throw fail(q.message ?? '考生分数低于本科线，不能填报本科院校专业组');
  const allowed = new Map(q.options.map((o) => [o.lineId, o]));
  const seen = new Map<number, number>();
  const rows: ItemRow[] = [];
  for (const [i, it] of raw.entries()) {
    const obj: { lineId?: unknown; majors?: unknown; obey?: unknown } = typeof it === 'object' && it !== null ? it : { lineId: it };
    const lineId = intParam(obj.lineId);
    const o = lineId != null ? allowed.get(lineId) : undefined;
    if (lineId == null || !o) {
      const line =
        lineId == null
          ? null
          : await db.selectFrom('gkAdmissionLine').select(['track', 'subjectReq', 'examProvince']).where('lineId', '=', lineId).executeTakeFirst();
      if (!line || line.examProvince !== student.province)
        throw fail(`第${i + 1}个志愿不存在或不属于${student.province}的院校专业组（lineId ${lineId ?? '空'}）`);
      if (line.track !== q.track) throw fail(`第${i + 1}个志愿是${line.track}的院校专业组，考生为${q.track}，不能填报`);
      throw fail(`第${i + 1}个志愿要求再选科目 ${line.subjectReq}，考生的再选科目（${q.reselect.join('、') || '无'}）不符合`);
    }
    const first = seen.get(o.lineId);
    if (first != null) throw fail(`第${i + 1}个志愿与第${first + 1}个志愿重复：${o.schoolName} 第${o.groupCode}组`);
    seen.set(o.lineId, i);
    const majors = majorsOfInput(obj.majors, i, rules.groupMajorLimit);
    rows.push({
      sort: i + 1,
      lineId: o.lineId,
      schoolCode: o.schoolCode,
      schoolName: o.schoolName,
      groupCode: o.groupCode,
      majorName: majors.length ? majors.join(MAJOR_SEPARATOR) : null,
      minScore: o.minScore,
      minRank: o.minRank,
      tier: o.tier,
      probability: o.probability,
      obey: obj.obey === true || obj.obey === 1 || obj.obey === '1' ? 1 : 0,
    });
  }
  return rows;
}

/** Current tier and probability of stored group items (zyInfo recomputes them for the student now). */
export async function groupCurrent(db: Db, student: GroupStudent) {
  const q = await groupOptions(db, student);
  return { query: q, byLine: new Map(q.options.map((o) => [o.lineId, o])) };
}
