import { sql } from 'kysely';
import type { Db } from '../db/types.js';
import { listInvoices, listWithdrawals, storeFilter } from '../finance/index.js';
import type { Actor } from '../security/actor.js';
import { NO_STORE_ROWS } from '../security/storeScope.js';
import { pendingWorkOrderCount } from '../service/index.js';
import { dueMemoCount } from '../system/index.js';
import { examineList, listAppointments, type VolunteerActor } from '../volunteer/index.js';

/**
 * Where the home page's numbers come from: one small reader per source, so a module that is absent or changes is one
 * function here (docs/home.md). The to-do counts call the very list functions the linked screens call, with the
 * same filter, so a count always equals the total of the list it opens.
 */

const volunteerActor = (a: Actor): VolunteerActor => ({ userId: a.userId, userName: a.userName, roles: a.roles, storeId: a.storeId, allStores: a.allStores });

/** 志愿审核's default list: plans submitted and waiting for review. */
export async function plansAwaitingReview(db: Db, actor: Actor): Promise<number> {
  return (await examineList(db, volunteerActor(actor), { status: 'submitted', pageNum: 1, pageSize: 1 })).total;
}

/** 预约管理 filtered to today's appointments still to be served. */
export async function appointmentsToday(db: Db, actor: Actor, dayFrom: number, dayTo: number): Promise<number> {
  const q = { status: 'pending', dateFrom: dayFrom, dateTo: dayTo, pageNum: 1, pageSize: 1 };
  return (await listAppointments(db, volunteerActor(actor), q)).total;
}

/** 工单 waiting for the actor (server/service/workOrders.ts). */
export const workOrdersPending = (db: Db, actor: Actor) => pendingWorkOrderCount(db, actor);

/** Finance's store filter, except that an account without a store counts nothing (the home page must not fail). */
const financeFilter = (actor: Actor): number | undefined => (!actor.allStores && actor.storeId == null ? NO_STORE_ROWS : storeFilter(actor, undefined));

/** Finance 提现 filtered to 待审核 (status 0), through finance's own list and store filter. */
export async function withdrawalsPending(db: Db, actor: Actor): Promise<number> {
  return (await listWithdrawals(db, financeFilter(actor), { status: 0 }, { pageSize: 1, offset: 0 })).total;
}

/** Finance 发票管理 filtered to 待开票 (status 0), through finance's own list and store filter. */
export async function invoicesPending(db: Db, actor: Actor): Promise<number> {
  return (await listInvoices(db, financeFilter(actor), { status: 0 }, { pageSize: 1, offset: 0 })).total;
}

// ---- daily figures: rows of (store, China-time day number, value) over [from, to) epoch ms ----

export interface DayCount {
  storeId: number;
  day: number;
  n: number;
}

/** China-time day number of an epoch-ms column, in SQL (integer division on both databases). */
const dayOf = (column: string) => sql<number>`(${sql.ref(column)} + 28800000) / 86400000`;

const norm = (rows: Array<{ storeId: unknown; day: unknown; n: unknown }>): DayCount[] =>
  rows.map((r) => ({ storeId: Number(r.storeId), day: Number(r.day), n: Number(r.n) }));

/** Rows of one table by store and by the China-time day of one of its time columns. */
async function countByDay(db: Db, table: 'volStudent' | 'card' | 'sysUser', time: 'createTime' | 'activateTime', from: number, to: number) {
  const d = dayOf(time);
  const rows = await db
    .selectFrom(table)
    .select(['storeId', d.as('day'), (eb) => eb.fn.countAll().as('n')])
    .where(time, '>=', from)
    .where(time, '<', to)
    .groupBy(['storeId', d])
    .execute();
  return norm(rows);
}

/** 新增客户: customers (vol_student) created, whatever became of them since. */
export const newCustomers = (db: Db, from: number, to: number): Promise<DayCount[]> => countByDay(db, 'volStudent', 'createTime', from, to);

/** 激活卡: membership cards activated (by activation time). */
export const activatedCards = (db: Db, from: number, to: number): Promise<DayCount[]> => countByDay(db, 'card', 'activateTime', from, to);

/** 提交方案 / 通过方案: from the plans' action log (never rewritten), by the student's store. */
async function planActions(db: Db, from: number, to: number, kind: 'submitted' | 'approved'): Promise<DayCount[]> {
  const d = dayOf('a.createTime');
  let q = db
    .selectFrom('volPlanAction as a')
    .innerJoin('volStudent as s', 's.studentId', 'a.studentId')
    .select(['s.storeId', d.as('day'), (eb) => eb.fn.countAll().as('n')])
    .where('a.createTime', '>=', from)
    .where('a.createTime', '<', to);
  // A submission with 审核 off is approved at once: it counts as submitted and as approved.
  q = kind === 'submitted' ? q.where('a.action', '=', 'submit') : q.where('a.toStatus', '=', 'approved');
  return norm(await q.groupBy(['s.storeId', d]).execute());
}
export const submittedPlans = (db: Db, from: number, to: number) => planActions(db, from, to, 'submitted');
export const approvedPlans = (db: Db, from: number, to: number) => planActions(db, from, to, 'approved');

/** 收入 (fen): headquarters' revenue account credited by card releases and renewals (server/finance ledger). */
export async function revenue(db: Db, from: number, to: number): Promise<DayCount[]> {
  const d = dayOf('e.createTime');
  const rows = await db
    .selectFrom('finEntry as e')
    .innerJoin('finTxn as t', 't.txnId', 'e.txnId')
    .select(['e.storeId', d.as('day'), (eb) => eb.fn.sum<number>('e.amount').as('n')])
    .where('e.kind', '=', 'revenue')
    .where('t.type', 'in', ['card_release', 'renewal'])
    .where('e.createTime', '>=', from)
    .where('e.createTime', '<', to)
    .groupBy(['e.storeId', d])
    .execute();
  return norm(rows);
}

/** 注册人数: accounts created (sys_user: the register page and staff accounts), by their store. */
export const registrations = (db: Db, from: number, to: number): Promise<DayCount[]> => countByDay(db, 'sysUser', 'createTime', from, to);

/** 备忘录: the actor's own notes whose 提醒时间 has come and that are not done (server/system/memos.ts). */
export const memosDue = (db: Db, actor: Actor, now: number) => dueMemoCount(db, actor.userId, now);
