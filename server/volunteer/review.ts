import { storeNames } from '../customer/index.js';
import { fail } from '../http/envelope.js';
import { contains } from '../http/like.js';
import { requireCatalogue } from './catalogue.js';
import { cautionRisks } from './cautions.js';
import { choiceSheet } from './choiceSheet.js';
import { ACTION_NAMES, type Actor, confinedStore, type Db, intParam, PLAN_STATUS_NAMES, paging, seesAll, userNames } from './common.js';
import { TIERS, type Tier } from './engine/index.js';
import { type PlanSimulationView, simulateStudentPlan } from './planSimulation.js';
import { type ItemRow, itemView, logAction, planInfo, warningsOf } from './plans.js';
import { loadPlan, loadStudent, requireExpert, studentListRow } from './students.js';

/** Submission history, newest first, each with its item snapshot. */
export async function submissionHistory(db: Db, actor: Actor, studentId: unknown) {
  const student = await loadStudent(db, actor, studentId);
  const cat = await requireCatalogue(db, student.province);
  const subs = await db.selectFrom('volPlanSubmission').selectAll().where('studentId', '=', student.studentId).orderBy('submissionId', 'desc').execute();
  const names = await userNames(
    db,
    subs.flatMap((s) => [s.submitBy, s.reviewBy]),
  );
  return subs.map((s) => ({
    submissionId: s.submissionId,
    planId: s.planId,
    planVersion: s.planVersion,
    itemCount: s.itemCount,
    status: s.status,
    statusName: PLAN_STATUS_NAMES[s.status] ?? s.status,
    submitBy: s.submitBy,
    submitByName: names.get(s.submitBy) ?? null,
    submitTime: s.submitTime,
    reviewBy: s.reviewBy,
    reviewByName: s.reviewBy != null ? (names.get(s.reviewBy) ?? null) : null,
    reviewTime: s.reviewTime,
    comment: s.comment,
    items: (JSON.parse(s.items) as Array<Omit<ItemRow, 'planId'>>).map((r) => itemView(r, cat)),
  }));
}

/** Every action on a student's plan, oldest first. */
export async function actionHistory(db: Db, actor: Actor, studentId: unknown) {
  const student = await loadStudent(db, actor, studentId);
  const rows = await db.selectFrom('volPlanAction').selectAll().where('studentId', '=', student.studentId).orderBy('actionId').execute();
  const names = await userNames(
    db,
    rows.map((r) => r.userId),
  );
  return rows.map((r) => ({
    actionId: r.actionId,
    planId: r.planId,
    action: r.action,
    actionName: ACTION_NAMES[r.action] ?? r.action,
    fromStatus: r.fromStatus,
    toStatus: r.toStatus,
    version: r.version,
    userId: r.userId,
    userName: r.userName,
    nickName: names.get(r.userId) ?? r.userName,
    comment: r.comment,
    createTime: r.createTime,
  }));
}

/** Examine: plans by status (default: awaiting review). Leader/admin see all, others their own students. */
export async function examineList(db: Db, actor: Actor, f: Record<string, unknown>) {
  const { pageSize, offset } = paging(f);
  const status = typeof f.status === 'string' && f.status ? f.status : 'submitted';
  if (status !== 'all' && !['draft', 'submitted', 'approved', 'rejected'].includes(status)) throw fail('方案状态不正确');
  let q = db.selectFrom('volPlan as p').innerJoin('volStudent as s', 's.studentId', 'p.studentId').where('s.delFlag', '=', '0');
  if (status !== 'all') q = q.where('p.status', '=', status);
  const store = confinedStore(actor);
  if (store !== undefined) q = q.where('s.storeId', '=', store);
  if (!seesAll(actor)) q = q.where('s.ownerId', '=', actor.userId);
  const owner = intParam(f.ownerId);
  if (owner != null) q = q.where('s.ownerId', '=', owner);
  // `studentName` is the search field of 志愿审核's schema (schemas/volunteer/vol_examine.json); `name` the older one.
  const rawName = typeof f.studentName === 'string' && f.studentName ? f.studentName : f.name;
  const name = typeof rawName === 'string' ? rawName.trim() : '';
  if (name) q = q.where(contains('s.name', name));
  const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
  const rows = await q
    .select([
      'p.planId',
      'p.studentId',
      'p.status',
      'p.version',
      'p.itemCount',
      'p.submitTime',
      'p.submitBy',
      'p.reviewTime',
      'p.reviewBy',
      'p.reviewComment',
      's.name as studentName',
      's.score',
      's.rank',
      's.ownerId',
    ])
    .orderBy('p.submitTime', 'desc')
    .orderBy('p.planId', 'desc')
    .limit(pageSize)
    .offset(offset)
    .execute();
  const ids = rows.map((r) => r.planId);
  const tierRows = ids.length
    ? await db
        .selectFrom('volPlanItem')
        .select(['planId', 'tier', (eb) => eb.fn.countAll().as('n')])
        .where('planId', 'in', ids)
        .groupBy(['planId', 'tier'])
        .execute()
    : [];
  const names = await userNames(
    db,
    rows.flatMap((r) => [r.ownerId, r.submitBy, r.reviewBy]),
  );
  return {
    rows: rows.map((r) => {
      const tierCounts: Record<Tier | 'none', number> = { 冲: 0, 稳: 0, 保: 0, none: 0 };
      for (const t of tierRows) if (t.planId === r.planId) tierCounts[(t.tier as Tier) ?? 'none'] += Number(t.n);
      return {
        planId: r.planId,
        studentId: r.studentId,
        studentName: r.studentName,
        score: r.score,
        rank: r.rank,
        ownerId: r.ownerId,
        ownerName: r.ownerId != null ? (names.get(r.ownerId) ?? null) : null,
        status: r.status,
        statusName: PLAN_STATUS_NAMES[r.status],
        version: r.version,
        itemCount: r.itemCount,
        tierCounts,
        submitTime: r.submitTime,
        submitByName: r.submitBy != null ? (names.get(r.submitBy) ?? null) : null,
        reviewTime: r.reviewTime,
        reviewByName: r.reviewBy != null ? (names.get(r.reviewBy) ?? null) : null,
        reviewComment: r.reviewComment,
      };
    }),
    total,
  };
}

/** The approved plan: the snapshot that was approved. */
export async function finalPlan(db: Db, actor: Actor, studentId: unknown) {
  const student = await loadStudent(db, actor, studentId);
  const cat = await requireCatalogue(db, student.province);
  const sub = await db
    .selectFrom('volPlanSubmission')
    .selectAll()
    .where('studentId', '=', student.studentId)
    .where('status', '=', 'approved')
    .orderBy('submissionId', 'desc')
    .executeTakeFirst();
  if (!sub) throw fail('该学生暂无审批通过的志愿方案');
  const names = await userNames(db, [sub.reviewBy, student.ownerId]);
  const items = (JSON.parse(sub.items) as Array<Omit<ItemRow, 'planId'>>).map((r) => itemView(r, cat));
  return {
    student: studentListRow(student, await loadPlan(db, student.studentId), student.ownerId != null ? (names.get(student.ownerId) ?? null) : null),
    submissionId: sub.submissionId,
    planVersion: sub.planVersion,
    approvedAt: sub.reviewTime,
    approvedBy: sub.reviewBy,
    approvedByName: sub.reviewBy != null ? (names.get(sub.reviewBy) ?? null) : null,
    comment: sub.comment,
    items,
    warnings: warningsOf(items, cat),
  };
}

/**
 * The saved plan simulated for its student (planSimulation.ts): null for a 院校专业组 province (its items carry 服从调剂
 * and are simulated by the group module, not here), an empty plan, or a student the model cannot rank. Shared by the
 * plan report and the PDF / Excel exports so that both print the same figures.
 */
export async function savedPlanSimulation(
  db: Db,
  actor: Actor,
  studentId: unknown,
  items: ReadonlyArray<{ sort: number; lineId: number; tier: Tier | null; currentTier: Tier | null; obey: boolean | null }>,
): Promise<PlanSimulationView | null> {
  if (items.length === 0 || items.some((it) => it.obey != null)) return null;
  // The stored row (planInfo's student is the list view): its rank flag and exam year decide the rank.
  const student = await loadStudent(db, actor, studentId);
  const cat = await requireCatalogue(db, student.province);
  return simulateStudentPlan(
    cat,
    student,
    items.map((it) => ({ sort: it.sort, lineId: it.lineId, tier: it.currentTier ?? it.tier })),
  );
}

/**
 * The plan report: tier distribution, probabilities, what changed since saving, gradient warnings, 失效 choices and
 * the per-line cautions (cautions.ts, one line per kind) as risks, the whole plan simulated, and the choices with every
 * line figure beside its year and their cautions (choiceSheet.ts). `year` is the catalogue year the
 * figures and codes are from, `targetYear` the exam year the estimates are for.
 */
export async function planReport(db: Db, actor: Actor, studentId: unknown) {
  const info = await planInfo(db, actor, studentId);
  if (!info.plan) throw fail('该学生还没有志愿方案');
  const sheet = await choiceSheet(db, info.student, info.items);
  const dist: Record<Tier | 'none', number> = { 冲: 0, 稳: 0, 保: 0, none: 0 };
  const probs: number[] = [];
  const staleLines = new Set(sheet.items.filter((i) => i.stale).map((i) => i.lineId));
  for (const it of info.items) {
    dist[it.tier ?? 'none']++;
    // A 失效 choice cannot be filled: its saved probability says nothing about the exam year.
    if (it.probability != null && !staleLines.has(it.lineId)) probs.push(it.probability);
  }
  const n = info.items.length;
  const share = Object.fromEntries(TIERS.map((t) => [t, n ? Math.round((dist[t] / n) * 1000) / 1000 : 0])) as Record<Tier, number>;
  const changed = info.items
    .filter((it) => it.tier !== it.currentTier)
    .map((it) => ({ sort: it.sort, lineId: it.lineId, schoolName: it.schoolName, majorName: it.majorName, savedTier: it.tier, currentTier: it.currentTier }));
  const stale = sheet.items.filter((i) => i.stale);
  const risks = info.warnings.map((w) => w.message);
  for (const i of stale)
    risks.push(`第${i.sort}个志愿（${[i.schoolName, i.majorName].filter(Boolean).join(' ')}）已失效：${i.staleReason ?? '不在招生目录中，请替换'}`);
  if (n > 0 && n < info.slotLimit) risks.push(`只填了 ${n} 个志愿（上限 ${info.slotLimit} 个），志愿数量偏少会增加滑档风险`);
  if (changed.length) risks.push(`${changed.length} 个志愿的梯度与保存时不同（考生成绩或位次已变化），建议重新保存方案`);
  if (info.student.score == null) risks.push('考生尚未填写分数，无法计算录取概率');
  // The whole plan simulated (issue 24): where the student lands, not only each line's own chance.
  const simulation = await savedPlanSimulation(db, actor, studentId, info.items);
  if (simulation && simulation.slide >= 0.01) {
    risks.push(`模拟${simulation.year}年平行投档，滑档概率 ${(simulation.slide * 100).toFixed(1)}%：建议在方案末尾增加更稳妥的保底志愿`);
  }
  if (simulation && simulation.byTier.冲 >= 0.8) {
    risks.push(
      `模拟中 ${(simulation.byTier.冲 * 100).toFixed(1)}% 的年份录取落在冲刺志愿，稳、保志愿大多用不上：请确认冲刺志愿都是考生愿意去的，并把更想去的院校排在前面`,
    );
  }
  const idleChoices = simulation ? simulation.choices.filter((c) => c.idle).length : 0;
  if (idleChoices >= 10) risks.push(`${idleChoices} 个志愿在模拟中几乎不会被投档或录取：可以换成考生更想去、录取机会更合适的院校专业`);
  // One line per kind of caution (位次波动大, 仅招 1–2 人, fee, 军队/公安, 选科要求未知) with the choices it concerns.
  risks.push(...cautionRisks(sheet.items));
  const mean = probs.length ? probs.reduce((a, b) => a + b, 0) / probs.length : null;
  const summary =
    n === 0
      ? '方案为空'
      : `${sheet.targetYear}年高考，共 ${n} 个志愿：冲 ${dist.冲} 个、稳 ${dist.稳} 个、保 ${dist.保} 个${dist.none ? `、无法估计 ${dist.none} 个` : ''}${
          stale.length ? `，其中 ${stale.length} 个已失效` : ''
        }；${simulation ? `${simulation.text}；` : ''}${risks.length ? `发现 ${risks.length} 项风险` : simulation ? '未发现其他风险' : '梯度合理，未发现明显风险'}`;
  const detail = new Map(sheet.items.map((d) => [d.sort, d]));
  const items = info.items.map((it) => {
    const d = detail.get(it.sort);
    const figure = d?.figures[0];
    const sim = simulation?.choices.find((c) => c.sort === it.sort);
    return {
      ...it,
      /** Share of the simulated years the student lands at this choice, and why it is idle (null: not simulated). */
      landing: sim?.simulated ? sim.landing : null,
      idleReason: sim?.idle ?? null,
      // The figures beside their year: the catalogue year's line (the line's own year for a 失效 choice).
      year: d?.year ?? null,
      minScore: figure ? figure.minScore : it.minScore,
      minRank: figure ? figure.minRank : it.minRank,
      figureText: figure?.text ?? null,
      figures: d?.figures ?? [],
      majorCode: d?.majorCode ?? null,
      subjectReq: d?.subjectReq ?? null,
      subjectText: d?.subjectText ?? null,
      ownership: d?.ownership ?? null,
      feeNote: d?.feeNote ?? null,
      targetYear: sheet.targetYear,
      estimatedRank: d?.estimatedRank ?? null,
      estimateText: d?.estimateText ?? null,
      stale: d?.stale ?? false,
      staleReason: d?.staleReason ?? null,
      /** What to know before filling it (cautions.ts); [] for an ordinary or 失效 choice. */
      cautions: d?.cautions ?? [],
    };
  });
  return {
    student: info.student,
    plan: info.plan,
    /** The catalogue year (院校代码, 专业代号 and line figures). */
    year: sheet.catalogueYear,
    /** The exam year the family fills; probabilities are estimates for it. */
    targetYear: sheet.targetYear,
    /** The 一分一段 table year the student's rank is in. */
    rankYear: sheet.rankYear,
    tierDistribution: dist,
    tierShare: share,
    probability: { year: sheet.targetYear, min: probs.length ? Math.min(...probs) : null, max: probs.length ? Math.max(...probs) : null, mean },
    changedSinceSave: changed,
    warnings: info.warnings,
    risks,
    summary,
    simulation,
    items,
  };
}

/**
 * Leader: experts (of the leader's store, or all for headquarters) with their student counts by plan status.
 * `storeId` narrows headquarters' list to one store (开卡 offers only experts of the customer's store).
 */
export async function expertList(db: Db, actor: Actor, f: { storeId?: unknown } = {}) {
  const wanted = intParam(f.storeId);
  const store = confinedStore(actor) ?? wanted;
  let expertQuery = db
    .selectFrom('sysUser as u')
    .innerJoin('sysUserRole as ur', 'ur.userId', 'u.userId')
    .innerJoin('sysRole as r', 'r.roleId', 'ur.roleId')
    .select(['u.userId', 'u.userName', 'u.nickName', 'u.mobile', 'u.storeId'])
    .where('r.roleKey', '=', 'expert')
    .where('u.delFlag', '=', '0')
    .where('u.status', '=', '0')
    .orderBy('u.userId');
  if (store !== undefined) expertQuery = expertQuery.where('u.storeId', '=', store);
  const experts = await expertQuery.execute();
  let countQuery = db
    .selectFrom('volStudent as s')
    .leftJoin('volPlan as p', 'p.studentId', 's.studentId')
    .select(['s.ownerId', 'p.status', (eb) => eb.fn.countAll().as('n')])
    .where('s.delFlag', '=', '0')
    .groupBy(['s.ownerId', 'p.status']);
  if (store !== undefined) countQuery = countQuery.where('s.storeId', '=', store);
  const counts = await countQuery.execute();
  const stores = await storeNames(
    db,
    experts.map((e) => e.storeId),
  );
  return experts.map((e) => {
    const mine = counts.filter((c) => c.ownerId === e.userId);
    const by = (st: string) => mine.filter((c) => c.status === st).reduce((a, c) => a + Number(c.n), 0);
    return {
      ...e,
      storeName: e.storeId == null ? null : (stores.get(e.storeId) ?? null),
      studentCount: mine.reduce((a, c) => a + Number(c.n), 0),
      draftCount: by('draft'),
      submittedCount: by('submitted'),
      approvedCount: by('approved'),
      rejectedCount: by('rejected'),
    };
  });
}

/** Leader: hand students to an expert (all or nothing), logged per student. */
export async function distribute(db: Db, actor: Actor, input: { studentIds?: unknown; expertId?: unknown }) {
  const ids = Array.isArray(input.studentIds) ? input.studentIds.map((x) => intParam(x)) : [];
  if (ids.length === 0) throw fail('请选择要分配的学生');
  if (ids.length > 500) throw fail('一次最多分配 500 名学生');
  const bad = ids.find((i) => i == null || i <= 0);
  if (bad !== undefined) throw fail('学生编号不正确');
  const expertId = intParam(input.expertId);
  if (expertId == null) throw fail('请选择专家');
  const store = confinedStore(actor);
  const expert = await requireExpert(db, expertId, store);
  const unique = [...new Set(ids as number[])];
  let foundQuery = db.selectFrom('volStudent').select(['studentId', 'ownerId', 'storeId', 'name']).where('studentId', 'in', unique).where('delFlag', '=', '0');
  // Another store's student answers as if it did not exist.
  if (store !== undefined) foundQuery = foundQuery.where('storeId', '=', store);
  const found = await foundQuery.execute();
  const missing = unique.find((i) => !found.some((f) => f.studentId === i));
  if (missing !== undefined) throw fail(`学生不存在：${missing}`);
  // An expert serves the students of their own store (headquarters hands an agency's students to that agency's experts).
  const foreign = found.find((f) => f.storeId !== expert.storeId);
  if (foreign) throw fail(`学生"${foreign.name}"与所选专家不属于同一门店`);
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('volStudent')
      .set((eb) => ({ ownerId: expert.userId, updateTime: now, version: eb('version', '+', 1) }))
      .where('studentId', 'in', unique)
      .execute();
    for (const s of found) {
      const plan = await trx.selectFrom('volPlan').select(['planId', 'status', 'version']).where('studentId', '=', s.studentId).executeTakeFirst();
      await logAction(
        trx,
        actor,
        {
          studentId: s.studentId,
          planId: plan?.planId ?? null,
          action: 'assign',
          from: plan?.status ?? null,
          to: plan?.status ?? null,
          version: plan?.version ?? null,
          comment: `分配给 ${expert.nickName}`,
        },
        now,
      );
    }
  });
  return { count: unique.length, expertId: expert.userId, expertName: expert.nickName };
}
