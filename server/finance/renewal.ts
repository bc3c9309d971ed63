import type { RenewalPlan } from '../../common/finance/renewal.js';
import type { Db } from '../db/types.js';
import { expiryTime, isExpired } from '../system/index.js';
import { type PayActor, recordAction } from './audit.js';

/**
 * 账户续费 (spec §7.9 wxpay/channelRenewal, channelRenewalVertiy, index/freeNum; docs/finance-payments.md): paying
 * for licence time moves the platform's expiry date (sys_platform.expiredate, spec §2.2 expired flag) forward, in the
 * payment's own transaction. Paid online (world → headquarters revenue) or from the store's 余额 (balance →
 * revenue). The yearly price is RENEWAL_YEAR_FEN (default 980000 fen = 9800.00 元); longer plans are cheaper per year.
 */

export function renewalPlans(env: NodeJS.ProcessEnv = process.env): RenewalPlan[] {
  const configured = Number(env.RENEWAL_YEAR_FEN);
  const year = Number.isSafeInteger(configured) && configured > 0 ? configured : 980_000;
  return [
    { planId: '1y', name: '1 年', months: 12, priceFen: year },
    { planId: '2y', name: '2 年（九折）', months: 24, priceFen: Math.round(year * 2 * 0.9) },
    { planId: '3y', name: '3 年（八折）', months: 36, priceFen: Math.round(year * 3 * 0.8) },
  ];
}

const pad = (n: number) => String(n).padStart(2, '0');
const dayText = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** `months` calendar months after the date (31 Jan + 1 month = 28/29 Feb, never 3 Mar). */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number);
  const target = new Date(y, m - 1 + months, 1);
  const last = new Date(target.getFullYear(), target.getMonth() + 1, 0).getDate();
  target.setDate(Math.min(d, last));
  return dayText(target);
}

/** Moves the licence forward: from its expiry while valid, from today once expired. In the payment's transaction. */
export async function extendLicence(trx: Db, months: number, orderNo: string, actor: PayActor): Promise<string> {
  const p = await trx.selectFrom('sysPlatform').select(['expiredate']).where('id', '=', 1).executeTakeFirstOrThrow();
  const from = isExpired(p) || !expiryTime(p.expiredate) ? dayText(new Date()) : p.expiredate;
  const next = addMonths(from, months);
  await trx.updateTable('sysPlatform').set({ expiredate: next, updateTime: Date.now() }).where('id', '=', 1).execute();
  await recordAction(
    trx,
    { targetType: 'platform', targetId: '1', storeId: 1, action: 'renew', from: p.expiredate, to: next, detail: `${orderNo} 续费 ${months} 个月` },
    actor,
  );
  return next;
}

/** index/freeNum: the plans, the current expiry and whether it has passed. */
export async function renewalInfo(db: Db) {
  const p = await db.selectFrom('sysPlatform').select(['expiredate']).where('id', '=', 1).executeTakeFirstOrThrow();
  const expired = isExpired(p);
  // licenceStatus: the 账户续费 screen's header figure (schemas/finance/fin_renewal_order.json x-header).
  return { plans: renewalPlans(), expiredate: p.expiredate, expired, licenceStatus: expired ? '已到期' : '使用中' };
}
