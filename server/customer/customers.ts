import { type RawBuilder, sql } from 'kysely';
import { USER_TYPES, VIP_PAY_TYPES } from '../../common/customer/enums.js';
import type { Db } from '../db/types.js';
import { countRows, type KeyedTable, type ListQuery, pageKeys } from '../engine/query.js';
import type { Q } from '../engine/store.js';
import { fail } from '../http/envelope.js';
import { contains } from '../http/like.js';
import { idList, intParam, paging, text } from '../http/params.js';
import type { Actor } from '../security/actor.js';
import type { CardKeys } from './cardSecrets.js';
import { activateCard } from './cards.js';
import { recordCustomerAction } from './customerActions.js';
import { CUSTOMER_STATUS_NAMES, DAY_MS, PAY_BACKEND_BINDS, PAY_USER_BINDS, RECYCLE_RETENTION_DAYS } from './rules.js';

/** 用户列表 / 回收站 page vol_student by key, newest customer first (server/engine/query.ts pageKeys). */
const CUSTOMER_TABLE: KeyedTable = { table: 'vol_student', pk: { column: 'student_id', textColumn: false } };
const NEWEST_FIRST = sql`t.student_id desc`;
const OLDEST_FIRST = sql`t.student_id asc`;

const SUBJECTS: Record<number, string> = { 1: '物理', 2: '化学', 3: '生物', 4: '历史', 5: '地理', 6: '政治' };
const subjectNames = (s: string) =>
  s
    .split(',')
    .map((x) => SUBJECTS[Number(x)])
    .filter(Boolean)
    .join('/');

/**
 * Customer state machine (server-enforced, audited in cus_action):
 *   active → recycled (回收站; the student leaves every volunteer list: del_flag '2')
 *   recycled → active (restore) | purged (personal data erased; after RECYCLE_RETENTION_DAYS or by hand)
 */
const TRANSITIONS: Record<string, Record<string, string>> = {
  recycle: { active: 'recycled' },
  restore: { recycled: 'active' },
  purge: { recycled: 'purged' },
};
const ACTION_NAMES: Record<string, string> = { recycle: '删除到回收站', restore: '恢复', purge: '彻底删除' };

/** Loads a customer in the actor's store scope; 用户不存在或无权访问 otherwise (no hint that it exists elsewhere). */
export async function loadCustomer(db: Db, actor: Actor, id: unknown, states: string[] = ['active']) {
  const studentId = intParam(id);
  if (studentId == null) throw fail('请选择用户');
  const row = await db.selectFrom('volStudent').selectAll().where('studentId', '=', studentId).executeTakeFirst();
  if (!row || row.cusStatus === 'purged' || (!actor.allStores && row.storeId !== actor.storeId)) throw fail('用户不存在或无权访问');
  if (!states.includes(row.cusStatus)) throw fail(`用户${CUSTOMER_STATUS_NAMES[row.cusStatus] ?? row.cusStatus}，不能执行此操作`);
  return row;
}

export async function listCustomers(db: Db, actor: Actor, q: Record<string, unknown>, status: 'active' | 'recycled') {
  const { pageSize, offset } = paging(q);
  // Every filter is on the customer row (alias t), so the count needs no join (at 100,000 customers the joins doubled it).
  const where: RawBuilder<unknown>[] = [sql`t.cus_status = ${status}`];
  if (!actor.allStores) where.push(sql`t.store_id = ${actor.storeId}`);
  const name = typeof q.name === 'string' ? q.name.trim() : '';
  if (name) where.push(contains('t.name', name));
  const mobile = typeof q.mobile === 'string' ? q.mobile.trim() : '';
  if (mobile) where.push(contains('t.mobile', mobile));
  const userType = intParam(q.userType);
  if (userType != null) where.push(sql`t.user_type = ${userType}`);
  const store = intParam(q.storeId);
  if (store != null) where.push(sql`t.store_id = ${store}`);
  const cardNo = typeof q.cardNo === 'string' ? q.cardNo.trim() : '';
  if (cardNo) where.push(sql`t.card_no = ${/^\d{1,15}$/.test(cardNo) ? Number(cardNo) : -1}`);
  // Paged like an engine list (server/engine/query.ts): the total kept until vol_student is written, the page's keys
  // found from the (cus_status, [store_id,] student_id) index alone — from the nearer end, or from the nearest page
  // anchor deep inside — and only those 20 rows joined. Offset paging walked up to a million index entries.
  // The engine reads raw rows (snake_case columns): the same connection without the camelCase plugin.
  const k = db.withoutPlugins() as unknown as Q;
  const list: ListQuery = { where: sql.join(where, sql` and `), order: NEWEST_FIRST, reverse: OLDEST_FIRST, sort: { field: CUSTOMER_TABLE.pk, desc: true } };
  const total = await countRows(k, CUSTOMER_TABLE, list);
  const keys = await pageKeys(k, CUSTOMER_TABLE, list, pageSize, offset, total);
  const rows = keys
    ? await db
        .selectFrom('volStudent as s')
        .innerJoin('cusStore as st', 'st.storeId', 's.storeId')
        .leftJoin('sysUser as u', 'u.userId', 's.ownerId')
        .selectAll('s')
        .select(['st.storeName', 'u.nickName as expertName'])
        .where(sql<boolean>`s.student_id in (${keys})`)
        .orderBy('s.studentId', 'desc')
        .execute()
    : [];
  const ids = rows.map((r) => r.studentId);
  const unread = ids.length
    ? await db
        .selectFrom('cusMessage')
        .select(['studentId', (eb) => eb.fn.countAll().as('n')])
        .where('studentId', 'in', ids)
        .where('readStatus', '=', 0)
        .groupBy('studentId')
        .execute()
    : [];
  const unreadOf = new Map(unread.map((u) => [u.studentId, Number(u.n)]));
  return {
    rows: rows.map((r) => ({
      studentId: r.studentId,
      name: r.name,
      mobile: r.mobile,
      province: r.province,
      examYear: r.examYear,
      score: r.score,
      subjects: r.subjects,
      subjectNames: subjectNames(r.subjects),
      userType: r.userType,
      userTypeName: USER_TYPES[r.userType] ?? String(r.userType),
      vipPayType: r.vipPayType,
      vipPayTypeName: VIP_PAY_TYPES[r.vipPayType] ?? String(r.vipPayType),
      cardNo: r.cardNo != null ? String(r.cardNo) : null,
      vipExpireTime: r.vipExpireTime,
      storeId: r.storeId,
      storeName: r.storeName,
      expertId: r.ownerId,
      expertName: r.expertName,
      status: r.cusStatus,
      recycleTime: r.recycleTime,
      purgeTime: r.recycleTime != null ? r.recycleTime + RECYCLE_RETENTION_DAYS * DAY_MS : null,
      address: r.address,
      receiver: r.receiver,
      receiverMobile: r.receiverMobile,
      unread: unreadOf.get(r.studentId) ?? 0,
      version: r.version,
      createTime: r.createTime,
    })),
    total,
  };
}

/** 开卡 (staff): binds an unused card of the customer's store; optionally assigns the serving expert. */
export async function openCard(db: Db, keys: CardKeys, actor: Actor, body: Record<string, unknown>) {
  return db.transaction().execute(async (trx) => {
    const customer = await loadCustomer(trx, actor, body.studentId);
    const result = await activateCard(trx, keys, actor, { cardNo: body.cardNo, studentId: customer.studentId, payType: PAY_BACKEND_BINDS });
    const expertId = intParam(body.expertId);
    if (expertId != null) {
      const expert = await trx
        .selectFrom('sysUser as u')
        .innerJoin('sysUserRole as ur', 'ur.userId', 'u.userId')
        .innerJoin('sysRole as r', 'r.roleId', 'ur.roleId')
        .select(['u.userId', 'u.nickName', 'u.storeId'])
        .where('u.userId', '=', expertId)
        .where('r.roleKey', '=', 'expert')
        .where('u.delFlag', '=', '0')
        .where('u.status', '=', '0')
        .executeTakeFirst();
      if (!expert) throw fail('请选择正确的专家');
      // An expert serves the customers of their own store (the same rule as 领导审批's distribution).
      if (Number(expert.storeId) !== customer.storeId) throw fail(`请选择用户"${customer.name}"所在门店的专家`);
      await trx.updateTable('volStudent').set({ ownerId: expert.userId }).where('studentId', '=', customer.studentId).execute();
      await recordCustomerAction(trx, actor, customer.studentId, 'assign', null, null, `服务专家：${expert.nickName}`);
    }
    return result;
  });
}

/** The family activates a card from the app: the customer is the caller's own record (made on first activation). */
export async function activateByFamily(
  db: Db,
  keys: CardKeys,
  appUser: { userId: number; nickName: string; mobile: string | null },
  body: Record<string, unknown>,
) {
  return db.transaction().execute(async (trx) => {
    let customer = await trx.selectFrom('volStudent').selectAll().where('appUserId', '=', appUser.userId).where('cusStatus', '=', 'active').executeTakeFirst();
    if (!customer) {
      // First activation: the record is made in the card's store. If the number or secret is wrong, activateCard
      // throws below and the transaction takes this new row away again.
      const province = text(body.province, 20, '省份', true) as string;
      const examYear = intParam(body.examYear);
      if (examYear == null || examYear < 2000 || examYear > 2100) throw fail('请填写正确的高考年份');
      const cardNo = typeof body.cardNo === 'string' || typeof body.cardNo === 'number' ? String(body.cardNo).trim() : '';
      const card = /^\d{1,15}$/.test(cardNo)
        ? await trx.selectFrom('card').select('storeId').where('cardNo', '=', Number(cardNo)).executeTakeFirst()
        : undefined;
      const now = Date.now();
      const made = await trx
        .insertInto('volStudent')
        .values({
          name: text(body.name, 30, '姓名') ?? appUser.nickName,
          mobile: appUser.mobile,
          province,
          examYear,
          score: null,
          rank: null,
          rankFlag: null,
          subjects: '',
          preferRegions: '[]',
          preferLevels: '[]',
          preferMajors: '[]',
          tuitionCap: null,
          ownerId: null,
          remark: null,
          delFlag: '0',
          createBy: appUser.userId,
          createTime: now,
          updateTime: now,
          version: 1,
          storeId: card?.storeId ?? 1,
          appUserId: appUser.userId,
        })
        .returning('studentId')
        .executeTakeFirstOrThrow();
      customer = await trx.selectFrom('volStudent').selectAll().where('studentId', '=', made.studentId).executeTakeFirstOrThrow();
    }
    const actor: Actor = { userId: appUser.userId, userName: appUser.nickName, roles: [], storeId: customer.storeId, allStores: false };
    return activateCard(trx, keys, actor, { cardNo: body.cardNo, secret: body.secret ?? '', studentId: customer.studentId, payType: PAY_USER_BINDS });
  });
}

/** 修改 (update user): the customer's own data, with the version it was read at. */
export async function updateCustomer(db: Db, actor: Actor, body: Record<string, unknown>) {
  return db.transaction().execute(async (trx) => {
    const c = await loadCustomer(trx, actor, body.studentId, ['active', 'recycled']);
    const version = intParam(body.version);
    if (version == null) throw fail('版本号不能为空');
    const name = text(body.name, 30, '姓名', true) as string;
    const mobile = text(body.mobile, 11, '手机号码');
    if (mobile && !/^1\d{10}$/.test(mobile)) throw fail('请输入正确的手机号码');
    const province = text(body.province, 20, '省份', true) as string;
    const examYear = intParam(body.examYear);
    if (examYear == null || examYear < 2000 || examYear > 2100) throw fail('请填写正确的高考年份');
    const score = body.score === null || body.score === '' || body.score === undefined ? null : intParam(body.score);
    if (score !== null && (score === undefined || score < 0 || score > 750)) throw fail('分数应在 0 到 750 之间');
    const subjects = Array.isArray(body.subjects)
      ? body.subjects.map(Number)
      : String(body.subjects ?? '')
          .split(',')
          .filter(Boolean)
          .map(Number);
    if (subjects.some((s) => !SUBJECTS[s])) throw fail('选科不正确');
    const res = await trx
      .updateTable('volStudent')
      .set({ name, mobile, province, examYear, score, subjects: [...new Set(subjects)].sort().join(','), updateTime: Date.now(), version: sql`version + 1` })
      .where('studentId', '=', c.studentId)
      .where('version', '=', version)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw fail('数据已被他人修改，请刷新后重试');
    await recordCustomerAction(trx, actor, c.studentId, 'update', null, null, null);
    return { studentId: c.studentId, version: version + 1 };
  });
}

/** 重置信息: clears the exam data (score, rank, subjects) so the family enters it again; audited. */
export async function resetCustomer(db: Db, actor: Actor, body: Record<string, unknown>) {
  return db.transaction().execute(async (trx) => {
    const c = await loadCustomer(trx, actor, body.studentId, ['active', 'recycled']);
    await trx
      .updateTable('volStudent')
      .set({ score: null, rank: null, rankFlag: null, subjects: '', updateTime: Date.now(), version: sql`version + 1` })
      .where('studentId', '=', c.studentId)
      .execute();
    await recordCustomerAction(trx, actor, c.studentId, 'reset', null, null, `原分数 ${c.score ?? '-'}，原选科 ${subjectNames(c.subjects) || '-'}`);
    return { studentId: c.studentId };
  });
}

/** recycle / restore / purge of several customers, all or none. */
export async function transitionCustomers(db: Db, actor: Actor | null, action: 'recycle' | 'restore' | 'purge', idsParam: unknown) {
  const ids = idList(idsParam);
  if (!ids.length) throw fail('请选择用户');
  return db.transaction().execute((trx) => transitionCustomersInTransaction(trx, actor, action, ids, null));
}

/** The state machine inside the caller's transaction (a 服务中心 注销用户 work order recycles in its own). */
export async function transitionCustomersInTransaction(
  trx: Db,
  actor: Actor | null,
  action: 'recycle' | 'restore' | 'purge',
  ids: number[],
  comment: string | null,
) {
  const moves = TRANSITIONS[action];
  const rows = await trx.selectFrom('volStudent').selectAll().where('studentId', 'in', ids).execute();
  const visible = rows.filter((r) => r.cusStatus !== 'purged' && (!actor || actor.allStores || r.storeId === actor.storeId));
  if (visible.length !== ids.length) throw fail('用户不存在或无权访问');
  const now = Date.now();
  for (const r of visible) {
    const to = moves[r.cusStatus];
    if (!to) throw fail(`用户"${r.name}"${CUSTOMER_STATUS_NAMES[r.cusStatus] ?? r.cusStatus}，不能${ACTION_NAMES[action]}`);
    const set =
      to === 'recycled'
        ? { cusStatus: to, delFlag: '2', recycleTime: now }
        : to === 'active'
          ? { cusStatus: to, delFlag: '0', recycleTime: null }
          : // Purged: the row stays for the audit trail and the card history, the person's data goes.
            { cusStatus: to, name: '已清除', mobile: null, score: null, rank: null, address: null, receiver: null, receiverMobile: null, remark: null };
    const res = await trx
      .updateTable('volStudent')
      .set({ ...set, updateTime: now, version: sql`version + 1` })
      .where('studentId', '=', r.studentId)
      .where('cusStatus', '=', r.cusStatus)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw fail('数据已被他人修改，请刷新后重试');
    await recordCustomerAction(trx, actor, r.studentId, action, r.cusStatus, to, comment);
  }
  return { count: visible.length };
}

/** The 回收站 purge job: customers recycled longer than the retention period are purged. */
export async function purgeExpiredRecycled(db: Db, now = Date.now(), retentionDays = RECYCLE_RETENTION_DAYS): Promise<number> {
  const due = await db
    .selectFrom('volStudent')
    .select('studentId')
    .where('cusStatus', '=', 'recycled')
    .where('recycleTime', '<', now - retentionDays * DAY_MS)
    .execute();
  if (!due.length) return 0;
  const res = await transitionCustomers(
    db,
    null,
    'purge',
    due.map((d) => d.studentId),
  );
  return res.count;
}

/** 客户资料: the postal address. */
export async function updateAddress(db: Db, actor: Actor, body: Record<string, unknown>) {
  return db.transaction().execute(async (trx) => {
    const c = await loadCustomer(trx, actor, body.studentId);
    const receiver = text(body.receiver, 30, '收件人', true);
    const receiverMobile = text(body.receiverMobile, 11, '收件电话', true) as string;
    if (!/^1\d{10}$/.test(receiverMobile)) throw fail('请输入正确的收件电话');
    const address = text(body.address, 200, '收件地址', true);
    await trx
      .updateTable('volStudent')
      .set({ receiver, receiverMobile, address, updateTime: Date.now(), version: sql`version + 1` })
      .where('studentId', '=', c.studentId)
      .execute();
    await recordCustomerAction(trx, actor, c.studentId, 'address', null, null, null);
    return { studentId: c.studentId };
  });
}

/** 客户资料 → 邮寄: posting the printed report or card with a tracking number. */
export async function deliver(db: Db, actor: Actor, body: Record<string, unknown>) {
  return db.transaction().execute(async (trx) => {
    const c = await loadCustomer(trx, actor, body.studentId);
    if (!c.address) throw fail('请先填写收件地址');
    const item = text(body.item, 50, '邮寄物品', true) as string;
    const carrier = text(body.carrier, 30, '快递公司', true) as string;
    const trackingNo = text(body.trackingNo, 40, '快递单号', true) as string;
    if (!/^[A-Za-z0-9-]{6,40}$/.test(trackingNo)) throw fail('快递单号只能包含字母、数字和-，6 到 40 位');
    const row = await trx
      .insertInto('cusDelivery')
      .values({
        studentId: c.studentId,
        storeId: c.storeId,
        item,
        carrier,
        trackingNo,
        address: `${c.receiver ?? ''} ${c.receiverMobile ?? ''} ${c.address}`.trim(),
        createBy: actor.userId,
        createByName: actor.userName,
        createTime: Date.now(),
      })
      .returning('deliveryId')
      .executeTakeFirstOrThrow();
    await recordCustomerAction(trx, actor, c.studentId, 'deliver', null, null, `${item}：${carrier} ${trackingNo}`);
    return { deliveryId: row.deliveryId };
  });
}

export async function deliveries(db: Db, actor: Actor, studentId: unknown) {
  const c = await loadCustomer(db, actor, studentId, ['active', 'recycled']);
  return db.selectFrom('cusDelivery').selectAll().where('studentId', '=', c.studentId).orderBy('deliveryId', 'desc').execute();
}

/** The customer's audit trail (state changes, 开卡, 重置信息 …), newest first. */
export async function customerHistory(db: Db, actor: Actor, studentId: unknown) {
  const c = await loadCustomer(db, actor, studentId, ['active', 'recycled']);
  return db.selectFrom('cusAction').selectAll().where('studentId', '=', c.studentId).orderBy('actionId', 'desc').limit(200).execute();
}

/** A change another module asks for (a 服务中心 work order): the fields it may set, checked by the rules above. */
export interface CustomerChange {
  score?: number;
  examYear?: number;
  mobile?: string;
  userType?: number;
}

/** Checks a change by the customer rules (the same bounds as 修改); answers the refusal message or null. */
export function customerChangeProblem(change: CustomerChange): string | null {
  if (change.score !== undefined && (!Number.isInteger(change.score) || change.score < 0 || change.score > 750)) return '分数应在 0 到 750 之间';
  if (change.examYear !== undefined && (!Number.isInteger(change.examYear) || change.examYear < 2000 || change.examYear > 2100)) return '请填写正确的高考年份';
  if (change.mobile !== undefined && !/^1\d{10}$/.test(change.mobile)) return '请输入正确的手机号码';
  if (change.userType !== undefined && !(change.userType in USER_TYPES)) return '用户类型不正确';
  return null;
}

/** Applies a checked change to an active customer inside the caller's transaction, audited in cus_action. */
export async function changeCustomerInTransaction(trx: Db, actor: Actor, studentId: number, change: CustomerChange, comment: string) {
  const problem = customerChangeProblem(change);
  if (problem) throw fail(problem);
  const c = await loadCustomer(trx, actor, studentId, ['active']);
  const res = await trx
    .updateTable('volStudent')
    .set({ ...change, updateTime: Date.now(), version: sql`version + 1` })
    .where('studentId', '=', c.studentId)
    .where('version', '=', c.version)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw fail('数据已被他人修改，请刷新后重试');
  await recordCustomerAction(trx, actor, c.studentId, 'update', null, null, comment);
  return c;
}
