import { sql } from 'kysely';
import type { Db } from '../db/types.js';
import { fail } from '../http/envelope.js';

/**
 * The double-entry ledger (docs/finance.md). Every movement of money is one balanced posting: a fin_txn row and
 * at least two insert-only fin_entry lines that sum to exactly 0 fen. Each account keeps a cached balance that
 * checkLedger compares with the sum of its entries. No account except the outside world ('world') may go below 0:
 * the cached balance changes only through a conditional UPDATE (balance + amount >= 0), so two concurrent postings
 * cannot both spend the same fen, and accounts are updated in account-id order so concurrent postings never deadlock.
 */

export type AccountKind =
  | 'balance' // store 余额 (prepaid; pays cards and renewal)
  | 'collection' // store 收款钱包 (customers' online payments; withdrawable)
  | 'payment' // store 付款钱包: reserved; the 付款钱包 page is a view of what left the balance (docs/finance.md)
  | 'withdrawPending' // store: collection money held while a withdrawal is reviewed
  | 'revenue' // headquarters: income from card sales, renewals (storeId 1)
  | 'world'; // the outside world (banks, providers, families): the ONLY account that may go negative (storeId 0)

export const ACCOUNT_KINDS: readonly AccountKind[] = ['balance', 'collection', 'payment', 'withdrawPending', 'revenue', 'world'];
export const WORLD_STORE = 0;
export const HQ_STORE = 1;

/** What runs short, for the refusal message (门店余额不足：…, the message card release always gave). */
const SHORT_OF: Record<AccountKind, string> = {
  balance: '门店余额',
  collection: '收款钱包余额',
  payment: '付款钱包余额',
  withdrawPending: '提现冻结金额',
  revenue: '总部收入余额',
  world: '外部',
};

/** Chinese account names used in the 资金流水 screens. */
export const ACCOUNT_NAMES: Record<AccountKind, string> = {
  balance: '门店余额',
  collection: '收款钱包',
  payment: '付款钱包',
  withdrawPending: '提现冻结',
  revenue: '总部收入',
  world: '外部',
};

export interface Line {
  storeId: number;
  kind: AccountKind;
  /** Signed fen: + raises this account. */
  amount: number;
}

export interface Posting {
  /** e.g. 'recharge', 'card_release', 'card_refund', 'withdraw_request', 'withdraw_paid', 'withdraw_reject', 'customer_payment', 'refund', 'renewal', 'opening' */
  type: string;
  /** Chinese, shown in 资金流水. */
  memo: string;
  refType?: string;
  refId?: string;
  /** Unique when given: posting the same key twice throws LedgerDuplicate (the caller treats it as already done). */
  idempotencyKey?: string;
  userId?: number;
  userName?: string;
  /** At least 2; integers; sum exactly 0. */
  lines: Line[];
}

/** The idempotency key was posted before: nothing was written this time. */
export class LedgerDuplicate extends Error {
  constructor(readonly idempotencyKey: string) {
    super(`重复的记账请求：${idempotencyKey}`);
    this.name = 'LedgerDuplicate';
  }
}

export const yuan = (fen: number) => (fen / 100).toFixed(2);

function validate(p: Posting): void {
  if (!p.type || !p.memo) throw new Error('ledger: a posting needs a type and a memo');
  if (!Array.isArray(p.lines) || p.lines.length < 2) throw new Error('ledger: a posting needs at least two lines');
  let sum = 0;
  for (const l of p.lines) {
    if (!ACCOUNT_KINDS.includes(l.kind)) throw new Error(`ledger: unknown account kind ${String(l.kind)}`);
    if (!Number.isSafeInteger(l.storeId) || l.storeId < 0) throw new Error(`ledger: bad store id ${String(l.storeId)}`);
    if ((l.kind === 'world') !== (l.storeId === WORLD_STORE)) throw new Error('ledger: the world account is store 0, and only it');
    // Amounts are checked by the business code with Chinese messages first; here a bad one is a programming error.
    if (!Number.isSafeInteger(l.amount)) throw fail('金额必须是整数（分）');
    sum += l.amount;
  }
  if (sum !== 0) throw new Error(`ledger: lines must sum to 0, got ${sum}`);
}

/** The account's id, creating the account (balance 0) on first use. */
async function accountId(trx: Db, storeId: number, kind: AccountKind): Promise<number> {
  const found = await trx.selectFrom('finAccount').select('accountId').where('storeId', '=', storeId).where('kind', '=', kind).executeTakeFirst();
  if (found) return Number(found.accountId);
  await trx
    .insertInto('finAccount')
    .values({ storeId, kind, balance: 0, version: 1, createTime: Date.now() })
    .onConflict((oc) => oc.columns(['storeId', 'kind']).doNothing())
    .execute();
  const made = await trx.selectFrom('finAccount').select('accountId').where('storeId', '=', storeId).where('kind', '=', kind).executeTakeFirstOrThrow();
  return Number(made.accountId);
}

/**
 * Writes one balanced transaction inside the caller's DB transaction (or its own when given the plain database).
 * Refuses with a Chinese message naming the account and amounts, and writes nothing, when an account other than
 * 'world' would go below 0.
 */
export async function post(trx: Db, p: Posting): Promise<{ txnId: number }> {
  validate(p);
  if (!trx.isTransaction) return trx.transaction().execute((t) => post(t, p));
  const now = Date.now();

  // Idempotency gate first: a replay inserts nothing (ON CONFLICT DO NOTHING keeps a PostgreSQL transaction usable).
  const inserted = await trx
    .insertInto('finTxn')
    .values({
      type: p.type,
      memo: p.memo,
      refType: p.refType ?? null,
      refId: p.refId ?? null,
      idempotencyKey: p.idempotencyKey ?? null,
      userId: p.userId ?? null,
      userName: p.userName ?? null,
      createTime: now,
    })
    .onConflict((oc) => oc.column('idempotencyKey').doNothing())
    .returning('txnId')
    .executeTakeFirst();
  if (!inserted) throw new LedgerDuplicate(p.idempotencyKey ?? '');
  const txnId = Number(inserted.txnId);

  // One movement per account (lines on the same account are merged), applied in account-id order.
  const moves = new Map<number, Line & { accountId: number }>();
  for (const l of p.lines) {
    const id = await accountId(trx, l.storeId, l.kind);
    const m = moves.get(id);
    if (m) m.amount += l.amount;
    else moves.set(id, { ...l, accountId: id });
  }
  const ordered = [...moves.values()].sort((a, b) => a.accountId - b.accountId);
  for (const m of ordered) {
    let q = trx
      .updateTable('finAccount')
      .set({ balance: sql`balance + ${m.amount}`, version: sql`version + 1` })
      .where('accountId', '=', m.accountId);
    if (m.kind !== 'world') q = q.where(sql<boolean>`balance + ${m.amount} >= 0`);
    const row = await q.returning('balance').executeTakeFirst();
    if (!row) {
      const have = await balanceOf(trx, m.storeId, m.kind);
      // Throwing rolls back the caller's transaction: nothing of this posting (nor the business change) stays.
      throw fail(`${SHORT_OF[m.kind]}不足：需要 ${yuan(-m.amount)} 元，当前余额 ${yuan(have)} 元`);
    }
    const after = Number(row.balance);
    await trx
      .insertInto('finEntry')
      .values({ txnId, accountId: m.accountId, storeId: m.storeId, kind: m.kind, amount: m.amount, balanceAfter: after, createTime: now })
      .execute();
    // cus_store.balance stays a mirror of the store's 余额 account (card screens read it).
    if (m.kind === 'balance') await trx.updateTable('cusStore').set({ balance: after, version: sql`version + 1` }).where('storeId', '=', m.storeId).execute();
  }
  return { txnId };
}

export async function balanceOf(db: Db, storeId: number, kind: AccountKind): Promise<number> {
  const row = await db.selectFrom('finAccount').select('balance').where('storeId', '=', storeId).where('kind', '=', kind).executeTakeFirst();
  return row ? Number(row.balance) : 0;
}

/** Sum of every entry (must be 0) and per-account mismatches between cached balance and sum of entries. */
export async function checkLedger(db: Db): Promise<{ total: number; mismatches: Array<{ accountId: number; cached: number; summed: number }> }> {
  const total = await db
    .selectFrom('finEntry')
    .select((eb) => eb.fn.sum<string | number>('amount').as('total'))
    .executeTakeFirst();
  const sums = await db
    .selectFrom('finEntry')
    .select(['accountId', (eb) => eb.fn.sum<string | number>('amount').as('summed')])
    .groupBy('accountId')
    .execute();
  const summed = new Map(sums.map((r) => [Number(r.accountId), Number(r.summed)]));
  const accounts = await db.selectFrom('finAccount').select(['accountId', 'balance']).orderBy('accountId').execute();
  const mismatches: Array<{ accountId: number; cached: number; summed: number }> = [];
  for (const a of accounts) {
    const s = summed.get(Number(a.accountId)) ?? 0;
    if (s !== Number(a.balance)) mismatches.push({ accountId: Number(a.accountId), cached: Number(a.balance), summed: s });
  }
  return { total: Number(total?.total ?? 0), mismatches };
}
