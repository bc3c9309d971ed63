import { sql } from 'kysely';
import { fail } from '../http/envelope.js';
import type { Db } from './common.js';

/**
 * The one place a store's balance (integer fen) changes. Finance (issue 11) replaces the inside of these two
 * functions with double-entry ledger postings; callers keep calling debit / credit inside their own transaction.
 * A debit never takes the balance below zero: the UPDATE is conditional (balance >= amount), so two concurrent
 * debits cannot both pass a check made before either wrote. Every movement leaves one cus_balance_log row.
 */

export interface Movement {
  storeId: number;
  /** Positive fen. */
  amount: number;
  reason: string;
  refType?: string;
  refId?: number;
  userId?: number;
  userName?: string;
}

function checkAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw fail('金额必须是大于 0 的整数（分）');
}

export async function storeBalance(trx: Db, storeId: number): Promise<number> {
  const row = await trx.selectFrom('cusStore').select('balance').where('storeId', '=', storeId).executeTakeFirst();
  if (!row) throw fail('门店不存在');
  return Number(row.balance);
}

async function log(trx: Db, m: Movement, signed: number): Promise<number> {
  const after = await storeBalance(trx, m.storeId);
  await trx
    .insertInto('cusBalanceLog')
    .values({
      storeId: m.storeId,
      amount: signed,
      balanceAfter: after,
      reason: m.reason,
      refType: m.refType ?? null,
      refId: m.refId ?? null,
      userId: m.userId ?? null,
      userName: m.userName ?? null,
      createTime: Date.now(),
    })
    .execute();
  return after;
}

/** Takes `amount` fen off the store's balance; refuses (余额不足) and changes nothing when it is not there. */
export async function debit(trx: Db, m: Movement): Promise<number> {
  checkAmount(m.amount);
  const res = await trx
    .updateTable('cusStore')
    .set({ balance: sql`balance - ${m.amount}`, version: sql`version + 1` })
    .where('storeId', '=', m.storeId)
    .where('balance', '>=', m.amount)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) {
    const have = await storeBalance(trx, m.storeId);
    throw fail(`门店余额不足：需要 ${yuan(m.amount)} 元，当前余额 ${yuan(have)} 元`);
  }
  return log(trx, m, -m.amount);
}

/** Adds `amount` fen to the store's balance. */
export async function credit(trx: Db, m: Movement): Promise<number> {
  checkAmount(m.amount);
  const res = await trx
    .updateTable('cusStore')
    .set({ balance: sql`balance + ${m.amount}`, version: sql`version + 1` })
    .where('storeId', '=', m.storeId)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw fail('门店不存在');
  return log(trx, m, m.amount);
}

export const yuan = (fen: number) => (fen / 100).toFixed(2);
