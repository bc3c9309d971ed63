import { fail } from '../http/envelope.js';

/** Membership card kinds (spec §3 Card release; user type 1–3 follows the card). Prices in fen, validity in days. */
export { CARD_KINDS } from '../../common/customer/cardKinds.js';

export const PAY_USER_BINDS = 1;
export const PAY_BACKEND_BINDS = 2;
export const PAY_ONLINE = 3;

export const CARD_STATUS_NAMES: Record<string, string> = { unused: '未使用', activated: '已激活', expired: '已过期', voided: '已作废' };
export const CUSTOMER_STATUS_NAMES: Record<string, string> = { active: '正常', recycled: '回收站', purged: '已清除' };

/** A single release is at most this many cards (the 10,000-card batch of the issue, with headroom). */
export const MAX_RELEASE = 20_000;
/** Recycled customers are purged after this many days (docs/customer.md). */
export const RECYCLE_RETENTION_DAYS = 30;
export const DAY_MS = 86_400_000;

/** Card numbers are integers in storage and text on the wire (no precision surprises in the console). */
export function cardNoParam(v: unknown): number {
  const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '';
  if (!/^\d{1,15}$/.test(s)) throw fail('请输入正确的卡号');
  return Number(s);
}
