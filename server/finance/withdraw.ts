import { sql } from 'kysely';
import { WITHDRAW_STATUS, yuanText } from '../../common/finance/checks.js';
import type { Db } from '../db/types.js';
import { fail } from '../http/envelope.js';
import { intParam, text } from '../http/params.js';
import type { Actor } from '../security/actor.js';
import { audit, trail } from './audit.js';
import { maskCardNo } from './bank.js';
import { LedgerDuplicate, post, yuan } from './ledger.js';
import { fenParam } from './storeScope.js';

/**
 * Withdrawals from the collection wallet (commitCash / cashList, headquarters review). States:
 *   0 待审核 → 1 已通过 → 3 已打款;  0 待审核 | 1 已通过 → 2 已驳回.
 * The request moves the money at once from 收款钱包 to 提现冻结 (collection → withdrawPending), so requests that
 * together exceed the wallet are refused by the ledger's conditional UPDATE, never overdrawn. Paid: withdrawPending →
 * world (the bank transfer went out, with its reference). Rejected: withdrawPending → collection (money back).
 * Every transition is a conditional UPDATE on the expected state (two reviewers cannot both act) plus a fin_action row.
 */

export const STATUS = { pending: 0, approved: 1, rejected: 2, paid: 3 } as const;
type Params = Record<string, unknown>;

export async function commitCash(db: Db, actor: Actor, storeId: number, p: Params) {
  const amount = fenParam(p.amountFen ?? p.amount, '提现金额');
  const bankId = intParam(p.bankId);
  const remark = text(p.remark, 200, '备注');
  // An optional client key makes a retried submit (double click, network retry) one withdrawal, not two.
  const requestKey = text(p.requestKey, 64, '请求编号');
  const bank = bankId ? await db.selectFrom('finBankAccount').selectAll().where('bankId', '=', bankId).where('status', '=', '0').executeTakeFirst() : undefined;
  if (!bank || bank.storeId !== storeId) throw fail('请选择提现到账的银行账户');
  if (Number(bank.verified) !== 1) throw fail('该银行账户尚未通过总部核验，暂不能提现');
  return db.transaction().execute(async (trx) => {
    const now = Date.now();
    const row = await trx
      .insertInto('finWithdrawal')
      .values({
        storeId,
        bankId: bank.bankId,
        amount,
        accountName: bank.accountName,
        bankName: bank.bankName,
        cardNo: bank.cardNo,
        status: STATUS.pending,
        remark,
        reason: null,
        bankRef: null,
        requestKey,
        createBy: actor.userName,
        createTime: now,
        updateTime: now,
        version: 1,
      })
      .onConflict((oc) => oc.columns(['storeId', 'requestKey']).doNothing())
      .returning('withdrawId')
      .executeTakeFirst();
    if (!row) {
      const same = await trx
        .selectFrom('finWithdrawal')
        .select(['withdrawId', 'amount'])
        .where('storeId', '=', storeId)
        .where('requestKey', '=', requestKey)
        .executeTakeFirstOrThrow();
      return { withdrawId: same.withdrawId, amountFen: Number(same.amount), repeated: true };
    }
    await post(trx, {
      type: 'withdraw_request',
      memo: `提现申请（${bank.bankName} ${maskCardNo(bank.cardNo)}）`,
      refType: 'withdrawal',
      refId: String(row.withdrawId),
      idempotencyKey: `withdraw:${row.withdrawId}:request`,
      userId: actor.userId,
      userName: actor.userName,
      lines: [
        { storeId, kind: 'collection', amount: -amount },
        { storeId, kind: 'withdrawPending', amount },
      ],
    });
    await audit(trx, actor, {
      targetType: 'withdrawal',
      targetId: row.withdrawId,
      storeId,
      action: '申请提现',
      from: null,
      to: STATUS.pending,
      detail: `${yuan(amount)} 元`,
    });
    return { withdrawId: row.withdrawId, amountFen: amount, repeated: false };
  });
}

export async function listWithdrawals(db: Db, storeId: number | undefined, p: Params, paging: { pageSize: number; offset: number }) {
  const status = intParam(p.status);
  const base = () => {
    let q = db.selectFrom('finWithdrawal as w').innerJoin('cusStore as s', 's.storeId', 'w.storeId');
    if (storeId !== undefined) q = q.where('w.storeId', '=', storeId);
    if (status !== undefined) q = q.where('w.status', '=', status);
    return q;
  };
  const count = await base()
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirst();
  const rows = await base()
    .select([
      'w.withdrawId',
      'w.storeId',
      's.storeName',
      'w.amount',
      'w.accountName',
      'w.bankName',
      'w.cardNo',
      'w.status',
      'w.remark',
      'w.reason',
      'w.bankRef',
      'w.createBy',
      'w.createTime',
      'w.updateTime',
      'w.version',
    ])
    .orderBy('w.withdrawId', 'desc')
    .limit(paging.pageSize)
    .offset(paging.offset)
    .execute();
  return {
    total: Number(count?.n ?? 0),
    rows: rows.map(({ amount, cardNo, ...r }) => ({
      ...r,
      amountFen: Number(amount),
      // The console's confirm texts name the amount in yuan (schemas/finance/fin_withdrawal.json).
      amountYuan: yuanText(Number(amount)),
      cardNoMasked: maskCardNo(cardNo),
      statusName: WITHDRAW_STATUS[r.status] ?? String(r.status),
      createTime: Number(r.createTime),
      updateTime: r.updateTime == null ? null : Number(r.updateTime),
    })),
  };
}

export async function withdrawalDetail(db: Db, withdrawId: number) {
  return trail(db, 'withdrawal', withdrawId);
}

/** Moves a withdrawal from one of `from` to `to`, refusing when another reviewer moved it first. */
async function transition(trx: Db, withdrawId: number | undefined, from: number[], to: number, set: { reason?: string; bankRef?: string }) {
  const row = withdrawId ? await trx.selectFrom('finWithdrawal').selectAll().where('withdrawId', '=', withdrawId).executeTakeFirst() : undefined;
  if (!withdrawId || !row) throw fail('提现申请不存在');
  if (!from.includes(row.status))
    throw fail(`该提现申请当前为“${WITHDRAW_STATUS[row.status]}”，不能${to === STATUS.approved ? '通过' : to === STATUS.paid ? '打款' : '驳回'}`);
  const res = await trx
    .updateTable('finWithdrawal')
    .set({
      status: to,
      updateTime: Date.now(),
      version: sql`version + 1`,
      ...(set.reason ? { reason: set.reason } : {}),
      ...(set.bankRef ? { bankRef: set.bankRef } : {}),
    })
    .where('withdrawId', '=', withdrawId)
    .where('status', '=', row.status)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw fail('该提现申请已被他人处理，请刷新后重试');
  return row;
}

export async function approveCash(db: Db, actor: Actor, p: Params) {
  const withdrawId = intParam(p.withdrawId);
  return db.transaction().execute(async (trx) => {
    const row = await transition(trx, withdrawId, [STATUS.pending], STATUS.approved, {});
    await audit(trx, actor, {
      targetType: 'withdrawal',
      targetId: row.withdrawId,
      storeId: row.storeId,
      action: '审核通过',
      from: row.status,
      to: STATUS.approved,
    });
  });
}

export async function payCash(db: Db, actor: Actor, p: Params) {
  const withdrawId = intParam(p.withdrawId);
  const bankRef = text(p.bankRef, 64, '银行流水号', true) as string;
  return db.transaction().execute(async (trx) => {
    const row = await transition(trx, withdrawId, [STATUS.approved], STATUS.paid, { bankRef });
    const amount = Number(row.amount);
    await postOnce(trx, {
      type: 'withdraw_paid',
      memo: `提现打款（流水号 ${bankRef}）`,
      refType: 'withdrawal',
      refId: String(row.withdrawId),
      idempotencyKey: `withdraw:${row.withdrawId}:paid`,
      userId: actor.userId,
      userName: actor.userName,
      lines: [
        { storeId: row.storeId, kind: 'withdrawPending', amount: -amount },
        { storeId: 0, kind: 'world', amount },
      ],
    });
    await audit(trx, actor, {
      targetType: 'withdrawal',
      targetId: row.withdrawId,
      storeId: row.storeId,
      action: '已打款',
      from: row.status,
      to: STATUS.paid,
      detail: `银行流水号 ${bankRef}`,
    });
  });
}

export async function rejectCash(db: Db, actor: Actor, p: Params) {
  const withdrawId = intParam(p.withdrawId);
  const reason = text(p.reason, 200, '驳回原因', true) as string;
  return db.transaction().execute(async (trx) => {
    const row = await transition(trx, withdrawId, [STATUS.pending, STATUS.approved], STATUS.rejected, { reason });
    const amount = Number(row.amount);
    await postOnce(trx, {
      type: 'withdraw_reject',
      memo: `提现驳回，退回收款钱包：${reason}`,
      refType: 'withdrawal',
      refId: String(row.withdrawId),
      idempotencyKey: `withdraw:${row.withdrawId}:reject`,
      userId: actor.userId,
      userName: actor.userName,
      lines: [
        { storeId: row.storeId, kind: 'withdrawPending', amount: -amount },
        { storeId: row.storeId, kind: 'collection', amount },
      ],
    });
    await audit(trx, actor, {
      targetType: 'withdrawal',
      targetId: row.withdrawId,
      storeId: row.storeId,
      action: '驳回',
      from: row.status,
      to: STATUS.rejected,
      detail: reason,
    });
  });
}

/** The state guard already makes these postings happen once; the key is a second lock on the same door. */
async function postOnce(trx: Db, p: Parameters<typeof post>[1]) {
  try {
    await post(trx, p);
  } catch (error) {
    if (error instanceof LedgerDuplicate) throw fail('该提现申请已处理');
    throw error;
  }
}
