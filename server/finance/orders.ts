import crypto from 'node:crypto';
import { sql } from 'kysely';
import QRCode from 'qrcode';
import { CARD_KINDS } from '../../common/customer/cardKinds.js';
import { type CreatedOrder, ORDER_STATUS_NAMES, type OrderStatus } from '../../common/finance/orders.js';
import type { Db } from '../db/types.js';
import { fail } from '../http/envelope.js';
import { type PayActor, recordAction } from './audit.js';
import { cardFulfilment } from './cardFulfilment.js';
import { consumeCoupon, lockCoupon, releaseCoupon } from './coupons.js';
import { HQ_STORE, LedgerDuplicate, type Line, post, WORLD_STORE } from './ledger.js';
import { activeProviders, type PayProviders } from './pay/index.js';
import { NotificationRefused, type NotifyAnswer, PROVIDER_TITLES, type ProviderName, type RawNotification, type VerifiedPayment } from './pay/provider.js';
import { extendLicence } from './renewal.js';

/**
 * Online payment orders (docs/finance-payments.md). An order moves created → paid → (refunded | closed) on the server
 * only, each step a conditional UPDATE on the status (… WHERE status = 'created'), so a step happens once however
 * many requests race for it. A provider notification is applied exactly once: its signature is verified, the order
 * and amount are checked against ours, the order UPDATE gates it and the ledger posting carries the idempotency key
 * `pay:<provider>:<trade no>`; the order change, the ledger posting and the business effect (recharge credited,
 * coupon used, licence extended) are one database transaction. Every notification is recorded with its outcome.
 */

export type OrderPurpose = 'recharge' | 'renewal' | 'card_purchase' | 'customer_payment';
export type OrderProvider = ProviderName | 'balance';

export const PURPOSE_NAMES: Record<OrderPurpose, string> = {
  recharge: '门店充值',
  renewal: '账户续费',
  card_purchase: '在线购卡',
  customer_payment: '客户付款',
};
/** One payment is at most 1,000,000.00 yuan. */
export const MAX_ORDER_FEN = 100_000_000;

/** An amount in integer fen from the wire: a positive whole number, else a Chinese refusal. */
export function fenParam(v: unknown, title = '金额'): number {
  if (v === undefined || v === null || v === '') throw fail(`${title}不能为空`);
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : Number.NaN;
  if (!Number.isFinite(n)) throw fail(`${title}必须是数字（单位：分）`);
  if (!Number.isInteger(n)) throw fail(`${title}必须是整数（单位：分），不能有小数`);
  if (n <= 0) throw fail(`${title}必须大于 0`);
  if (n > MAX_ORDER_FEN) throw fail(`${title}不能超过 1000000.00 元`);
  return n;
}

/** version + 1: every status change bumps the row version the same way. */
const sql1 = sql<number>`version + 1`;

const PREFIX: Record<OrderPurpose, string> = { recharge: 'R', renewal: 'N', card_purchase: 'C', customer_payment: 'P' };

function newOrderNo(purpose: OrderPurpose): string {
  const d = new Date();
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const stamp = `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`;
  return `${PREFIX[purpose]}${stamp}${crypto.randomInt(0, 100_000_000).toString().padStart(8, '0')}`;
}

export interface CreateOrderInput {
  purpose: OrderPurpose;
  storeId: number;
  amountFen: number;
  subject: string;
  provider: ProviderName;
  /** A coupon (its id) the payer owns: takes part of the amount (card purchases). */
  couponCode?: string | number;
  userId?: number;
  userName?: string;
  meta?: Record<string, unknown>;
}

/** A card purchase must say which card it buys: paid, that card is delivered (server/customer/cards.ts). */
function checkPurpose(o: Pick<CreateOrderInput, 'purpose' | 'meta'>): void {
  if (o.purpose === 'card_purchase' && !CARD_KINDS[Number(o.meta?.cardKind)]) throw fail('请选择会员卡类型');
}

/**
 * Creates an order (status created) and starts the payment with the provider. A coupon is locked to the order in
 * the same transaction (it cannot pay for two orders); it is used when the order is paid, released when it closes.
 */
export async function createOrder(
  db: Db,
  o: CreateOrderInput,
  providers: PayProviders = activeProviders(),
  /** Rows that belong to the order (a recharge's own row), written in the order's transaction: both or neither. */
  within?: (trx: Db, orderNo: string) => Promise<void>,
): Promise<CreatedOrder> {
  const provider = providers.get(o.provider);
  const amount = fenParam(o.amountFen);
  checkPurpose(o);
  const subject = o.subject.trim().slice(0, 100) || PURPOSE_NAMES[o.purpose];
  const orderNo = newOrderNo(o.purpose);
  const now = Date.now();
  const expireTime = now + providers.config.orderTimeoutMs;
  const actor = { userId: o.userId ?? null, userName: o.userName ?? null };
  const { payable, discount } = await db.transaction().execute(async (trx) => {
    let discountFen = 0;
    let couponId: number | null = null;
    if (o.couponCode !== undefined && o.couponCode !== null && o.couponCode !== '') {
      if (!o.userId) throw fail('请先登录后再使用优惠券');
      const locked = await lockCoupon(trx, o.couponCode, o.userId, orderNo, amount, now);
      discountFen = locked.discountFen;
      couponId = locked.couponId;
    }
    const payableFen = amount - discountFen;
    await trx
      .insertInto('finPayOrder')
      .values({
        orderNo,
        purpose: o.purpose,
        storeId: o.storeId,
        userId: o.userId ?? null,
        userName: o.userName ?? null,
        subject,
        provider: o.provider,
        amountFen: payableFen,
        originalFen: amount,
        discountFen,
        couponId,
        status: 'created',
        providerTradeNo: null,
        meta: o.meta ? JSON.stringify(o.meta) : null,
        payUrl: null,
        qrCode: null,
        createTime: now,
        expireTime,
        paidTime: null,
        closeTime: null,
        refundTime: null,
        refundReason: null,
        version: 1,
      })
      .execute();
    await recordAction(
      trx,
      {
        targetType: 'order',
        targetId: orderNo,
        storeId: o.storeId,
        action: 'create',
        to: 'created',
        detail: `${PROVIDER_TITLES[o.provider]} ${payableFen} 分`,
      },
      actor,
    );
    if (within) await within(trx, orderNo);
    return { payable: payableFen, discount: discountFen };
  });

  let start: { payUrl?: string; qrText?: string };
  try {
    start = await provider.createPayment(db, { orderNo, amountFen: payable, subject, notifyUrl: providers.notifyUrl(o.provider), expireTime });
  } catch (error) {
    await closeOrder(db, orderNo, '发起支付失败', actor, providers, { skipProvider: true });
    throw fail(`发起支付失败，请稍后再试（${(error as Error).message}）`);
  }
  await db
    .updateTable('finPayOrder')
    .set({ payUrl: start.payUrl ?? null, qrCode: start.qrText ?? null })
    .where('orderNo', '=', orderNo)
    .execute();
  const qrCode = start.qrText ? await QRCode.toDataURL(start.qrText, { margin: 1, width: 220 }) : undefined;
  return { orderNo, amountFen: payable, originalFen: amount, discountFen: discount, provider: o.provider, expireTime, payUrl: start.payUrl, qrCode };
}

export type OrderRow = Awaited<ReturnType<typeof findOrder>>;

export async function findOrder(db: Db, orderNo: string) {
  return db.selectFrom('finPayOrder').selectAll().where('orderNo', '=', orderNo).executeTakeFirst();
}

type PaidOrder = NonNullable<OrderRow>;

/** The ledger lines of a paid order: who paid whom (reversed for a refund). */
function paidLines(order: PaidOrder, amount: number): Line[] {
  const payer: Line =
    order.provider === 'balance' ? { storeId: order.storeId, kind: 'balance', amount: -amount } : { storeId: WORLD_STORE, kind: 'world', amount: -amount };
  switch (order.purpose as OrderPurpose) {
    case 'recharge':
      return [payer, { storeId: order.storeId, kind: 'balance', amount }];
    case 'customer_payment':
      return [payer, { storeId: order.storeId, kind: 'collection', amount }];
    case 'renewal':
    case 'card_purchase':
      return [payer, { storeId: HQ_STORE, kind: 'revenue', amount }];
    default:
      throw new Error(`unknown order purpose ${order.purpose}`);
  }
}

/** The business effect of a payment, in the payment's transaction. */
async function applyEffects(trx: Db, order: PaidOrder, actor: PayActor): Promise<void> {
  const purpose = order.purpose as OrderPurpose;
  if (purpose === 'recharge') {
    await trx.updateTable('finRecharge').set({ status: 'done', version: sql1 }).where('orderNo', '=', order.orderNo).where('status', '=', 'created').execute();
  }
  if (order.couponId) await consumeCoupon(trx, order.couponId, order.orderNo);
  if (purpose === 'renewal') {
    const meta = order.meta ? (JSON.parse(order.meta) as { months?: number }) : {};
    await extendLicence(trx, Number(meta.months) || 12, order.orderNo, actor);
  }
  if (purpose === 'card_purchase') {
    // The family gets the card they paid for (the customer module's delivery, ./cardFulfilment.ts), in this transaction.
    const meta = order.meta ? (JSON.parse(order.meta) as { cardKind?: number }) : {};
    if (!CARD_KINDS[Number(meta.cardKind)]) throw new Error(`card purchase ${order.orderNo} names no card kind`);
    await cardFulfilment().deliver(trx, {
      orderNo: order.orderNo,
      appUserId: order.userId,
      userName: order.userName ?? actor.userName ?? '在线支付',
      storeId: order.storeId,
      kind: Number(meta.cardKind),
      priceFen: order.originalFen,
    });
  }
}

/**
 * Marks a created order paid and posts it, in one transaction. Answers false when the order was not in state
 * created any more (a concurrent or repeated notification): nothing was written.
 */
async function markPaid(trx: Db, order: PaidOrder, tradeNo: string | null, paidAt: number, actor: PayActor): Promise<boolean> {
  const res = await trx
    .updateTable('finPayOrder')
    .set({ status: 'paid', providerTradeNo: tradeNo, paidTime: paidAt, version: sql1 })
    .where('orderNo', '=', order.orderNo)
    .where('status', '=', 'created')
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) return false;
  const paid = { ...order, status: 'paid', providerTradeNo: tradeNo, paidTime: paidAt };
  await post(trx, {
    type: order.purpose,
    memo: `${PURPOSE_NAMES[order.purpose as OrderPurpose]}（${PROVIDER_TITLES[order.provider] ?? order.provider}）${order.orderNo}`,
    refType: 'pay_order',
    refId: order.orderNo,
    idempotencyKey: `pay:${order.provider}:${tradeNo ?? order.orderNo}`,
    userId: actor.userId ?? undefined,
    userName: actor.userName ?? undefined,
    lines: paidLines(paid, Number(order.amountFen)),
  });
  await applyEffects(trx, paid, actor);
  await recordAction(
    trx,
    { targetType: 'order', targetId: order.orderNo, storeId: order.storeId, action: 'pay', from: 'created', to: 'paid', detail: tradeNo },
    actor,
  );
  return true;
}

export type NotifyOutcome = 'applied' | 'duplicate' | 'rejected' | 'forged' | 'late' | 'ignored';

async function recordNotification(db: Db, provider: string, v: Partial<VerifiedPayment>, outcome: NotifyOutcome, message: string): Promise<void> {
  await db
    .insertInto('finPayNotification')
    .values({
      provider,
      orderNo: v.orderNo ?? null,
      providerTradeNo: v.providerTradeNo ?? null,
      amountFen: v.amountFen ?? null,
      outcome,
      message: message.slice(0, 500),
      receivedTime: Date.now(),
    })
    .execute();
}

export interface NotifyResult {
  outcome: NotifyOutcome;
  message: string;
  answer: NotifyAnswer;
  order?: PaidOrder;
}

/**
 * Handles one asynchronous notification of `providerName`. A forged or malformed one, a wrong amount or an unknown
 * order change nothing (recorded, refused); a repeated one changes nothing (recorded, acknowledged); one for an order
 * we closed meanwhile is recorded as late for the reconciliation (the money must go back by hand).
 */
export async function handleNotification(db: Db, providers: PayProviders, providerName: string, raw: RawNotification): Promise<NotifyResult> {
  if (!providers.has(providerName))
    return { outcome: 'rejected', message: '未启用的支付方式', answer: { status: 404, contentType: 'text/plain', body: 'unknown provider' } };
  const provider = providers.get(providerName);
  let v: VerifiedPayment | null;
  try {
    v = await provider.verifyNotification(raw);
  } catch (error) {
    const message = error instanceof NotificationRefused ? error.message : '通知无法解析';
    await recordNotification(db, providerName, {}, 'forged', message);
    return { outcome: 'forged', message, answer: provider.answer(false, message) };
  }
  if (!v) return { outcome: 'ignored', message: '非支付成功通知', answer: provider.answer(true) };
  const payment = v;

  const result = await db.transaction().execute(async (trx): Promise<{ outcome: NotifyOutcome; message: string; order?: PaidOrder }> => {
    const order = await findOrder(trx, payment.orderNo);
    if (!order) return { outcome: 'rejected', message: '订单不存在' };
    if (order.provider !== providerName) return { outcome: 'rejected', message: '支付方式与订单不符' };
    if (Number(order.amountFen) !== payment.amountFen)
      return { outcome: 'rejected', message: `金额不符：订单 ${order.amountFen} 分，通知 ${payment.amountFen} 分` };
    if (order.status === 'closed') return { outcome: 'late', message: '订单已关闭后才收到支付通知，需人工退款' };
    if (order.status !== 'created') {
      if (order.providerTradeNo === payment.providerTradeNo) return { outcome: 'duplicate', message: '重复通知，已处理过' };
      return { outcome: 'rejected', message: `订单已由交易 ${order.providerTradeNo ?? '-'} 支付，本交易需人工退款` };
    }
    try {
      if (!(await markPaid(trx, order, payment.providerTradeNo, payment.paidAt, { userName: PROVIDER_TITLES[providerName] }))) {
        return { outcome: 'duplicate', message: '重复通知，已处理过' };
      }
    } catch (error) {
      if (error instanceof LedgerDuplicate) return { outcome: 'duplicate', message: '重复通知，已记账' };
      throw error;
    }
    return { outcome: 'applied', message: '已入账', order };
  });
  await recordNotification(db, providerName, payment, result.outcome, result.message);
  // Duplicates and late ones are acknowledged so the provider stops sending; a wrong one is refused.
  const accepted = result.outcome !== 'rejected';
  return { ...result, answer: provider.answer(accepted, result.message) };
}

/**
 * Closes a created order: first at the provider (so it stops taking money), then here. If the provider says it was
 * paid meanwhile, the payment is applied instead (from the query) and false is answered.
 */
export async function closeOrder(
  db: Db,
  orderNo: string,
  reason: string,
  actor: PayActor,
  providers: PayProviders = activeProviders(),
  options: { skipProvider?: boolean } = {},
): Promise<boolean> {
  const order = await findOrder(db, orderNo);
  if (order?.status !== 'created') return false;
  if (!options.skipProvider && order.provider !== 'balance' && providers.has(order.provider)) {
    const provider = providers.get(order.provider);
    await provider.close(db, orderNo);
    const q = await provider.query(db, orderNo);
    if (q.state === 'PAID' && q.providerTradeNo && q.amountFen === Number(order.amountFen)) {
      const tradeNo = q.providerTradeNo;
      const applied = await db.transaction().execute((trx) => markPaid(trx, order, tradeNo, q.paidAt ?? Date.now(), { userName: '主动查询' }));
      // Recorded like a notification so the reconciliation finds the payment's confirmation.
      if (applied) await recordNotification(db, order.provider, { orderNo, amountFen: q.amountFen, providerTradeNo: tradeNo }, 'applied', '主动查询确认已支付');
      return false;
    }
  }
  return db.transaction().execute(async (trx) => {
    const res = await trx
      .updateTable('finPayOrder')
      .set({ status: 'closed', closeTime: Date.now(), version: sql1 })
      .where('orderNo', '=', orderNo)
      .where('status', '=', 'created')
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return false;
    if (order.couponId) await releaseCoupon(trx, order.couponId, orderNo);
    await trx.updateTable('finRecharge').set({ status: 'closed', version: sql1 }).where('orderNo', '=', orderNo).where('status', '=', 'created').execute();
    await recordAction(
      trx,
      { targetType: 'order', targetId: orderNo, storeId: order.storeId, action: 'close', from: 'created', to: 'closed', detail: reason },
      actor,
    );
    return true;
  });
}

/** Closes every created order past its time (the job, and on access). Answers how many were closed. */
export async function closeExpiredOrders(db: Db, now = Date.now(), providers: PayProviders = activeProviders()): Promise<number> {
  const due = await db
    .selectFrom('finPayOrder')
    .select('orderNo')
    .where('status', '=', 'created')
    .where('expireTime', '<', now)
    .orderBy('expireTime')
    .limit(500)
    .execute();
  let closed = 0;
  for (const { orderNo } of due) {
    try {
      if (await closeOrder(db, orderNo, '超时未支付', { userName: '系统' }, providers)) closed++;
    } catch {
      // The provider could not be reached: the next run tries again.
    }
  }
  return closed;
}

/** The order as its payer or the store sees it; an unpaid order past its time is closed first (close on access). */
export async function orderStatus(db: Db, orderNo: string, providers: PayProviders = activeProviders()) {
  let order = await findOrder(db, orderNo);
  if (!order) throw fail('订单不存在');
  if (order.status === 'created' && Number(order.expireTime) < Date.now()) {
    await closeOrder(db, orderNo, '超时未支付', { userName: '系统' }, providers).catch(() => false);
    order = (await findOrder(db, orderNo)) ?? order;
  }
  return publicOrder(order);
}

export function publicOrder(o: PaidOrder) {
  return {
    orderNo: o.orderNo,
    purpose: o.purpose,
    purposeName: PURPOSE_NAMES[o.purpose as OrderPurpose] ?? o.purpose,
    storeId: o.storeId,
    subject: o.subject,
    provider: o.provider,
    providerName: PROVIDER_TITLES[o.provider] ?? o.provider,
    amountFen: Number(o.amountFen),
    originalFen: Number(o.originalFen),
    discountFen: Number(o.discountFen),
    status: o.status,
    statusName: ORDER_STATUS_NAMES[o.status as OrderStatus] ?? o.status,
    providerTradeNo: o.providerTradeNo,
    payUrl: o.payUrl,
    userName: o.userName,
    createTime: Number(o.createTime),
    expireTime: Number(o.expireTime),
    paidTime: o.paidTime == null ? null : Number(o.paidTime),
    closeTime: o.closeTime == null ? null : Number(o.closeTime),
    refundTime: o.refundTime == null ? null : Number(o.refundTime),
  };
}

/**
 * Pays an order at once from the store's 余额 (账户续费 from the balance): the order is written already paid, with the
 * ledger posting balance → headquarters revenue and the effect, in one transaction. Refused (余额不足) with nothing
 * written when the balance is short.
 */
export async function payFromBalance(db: Db, o: Omit<CreateOrderInput, 'provider' | 'couponCode'>): Promise<ReturnType<typeof publicOrder>> {
  const amount = fenParam(o.amountFen);
  checkPurpose(o);
  const orderNo = newOrderNo(o.purpose);
  const now = Date.now();
  const actor = { userId: o.userId ?? null, userName: o.userName ?? null };
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('finPayOrder')
      .values({
        orderNo,
        purpose: o.purpose,
        storeId: o.storeId,
        userId: o.userId ?? null,
        userName: o.userName ?? null,
        subject: o.subject.slice(0, 100),
        provider: 'balance',
        amountFen: amount,
        originalFen: amount,
        discountFen: 0,
        couponId: null,
        status: 'created',
        providerTradeNo: null,
        meta: o.meta ? JSON.stringify(o.meta) : null,
        payUrl: null,
        qrCode: null,
        createTime: now,
        expireTime: now,
        paidTime: null,
        closeTime: null,
        refundTime: null,
        refundReason: null,
        version: 1,
      })
      .execute();
    const order = (await findOrder(trx, orderNo)) as PaidOrder;
    await markPaid(trx, order, null, now, actor);
    return publicOrder((await findOrder(trx, orderNo)) as PaidOrder);
  });
}

/**
 * Refunds a paid order in the caller's transaction: paid → refunded, the ledger posting reversed (refused when the
 * money is no longer there, e.g. a recharge already spent), then the provider refund (its refund number is derived
 * from the order, so a retry is not a second refund). A renewal is not refundable here (the licence time stays).
 */
export async function refundOrder(trx: Db, orderNo: string, reason: string, actor: PayActor, providers?: PayProviders): Promise<void> {
  const why = reason?.trim();
  if (!why) throw fail('请填写退款原因');
  const order = await findOrder(trx, orderNo);
  if (!order) throw fail('订单不存在');
  if (order.status !== 'paid') throw fail(`订单${ORDER_STATUS_NAMES[order.status as OrderStatus] ?? order.status}，不能退款`);
  if (order.purpose === 'renewal') throw fail('账户续费订单不能退款');
  const res = await trx
    .updateTable('finPayOrder')
    .set({ status: 'refunded', refundTime: Date.now(), refundReason: why.slice(0, 200), version: sql1 })
    .where('orderNo', '=', orderNo)
    .where('status', '=', 'paid')
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw fail('订单状态已变化，请刷新后重试');
  if (order.purpose === 'card_purchase') await cardFulfilment().takeBack(trx, orderNo, why);
  const amount = Number(order.amountFen);
  await post(trx, {
    type: 'refund',
    memo: `退款 ${order.orderNo}：${why.slice(0, 50)}`,
    refType: 'pay_order',
    refId: order.orderNo,
    idempotencyKey: `refund:${order.orderNo}`,
    userId: actor.userId ?? undefined,
    userName: actor.userName ?? undefined,
    lines: paidLines(order, amount).map((l) => ({ ...l, amount: -l.amount })),
  });
  await recordAction(
    trx,
    { targetType: 'order', targetId: orderNo, storeId: order.storeId, action: 'refund', from: 'paid', to: 'refunded', detail: why },
    actor,
  );
  if (order.provider !== 'balance') {
    const p = (providers ?? activeProviders()).get(order.provider);
    await p.refund(trx, { orderNo, providerTradeNo: order.providerTradeNo ?? '', refundNo: `RF${orderNo}`, amountFen: amount, totalFen: amount, reason: why });
  }
}
