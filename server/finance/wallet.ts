import type { Db } from '../db/types.js';
import { fail } from '../http/envelope.js';
import { ACCOUNT_NAMES, type AccountKind, balanceOf } from './ledger.js';
import { dayParam } from './storeScope.js';

/**
 * What the wallet pages show, read from the ledger: 账户余额 (the store's balance account and its statement),
 * 收款钱包 (the collection account; every fen of it is withdrawable), 付款钱包 (what the store paid headquarters out
 * of its balance: card releases, renewals, net of refunds — a view of outgoing balance postings, not an account of its
 * own; docs/finance.md), and the store's 资金流水 over all its accounts.
 */

/** Chinese names of the posting types (资金流水 类型). */
export const TXN_TYPE_NAMES: Record<string, string> = {
  opening: '期初余额',
  recharge: '充值',
  card_release: '发卡',
  card_purchase: '购卡',
  card_refund: '退卡',
  store_payment: '门店支付',
  store_refund: '退款',
  renewal: '账户续费',
  customer_payment: '客户在线支付',
  refund: '订单退款',
  withdraw_request: '提现申请',
  withdraw_paid: '提现打款',
  withdraw_reject: '提现驳回',
};

export interface StatementFilter {
  storeId: number;
  kinds: AccountKind[];
  /** Only money in (+) or out (−). */
  direction?: 'in' | 'out';
  type?: string;
  beginTime?: unknown;
  endTime?: unknown;
}

/** What the store has paid headquarters out of its balance (postings between its balance and HQ revenue, net). */
export async function paidToHeadquarters(db: Db, storeId: number): Promise<number> {
  const row = await db
    .selectFrom('finEntry as e')
    .select((eb) => eb.fn.sum<string | number>('e.amount').as('net'))
    .where('e.storeId', '=', storeId)
    .where('e.kind', '=', 'balance')
    .where(({ exists, selectFrom }) =>
      exists(selectFrom('finEntry as r').select('r.entryId').whereRef('r.txnId', '=', 'e.txnId').where('r.kind', '=', 'revenue')),
    )
    .executeTakeFirst();
  // Renewals the store paid online went world → revenue: the paid order names the store. (在线购卡 is a family's
  // purchase, not the store's payment.)
  const online = await db
    .selectFrom('finPayOrder')
    .select((eb) => eb.fn.sum<string | number>('amountFen').as('total'))
    .where('storeId', '=', storeId)
    .where('status', '=', 'paid')
    .where('provider', '<>', 'balance')
    .where('purpose', '=', 'renewal')
    .executeTakeFirst();
  return -Number(row?.net ?? 0) + Number(online?.total ?? 0);
}

/** Invoice amounts applied for and not rejected (待开票 + 已开票). */
export async function invoicedAmount(db: Db, storeId: number): Promise<number> {
  const row = await db
    .selectFrom('finInvoice')
    .select((eb) => eb.fn.sum<string | number>('amount').as('total'))
    .where('storeId', '=', storeId)
    .where('status', 'in', [0, 1])
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

/** The figures of one store's wallet pages (all in fen). */
export async function walletSummary(db: Db, storeId: number) {
  const store = await db.selectFrom('cusStore').select(['storeId', 'storeName']).where('storeId', '=', storeId).executeTakeFirst();
  if (!store) throw fail('门店不存在');
  const [balanceFen, collectionFen, withdrawPendingFen, paidFen, invoicedFen] = await Promise.all([
    balanceOf(db, storeId, 'balance'),
    balanceOf(db, storeId, 'collection'),
    balanceOf(db, storeId, 'withdrawPending'),
    paidToHeadquarters(db, storeId),
    invoicedAmount(db, storeId),
  ]);
  const withdrawn = await db
    .selectFrom('finWithdrawal')
    .select((eb) => eb.fn.sum<string | number>('amount').as('total'))
    .where('storeId', '=', storeId)
    .where('status', '=', 3)
    .executeTakeFirst();
  return {
    storeId: store.storeId,
    storeName: store.storeName,
    balanceFen,
    collectionFen,
    withdrawableFen: collectionFen,
    withdrawPendingFen,
    withdrawnFen: Number(withdrawn?.total ?? 0),
    paidFen,
    invoicedFen,
    invoiceableFen: Math.max(0, paidFen - invoicedFen),
  };
}

/** Stores headquarters may choose on the wallet pages. */
export async function storeChoices(db: Db) {
  return db.selectFrom('cusStore').select(['storeId', 'storeName']).where('status', '=', '0').orderBy('storeId').execute();
}

function statementQuery(db: Db, f: StatementFilter) {
  const begin = dayParam(f.beginTime);
  const end = dayParam(f.endTime, true);
  let q = db.selectFrom('finEntry as e').innerJoin('finTxn as t', 't.txnId', 'e.txnId').where('e.storeId', '=', f.storeId).where('e.kind', 'in', f.kinds);
  if (f.direction === 'in') q = q.where('e.amount', '>', 0);
  if (f.direction === 'out') q = q.where('e.amount', '<', 0);
  if (f.type) q = q.where('t.type', '=', f.type);
  if (begin !== undefined) q = q.where('e.createTime', '>=', begin);
  if (end !== undefined) q = q.where('e.createTime', '<=', end);
  return q;
}

/** The columns of a statement line, for one page and for the export alike. */
function statementRows(db: Db, f: StatementFilter) {
  return statementQuery(db, f).select([
    'e.entryId',
    'e.txnId',
    'e.storeId',
    'e.kind',
    'e.amount',
    'e.balanceAfter',
    'e.createTime',
    't.type',
    't.memo',
    't.refType',
    't.refId',
    't.userName',
  ]);
}

export type StatementRow = Awaited<ReturnType<typeof statement>>['rows'][number];

/** One page of a store's entries, newest first. */
export async function statement(db: Db, f: StatementFilter, paging: { pageSize: number; offset: number }) {
  const count = await statementQuery(db, f)
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirst();
  const rows = await statementRows(db, f).orderBy('e.entryId', 'desc').limit(paging.pageSize).offset(paging.offset).execute();
  return { total: Number(count?.n ?? 0), rows: rows.map(toRow) };
}

/** Every matching entry (for the xlsx export), newest first, in pages so memory stays flat. */
export async function* statementAll(db: Db, f: StatementFilter): AsyncGenerator<ReturnType<typeof toRow>> {
  let before: number | null = null;
  for (;;) {
    let q = statementRows(db, f);
    if (before !== null) q = q.where('e.entryId', '<', before);
    const rows = await q.orderBy('e.entryId', 'desc').limit(1000).execute();
    for (const r of rows) yield toRow(r);
    if (rows.length < 1000) return;
    before = Number(rows[rows.length - 1].entryId);
  }
}

function toRow(r: {
  entryId: number;
  txnId: number;
  storeId: number;
  kind: string;
  amount: number;
  balanceAfter: number;
  createTime: number;
  type: string;
  memo: string;
  refType: string | null;
  refId: string | null;
  userName: string | null;
}) {
  return {
    entryId: Number(r.entryId),
    txnId: Number(r.txnId),
    storeId: Number(r.storeId),
    kind: r.kind,
    kindName: ACCOUNT_NAMES[r.kind as AccountKind] ?? r.kind,
    type: r.type,
    typeName: TXN_TYPE_NAMES[r.type] ?? r.type,
    memo: r.memo,
    amountFen: Number(r.amount),
    balanceAfterFen: Number(r.balanceAfter),
    refType: r.refType,
    refId: r.refId,
    userName: r.userName,
    createTime: Number(r.createTime),
  };
}

/** The posting types each account can see (the 类型 filter's choices; static, so a long ledger costs nothing here). */
const TYPES_OF_KIND: Record<string, string[]> = {
  balance: ['opening', 'recharge', 'card_release', 'card_refund', 'store_payment', 'store_refund', 'renewal', 'refund'],
  collection: ['customer_payment', 'refund', 'withdraw_request', 'withdraw_reject'],
  withdrawPending: ['withdraw_request', 'withdraw_paid', 'withdraw_reject'],
};

export function typesOf(kinds: AccountKind[]) {
  const types = [...new Set(kinds.flatMap((k) => TYPES_OF_KIND[k] ?? []))];
  return types.map((t) => ({ value: t, label: TXN_TYPE_NAMES[t] ?? t }));
}
