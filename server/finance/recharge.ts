import { sql } from 'kysely';
import { yuanText } from '../../common/finance/checks.js';
import type { CreatedOrder } from '../../common/finance/orders.js';
import type { Db } from '../db/types.js';
import { fail } from '../http/envelope.js';
import { intParam, paging, text } from '../http/params.js';
import { type Actor, assertStore } from '../security/actor.js';
import { requireStore } from '../security/storeScope.js';
import { recordAction } from './audit.js';
import { post } from './ledger.js';
import { createOrder, fenParam } from './orders.js';
import type { PayProviders } from './pay/index.js';
import { PROVIDER_TITLES, type ProviderName } from './pay/provider.js';

/**
 * 充值管理 (spec §7.9 MoneyWallet/commitRecharge, commitRecharg, rechargeLog, upVoucher, index/rechargeType;
 * docs/finance-payments.md). A store tops up its 余额 online (an order; paid → world → balance, in the payment's
 * transaction) or by bank transfer: it uploads the transfer voucher (an image or PDF, checked by content) and
 * headquarters confirms (world → balance, once: idempotency key recharge:<id>) or rejects with a reason.
 * States: created 待支付 → done 已到账 | closed 已关闭 (online); pending 待审核 → done 已到账 | rejected 已驳回 (offline).
 */

export const RECHARGE_STATUS_NAMES: Record<string, string> = { created: '待支付', pending: '待审核', done: '已到账', rejected: '已驳回', closed: '已关闭' };
export const RECHARGE_METHOD_NAMES: Record<string, string> = { online: '在线支付', offline: '线下转账' };
/** Where the voucher of an offline recharge must have been stored (by upVoucher). */
export const VOUCHER_FOLDER = 'voucher';

const bump = sql<number>`version + 1`;

/** index/rechargeType: the ways to recharge and headquarters' bank account for transfers (PAY_BANK_* settings). */
export function rechargeTypes(providers: PayProviders, env: NodeJS.ProcessEnv = process.env) {
  return {
    online: providers.enabled().map((p) => ({ provider: p, name: PROVIDER_TITLES[p] })),
    offline: {
      accountName: env.PAY_BANK_ACCOUNT_NAME ?? '总部收款账户（请在 PAY_BANK_ACCOUNT_NAME 中配置）',
      bankName: env.PAY_BANK_NAME ?? '开户银行（请在 PAY_BANK_NAME 中配置）',
      cardNo: env.PAY_BANK_CARD_NO ?? '',
    },
  };
}

async function storeOf(db: Db, actor: Actor, storeIdParam: unknown): Promise<number> {
  const storeId = intParam(storeIdParam) ?? requireStore(actor);
  assertStore(actor, storeId, '充值');
  const s = await db.selectFrom('cusStore').select(['storeId', 'status']).where('storeId', '=', storeId).executeTakeFirst();
  if (!s) throw fail('门店不存在');
  if (s.status !== '0') throw fail('门店已停用，不能充值');
  return storeId;
}

/** A new 充值 record of the actor, in the caller's transaction; the online kind carries its order number. */
function insertRecharge(
  trx: Db,
  actor: Actor,
  r: { storeId: number; method: 'online' | 'offline'; amountFen: number; status: string; provider: string; remark: string | null } & {
    orderNo?: string;
    voucherUrl?: string;
    voucherName?: string | null;
  },
) {
  return trx
    .insertInto('finRecharge')
    .values({
      ...r,
      orderNo: r.orderNo ?? null,
      voucherUrl: r.voucherUrl ?? null,
      voucherName: r.voucherName ?? null,
      reason: null,
      createUserId: actor.userId,
      createBy: actor.userName,
      createTime: Date.now(),
      reviewBy: null,
      reviewTime: null,
      version: 1,
    })
    .returning('rechargeId')
    .executeTakeFirstOrThrow();
}

/** MoneyWallet/commitRecharge: an online recharge; answers the order (payment page / QR code). */
export async function commitOnline(db: Db, actor: Actor, p: Record<string, unknown>, providers: PayProviders): Promise<CreatedOrder & { rechargeId: number }> {
  // Every field is checked before anything is written: a refused request leaves no payable order behind.
  const amount = fenParam(p.amountFen, '充值金额');
  const remark = text(p.remark, 200, '备注');
  const storeId = await storeOf(db, actor, p.storeId);
  const provider = (typeof p.provider === 'string' && p.provider ? p.provider : providers.enabled()[0]) as ProviderName;
  if (!provider) throw fail('没有可用的在线支付方式，请联系管理员配置');
  let rechargeId = 0;
  const order = await createOrder(
    db,
    { purpose: 'recharge', storeId, amountFen: amount, subject: '门店余额充值', provider, userId: actor.userId, userName: actor.userName },
    providers,
    async (trx, orderNo) => {
      const row = await insertRecharge(trx, actor, { storeId, method: 'online', amountFen: amount, status: 'created', orderNo, provider, remark });
      rechargeId = Number(row.rechargeId);
    },
  );
  return { ...order, rechargeId };
}

/** MoneyWallet/commitRecharg: an offline (bank transfer) recharge with its uploaded voucher, for headquarters to review. */
export async function commitOffline(db: Db, actor: Actor, p: Record<string, unknown>) {
  const amount = fenParam(p.amountFen, '充值金额');
  const storeId = await storeOf(db, actor, p.storeId);
  const voucherUrl = typeof p.voucherUrl === 'string' ? p.voucherUrl.trim() : '';
  if (!voucherUrl) throw fail('请上传转账凭证');
  // Only a voucher our upVoucher stored (checked by content there): /profile/voucher/yyyy/mm/dd/<random>.<png|jpg|pdf>.
  if (!/^(\/profile|https?:\/\/[^\s]+)\/voucher\/\d{4}\/\d{2}\/\d{2}\/[A-Za-z0-9_-]+\.(png|jpg|jpeg|pdf)$/.test(voucherUrl))
    throw fail('转账凭证无效，请重新上传');
  return db.transaction().execute(async (trx) => {
    const row = await insertRecharge(trx, actor, {
      storeId,
      method: 'offline',
      amountFen: amount,
      status: 'pending',
      provider: 'offline',
      voucherUrl,
      voucherName: text(p.voucherName, 100, '凭证文件名'),
      remark: text(p.remark, 200, '备注'),
    });
    const rechargeId = Number(row.rechargeId);
    await recordAction(trx, { targetType: 'recharge', targetId: rechargeId, storeId, action: 'apply', to: 'pending', detail: `${amount} 分` }, actor);
    return { rechargeId, status: 'pending' };
  });
}

/** Headquarters confirms an offline recharge: pending → done and world → store balance, once. */
export async function confirmOffline(db: Db, actor: Actor, p: Record<string, unknown>) {
  if (!actor.allStores) throw fail('只有总部财务可以确认充值');
  const rechargeId = intParam(p.rechargeId);
  if (!rechargeId) throw fail('请选择充值记录');
  return db.transaction().execute(async (trx) => {
    const r = await trx.selectFrom('finRecharge').selectAll().where('rechargeId', '=', rechargeId).executeTakeFirst();
    if (r?.method !== 'offline') throw fail('充值记录不存在');
    if (r.status !== 'pending') throw fail(`该充值${RECHARGE_STATUS_NAMES[r.status] ?? r.status}，不能重复处理`);
    const res = await trx
      .updateTable('finRecharge')
      .set({ status: 'done', reviewBy: actor.userName, reviewTime: Date.now(), version: bump })
      .where('rechargeId', '=', rechargeId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw fail('该充值已被处理，请刷新');
    await post(trx, {
      type: 'recharge',
      memo: `线下转账充值（凭证审核通过）#${rechargeId}`,
      refType: 'recharge',
      refId: String(rechargeId),
      idempotencyKey: `recharge:${rechargeId}`,
      userId: actor.userId,
      userName: actor.userName,
      lines: [
        { storeId: 0, kind: 'world', amount: -Number(r.amountFen) },
        { storeId: r.storeId, kind: 'balance', amount: Number(r.amountFen) },
      ],
    });
    await recordAction(trx, { targetType: 'recharge', targetId: rechargeId, storeId: r.storeId, action: 'confirm', from: 'pending', to: 'done' }, actor);
    return { rechargeId, status: 'done' };
  });
}

/** Headquarters rejects an offline recharge with a reason: pending → rejected, no money moves. */
export async function rejectOffline(db: Db, actor: Actor, p: Record<string, unknown>) {
  if (!actor.allStores) throw fail('只有总部财务可以驳回充值');
  const rechargeId = intParam(p.rechargeId);
  if (!rechargeId) throw fail('请选择充值记录');
  const reason = text(p.reason, 200, '驳回原因', true) as string;
  return db.transaction().execute(async (trx) => {
    const r = await trx.selectFrom('finRecharge').selectAll().where('rechargeId', '=', rechargeId).executeTakeFirst();
    if (r?.method !== 'offline') throw fail('充值记录不存在');
    const res = await trx
      .updateTable('finRecharge')
      .set({ status: 'rejected', reason, reviewBy: actor.userName, reviewTime: Date.now(), version: bump })
      .where('rechargeId', '=', rechargeId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw fail(`该充值${RECHARGE_STATUS_NAMES[r.status] ?? r.status}，不能驳回`);
    await recordAction(
      trx,
      { targetType: 'recharge', targetId: rechargeId, storeId: r.storeId, action: 'reject', from: 'pending', to: 'rejected', detail: reason },
      actor,
    );
    return { rechargeId, status: 'rejected' };
  });
}

/** MoneyWallet/rechargeLog: the recharges of the caller's store (headquarters: every store, or one). */
export async function rechargeLog(db: Db, actor: Actor, p: Record<string, unknown>) {
  const { pageSize, offset } = paging(p);
  let q = db.selectFrom('finRecharge as r').leftJoin('cusStore as s', 's.storeId', 'r.storeId');
  const storeId = intParam(p.storeId);
  if (!actor.allStores) q = q.where('r.storeId', '=', actor.storeId);
  else if (storeId) q = q.where('r.storeId', '=', storeId);
  if (typeof p.status === 'string' && p.status in RECHARGE_STATUS_NAMES) q = q.where('r.status', '=', p.status);
  if (typeof p.method === 'string' && p.method in RECHARGE_METHOD_NAMES) q = q.where('r.method', '=', p.method);
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const rows = await q.selectAll('r').select('s.storeName').orderBy('r.rechargeId', 'desc').limit(pageSize).offset(offset).execute();
  return {
    rows: rows.map((r) => ({
      rechargeId: Number(r.rechargeId),
      storeId: r.storeId,
      storeName: r.storeName,
      method: r.method,
      methodName: RECHARGE_METHOD_NAMES[r.method],
      provider: r.provider,
      providerName: r.provider ? (PROVIDER_TITLES[r.provider] ?? r.provider) : null,
      amountFen: Number(r.amountFen),
      // The console's 确认到账 text names the amount in yuan (schemas/finance/fin_recharge.json).
      amountYuan: yuanText(Number(r.amountFen)),
      status: r.status,
      statusName: RECHARGE_STATUS_NAMES[r.status] ?? r.status,
      orderNo: r.orderNo,
      voucherUrl: r.voucherUrl,
      voucherName: r.voucherName,
      remark: r.remark,
      reason: r.reason,
      createBy: r.createBy,
      createTime: Number(r.createTime),
      reviewBy: r.reviewBy,
      reviewTime: r.reviewTime == null ? null : Number(r.reviewTime),
    })),
    total: Number(total?.n ?? 0),
  };
}
