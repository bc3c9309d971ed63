import type { Kysely } from 'kysely';
import type { AuthContext } from '../app.js';
import type { Database } from '../db/types.js';
import { ApiError, Code, fail } from '../http/envelope.js';
import { NO_STORE_MESSAGE, storeScopeOf } from '../security/storeScope.js';

export type Db = Kysely<Database>;

/** Membership card kinds (spec §3 Card release; user type 1–3 follows the card). Prices in fen, validity in days. */
export const CARD_KINDS: Record<number, { name: string; price: number; validDays: number; stockKey: string }> = {
  1: { name: '志愿卡', price: 39_800, validDays: 365, stockKey: 'no_vip_num' },
  2: { name: '升学卡', price: 59_800, validDays: 365, stockKey: 'no_vip_sx_num' },
  3: { name: '体验卡', price: 9_900, validDays: 30, stockKey: 'no_vip_ty_num' },
};

/** Spec §3 user type: 0 ordinary, 1 application-planning card, 2 further-study card, 3 experience card. */
export const USER_TYPES: Record<number, string> = { 0: '普通用户', 1: '志愿卡用户', 2: '升学卡用户', 3: '体验卡用户' };
/** Spec §3 VIP pay type. */
export const VIP_PAY_TYPES: Record<number, string> = { 0: '普通', 1: '用户绑卡', 2: '后台绑卡', 3: '在线购买', 4: '专家一对一' };
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

/** Who acts: user, display name, roles and the store they belong to. */
export interface Actor {
  userId: number;
  userName: string;
  roles: string[];
  /** null: the account has no store (sees no store's rows, may not act for a store). */
  storeId: number | null;
  /** Staff of a headquarters store and the super admin see every store (server/security/storeScope.ts). */
  allStores: boolean;
}

export async function actorOf(db: Db, auth: AuthContext | null | undefined): Promise<Actor> {
  if (!auth) throw new ApiError(Code.UNAUTHORIZED, '未登录或登录已过期，请先登录');
  const scope = await storeScopeOf(db, auth);
  return { userId: auth.userId, userName: scope.nickName || auth.userName, roles: auth.roles, storeId: scope.storeId, allStores: scope.allStores };
}

/** Refuses unless the actor may act on rows of the store. */
export function assertStore(actor: Actor, storeId: number, what = '数据'): void {
  if (!actor.allStores && actor.storeId == null) throw fail(NO_STORE_MESSAGE);
  if (!actor.allStores && storeId !== actor.storeId) throw fail(`没有权限访问其他门店的${what}`);
}

export function intParam(v: unknown): number | undefined {
  if (v == null || v === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? Math.trunc(n) : undefined;
}

export function idList(v: unknown): number[] {
  const parts = Array.isArray(v) ? v : v == null ? [] : String(v).split(/[,，]/);
  const ids = parts.map((p) => Number(String(p).trim())).filter((n) => Number.isInteger(n) && n > 0);
  return [...new Set(ids)];
}

export function text(v: unknown, max: number, title: string, required = false): string | null {
  const s = typeof v === 'string' ? v.trim() : v == null ? '' : String(v).trim();
  if (!s) {
    if (required) throw fail(`${title}不能为空`);
    return null;
  }
  if (s.length > max) throw fail(`${title}长度不能超过 ${max} 个字符`);
  return s;
}

export function paging(q: { pageNum?: unknown; pageSize?: unknown }): { pageNum: number; pageSize: number; offset: number } {
  const pageNum = Math.max(1, intParam(q.pageNum) ?? 1);
  const pageSize = intParam(q.pageSize) ?? 20;
  if (pageSize < 1 || pageSize > 500) throw fail('每页条数应在 1 到 500 之间', 400);
  return { pageNum, pageSize, offset: (pageNum - 1) * pageSize };
}

/** Card numbers are integers in storage and text on the wire (no precision surprises in the console). */
export function cardNoParam(v: unknown): number {
  const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '';
  if (!/^\d{1,15}$/.test(s)) throw fail('请输入正确的卡号');
  return Number(s);
}
