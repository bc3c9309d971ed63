import type { Db } from '../db/types.js';
import { balanceOf, HQ_STORE, post } from '../finance/index.js';
import { fail } from '../http/envelope.js';

/**
 * The one place a card sale or refund moves a store's balance (integer fen). Since finance (issue 11) each movement
 * is a double-entry ledger posting (server/finance/ledger.ts): a debit moves money from the store's 余额 account to
 * headquarters' revenue, a credit moves it back. The ledger's conditional UPDATE (balance + amount >= 0) refuses a
 * debit that the balance cannot cover, so two concurrent debits cannot both pass a check made before either wrote.
 * cus_store.balance is kept in step by the ledger as a mirror; every movement also leaves one cus_balance_log row.
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
  /** The ledger posting type (default: card_release for a card batch debit, store_payment / store_refund otherwise). */
  type?: string;
}

function checkAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw fail('金额必须是大于 0 的整数（分）');
}

async function assertStoreExists(trx: Db, storeId: number): Promise<void> {
  const row = await trx.selectFrom('cusStore').select('storeId').where('storeId', '=', storeId).executeTakeFirst();
  if (!row) throw fail('门店不存在');
}

export async function storeBalance(trx: Db, storeId: number): Promise<number> {
  await assertStoreExists(trx, storeId);
  return balanceOf(trx, storeId, 'balance');
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

function posting(m: Movement, type: string, amount: number) {
  return {
    type,
    memo: m.reason,
    refType: m.refType,
    refId: m.refId == null ? undefined : String(m.refId),
    userId: m.userId,
    userName: m.userName,
    lines: [
      { storeId: m.storeId, kind: 'balance' as const, amount },
      { storeId: HQ_STORE, kind: 'revenue' as const, amount: -amount },
    ],
  };
}

/** Takes `amount` fen off the store's balance; refuses (门店余额不足) and changes nothing when it is not there. */
export async function debit(trx: Db, m: Movement): Promise<number> {
  checkAmount(m.amount);
  await assertStoreExists(trx, m.storeId);
  const type = m.type ?? (m.refType === 'card_batch' ? 'card_release' : 'store_payment');
  await post(trx, posting(m, type, -m.amount));
  return log(trx, m, -m.amount);
}

/** Gives `amount` fen back to the store's balance from headquarters' revenue (a refund). */
export async function credit(trx: Db, m: Movement): Promise<number> {
  checkAmount(m.amount);
  await assertStoreExists(trx, m.storeId);
  await post(trx, posting(m, m.type ?? 'store_refund', m.amount));
  return log(trx, m, m.amount);
}

export const yuan = (fen: number) => (fen / 100).toFixed(2);
