import type { Kysely } from 'kysely';
import type { Database } from '../db/types.js';
import { requireCatalogue } from './catalogue.js';
import type { Actor } from './common.js';
import { autofillPlan, enrollmentChance, resolveSubject } from './filling.js';
import { savePlan } from './plans.js';
import { createStudent, loadStudent } from './students.js';

/**
 * Hooks for the bench (bench/**): the three volunteer operations worth timing, in process, on a migrated and seeded
 * database (openDatabase + migrate + seed, or app.db.kysely of a built app).
 *
 *   const vb = await createVolunteerBench(app.db.kysely);
 *   await vb.chance();      // acceptance query for one student over every line (scoreAll + filter + first page)
 *   await vb.chanceAll();   // the same answering every row (all=1), as FillingSelectAll/schoolEnrollChance1 does
 *   await vb.autofill96();  // auto-fill 冲20/稳40/保36 = 96 volunteers (not saved)
 *   await vb.autofillLanding(); // the default auto-fill: optimised for where the student lands (issue 24), simulated
 *   vb.typedPass();         // the floor: one pass over a Float64Array of every option
 *   await vb.save96();      // save a 96-item plan (version read first; each call bumps the version)
 *
 * The bench student (score 600, 山东, owned by admin) is created on first use, so the demo students stay untouched.
 */
export const BENCH_STUDENT = '基准测试学生';

export async function createVolunteerBench(db: Kysely<Database>, opts: { score?: number } = {}) {
  const admin = await db.selectFrom('sysUser').select(['userId', 'userName']).where('userName', '=', 'admin').executeTakeFirstOrThrow();
  const actor: Actor = { userId: admin.userId, userName: admin.userName, roles: ['admin'] };
  const existing = await db.selectFrom('volStudent').select('studentId').where('name', '=', BENCH_STUDENT).where('delFlag', '=', '0').executeTakeFirst();
  const studentId =
    existing?.studentId ?? (await createStudent(db, actor, { name: BENCH_STUDENT, score: opts.score ?? 600, subjects: [1, 2, 3], province: '山东' })).studentId;
  const cat = await requireCatalogue(db, '山东');

  async function chance(filters: Record<string, unknown> = {}) {
    const { subject } = await resolveSubject(db, actor, { studentId });
    return enrollmentChance(db, cat, subject, filters);
  }
  async function autofill96() {
    const { subject } = await resolveSubject(db, actor, { studentId });
    return autofillPlan(db, cat, subject, { counts: { 冲: 20, 稳: 40, 保: 36 } });
  }
  /** The default 智能填报 (issue 24): chosen and ordered for the landing, with its 10,000-year simulation. */
  async function autofillLanding() {
    const { subject } = await resolveSubject(db, actor, { studentId });
    return autofillPlan(db, cat, subject, {});
  }
  // The floor the issue measures against: one pass over a typed array of the same options (each line's log min rank
  // scored against the student's: a logistic, summed), no objects, no filters.
  const logRanks = Float64Array.from(cat.entries, (e) => Math.log(e.years[0].minRank ?? 1e6));
  function typedPass(rank = 25_000) {
    const lr = Math.log(rank);
    let sum = 0;
    for (let i = 0; i < logRanks.length; i++) sum += 1 / (1 + Math.exp((lr - logRanks[i]) * 8));
    return sum;
  }
  let lastItems: Array<{ lineId: number }> | null = null;
  async function save96(items?: Array<{ lineId: number }>) {
    const list = items ?? lastItems ?? (await autofill96()).items.map((i) => ({ lineId: i.lineId }));
    lastItems = list;
    const plan = await db.selectFrom('volPlan').select('version').where('studentId', '=', studentId).executeTakeFirst();
    return savePlan(db, actor, { studentId, version: plan?.version ?? 0, items: list });
  }
  return {
    studentId,
    actor,
    lineCount: cat.entries.length,
    student: () => loadStudent(db, actor, studentId),
    chance,
    chanceAll: () => chance({ all: 1 }),
    autofill96,
    autofillLanding,
    typedPass,
    save96,
  };
}
