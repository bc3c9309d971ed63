import crypto from 'node:crypto';
import { fail } from '../http/envelope.js';
import { requireCatalogue } from './catalogue.js';
import { choiceSheet, studentRankText } from './choiceSheet.js';
import { type Actor, type Db, intParam, PLAN_STATUS_NAMES } from './common.js';
import { itemView, loadItems, logAction, studentHeader } from './plans.js';
import { loadPlan, loadStudent } from './students.js';

const hash = (token: string) => crypto.createHash('sha256').update(token).digest('hex');
const HOUR = 3600 * 1000;

/**
 * A read-only link to a student's plan. Only the token's SHA-256 is stored, so the token is shown once; shareZY
 * adds a link, shareZYNew (revokeOthers) cancels the student's earlier links first.
 */
export async function createShare(db: Db, actor: Actor, input: { studentId?: unknown; expireHours?: unknown }, revokeOthers: boolean) {
  const student = await loadStudent(db, actor, input.studentId);
  const plan = await loadPlan(db, student.studentId);
  if (!plan) throw fail('该学生还没有志愿方案，无法分享');
  const hours = input.expireHours == null || input.expireHours === '' ? 72 : intParam(input.expireHours);
  if (hours == null || hours < 1 || hours > 720) throw fail('有效期必须在 1 到 720 小时之间');
  const token = crypto.randomBytes(24).toString('base64url');
  const now = Date.now();
  const expireTime = now + hours * HOUR;
  await db.transaction().execute(async (trx) => {
    if (revokeOthers) await trx.updateTable('volShare').set({ revoked: 1 }).where('studentId', '=', student.studentId).where('revoked', '=', 0).execute();
    await trx
      .insertInto('volShare')
      .values({ tokenHash: hash(token), studentId: student.studentId, createBy: actor.userId, createTime: now, expireTime, revoked: 0 })
      .execute();
    await logAction(
      trx,
      actor,
      {
        studentId: student.studentId,
        planId: plan.planId,
        action: 'share',
        from: plan.status,
        to: plan.status,
        version: plan.version,
        comment: `只读分享，有效期 ${hours} 小时${revokeOthers ? '（已取消之前的分享链接）' : ''}`,
      },
      now,
    );
  });
  return { token, url: `/share/zy?token=${encodeURIComponent(token)}`, expireTime, expireHours: hours, readOnly: true };
}

/** Public: the plan behind a share token, as it is now. Never shows mobile numbers. */
export async function shareInfo(db: Db, token: unknown, now = Date.now()) {
  const t = typeof token === 'string' ? token.trim() : '';
  if (!t || t.length > 100) throw fail('分享链接无效或已被取消');
  const share = await db.selectFrom('volShare').selectAll().where('tokenHash', '=', hash(t)).executeTakeFirst();
  if (!share || share.revoked) throw fail('分享链接无效或已被取消');
  if (share.expireTime <= now) throw fail('分享链接已过期，请联系专家重新分享');
  const student = await db.selectFrom('volStudent').selectAll().where('studentId', '=', share.studentId).where('delFlag', '=', '0').executeTakeFirst();
  if (!student) throw fail('分享链接无效或已被取消');
  const plan = await loadPlan(db, student.studentId);
  if (!plan) throw fail('分享链接无效或已被取消');
  const cat = await requireCatalogue(db, student.province);
  const items = (await loadItems(db, plan.planId)).map((r) => itemView(r, cat));
  // What the family types into the official system, every figure with its year (choiceSheet.ts).
  const sheet = await choiceSheet(db, student, items);
  return {
    readOnly: true,
    expireTime: share.expireTime,
    student: { ...studentHeader(student), rankText: studentRankText(student.rank, sheet.rankYear, student.rankFlag) },
    plan: { status: plan.status, statusName: PLAN_STATUS_NAMES[plan.status], version: plan.version, itemCount: plan.itemCount, updateTime: plan.updateTime },
    /** The exam year the family fills (the catalogue year + 1). */
    targetYear: sheet.targetYear,
    /** The year of the catalogue the 院校代码 / 专业代号 are from. */
    catalogueYear: sheet.catalogueYear,
    rankYear: sheet.rankYear,
    items,
    /** The items as the share page prints them: codes, rules, figures with their years, estimates, 失效. */
    choices: sheet.items,
  };
}
