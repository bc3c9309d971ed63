import type { Selectable } from 'kysely';
import { ELIGIBILITY_KINDS, type StudentQuery, type StudentInput as WireStudentInput } from '../../common/volunteer/students.js';
import { storeNames } from '../customer/index.js';
import type { VolPlanTable, VolStudentTable } from '../db/types.js';
import { fail } from '../http/envelope.js';
import { contains } from '../http/like.js';
import { rankOf, requireCatalogue, requireProvince } from './catalogue.js';
import {
  type Actor,
  confinedStore,
  type Db,
  homeStore,
  inActorStore,
  intParam,
  notFound,
  PLAN_STATUS_NAMES,
  paging,
  parseJsonList,
  parseSubjects,
  SUBJECTS,
  seesAll,
  subjectNames,
  userNames,
} from './common.js';
import { isEligibilityKind } from './engine/specialPlans.js';
import { groupRankFor, groupYear } from './groups/rank.js';

export type StudentRow = Selectable<VolStudentTable>;
export type PlanRow = Selectable<VolPlanTable>;

export const LEVELS = ['985', '211', '双一流', '本科', '专科'] as const;

/** The student if the actor may see it (own student, or any of the store for admin/leader); otherwise 学生不存在或无权访问. */
export async function loadStudent(db: Db, actor: Actor, studentId: unknown): Promise<StudentRow> {
  const id = intParam(studentId);
  if (id == null || id <= 0) throw fail('请选择学生');
  const row = await db.selectFrom('volStudent').selectAll().where('studentId', '=', id).where('delFlag', '=', '0').executeTakeFirst();
  if (!row || !inActorStore(actor, row.storeId) || (!seesAll(actor) && row.ownerId !== actor.userId)) throw notFound();
  return row;
}

export async function loadPlan(db: Db, studentId: number): Promise<PlanRow | null> {
  return (await db.selectFrom('volPlan').selectAll().where('studentId', '=', studentId).executeTakeFirst()) ?? null;
}

export function planSummary(plan: PlanRow | null, names: Map<number, string> = new Map()) {
  if (!plan) return null;
  return {
    planId: plan.planId,
    status: plan.status,
    statusName: PLAN_STATUS_NAMES[plan.status] ?? plan.status,
    version: plan.version,
    itemCount: plan.itemCount,
    createTime: plan.createTime,
    updateTime: plan.updateTime,
    submitTime: plan.submitTime,
    reviewTime: plan.reviewTime,
    reviewBy: plan.reviewBy,
    reviewByName: plan.reviewBy != null ? (names.get(plan.reviewBy) ?? null) : null,
    reviewComment: plan.reviewComment,
  };
}

/** The list row of a student. */
export function studentListRow(
  s: StudentRow,
  plan: (Pick<PlanRow, 'status' | 'version' | 'itemCount'> & { updateTime?: number | null }) | null,
  ownerName: string | null,
) {
  const subjects = parseSubjects(s.subjects);
  return {
    studentId: s.studentId,
    name: s.name,
    mobile: s.mobile,
    province: s.province,
    examYear: s.examYear,
    score: s.score,
    rank: s.rank,
    rankFlag: s.rankFlag,
    subjects,
    subjectNames: subjectNames(subjects),
    specialEligibility: parseJsonList(s.specialEligibility),
    ownerId: s.ownerId,
    ownerName,
    planStatus: plan?.status ?? 'none',
    planStatusName: PLAN_STATUS_NAMES[plan?.status ?? 'none'],
    planVersion: plan?.version ?? 0,
    planItemCount: plan?.itemCount ?? 0,
    version: s.version,
    createTime: s.createTime,
    // 更新时间 is the student's last activity: an edit of the student or any change of its plan (save, submit, review).
    updateTime: latest(s.updateTime, plan?.updateTime),
  };
}

function latest(a: number | null | undefined, b: number | null | undefined): number | null {
  const times = [a, b].filter((t): t is number => t != null).map(Number);
  return times.length ? Math.max(...times) : null;
}

/** The full view of a student (info, editUser answers). */
export async function studentView(db: Db, s: StudentRow) {
  const plan = await loadPlan(db, s.studentId);
  const names = await userNames(db, [s.ownerId, plan?.reviewBy]);
  return {
    ...studentListRow(s, plan, s.ownerId != null ? (names.get(s.ownerId) ?? null) : null),
    preferences: {
      regions: parseJsonList(s.preferRegions),
      levels: parseJsonList(s.preferLevels),
      majors: parseJsonList(s.preferMajors),
      tuitionCap: s.tuitionCap,
    },
    remark: s.remark,
    plan: planSummary(plan, names),
  };
}

/**
 * The list filters as they arrive: the wire names of StudentQuery (and the engine list's score range,
 * `params[beginScore]` / `params[endScore]`), every value still to be checked.
 */
export type StudentFilters = { [K in keyof StudentQuery | 'params' | 'params[beginScore]' | 'params[endScore]']?: unknown };

export async function listStudents(db: Db, actor: Actor, f: StudentFilters) {
  const { pageSize, offset } = paging(f);
  let q = db
    .selectFrom('volStudent as s')
    .leftJoin('volPlan as p', 'p.studentId', 's.studentId')
    .leftJoin('sysUser as u', 'u.userId', 's.ownerId')
    .where('s.delFlag', '=', '0');
  const store = confinedStore(actor);
  if (store !== undefined) q = q.where('s.storeId', '=', store);
  if (!seesAll(actor)) q = q.where('s.ownerId', '=', actor.userId);
  else {
    const owner = intParam(f.ownerId);
    if (owner != null) q = q.where('s.ownerId', '=', owner);
    if (f.unassigned === 1 || f.unassigned === '1' || f.unassigned === true) q = q.where('s.ownerId', 'is', null);
  }
  const name = typeof f.name === 'string' ? f.name.trim() : '';
  if (name) q = q.where(contains('s.name', name));
  const mobile = typeof f.mobile === 'string' ? f.mobile.trim() : '';
  if (mobile) q = q.where(contains('s.mobile', mobile));
  const status = typeof f.planStatus === 'string' ? f.planStatus : '';
  if (status === 'none') q = q.where('p.planId', 'is', null);
  else if (status) {
    if (!PLAN_STATUS_NAMES[status]) throw fail('方案状态不正确');
    q = q.where('p.status', '=', status);
  }
  // 分数 from / to: scoreMin / scoreMax, or the engine list's range names (params[beginScore] / params[endScore], flat
  // in a query string, nested in a JSON body) that 学生志愿 (schemas/volunteer/vol_student.json) sends.
  const range = (f.params && typeof f.params === 'object' ? f.params : {}) as Record<string, unknown>;
  const min = intParam(f.scoreMin ?? f['params[beginScore]'] ?? range.beginScore);
  const max = intParam(f.scoreMax ?? f['params[endScore]'] ?? range.endScore);
  if (min != null && max != null && min > max) throw fail('最低分不能大于最高分，请调整分数范围');
  if (min != null) q = q.where('s.score', '>=', min);
  if (max != null) q = q.where('s.score', '<=', max);

  const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
  const rows = await q
    .selectAll('s')
    .select(['p.status as planStatus', 'p.version as planVersion', 'p.itemCount as planItemCount', 'p.updateTime as planUpdateTime', 'u.nickName as ownerName'])
    .orderBy('s.studentId', 'desc')
    .limit(pageSize)
    .offset(offset)
    .execute();
  // Which store each student belongs to (headquarters sees every store's: 领导审批 shows it, and offers only experts of
  // the student's own store).
  const stores = await storeNames(
    db,
    rows.map((r) => r.storeId),
  );
  return {
    rows: rows.map((r) => ({
      ...studentListRow(
        r,
        r.planStatus != null ? { status: r.planStatus, version: r.planVersion ?? 0, itemCount: r.planItemCount ?? 0, updateTime: r.planUpdateTime } : null,
        r.ownerName,
      ),
      storeId: r.storeId,
      storeName: stores.get(r.storeId) ?? null,
    })),
    total,
  };
}

/** Fields a caller may set on a student, as they arrive: the wire names of the console's StudentInput, unchecked. */
export type StudentInput = { [K in keyof WireStudentInput]?: unknown };

type StudentPatch = Partial<
  Pick<
    StudentRow,
    | 'name'
    | 'mobile'
    | 'province'
    | 'examYear'
    | 'score'
    | 'rank'
    | 'rankFlag'
    | 'subjects'
    | 'preferRegions'
    | 'preferLevels'
    | 'preferMajors'
    | 'tuitionCap'
    | 'remark'
    | 'ownerId'
    | 'specialEligibility'
  >
>;

const has = (o: object, k: string) => Object.hasOwn(o, k);

function strList(v: unknown, what: string, maxItems: number, maxLen: number): string[] {
  if (v == null) return [];
  if (!Array.isArray(v) && typeof v !== 'string') throw fail(`${what}格式不正确`);
  const list = (Array.isArray(v) ? v : v.split(/[,，]/)).map((x) => String(x).trim()).filter(Boolean);
  if (list.length > maxItems) throw fail(`${what}最多 ${maxItems} 项`);
  for (const x of list) if (x.length > maxLen) throw fail(`${what}「${x}」过长（最多 ${maxLen} 个字）`);
  return [...new Set(list)];
}

export function validateScore(v: unknown): number | null {
  if (v == null || v === '') return null;
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isFinite(n)) throw fail('分数格式不正确，应为数字');
  if (n < 0 || n > 750) throw fail('分数必须在 0 到 750 之间');
  if (!Number.isInteger(n)) throw fail('分数必须是整数');
  return n;
}

function validateRank(v: unknown): number | null {
  if (v == null || v === '') return null;
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isInteger(n) || n <= 0 || n > 10_000_000) throw fail('位次必须是正整数');
  return n;
}

function validateSubjects(v: unknown, subjectType: number): number[] {
  if (v == null || v === '') return [];
  const raw = Array.isArray(v) ? v : String(v).split(/[,，]/);
  const ids = raw.map((x) => Number(x));
  if (ids.some((n) => !Number.isInteger(n) || SUBJECTS[n] === undefined))
    throw fail('选考科目不正确：科目编号应为 1 物理、2 化学、3 生物、4 历史、5 地理、6 政治');
  if (new Set(ids).size !== ids.length) throw fail('选考科目不能重复');
  if (ids.length === 0) return [];
  if (subjectType === 2 && ids.length !== 3) throw fail('选考科目须为物理、化学、生物、历史、地理、政治中的三门');
  if (subjectType === 3) {
    const first = ids.filter((n) => n === 1 || n === 4);
    if (ids.length !== 3 || first.length !== 1) throw fail('选考科目须为物理、历史中的一门，加化学、生物、地理、政治中的两门');
  }
  if (subjectType === 1) throw fail('该省为文理分科，不需要选考科目');
  return [...ids].sort((a, b) => a - b);
}

/**
 * Checks and normalises the given fields (only those present). Score and rank: a given rank is kept as 'manual';
 * otherwise, when the score changes, the rank is derived from the province's 一分一段 table.
 */
export async function buildPatch(db: Db, input: StudentInput, current: StudentRow | null): Promise<StudentPatch> {
  const patch: StudentPatch = {};
  if (has(input, 'name') || !current) {
    const name = typeof input.name === 'string' ? input.name.trim() : '';
    if (!name) throw fail('学生姓名不能为空');
    if (name.length > 20) throw fail('学生姓名不能超过 20 个字');
    patch.name = name;
  }
  if (has(input, 'mobile')) {
    const m = input.mobile == null ? '' : String(input.mobile).trim();
    if (m && !/^1\d{10}$/.test(m)) throw fail('手机号格式不正确');
    patch.mobile = m || null;
  }
  const province = has(input, 'province') && input.province ? String(input.province).trim() : (current?.province ?? '山东');
  const rules = await requireProvince(db, province);
  if (!current || province !== current.province) patch.province = province;
  if (has(input, 'examYear') || !current) {
    const y = input.examYear == null || input.examYear === '' ? undefined : Number(input.examYear);
    if (y !== undefined && (!Number.isInteger(y) || y < 2000 || y > 2100)) throw fail('高考年份不正确');
    // Default: the exam the family sits next — the year after the newest admissions (2027 on the 2026 catalogue).
    patch.examYear = y ?? current?.examYear ?? (rules.zyType === 2 ? await groupYear(db, province) : (await requireCatalogue(db, province)).targetYear);
  }
  if (has(input, 'subjects') || !current) patch.subjects = validateSubjects(input.subjects, rules.subjectType).join(',');
  else if (patch.province) patch.subjects = validateSubjects(current.subjects, rules.subjectType).join(',');

  const scoreGiven = has(input, 'score');
  const rankGiven = has(input, 'rank') && input.rank != null && input.rank !== '';
  const score = scoreGiven ? validateScore(input.score) : (current?.score ?? null);
  const manualRank = rankGiven ? validateRank(input.rank) : null;
  const rankCleared = has(input, 'rank') && !rankGiven;
  if (scoreGiven) patch.score = score;
  if (manualRank != null) {
    if (score == null) throw fail('请先填写分数再填写位次');
    patch.rank = manualRank;
    patch.rankFlag = 'manual';
  } else if (scoreGiven || rankCleared || patch.province || !current || (patch.examYear != null && patch.examYear !== current.examYear)) {
    if (score == null) {
      patch.rank = null;
      patch.rankFlag = null;
    } else if (!current || score !== current.score || rankCleared || patch.province || current.rankFlag !== 'manual') {
      // 院校专业组 provinces: the track's own table, or the rank must be entered (groups/rank.ts).
      const found =
        rules.zyType === 2
          ? await groupRankFor(db, province, patch.subjects ?? current?.subjects ?? '', score)
          : rankOf(await requireCatalogue(db, province), score, patch.examYear ?? current?.examYear);
      patch.rank = found?.rank ?? null;
      patch.rankFlag = found?.flag ?? null;
    }
  }

  if (has(input, 'preferences')) {
    const p = (input.preferences ?? {}) as Record<string, unknown>;
    if (typeof p !== 'object' || Array.isArray(p)) throw fail('志愿偏好格式不正确');
    if (has(p, 'regions')) patch.preferRegions = JSON.stringify(strList(p.regions, '意向地区', 34, 20));
    if (has(p, 'levels')) {
      const levels = strList(p.levels, '院校层次偏好', LEVELS.length, 10);
      const bad = levels.find((l) => !(LEVELS as readonly string[]).includes(l));
      if (bad) throw fail(`院校层次偏好不正确：${bad}（可选：${LEVELS.join('、')}）`);
      patch.preferLevels = JSON.stringify(levels);
    }
    if (has(p, 'majors')) patch.preferMajors = JSON.stringify(strList(p.majors, '意向专业', 20, 20));
    if (has(p, 'tuitionCap')) {
      const t = p.tuitionCap;
      if (t == null || t === '') patch.tuitionCap = null;
      else {
        const n = Number(t);
        if (!Number.isInteger(n) || n < 0 || n > 200000) throw fail('学费上限必须在 0 到 200000 元之间');
        patch.tuitionCap = n;
      }
    }
  }
  if (has(input, 'specialEligibility')) patch.specialEligibility = JSON.stringify(validateEligibility(input.specialEligibility));
  if (has(input, 'remark')) {
    const r = input.remark == null ? '' : String(input.remark);
    if (r.length > 500) throw fail('备注不能超过 500 个字');
    patch.remark = r || null;
  }
  return patch;
}

/** 专项资格: known kinds only, no repeats, in the fixed order of ELIGIBILITY_KINDS. */
export function validateEligibility(v: unknown): string[] {
  const list = strList(v, '专项资格', ELIGIBILITY_KINDS.length, 10);
  const bad = list.find((k) => !isEligibilityKind(k));
  if (bad) throw fail(`专项资格不正确：${bad}（可选：${ELIGIBILITY_KINDS.join('、')}）`);
  return ELIGIBILITY_KINDS.filter((k) => list.includes(k));
}

/** Fields whose change alters the basis of a plan's probabilities. */
const BASIS: Array<keyof StudentPatch> = ['score', 'rank', 'subjects', 'province', 'examYear'];

/** The vol_student row of a new student (the form's 新增学生 and the Excel import alike). */
export function newStudentRow(patch: StudentPatch, ownerId: number | null, storeId: number, createBy: number, now: number) {
  return {
    name: patch.name as string,
    mobile: patch.mobile ?? null,
    province: patch.province ?? '山东',
    examYear: patch.examYear as number,
    score: patch.score ?? null,
    rank: patch.rank ?? null,
    rankFlag: patch.rankFlag ?? null,
    subjects: patch.subjects ?? '',
    preferRegions: patch.preferRegions ?? '[]',
    preferLevels: patch.preferLevels ?? '[]',
    preferMajors: patch.preferMajors ?? '[]',
    tuitionCap: patch.tuitionCap ?? null,
    ownerId,
    storeId,
    remark: patch.remark ?? null,
    specialEligibility: patch.specialEligibility ?? '[]',
    delFlag: '0',
    createBy,
    createTime: now,
    updateTime: now,
    version: 1,
  };
}

export async function createStudent(db: Db, actor: Actor, input: StudentInput) {
  const patch = await buildPatch(db, input, null);
  // An expert owns what they create; admin/leader pick an expert or leave the student unassigned (for distribution).
  let ownerId: number | null = actor.userId;
  const storeId = homeStore(actor);
  if (seesAll(actor)) {
    const o = intParam(input.ownerId);
    ownerId = o != null ? (await requireExpert(db, o, storeId)).userId : null;
  }
  const now = Date.now();
  const created = await db
    .insertInto('volStudent')
    .values(newStudentRow(patch, ownerId, storeId, actor.userId, now))
    .returning('studentId')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('volPlanAction')
    .values({
      studentId: created.studentId,
      planId: null,
      action: 'create',
      fromStatus: null,
      toStatus: null,
      version: null,
      userId: actor.userId,
      userName: actor.userName,
      comment: null,
      createTime: now,
    })
    .execute();
  return studentView(db, await loadStudent(db, actor, created.studentId));
}

export async function editStudent(db: Db, actor: Actor, input: StudentInput & { studentId?: unknown; version?: unknown }) {
  const current = await loadStudent(db, actor, input.studentId);
  const version = intParam(input.version);
  if (version == null) throw fail('缺少学生信息版本号（version），请刷新后再保存');
  if (version !== current.version) throw fail('学生信息已被他人修改，请刷新后再保存', 500, { currentVersion: current.version });
  const patch = await buildPatch(db, input, current);
  const touchesBasis = BASIS.some((k) => k in patch && patch[k] !== current[k as keyof StudentRow]);
  if (touchesBasis) {
    const plan = await loadPlan(db, current.studentId);
    if (plan?.status === 'submitted') throw fail('志愿方案审核中，不能修改考生成绩和选科，请先撤回');
    if (plan?.status === 'approved') throw fail('志愿方案已审批通过，不能修改考生成绩和选科');
  }
  if (seesAll(actor) && has(input, 'ownerId')) {
    const o = intParam(input.ownerId);
    patch.ownerId = o == null ? null : (await requireExpert(db, o, current.storeId)).userId;
  }
  const res = await db
    .updateTable('volStudent')
    .set({ ...patch, updateTime: Date.now(), version: current.version + 1 })
    .where('studentId', '=', current.studentId)
    .where('version', '=', current.version)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw fail('学生信息已被他人修改，请刷新后再保存');
  return studentView(db, await loadStudent(db, actor, current.studentId));
}

/**
 * An active user holding the expert role; with `storeId`, one of that store (an expert serves the students of their
 * own store; another store's expert answers as no expert at all).
 */
export async function requireExpert(db: Db, userId: number, storeId?: number): Promise<{ userId: number; nickName: string; storeId: number }> {
  let q = db
    .selectFrom('sysUser as u')
    .innerJoin('sysUserRole as ur', 'ur.userId', 'u.userId')
    .innerJoin('sysRole as r', 'r.roleId', 'ur.roleId')
    .select(['u.userId', 'u.nickName', 'u.storeId'])
    .where('u.userId', '=', userId)
    .where('u.delFlag', '=', '0')
    .where('u.status', '=', '0')
    .where('r.roleKey', '=', 'expert');
  if (storeId !== undefined) q = q.where('u.storeId', '=', storeId);
  const row = await q.executeTakeFirst();
  if (!row) throw fail('所选用户不是志愿专家');
  // An expert serves the students of their own store: one without a store serves none.
  if (row.storeId == null) throw fail('所选专家未分配门店，请先在用户管理中为其分配门店');
  return { ...row, storeId: row.storeId };
}
