import type { Selectable, Transaction } from 'kysely';
import type { PlanItem } from '../../common/volunteer/planItems.js';
import type { Database, VolPlanItemTable } from '../db/types.js';
import { ApiError, fail } from '../http/envelope.js';
import { getSettings } from '../system/index.js';
import { type Catalogue, ownershipOfLine, probabilityText, requireCatalogue, scoreStudent } from './catalogue.js';
import { type Actor, type Db, intParam, PLAN_STATUS_NAMES, parseSubjects, subjectNames, userNames } from './common.js';
import { refusalOf } from './eligibility.js';
import { checkGradient, type GradientWarning, type PlanEntry, type Tier } from './engine/index.js';
import { groupCurrent, groupItemRows, majorsOf } from './groups/plan.js';
import { type GroupRules, groupRules } from './groups/query.js';
import { loadPlan, loadStudent, type PlanRow, planSummary, type StudentRow, studentListRow } from './students.js';

export type ItemRow = Selectable<VolPlanItemTable>;

export const STALE_PLAN = '志愿方案已被他人修改，请刷新后再保存';

/** Why a stored plan line can no longer be filled: it left the catalogue (null while it is offered). */
export function staleReasonOf(cat: Catalogue, lineId: number): string | null {
  if (cat.byLineId.has(lineId)) return null;
  const old = cat.retired.get(lineId);
  return old
    ? `该志愿不在${cat.year}年招生目录中（最近一次招生为${old.year}年，已停招或更名），请替换`
    : `该志愿不在${cat.year}年招生目录中（已停招或更名），请替换`;
}

export function itemView(row: Omit<ItemRow, 'planId'>, cat: Catalogue | null): PlanItem {
  const idx = cat?.byLineId.get(row.lineId);
  const entry = idx != null ? cat?.entries[idx] : undefined;
  const school = entry ? entry.school : cat?.schools.get(row.schoolCode);
  const staleReason = cat && cat.rules.zyType !== 2 ? staleReasonOf(cat, row.lineId) : null;
  // An offered programme is shown as the catalogue year's line (a plan saved on last year's catalogue shows this year's
  // figures, and saving it again stores this year's line); a stale line keeps the figures and year it was saved with.
  const current = entry && cat?.rules.zyType !== 2 ? entry.years[0] : null;
  const yearOfLine = current?.year ?? cat?.retired.get(row.lineId)?.year ?? null;
  return {
    sort: row.sort,
    lineId: current?.lineId ?? row.lineId,
    schoolCode: row.schoolCode,
    schoolName: row.schoolName,
    majorName: row.majorName,
    groupCode: row.groupCode,
    province: school?.province ?? null,
    city: school?.city ?? null,
    tags: school?.tags ?? [],
    minScore: current ? current.minScore : row.minScore,
    minRank: current ? current.minRank : row.minRank,
    tier: (row.tier as Tier | null) ?? null,
    probability: row.probability,
    probabilityText: probabilityText(row.probability),
    obey: row.obey == null ? null : row.obey === 1,
    stale: staleReason != null,
    staleReason,
    year: yearOfLine,
    majorCode: entry?.majorCode ?? null,
    subjectReq: entry?.subjectReq ?? null,
    ownership: entry ? ownershipOfLine(entry.planTags, entry.school.ownership) : (school?.ownership ?? null),
  };
}

export async function loadItems(db: Db, planId: number): Promise<ItemRow[]> {
  return db.selectFrom('volPlanItem').selectAll().where('planId', '=', planId).orderBy('sort').execute();
}

export function warningsOf(items: Array<Pick<PlanItem, 'schoolCode' | 'schoolName' | 'groupCode' | 'majorName' | 'tier'>>, cat: Catalogue): GradientWarning[] {
  const plan: PlanEntry[] = items.map((i) => ({
    schoolCode: i.schoolCode,
    schoolName: i.schoolName,
    groupCode: i.groupCode,
    majorName: i.majorName,
    tier: i.tier,
  }));
  return checkGradient(plan, { slotLimit: cat.rules.slotLimit, groupMajorLimit: cat.rules.groupMajorLimit });
}

async function logAction(
  trx: Db | Transaction<Database>,
  actor: Actor,
  a: { studentId: number; planId: number | null; action: string; from: string | null; to: string | null; version: number | null; comment?: string | null },
  now: number,
) {
  await trx
    .insertInto('volPlanAction')
    .values({
      studentId: a.studentId,
      planId: a.planId,
      action: a.action,
      fromStatus: a.from,
      toStatus: a.to,
      version: a.version,
      userId: actor.userId,
      userName: actor.userName,
      comment: a.comment ?? null,
      createTime: now,
    })
    .execute();
}

export { logAction };

/** Status rules for editing (save, saveSort). */
function refuseEdit(status: string) {
  if (status === 'submitted') throw fail('志愿方案已提交审核，不能修改，如需修改请先撤回');
  if (status === 'approved') throw fail('志愿方案已审批通过，不能再修改');
}

function requireVersion(v: unknown): number {
  const n = intParam(v);
  if (n == null || n < 0) throw fail('缺少志愿方案版本号（version），请刷新后重试');
  return n;
}

export interface SaveInput {
  studentId?: unknown;
  version?: unknown;
  items?: unknown;
}

interface ResolvedItem {
  idx: number;
  obey: number | null;
}

function resolveItems(cat: Catalogue, raw: unknown): ResolvedItem[] {
  if (raw == null) throw fail('志愿列表不能为空（清空方案请传空数组）');
  if (!Array.isArray(raw)) throw fail('志愿列表格式不正确，应为数组');
  const limit = cat.rules.slotLimit;
  if (raw.length > limit) throw fail(`志愿数量超过上限：${cat.province}最多填报 ${limit} 个志愿，当前 ${raw.length} 个`);
  const seen = new Map<string, number>();
  const groupMode = cat.rules.zyType === 2;
  return raw.map((it, i) => {
    const lineId = intParam(typeof it === 'object' && it !== null ? (it as { lineId?: unknown }).lineId : it);
    const idx = lineId != null ? cat.byLineId.get(lineId) : undefined;
    const old = lineId != null ? cat.retired.get(lineId) : undefined;
    if (idx == null && old) {
      throw fail(
        `第${i + 1}个志愿（${old.schoolName} ${old.majorName ?? ''}）不在${cat.year}年招生目录中（最近一次招生为${old.year}年，已停招或更名），不能填报，请删除或替换`,
      );
    }
    if (idx == null) throw fail(`第${i + 1}个志愿不存在或不属于${cat.province}的招生数据（lineId ${lineId ?? '空'}）`);
    const e = cat.entries[idx];
    // One programme once: the identity across years (an old and a new name of one programme are one choice).
    const first = seen.get(e.key);
    if (first != null) throw fail(`第${i + 1}个志愿与第${first + 1}个志愿重复：${e.school.name} ${e.majorName ?? ''}`.trim());
    seen.set(e.key, i);
    const obeyRaw = typeof it === 'object' && it !== null ? (it as { obey?: unknown }).obey : undefined;
    const obey = groupMode ? (obeyRaw === true || obeyRaw === 1 || obeyRaw === '1' ? 1 : 0) : null;
    return { idx, obey };
  });
}

/** Resolved items the student may all fill (专项资格, 一段线, 选考科目); the first one they may not refuses the save. */
function eligibleItems(cat: Catalogue, student: StudentRow, raw: unknown): ResolvedItem[] {
  const items = resolveItems(cat, raw);
  for (const [n, it] of items.entries()) {
    const why = refusalOf(cat, it.idx, student, n + 1);
    if (why) throw fail(why);
  }
  return items;
}

/**
 * A submitted plan must still be one the student may fill: their subjects, score or 专项资格 may have changed since it
 * was saved, and a line may have left the admission data. The same rules as save, applied to the stored items; the
 * first item that fails refuses the submission (nothing changes) with what to fix.
 */
async function checkStillEligible(db: Db, student: StudentRow, planId: number): Promise<void> {
  const items = await loadItems(db, planId);
  const group = await groupRules(db, student.province);
  try {
    if (group) {
      await groupItemRows(
        db,
        group,
        student,
        items.map((it) => ({ lineId: it.lineId, majors: majorsOf(it.majorName), obey: it.obey === 1 })),
      );
      return;
    }
    const cat = await requireCatalogue(db, student.province);
    for (const [n, it] of items.entries()) {
      const idx = cat.byLineId.get(it.lineId);
      if (idx == null)
        throw fail(
          `第${n + 1}个志愿（${it.schoolName} ${it.majorName ?? ''}）不在${cat.year}年招生目录中（已停招或更名），请替换后再提交`.replace(' ）', '）'),
        );
      const why = refusalOf(cat, idx, student, n + 1);
      if (why) throw fail(why);
    }
  } catch (e) {
    if (e instanceof ApiError) throw fail(`${e.message}；请修改志愿方案并保存后再提交`, e.code, e.extra);
    throw e;
  }
}

/** Item rows (without planId) for resolved items, with tier and probability computed now for the student. */
function itemRows(cat: Catalogue, student: StudentRow, items: ResolvedItem[]): Array<Omit<ItemRow, 'planId'>> {
  const scored = scoreStudent(cat, student);
  return items.map(({ idx, obey }, i) => {
    const e = cat.entries[idx];
    const s = scored?.[idx] ?? null;
    return {
      sort: i + 1,
      lineId: e.lineId,
      schoolCode: e.school.schoolCode,
      schoolName: e.school.name,
      groupCode: e.groupCode,
      majorName: e.majorName,
      minScore: e.years[0].minScore,
      minRank: e.years[0].minRank,
      tier: s?.tier ?? null,
      probability: s?.probability ?? null,
      obey,
    };
  });
}

async function writeItems(trx: Transaction<Database>, planId: number, rows: Array<Omit<ItemRow, 'planId'>>) {
  await trx.deleteFrom('volPlanItem').where('planId', '=', planId).execute();
  for (let i = 0; i < rows.length; i += 200) {
    await trx
      .insertInto('volPlanItem')
      .values(rows.slice(i, i + 200).map((r) => ({ ...r, planId })))
      .execute();
  }
}

function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; message?: string };
  return err?.code === '23505' || /UNIQUE constraint failed/i.test(err?.message ?? '');
}

/**
 * Replaces the student's current plan with the given ordered items (the version must match; 0 when there is no plan
 * yet). Allowed on none / draft / rejected (a rejected plan becomes a draft again); refused on submitted / approved.
 * A stale version changes nothing and answers 志愿方案已被他人修改，请刷新后再保存.
 */
export async function savePlan(db: Db, actor: Actor, input: SaveInput) {
  const student = await loadStudent(db, actor, input.studentId);
  const version = requireVersion(input.version);
  // 院校专业组 provinces (湖北, 广东) check and score their items in groups/plan.ts; the others use the catalogue.
  const group = await groupRules(db, student.province);
  const cat = group ? null : await requireCatalogue(db, student.province);
  const existing = await loadPlan(db, student.studentId);
  if (existing) refuseEdit(existing.status);
  const rows = group
    ? await groupItemRows(db, group, student, input.items)
    : itemRows(cat as Catalogue, student, eligibleItems(cat as Catalogue, student, input.items));
  const now = Date.now();
  let plan: PlanRow;
  try {
    plan = await db.transaction().execute(async (trx) => {
      const cur = await trx.selectFrom('volPlan').selectAll().where('studentId', '=', student.studentId).executeTakeFirst();
      if (!cur) {
        if (version !== 0) throw fail(STALE_PLAN, 500, { currentVersion: 0 });
        const created = await trx
          .insertInto('volPlan')
          .values({
            studentId: student.studentId,
            status: 'draft',
            version: 1,
            itemCount: rows.length,
            createBy: actor.userId,
            createTime: now,
            updateBy: actor.userId,
            updateTime: now,
            submitBy: null,
            submitTime: null,
            reviewBy: null,
            reviewTime: null,
            reviewComment: null,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await writeItems(trx, created.planId, rows);
        await logAction(trx, actor, { studentId: student.studentId, planId: created.planId, action: 'save', from: null, to: 'draft', version: 1 }, now);
        return created;
      }
      refuseEdit(cur.status);
      if (cur.version !== version) throw fail(STALE_PLAN, 500, { currentVersion: cur.version });
      const res = await trx
        .updateTable('volPlan')
        .set({ status: 'draft', version: cur.version + 1, itemCount: rows.length, updateBy: actor.userId, updateTime: now })
        .where('planId', '=', cur.planId)
        .where('version', '=', version)
        .where('status', 'in', ['draft', 'rejected'])
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) throw fail(STALE_PLAN, 500, { currentVersion: cur.version });
      await writeItems(trx, cur.planId, rows);
      await logAction(
        trx,
        actor,
        { studentId: student.studentId, planId: cur.planId, action: 'save', from: cur.status, to: 'draft', version: cur.version + 1 },
        now,
      );
      return { ...cur, status: 'draft', version: cur.version + 1, itemCount: rows.length, updateBy: actor.userId, updateTime: now };
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw fail(STALE_PLAN, 500, { currentVersion: (await loadPlan(db, student.studentId))?.version ?? 0 });
    throw e;
  }
  const items = rows.map((r) => itemView(r, cat));
  return {
    planId: plan.planId,
    studentId: student.studentId,
    status: plan.status,
    statusName: PLAN_STATUS_NAMES[plan.status],
    version: plan.version,
    itemCount: items.length,
    items,
    warnings: cat ? warningsOf(items, cat) : [],
  };
}

/** Reorders the current items (a permutation of their line ids); same status and version rules as save. */
export async function sortPlan(db: Db, actor: Actor, input: { studentId?: unknown; version?: unknown; lineIds?: unknown }) {
  const student = await loadStudent(db, actor, input.studentId);
  const version = requireVersion(input.version);
  const cat = (await groupRules(db, student.province)) ? null : await requireCatalogue(db, student.province);
  const plan = await loadPlan(db, student.studentId);
  if (!plan) throw fail('该学生还没有志愿方案，请先保存');
  refuseEdit(plan.status);
  if (plan.version !== version) throw fail(STALE_PLAN, 500, { currentVersion: plan.version });
  if (!Array.isArray(input.lineIds)) throw fail('排序列表格式不正确，应为志愿的 lineId 数组');
  // Items are shown as their programme's catalogue line (itemView): either id of a programme names its stored item.
  const shown = (id: number) => {
    const idx = cat?.byLineId.get(id);
    return idx != null && cat ? cat.entries[idx].lineId : id;
  };
  const order = input.lineIds.map((x) => {
    const id = intParam(x);
    return id == null ? null : shown(id);
  });
  const current = await loadItems(db, plan.planId);
  const byLine = new Map(current.map((r) => [shown(r.lineId), r]));
  const mismatch = order.length !== current.length || new Set(order).size !== order.length || order.some((id) => id == null || !byLine.has(id));
  if (mismatch) throw fail('排序列表与当前志愿方案不一致，请刷新后重试');
  const rows = order.map((id, i) => {
    const { planId: _p, ...r } = byLine.get(id as number) as ItemRow;
    return { ...r, sort: i + 1 };
  });
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    const res = await trx
      .updateTable('volPlan')
      .set({ status: 'draft', version: plan.version + 1, updateBy: actor.userId, updateTime: now })
      .where('planId', '=', plan.planId)
      .where('version', '=', version)
      .where('status', 'in', ['draft', 'rejected'])
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw fail(STALE_PLAN, 500, { currentVersion: plan.version });
    await writeItems(trx, plan.planId, rows);
    await logAction(
      trx,
      actor,
      { studentId: student.studentId, planId: plan.planId, action: 'sort', from: plan.status, to: 'draft', version: plan.version + 1 },
      now,
    );
  });
  const items = rows.map((r) => itemView(r, cat));
  return {
    planId: plan.planId,
    studentId: student.studentId,
    status: 'draft',
    statusName: PLAN_STATUS_NAMES.draft,
    version: plan.version + 1,
    itemCount: items.length,
    items,
    warnings: cat ? warningsOf(items, cat) : [],
  };
}

export type TransitionAction = 'submit' | 'unsubmit' | 'approve' | 'reject';

const TRANSITIONS: Record<TransitionAction, { from: string; to: string; refused: Record<string, string> }> = {
  submit: {
    from: 'draft',
    to: 'submitted',
    refused: {
      none: '该学生还没有志愿方案，请先保存',
      submitted: '志愿方案已提交，请等待审核',
      approved: '志愿方案已审批通过，不能重复提交',
      rejected: '志愿方案已被驳回，请按审批意见修改并保存后再提交',
    },
  },
  unsubmit: {
    from: 'submitted',
    to: 'draft',
    refused: {
      none: '志愿方案尚未提交，无需撤回',
      draft: '志愿方案尚未提交，无需撤回',
      approved: '志愿方案已审批通过，不能撤回',
      rejected: '志愿方案已被驳回，无需撤回，修改保存后即为草稿',
    },
  },
  approve: {
    from: 'submitted',
    to: 'approved',
    refused: {
      none: '该学生还没有志愿方案',
      draft: '志愿方案尚未提交，不能审批',
      approved: '志愿方案已审批通过，请勿重复操作',
      rejected: '志愿方案已被驳回，不能审批',
    },
  },
  reject: {
    from: 'submitted',
    to: 'rejected',
    refused: {
      none: '该学生还没有志愿方案',
      draft: '志愿方案尚未提交，不能驳回',
      approved: '志愿方案已审批通过，不能驳回',
      rejected: '志愿方案已被驳回，请勿重复操作',
    },
  },
};

const SUBMISSION_RESULT: Record<Exclude<TransitionAction, 'submit'>, string> = { unsubmit: 'withdrawn', approve: 'approved', reject: 'rejected' };
/** History comment of a submission approved without review (审核配置: 志愿提交需要审核 off). */
export const AUTO_APPROVED = '无需审核，已自动通过';
const OK_MESSAGES: Record<TransitionAction, string> = { submit: '提交成功', unsubmit: '撤回成功', approve: '审批通过', reject: '已驳回' };

/**
 * A plan status transition (submit, unsubmit, approve, reject): checked against the rules table, the caller's role
 * (approve/reject: admin or a reviewer role of 审核配置) and the plan version; recorded in the action log and the submission history.
 * Anything illegal is refused with a Chinese message and changes nothing.
 */
export async function transition(db: Db, actor: Actor, action: TransitionAction, input: { studentId?: unknown; version?: unknown; comment?: unknown }) {
  // 审核配置 (system settings): who reviews, whether a rejection needs a comment, whether a submission needs review.
  const audit = await getSettings(db, 'audit');
  // Without review a submission is approved at once (recorded as such in the history).
  const rule = action === 'submit' && !audit.submitNeedsReview ? { ...TRANSITIONS.submit, to: 'approved' } : TRANSITIONS[action];
  const student = await loadStudent(db, actor, input.studentId);
  if ((action === 'approve' || action === 'reject') && !actor.roles.includes('admin') && !actor.roles.some((r) => audit.reviewerRoleKeys.includes(r))) {
    throw fail('只有审核配置中的审核人角色或管理员可以审批志愿方案');
  }
  const comment = input.comment == null ? '' : String(input.comment).trim();
  if (comment.length > 500) throw fail('审批意见不能超过 500 个字');
  if (action === 'reject' && !comment && audit.rejectNeedsComment) throw fail('请填写驳回意见');
  const plan = await loadPlan(db, student.studentId);
  const status = plan?.status ?? 'none';
  if (status !== rule.from || !plan) throw fail(rule.refused[status] ?? `当前状态（${PLAN_STATUS_NAMES[status] ?? status}）不能执行该操作`);
  const version = requireVersion(input.version);
  if (plan.version !== version) throw fail(STALE_PLAN.replace('再保存', '再操作'), 500, { currentVersion: plan.version });
  if (action === 'submit' && plan.itemCount === 0) throw fail('志愿方案为空，不能提交');
  if (action === 'submit') await checkStillEligible(db, student, plan.planId);
  const now = Date.now();
  const next = plan.version + 1;
  const result = await db.transaction().execute(async (trx) => {
    const set: Partial<PlanRow> = { status: rule.to, version: next, updateBy: actor.userId, updateTime: now };
    if (action === 'submit') Object.assign(set, { submitBy: actor.userId, submitTime: now, reviewBy: null, reviewTime: null, reviewComment: null });
    if (action === 'approve' || action === 'reject') Object.assign(set, { reviewBy: actor.userId, reviewTime: now, reviewComment: comment || null });
    const res = await trx
      .updateTable('volPlan')
      .set(set)
      .where('planId', '=', plan.planId)
      .where('version', '=', version)
      .where('status', '=', rule.from)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw fail(STALE_PLAN.replace('再保存', '再操作'), 500, { currentVersion: plan.version });
    let submissionId: number | null = null;
    if (action === 'submit') {
      const items = (await trx.selectFrom('volPlanItem').selectAll().where('planId', '=', plan.planId).orderBy('sort').execute()).map(
        ({ planId: _p, ...r }) => r,
      );
      const sub = await trx
        .insertInto('volPlanSubmission')
        .values({
          planId: plan.planId,
          studentId: student.studentId,
          planVersion: next,
          itemCount: items.length,
          items: JSON.stringify(items),
          status: rule.to === 'approved' ? 'approved' : 'submitted',
          submitBy: actor.userId,
          submitTime: now,
          reviewBy: null,
          reviewTime: rule.to === 'approved' ? now : null,
          comment: rule.to === 'approved' ? AUTO_APPROVED : null,
        })
        .returning('submissionId')
        .executeTakeFirstOrThrow();
      submissionId = sub.submissionId;
    } else {
      const open = await trx
        .selectFrom('volPlanSubmission')
        .select('submissionId')
        .where('planId', '=', plan.planId)
        .where('status', '=', 'submitted')
        .orderBy('submissionId', 'desc')
        .executeTakeFirst();
      if (open) {
        submissionId = open.submissionId;
        await trx
          .updateTable('volPlanSubmission')
          .set({ status: SUBMISSION_RESULT[action], reviewBy: actor.userId, reviewTime: now, comment: comment || null })
          .where('submissionId', '=', open.submissionId)
          .execute();
      }
    }
    await logAction(
      trx,
      actor,
      { studentId: student.studentId, planId: plan.planId, action, from: rule.from, to: rule.to, version: next, comment: comment || null },
      now,
    );
    return { submissionId };
  });
  return {
    msg: rule.to === 'approved' && action === 'submit' ? `提交成功，${AUTO_APPROVED}` : OK_MESSAGES[action],
    data: { planId: plan.planId, studentId: student.studentId, status: rule.to, statusName: PLAN_STATUS_NAMES[rule.to], version: next, ...result },
  };
}

/** zyInfo: the current plan with items (and their probabilities recomputed now). */
export async function planInfo(db: Db, actor: Actor, studentId: unknown) {
  const student = await loadStudent(db, actor, studentId);
  const group = await groupRules(db, student.province);
  if (group) return groupPlanInfo(db, student, group);
  const cat = await requireCatalogue(db, student.province);
  const plan = await loadPlan(db, student.studentId);
  const names = await userNames(db, [student.ownerId, plan?.reviewBy]);
  const rows = plan ? await loadItems(db, plan.planId) : [];
  const scored = rows.length ? scoreStudent(cat, student) : null;
  const items = rows.map((r) => {
    const idx = cat.byLineId.get(r.lineId);
    const now = idx != null ? scored?.[idx] : undefined;
    return {
      ...itemView(r, cat),
      currentTier: now?.tier ?? null,
      currentProbability: now?.probability ?? null,
      currentProbabilityText: probabilityText(now?.probability ?? null),
    };
  });
  return {
    student: studentListRow(student, plan, student.ownerId != null ? (names.get(student.ownerId) ?? null) : null),
    plan: planSummary(plan, names),
    items,
    warnings: warningsOf(items, cat),
    slotLimit: cat.rules.slotLimit,
  };
}

/** zyInfo of a 院校专业组 province: items with their majors, 服从调剂 and the group probability recomputed now. */
async function groupPlanInfo(db: Db, student: StudentRow, rules: GroupRules) {
  const plan = await loadPlan(db, student.studentId);
  const names = await userNames(db, [student.ownerId, plan?.reviewBy]);
  const rows = plan ? await loadItems(db, plan.planId) : [];
  const { byLine } = rows.length ? await groupCurrent(db, student) : { byLine: new Map() };
  const items = rows.map((r) => {
    const now = byLine.get(r.lineId);
    return {
      ...itemView(r, null),
      majors: majorsOf(r.majorName),
      currentTier: now?.tier ?? null,
      currentProbability: now?.probability ?? null,
      currentProbabilityText: probabilityText(now?.probability ?? null),
    };
  });
  return {
    student: studentListRow(student, plan, student.ownerId != null ? (names.get(student.ownerId) ?? null) : null),
    plan: planSummary(plan, names),
    items,
    warnings: [] as GradientWarning[],
    slotLimit: rules.slotLimit,
    groupMajorLimit: rules.groupMajorLimit,
  };
}

/** The student header of exports and shares. */
export function studentHeader(s: StudentRow) {
  const subjects = parseSubjects(s.subjects);
  return { name: s.name, province: s.province, examYear: s.examYear, score: s.score, rank: s.rank, subjects, subjectNames: subjectNames(subjects) };
}
