import { sql } from 'kysely';
import { CARD_KINDS } from '../../common/customer/cardKinds.js';
import type { Db } from '../db/types.js';
import { fail } from '../http/envelope.js';
import { intParam, paging, text } from '../http/params.js';
import type { Actor } from '../security/actor.js';
import { recordAction } from './audit.js';

/**
 * Coupons (spec §7.7 coupon/*, Coupon/*; docs/finance-payments.md). Headquarters issues batches: an amount off
 * (amountFen) or a discount (discountPct = percent paid, 80 = 8 折), a validity window, a total and a per-user
 * limit. Pulling takes one from the batch through a conditional UPDATE (remaining > 0), and a user's n-th coupon of a
 * batch is the unique (batch, user, seq), so neither limit can be beaten by concurrent pulls. A coupon pays part of
 * an online card purchase (在线购卡): creating the order locks it (unused → locked, conditional), the payment uses it
 * (locked → used), closing the unpaid order releases it. Hence it is consumed exactly once, however many payments race.
 */

export const COUPON_KIND_NAMES: Record<string, string> = { amount: '满减券', discount: '折扣券' };
export const COUPON_STATUS_NAMES: Record<string, string> = { unused: '未使用', locked: '支付中', used: '已使用', expired: '已过期' };
export const BATCH_STATUS_NAMES: Record<string, string> = { '0': '发放中', '1': '已停用' };
const MAX_BATCH_TOTAL = 1_000_000;

const bump = sql<number>`version + 1`;

function timeParam(v: unknown, title: string): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : typeof v === 'string' ? Date.parse(v) : Number.NaN;
  if (!Number.isFinite(n) || n <= 0) throw fail(`${title}格式不正确`);
  return n;
}

function wholeParam(v: unknown, title: string, min: number, max: number): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  if (!Number.isInteger(n)) throw fail(`${title}必须是整数`);
  if (n < min || n > max) throw fail(`${title}应在 ${min} 到 ${max} 之间`);
  return n;
}

/** Coupon/addMoney: a new batch (headquarters). */
export async function createBatch(db: Db, actor: Actor, p: Record<string, unknown>) {
  if (!actor.allStores) throw fail('只有总部可以发放优惠券');
  const name = text(p.name, 50, '优惠券名称', true) as string;
  const kind = String(p.kind ?? '');
  if (!(kind in COUPON_KIND_NAMES)) throw fail('请选择优惠券类型（满减券或折扣券）');
  const amountFen = kind === 'amount' ? wholeParam(p.amountFen, '减免金额（分）', 1, 100_000_000) : 0;
  const discountPct = kind === 'discount' ? wholeParam(p.discountPct, '折扣（支付百分比）', 1, 99) : 100;
  const minFen = p.minFen === undefined || p.minFen === '' || p.minFen === null ? 0 : wholeParam(p.minFen, '使用门槛（分）', 0, 100_000_000);
  if (kind === 'amount' && minFen > 0 && amountFen >= minFen) throw fail('减免金额必须小于使用门槛');
  const validFrom = timeParam(p.validFrom, '生效时间');
  const validTo = timeParam(p.validTo, '失效时间');
  if (validTo <= validFrom) throw fail('失效时间必须晚于生效时间');
  const total = wholeParam(p.total, '发放总量', 1, MAX_BATCH_TOTAL);
  const perUserLimit = wholeParam(p.perUserLimit ?? 1, '每人限领', 1, 100);
  const now = Date.now();
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('finCouponBatch')
      .values({
        name,
        kind,
        amountFen,
        discountPct,
        minFen,
        validFrom,
        validTo,
        total,
        remaining: total,
        perUserLimit,
        status: '0',
        createBy: actor.userName,
        createTime: now,
        updateTime: null,
        version: 1,
      })
      .returning('batchId')
      .executeTakeFirstOrThrow();
    await recordAction(trx, { targetType: 'coupon_batch', targetId: row.batchId, storeId: actor.storeId ?? 0, action: 'create', to: '0', detail: name }, actor);
    return { batchId: Number(row.batchId) };
  });
}

/** 停用 / 启用 a batch (pulled coupons stay usable until they expire). */
export async function setBatchStatus(db: Db, actor: Actor, p: Record<string, unknown>) {
  if (!actor.allStores) throw fail('只有总部可以管理优惠券');
  const batchId = intParam(p.batchId);
  const status = String(p.status ?? '');
  if (!batchId) throw fail('请选择优惠券批次');
  if (status !== '0' && status !== '1') throw fail('状态不正确');
  return db.transaction().execute(async (trx) => {
    const b = await trx.selectFrom('finCouponBatch').select(['status']).where('batchId', '=', batchId).executeTakeFirst();
    if (!b) throw fail('优惠券批次不存在');
    await trx.updateTable('finCouponBatch').set({ status, updateTime: Date.now(), version: bump }).where('batchId', '=', batchId).execute();
    await recordAction(
      trx,
      { targetType: 'coupon_batch', targetId: batchId, storeId: actor.storeId ?? 0, action: status === '1' ? 'stop' : 'start', from: b.status, to: status },
      actor,
    );
  });
}

function batchView(b: Record<string, unknown>, now: number) {
  const validTo = Number(b.validTo);
  return {
    batchId: Number(b.batchId),
    name: b.name,
    kind: b.kind,
    kindName: COUPON_KIND_NAMES[String(b.kind)],
    amountFen: Number(b.amountFen),
    discountPct: Number(b.discountPct),
    minFen: Number(b.minFen),
    validFrom: Number(b.validFrom),
    validTo,
    total: Number(b.total),
    remaining: Number(b.remaining),
    perUserLimit: Number(b.perUserLimit),
    status: b.status,
    statusName: validTo < now ? '已过期' : BATCH_STATUS_NAMES[String(b.status)],
    createBy: b.createBy,
    createTime: Number(b.createTime),
  };
}

/** Batches: headquarters sees all; others (and the app) the ones they can pull now. */
export async function listBatches(db: Db, actor: Actor, p: Record<string, unknown>) {
  const { pageSize, offset } = paging(p);
  const now = Date.now();
  let q = db.selectFrom('finCouponBatch');
  if (!actor.allStores || p.available === '1' || p.available === true) {
    q = q.where('status', '=', '0').where('validTo', '>=', now).where('remaining', '>', 0);
  }
  const name = typeof p.name === 'string' ? p.name.trim() : '';
  if (name) q = q.where('name', 'like', `%${name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const rows = await q.selectAll().orderBy('batchId', 'desc').limit(pageSize).offset(offset).execute();
  return { rows: rows.map((b) => batchView(b as unknown as Record<string, unknown>, now)), total: Number(total?.n ?? 0) };
}

/** coupon/pullCoupon: one coupon of the batch for the user, within the batch's total and the per-user limit. */
export async function pullCoupon(db: Db, userId: number, batchIdParam: unknown) {
  const batchId = intParam(batchIdParam);
  if (!batchId) throw fail('请选择要领取的优惠券');
  const now = Date.now();
  try {
    return await db.transaction().execute(async (trx) => {
      const b = await trx.selectFrom('finCouponBatch').selectAll().where('batchId', '=', batchId).executeTakeFirst();
      if (b?.status !== '0') throw fail('优惠券不存在或已停止发放');
      if (Number(b.validTo) < now) throw fail('优惠券已过期');
      const mine = await trx
        .selectFrom('finCoupon')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('batchId', '=', batchId)
        .where('userId', '=', userId)
        .executeTakeFirst();
      const seq = Number(mine?.n ?? 0) + 1;
      if (seq > Number(b.perUserLimit)) throw fail(`每人限领 ${b.perUserLimit} 张，您已领完`);
      const taken = await trx
        .updateTable('finCouponBatch')
        .set({ remaining: sql`remaining - 1`, version: bump })
        .where('batchId', '=', batchId)
        .where('remaining', '>', 0)
        .where('status', '=', '0')
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) !== 1) throw fail('优惠券已领完');
      const row = await trx
        .insertInto('finCoupon')
        .values({ batchId, userId, seq, status: 'unused', orderNo: null, pullTime: now, useTime: null, version: 1 })
        .returning('couponId')
        .executeTakeFirstOrThrow();
      return { couponId: Number(row.couponId), batchId, name: b.name };
    });
  } catch (error) {
    // (batch, user, seq) taken by a concurrent pull of the same user: the limit held; nothing was written.
    const code = String((error as { code?: unknown }).code ?? '');
    if (code === '23505' || code.startsWith('SQLITE_CONSTRAINT')) throw fail('领取太频繁，请稍后再试');
    throw error;
  }
}

/** coupon/getCouponData (app side): the caller's coupons with their batches. */
export async function myCoupons(db: Db, userId: number) {
  const now = Date.now();
  const rows = await db
    .selectFrom('finCoupon as c')
    .innerJoin('finCouponBatch as b', 'b.batchId', 'c.batchId')
    .select([
      'c.couponId',
      'c.status',
      'c.orderNo',
      'c.pullTime',
      'c.useTime',
      'b.batchId',
      'b.name',
      'b.kind',
      'b.amountFen',
      'b.discountPct',
      'b.minFen',
      'b.validFrom',
      'b.validTo',
    ])
    .where('c.userId', '=', userId)
    .orderBy('c.couponId', 'desc')
    .limit(200)
    .execute();
  return rows.map((r) => {
    const status = r.status === 'unused' && Number(r.validTo) < now ? 'expired' : r.status;
    return {
      couponId: Number(r.couponId),
      batchId: Number(r.batchId),
      name: r.name,
      kind: r.kind,
      kindName: COUPON_KIND_NAMES[r.kind],
      amountFen: Number(r.amountFen),
      discountPct: Number(r.discountPct),
      minFen: Number(r.minFen),
      validFrom: Number(r.validFrom),
      validTo: Number(r.validTo),
      status,
      statusName: COUPON_STATUS_NAMES[status],
      orderNo: r.orderNo,
      pullTime: Number(r.pullTime),
      useTime: r.useTime == null ? null : Number(r.useTime),
    };
  });
}

type Batch = { kind: string; amountFen: number; discountPct: number; minFen: number };

/** What the coupon takes off `amount` (the payer always pays at least 1 fen: a 0-fen online payment does not exist). */
export function discountOf(b: Batch, amount: number): number {
  const off = b.kind === 'amount' ? Number(b.amountFen) : amount - Math.ceil((amount * Number(b.discountPct)) / 100);
  return Math.max(0, Math.min(off, amount - 1));
}

async function usableCoupon(db: Db, couponIdParam: unknown, userId: number, amount: number, now: number) {
  const couponId = intParam(couponIdParam);
  if (!couponId) throw fail('优惠券不存在');
  const c = await db
    .selectFrom('finCoupon as c')
    .innerJoin('finCouponBatch as b', 'b.batchId', 'c.batchId')
    .select(['c.couponId', 'c.userId', 'c.status', 'b.kind', 'b.amountFen', 'b.discountPct', 'b.minFen', 'b.validFrom', 'b.validTo'])
    .where('c.couponId', '=', couponId)
    .executeTakeFirst();
  if (!c || Number(c.userId) !== userId) throw fail('优惠券不存在');
  if (c.status !== 'unused') throw fail('优惠券已使用或正在支付中');
  if (Number(c.validFrom) > now) throw fail('优惠券尚未生效');
  if (Number(c.validTo) < now) throw fail('优惠券已过期');
  if (amount < Number(c.minFen)) throw fail(`订单金额未达到优惠券使用门槛（${(Number(c.minFen) / 100).toFixed(2)} 元）`);
  return { couponId, discountFen: discountOf(c, amount) };
}

/** Coupon/payVerification: what the payer would pay for the amount with the coupon (nothing is locked). */
export async function verifyCoupon(db: Db, userId: number, p: Record<string, unknown>) {
  const amount = cardPrice(p.cardKind ?? p.kind);
  const { couponId, discountFen } = await usableCoupon(db, p.couponId, userId, amount, Date.now());
  return { couponId, originalFen: amount, discountFen, payableFen: amount - discountFen };
}

/** Locks the coupon to the order (unused → locked); refused when another order holds it. */
export async function lockCoupon(trx: Db, couponIdParam: unknown, userId: number, orderNo: string, amount: number, now: number) {
  const { couponId, discountFen } = await usableCoupon(trx, couponIdParam, userId, amount, now);
  const res = await trx
    .updateTable('finCoupon')
    .set({ status: 'locked', orderNo, version: bump })
    .where('couponId', '=', couponId)
    .where('userId', '=', userId)
    .where('status', '=', 'unused')
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw fail('优惠券已使用或正在支付中');
  return { couponId, discountFen };
}

/** The order holding it was paid: locked → used. */
export async function consumeCoupon(trx: Db, couponId: number, orderNo: string): Promise<void> {
  const res = await trx
    .updateTable('finCoupon')
    .set({ status: 'used', useTime: Date.now(), version: bump })
    .where('couponId', '=', couponId)
    .where('orderNo', '=', orderNo)
    .where('status', '=', 'locked')
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw new Error(`coupon ${couponId} is not locked by order ${orderNo}`);
}

/** The order holding it closed unpaid: locked → unused again. */
export async function releaseCoupon(trx: Db, couponId: number, orderNo: string): Promise<void> {
  await trx
    .updateTable('finCoupon')
    .set({ status: 'unused', orderNo: null, version: bump })
    .where('couponId', '=', couponId)
    .where('orderNo', '=', orderNo)
    .where('status', '=', 'locked')
    .execute();
}

/** The list price of a card kind (fen), refused when the kind is unknown. */
export function cardPrice(kindParam: unknown): number {
  const kind = intParam(kindParam);
  const card = kind ? CARD_KINDS[kind] : undefined;
  if (!card) throw fail('请选择会员卡类型');
  return card.price;
}
