import type { Kysely } from 'kysely';
import { SHANDONG, SHANDONG_BATCH_LINE } from '../db/seed/admission.js';
import type { Database } from '../db/types.js';
import { autofill, groupLines, optionKey, prepareSegmentTable, rankForScore, scoreAll } from './engine/index.js';
import { historyFiles, historyWanted } from './import/history.js';

/**
 * Demo students (first start only, inside the seed transaction, after the admission data): four for the expert
 * (张三 600 points, physics/chemistry/biology, no plan; 王五 with a small draft plan) and one not yet assigned, for
 * the leader's batch distribution.
 */
export const DEMO_STUDENTS = [
  {
    name: '张三',
    mobile: '13900000001',
    score: 600,
    subjects: '1,2,3',
    owner: 'expert',
    regions: ['山东', '北京'],
    levels: ['211'],
    majors: ['计算机', '电子'],
  },
  { name: '李四', mobile: '13900000002', score: 585, subjects: '4,5,6', owner: 'expert', regions: [], levels: [], majors: ['法学', '汉语言'] },
  { name: '王五', mobile: '13900000003', score: 630, subjects: '1,2,5', owner: 'expert', regions: ['上海', '江苏'], levels: ['985'], majors: ['临床医学'] },
  { name: '赵六', mobile: '13900000004', score: 552, subjects: '2,3,5', owner: 'expert', regions: [], levels: [], majors: [] },
  { name: '孙七', mobile: '13900000005', score: 618, subjects: '1,3,6', owner: null, regions: [], levels: [], majors: ['金融'] },
] as const;

/** The student with a demo draft plan, and its size. */
export const DEMO_DRAFT = { student: '王五', counts: { 冲: 2, 稳: 2, 保: 2 } } as const;

export async function seedVolunteer(k: Kysely<Database>, now = Date.now()): Promise<void> {
  const users = await k.selectFrom('sysUser').select(['userId', 'userName']).execute();
  const idOf = (name: string | null) => (name ? (users.find((u) => u.userName === name)?.userId ?? null) : null);
  const admin = idOf('admin');
  const segments = await k.selectFrom('gkScoreSegment').select(['year', 'score', 'cumulativeRank']).where('examProvince', '=', SHANDONG).execute();
  if (segments.length === 0) return;
  const year = Math.max(...segments.map((s) => s.year));
  const table = prepareSegmentTable(segments.filter((s) => s.year === year));
  // The demo families sit the coming exam: the year after the newest admissions the server will hold — the seed's
  // year, or the newest year of the history loaded right after the seed (npm start: 2026 lines → the 2027 exam). The
  // history import then re-ranks them in their table (rerank.ts).
  const newestData = historyWanted() ? Math.max(year, ...historyFiles().lines) : year;
  const examYear = newestData + 1;

  for (const d of DEMO_STUDENTS) {
    const lookup = rankForScore(table, d.score);
    const { studentId } = await k
      .insertInto('volStudent')
      .values({
        name: d.name,
        mobile: d.mobile,
        province: SHANDONG,
        examYear,
        score: d.score,
        rank: lookup.rank,
        rankFlag: lookup.flag,
        subjects: d.subjects,
        preferRegions: JSON.stringify(d.regions),
        preferLevels: JSON.stringify(d.levels),
        preferMajors: JSON.stringify(d.majors),
        tuitionCap: null,
        ownerId: idOf(d.owner),
        remark: null,
        delFlag: '0',
        createBy: admin,
        createTime: now,
        updateTime: now,
        version: 1,
      })
      .returning('studentId')
      .executeTakeFirstOrThrow();
    if (d.name === DEMO_DRAFT.student) await seedDraft(k, studentId, d.score, lookup.rank, year, idOf(d.owner) ?? admin ?? 1, now);
  }
}

async function seedDraft(k: Kysely<Database>, studentId: number, score: number, rank: number, year: number, userId: number, now: number) {
  const lines = await k
    .selectFrom('gkAdmissionLine as l')
    .innerJoin('gkSchool as s', (j) => j.onRef('s.schoolCode', '=', 'l.schoolCode').onRef('s.examProvince', '=', 'l.examProvince'))
    .select(['l.lineId', 'l.year', 'l.schoolCode', 'l.groupCode', 'l.majorName', 'l.minScore', 'l.minRank', 's.name as schoolName'])
    .where('l.examProvince', '=', SHANDONG)
    .where('l.year', '=', year)
    .execute();
  if (lines.length === 0) return;
  const batch = await k
    .selectFrom('gkBatchLine')
    .select('minScore')
    .where('examProvince', '=', SHANDONG)
    .where('year', '=', year)
    .where('batch', '=', SHANDONG_BATCH_LINE)
    .executeTakeFirst();
  const province = await k.selectFrom('gkProvince').select('cohortSize').where('province', '=', SHANDONG).executeTakeFirst();
  const lineIdOf = new Map(lines.map((l) => [optionKey(l), l.lineId]));
  const scored = scoreAll(groupLines(lines), { score, rank, year, batchLine: batch?.minScore ?? null, cohortSize: province?.cohortSize ?? null });
  const picks = autofill(scored, { counts: { ...DEMO_DRAFT.counts }, slotLimit: 96 }).picks;
  const plan = await k
    .insertInto('volPlan')
    .values({
      studentId,
      status: 'draft',
      version: 1,
      itemCount: picks.length,
      createBy: userId,
      createTime: now,
      updateBy: userId,
      updateTime: now,
      submitBy: null,
      submitTime: null,
      reviewBy: null,
      reviewTime: null,
      reviewComment: null,
    })
    .returning('planId')
    .executeTakeFirstOrThrow();
  if (picks.length) {
    await k
      .insertInto('volPlanItem')
      .values(
        picks.map((p, i) => {
          const o = p.scored.option;
          const h = o.history[0];
          return {
            planId: plan.planId,
            sort: i + 1,
            lineId: lineIdOf.get(optionKey(o)) as number,
            schoolCode: o.schoolCode,
            schoolName: o.schoolName ?? null,
            groupCode: o.groupCode ?? null,
            majorName: o.majorName ?? null,
            minScore: h?.minScore ?? null,
            minRank: h?.minRank ?? null,
            tier: p.tier,
            probability: p.scored.probability,
            obey: null,
          };
        }),
      )
      .execute();
  }
  await k
    .insertInto('volPlanAction')
    .values({
      studentId,
      planId: plan.planId,
      action: 'save',
      fromStatus: null,
      toStatus: 'draft',
      version: 1,
      userId,
      userName: 'expert',
      comment: '演示数据',
      createTime: now,
    })
    .execute();
}
