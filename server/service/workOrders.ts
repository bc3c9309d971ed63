import crypto from 'node:crypto';
import { sql } from 'kysely';
import {
  WORK_ORDER_FORM_BY_KEY,
  WORK_ORDER_REPLY_MAX,
  WORK_ORDER_STATUS,
  WORK_ORDER_STATUS_NAMES,
  WORK_ORDER_TYPE_NAMES,
} from '../../common/service/workOrders.js';
import type { Db } from '../db/types.js';
import { CST_OFFSET_MS } from '../engine/model.js';
import { fail } from '../http/envelope.js';
import { contains } from '../http/like.js';
import { intParam, paging, text } from '../http/params.js';
import { type Actor, assertStore } from '../security/actor.js';
import type { Storage } from '../storage/index.js';
import { checkAttachments } from './attachments.js';
import { checkForm } from './workOrderForms.js';
import { performWorkOrder } from './workOrderHandling.js';

/**
 * Work orders (spec §4, docs/service.md). State machine, enforced here with a conditional UPDATE on the status and
 * one svc_work_order_log row per transition:
 *   0 待处理 → 1 处理中 (assign) | 2 已处理 (handle) | 3 已驳回 (reject)
 *   1 处理中 → 2 已处理 (handle) | 3 已驳回 (reject)
 * 已处理 and 已驳回 are final. Handling performs the change in the same transaction (workOrderHandling.ts).
 * A store sees and submits only its own orders; assigning, handling and rejecting are headquarters' work.
 */

const { pending, processing, handled, rejected } = WORK_ORDER_STATUS;
const OPEN = [pending, processing];

/** The home page's to-do count: orders waiting for the actor (headquarters: every store's; a store: its own). */
export async function pendingWorkOrderCount(db: Db, actor: Actor): Promise<number> {
  let q = db
    .selectFrom('svcWorkOrder')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('status', '=', pending);
  if (!actor.allStores) q = q.where('storeId', '=', actor.storeId);
  return Number((await q.executeTakeFirst())?.n ?? 0);
}

function newOrderNo(now: number): string {
  const d = new Date(now + CST_OFFSET_MS).toISOString().replace(/\D/g, '').slice(0, 14);
  return `GD${d}${crypto.randomInt(1000, 10000)}`;
}

async function log(trx: Db, workOrderId: number, actor: Actor, action: string, from: number | null, to: number, comment: string | null) {
  await trx
    .insertInto('svcWorkOrderLog')
    .values({ workOrderId, action, fromStatus: from, toStatus: to, userId: actor.userId, userName: actor.userName, comment, createTime: Date.now() })
    .execute();
}

/** WorkOrder/saveWorkOrder: a store submits one of the eight forms. */
export async function submitWorkOrder(db: Db, storage: Storage, actor: Actor, body: Record<string, unknown>) {
  const form = await checkForm(db, actor, body);
  const attachments = await checkAttachments(storage, body.attachments, form.spec.minAttachments);
  const now = Date.now();
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('svcWorkOrder')
      .values({
        orderNo: newOrderNo(now),
        type: form.spec.type,
        form: form.spec.key,
        status: pending,
        storeId: form.storeId,
        title: form.title,
        content: JSON.stringify(form.content),
        attachments: JSON.stringify(attachments),
        studentId: form.studentId,
        cardNo: form.cardNo,
        refOrderNo: form.refOrderNo,
        submitBy: actor.userId,
        submitByName: actor.userName,
        createTime: now,
        version: 1,
      })
      .returning(['workOrderId', 'orderNo'])
      .executeTakeFirstOrThrow();
    await log(trx, row.workOrderId, actor, 'submit', null, pending, form.title);
    return { workOrderId: row.workOrderId, orderNo: row.orderNo };
  });
}

function present<T extends { type: number; form: string; status: number; content: string; attachments: string; cardNo: number | string | null }>(r: T) {
  return {
    ...r,
    cardNo: r.cardNo == null ? null : String(r.cardNo),
    content: JSON.parse(r.content) as Record<string, unknown>,
    attachments: JSON.parse(r.attachments) as Array<{ name: string; url: string }>,
    typeName: WORK_ORDER_TYPE_NAMES[r.type] ?? String(r.type),
    formName: WORK_ORDER_FORM_BY_KEY[r.form]?.name ?? r.form,
    statusName: WORK_ORDER_STATUS_NAMES[r.status] ?? String(r.status),
  };
}

/** WorkOrder/list: the actor's store's orders (headquarters: all, or one store), newest first. `mine` = submitted by me. */
export async function listWorkOrders(db: Db, actor: Actor, q: Record<string, unknown>) {
  const { pageSize, offset } = paging(q);
  let base = db.selectFrom('svcWorkOrder as w').innerJoin('cusStore as st', 'st.storeId', 'w.storeId');
  if (!actor.allStores) base = base.where('w.storeId', '=', actor.storeId);
  const store = intParam(q.storeId);
  if (store != null) base = base.where('w.storeId', '=', store);
  const status = intParam(q.status);
  if (status != null) {
    if (!(status in WORK_ORDER_STATUS_NAMES)) throw fail('工单状态不正确');
    base = base.where('w.status', '=', status);
  }
  const type = intParam(q.type);
  if (type != null) base = base.where('w.type', '=', type);
  if (typeof q.form === 'string' && q.form) base = base.where('w.form', '=', q.form);
  const orderNo = typeof q.orderNo === 'string' ? q.orderNo.trim() : '';
  if (orderNo) base = base.where('w.orderNo', '=', orderNo);
  if (q.mine === true || q.mine === '1' || q.mine === 1) base = base.where('w.submitBy', '=', actor.userId);
  const total = Number((await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
  const rows = await base
    .select([
      'w.workOrderId',
      'w.orderNo',
      'w.type',
      'w.form',
      'w.status',
      'w.storeId',
      'st.storeName',
      'w.title',
      'w.content',
      'w.attachments',
      'w.cardNo',
      'w.submitByName',
      'w.assigneeName',
      'w.reply',
      'w.result',
      'w.handleByName',
      'w.handleTime',
      'w.createTime',
      'w.version',
    ])
    .orderBy('w.workOrderId', 'desc')
    .limit(pageSize)
    .offset(offset)
    .execute();
  return { rows: rows.map(present), total };
}

async function loadOrder(db: Db, actor: Actor, id: unknown) {
  const workOrderId = intParam(id);
  if (workOrderId == null) throw fail('请选择工单');
  const row = await db.selectFrom('svcWorkOrder').selectAll().where('workOrderId', '=', workOrderId).executeTakeFirst();
  if (!row || (!actor.allStores && row.storeId !== actor.storeId)) throw fail('工单不存在或无权访问');
  return row;
}

/** WorkOrder/info: the order with its trail. */
export async function workOrderDetail(db: Db, actor: Actor, id: unknown) {
  const row = await loadOrder(db, actor, id);
  const logs = await db.selectFrom('svcWorkOrderLog').selectAll().where('workOrderId', '=', row.workOrderId).orderBy('logId').execute();
  const store = await db.selectFrom('cusStore').select('storeName').where('storeId', '=', row.storeId).executeTakeFirst();
  return {
    ...present(row),
    storeName: store?.storeName ?? '',
    logs: logs.map((l) => ({ ...l, toStatusName: WORK_ORDER_STATUS_NAMES[l.toStatus] ?? String(l.toStatus) })),
  };
}

function assertHeadquarters(actor: Actor) {
  if (!actor.allStores) throw fail('只有总部可以处理工单');
}

/** Moves an open order to `to` only if it is still in one of `from` (two handlers cannot both pass). */
async function claim(trx: Db, row: { workOrderId: number; status: number }, from: number[], to: number, set: Record<string, unknown>) {
  const res = await trx
    .updateTable('svcWorkOrder')
    .set({ ...set, status: to, updateTime: Date.now(), version: sql`version + 1` })
    .where('workOrderId', '=', row.workOrderId)
    .where('status', 'in', from)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) {
    const now = await trx.selectFrom('svcWorkOrder').select('status').where('workOrderId', '=', row.workOrderId).executeTakeFirst();
    const name = WORK_ORDER_STATUS_NAMES[now?.status ?? row.status] ?? '';
    throw fail(`工单${name}，不能重复处理`);
  }
}

/** WorkOrder/assign: 待处理 → 处理中, to a staff member (default: the actor). */
export async function assignWorkOrder(db: Db, actor: Actor, body: Record<string, unknown>) {
  assertHeadquarters(actor);
  const row = await loadOrder(db, actor, body.workOrderId);
  const assigneeId = intParam(body.assigneeId) ?? actor.userId;
  const user = await db
    .selectFrom('sysUser')
    .select(['userId', 'nickName', 'storeId', 'status', 'delFlag'])
    .where('userId', '=', assigneeId)
    .executeTakeFirst();
  if (user?.status !== '0' || user.delFlag !== '0' || Number(user.storeId) !== 1) throw fail('请选择总部的处理人');
  const comment = text(body.reply, WORK_ORDER_REPLY_MAX, '回复内容');
  return db.transaction().execute(async (trx) => {
    const set: Record<string, unknown> = { assigneeId: user.userId, assigneeName: user.nickName };
    if (comment) set.reply = comment;
    await claim(trx, row, [pending], processing, set);
    await log(trx, row.workOrderId, actor, 'assign', row.status, processing, `指派给 ${user.nickName}${comment ? `：${comment}` : ''}`);
    return { workOrderId: row.workOrderId, status: processing };
  });
}

/** WorkOrder/handle: performs the change and closes the order, in one transaction. */
export async function handleWorkOrder(db: Db, actor: Actor, body: Record<string, unknown>) {
  assertHeadquarters(actor);
  const row = await loadOrder(db, actor, body.workOrderId);
  assertStore(actor, row.storeId, '工单');
  const reply = text(body.reply, WORK_ORDER_REPLY_MAX, '回复内容');
  return db.transaction().execute(async (trx) => {
    // Claimed before the change: a second handler stops here and changes nothing.
    await claim(trx, row, OPEN, handled, {});
    const result = await performWorkOrder(trx, actor, row);
    const now = Date.now();
    await trx
      .updateTable('svcWorkOrder')
      .set({ result, reply: reply ?? result, handleBy: actor.userId, handleByName: actor.userName, handleTime: now })
      .where('workOrderId', '=', row.workOrderId)
      .execute();
    await log(trx, row.workOrderId, actor, 'handle', row.status, handled, reply ? `${result}；回复：${reply}` : result);
    return { workOrderId: row.workOrderId, status: handled, result };
  });
}

/** WorkOrder/reject: closes the order with the reason as reply; nothing else changes. */
export async function rejectWorkOrder(db: Db, actor: Actor, body: Record<string, unknown>) {
  assertHeadquarters(actor);
  const row = await loadOrder(db, actor, body.workOrderId);
  const reply = text(body.reply, WORK_ORDER_REPLY_MAX, '驳回原因', true) as string;
  return db.transaction().execute(async (trx) => {
    await claim(trx, row, OPEN, rejected, { reply, handleBy: actor.userId, handleByName: actor.userName, handleTime: Date.now() });
    await log(trx, row.workOrderId, actor, 'reject', row.status, rejected, reply);
    return { workOrderId: row.workOrderId, status: rejected };
  });
}

/** The customer picker of the forms: the actor's store's active customers matching a name or mobile. */
export async function workOrderCustomers(db: Db, actor: Actor, q: Record<string, unknown>) {
  const keyword = typeof q.keyword === 'string' ? q.keyword.trim().slice(0, 30) : '';
  let base = db.selectFrom('volStudent').select(['studentId', 'name', 'mobile', 'score', 'examYear', 'userType', 'storeId']).where('cusStatus', '=', 'active');
  if (!actor.allStores) base = base.where('storeId', '=', actor.storeId);
  if (keyword) base = base.where((eb) => eb.or([contains('name', keyword), contains('mobile', keyword)]));
  return base.orderBy('studentId', 'desc').limit(20).execute();
}
