import type { Kysely } from 'kysely';
import { SHANDONG } from '../db/seed/admission.js';
import type { Database } from '../db/types.js';
import type { Actor, Db } from './common.js';
import { prepareSegmentTable, rankForScore } from './engine/index.js';
import { autofillPlan, resolveSubject } from './filling.js';
import { historyFiles, historyWanted } from './import/history.js';
import { savePlan } from './plans.js';

/**
 * Demo students (first start only, inside the seed transaction, after the admission data): four for the expert
 * (张三 600 points, physics/chemistry/biology, no plan; 王五 with a small draft plan, made at start by seedDemoDraft)
 * and one not yet assigned, for the leader's batch distribution.
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
    await k
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
      .execute();
  }
}

/**
 * 王五's draft (demo data): made once the catalogue the server will offer is in place — after the Shandong history
 * loaded at start (routes.ts), not inside the seed, whose one year of lines would be stored and then shown as their
 * 2026 lines with 2026's subject rules — and made the way an expert makes one: 智能填报 by 冲/稳/保 counts over the
 * lines the student may fill (autofillPlan), saved through savePlan. So the draft can be submitted as it is. Only for
 * a demo student who never had a plan (an administrator's deleted plan is not made again).
 */
export async function seedDemoDraft(db: Db): Promise<boolean> {
  const demo = DEMO_STUDENTS.find((d) => d.name === DEMO_DRAFT.student);
  if (!demo) return false;
  const row = await db
    .selectFrom('volStudent')
    .select(['studentId', 'ownerId'])
    .where('name', '=', demo.name)
    .where('mobile', '=', demo.mobile)
    .where('delFlag', '=', '0')
    .executeTakeFirst();
  if (!row) return false;
  const [plan, action] = await Promise.all([
    db.selectFrom('volPlan').select('planId').where('studentId', '=', row.studentId).executeTakeFirst(),
    db.selectFrom('volPlanAction').select('studentId').where('studentId', '=', row.studentId).executeTakeFirst(),
  ]);
  if (plan || action) return false;
  const owner = row.ownerId == null ? null : await db.selectFrom('sysUser').select(['userId', 'userName']).where('userId', '=', row.ownerId).executeTakeFirst();
  // The owning expert (sees their own students; no store confinement for an internal caller).
  const actor: Actor = owner ? { userId: owner.userId, userName: owner.userName, roles: ['expert'] } : { userId: 1, userName: 'admin', roles: ['admin'] };
  const { cat, subject } = await resolveSubject(db, actor, { studentId: row.studentId });
  const proposal = await autofillPlan(db, cat, subject, { strategy: 'tiers', counts: { ...DEMO_DRAFT.counts } });
  if (proposal.items.length === 0) return false;
  await savePlan(db, actor, { studentId: row.studentId, version: 0, items: proposal.items.map((it) => ({ lineId: it.lineId, tier: it.tier })) });
  return true;
}
