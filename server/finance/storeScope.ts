import type { Db } from '../db/types.js';
import { fail } from '../http/envelope.js';
import { intParam } from '../http/params.js';
import { type Actor, assertStore } from '../security/actor.js';
import { requireStore } from '../security/storeScope.js';

/**
 * Which store a finance call acts on. Headquarters staff (and the super admin) may name any store and default to
 * their own; everyone else acts on their own store only, and naming another one is refused (no silent fallback).
 * An account without a store is refused (账号未分配门店).
 */
export function storeOf(actor: Actor, requested: unknown, what = '财务数据'): number {
  const asked = intParam(requested);
  if (actor.allStores && asked && asked > 0) return asked;
  const own = requireStore(actor);
  if (!actor.allStores && asked && asked !== own) throw fail(`没有权限访问其他门店的${what}`);
  return own;
}

/**
 * A list filter by store: headquarters sees every store unless it names one; others only their own.
 * Answers undefined for "all stores".
 */
export function storeFilter(actor: Actor, requested: unknown, what = '财务数据'): number | undefined {
  const asked = intParam(requested);
  if (actor.allStores) return asked && asked > 0 ? asked : undefined;
  // An account without a store is told so rather than shown an empty list it cannot explain.
  const own = requireStore(actor);
  if (asked && asked !== own) throw fail(`没有权限访问其他门店的${what}`);
  return own;
}

/** The finance rows a store owns, each by its id column. */
const OWNED = { finBankAccount: 'bankId', finInvoiceHeader: 'headerId', finWithdrawal: 'withdrawId' } as const;

/**
 * One finance row a store owns (a bank account, an invoice header, a withdrawal) named by a request: its id and its
 * store, once the actor may act for that store (refused as for `what`); `missing` when there is no such row.
 */
export async function ownedRow(db: Db, actor: Actor, table: keyof typeof OWNED, requested: unknown, what: string, missing: string) {
  const id = intParam(requested);
  const row = id ? await db.selectFrom(table).select('storeId').where(OWNED[table], '=', id).executeTakeFirst() : undefined;
  if (!id || !row) throw fail(missing);
  assertStore(actor, row.storeId, what);
  return { id, storeId: row.storeId };
}

/**
 * An amount in integer fen (分) from a request: a positive safe integer, given as a number or a string of digits.
 * Negative, zero, fractional or non-numeric amounts are refused with one Chinese message.
 */
export function fenParam(v: unknown, title = '金额'): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : Number.NaN;
  if (!Number.isSafeInteger(n) || n <= 0) throw fail(`${title}必须是大于 0 的整数（分）`);
  return n;
}

/** Epoch ms of a 'YYYY-MM-DD' (start of that day, China time) or a number; undefined when absent or unreadable. */
export function dayParam(v: unknown, endOfDay = false): number | undefined {
  if (v == null || v === '') return undefined;
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(String(v));
  if (!m) throw fail('日期格式应为 YYYY-MM-DD');
  const start = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) - 8 * 3_600_000;
  return endOfDay ? start + 86_400_000 - 1 : start;
}
