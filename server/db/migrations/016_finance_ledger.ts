import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';
import { epoch, type Migration, notNull, text, withId } from './helpers.js';

/**
 * The finance ledger (server/finance/ledger.ts, docs/finance.md): double-entry, integer fen.
 *  - fin_account: one row per (store, kind); `balance` is a cache of the sum of its entries, changed only by
 *    conditional UPDATEs in ledger.post (never below 0 except the 'world' account).
 *  - fin_txn: one row per balanced posting; `idempotency_key` unique when given (a notification or request
 *    replayed twice posts once).
 *  - fin_entry: insert-only lines (triggers refuse UPDATE and DELETE); corrections are new postings.
 * Existing store balances (cus_store.balance, a mirror from now on) become 'opening' postings from the world.
 * Also the tables of withdrawals, bank accounts and invoices (server/finance/{bank,withdraw,invoice}.ts).
 */
export const migration016: Migration = {
  name: '016_finance_ledger',
  async up(db: Kysely<unknown>, dialect: Dialect) {
    await withId(db.schema.createTable('fin_account'), 'account_id', dialect)
      .addColumn('store_id', 'integer', notNull) // 0 = the outside world
      .addColumn('kind', text, notNull) // balance | collection | payment | withdrawPending | revenue | world
      .addColumn('balance', epoch, (c) => c.notNull().defaultTo(0)) // fen, cache of sum(fin_entry.amount)
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('create_time', epoch, notNull)
      .execute();
    await db.schema.createIndex('fin_account_store_kind').unique().on('fin_account').columns(['store_id', 'kind']).execute();

    await withId(db.schema.createTable('fin_txn'), 'txn_id', dialect)
      .addColumn('type', text, notNull)
      .addColumn('memo', text, notNull)
      .addColumn('ref_type', text)
      .addColumn('ref_id', text)
      .addColumn('idempotency_key', text)
      .addColumn('user_id', 'integer')
      .addColumn('user_name', text)
      .addColumn('create_time', epoch, notNull)
      .execute();
    await db.schema.createIndex('fin_txn_idem').unique().on('fin_txn').column('idempotency_key').execute();
    await db.schema.createIndex('fin_txn_ref').on('fin_txn').columns(['ref_type', 'ref_id']).execute();

    await withId(db.schema.createTable('fin_entry'), 'entry_id', dialect)
      .addColumn('txn_id', 'integer', (c) => c.notNull().references('fin_txn.txn_id'))
      .addColumn('account_id', 'integer', (c) => c.notNull().references('fin_account.account_id'))
      .addColumn('store_id', 'integer', notNull)
      .addColumn('kind', text, notNull)
      .addColumn('amount', epoch, notNull) // signed fen
      .addColumn('balance_after', epoch, notNull)
      .addColumn('create_time', epoch, notNull)
      .execute();
    await db.schema.createIndex('fin_entry_account').on('fin_entry').columns(['account_id', 'entry_id']).execute();
    await db.schema.createIndex('fin_entry_store').on('fin_entry').columns(['store_id', 'kind', 'create_time']).execute();
    await db.schema.createIndex('fin_entry_txn').on('fin_entry').column('txn_id').execute();

    // Entries are never changed nor removed: the database itself refuses.
    if (dialect === 'sqlite') {
      await sql`CREATE TRIGGER fin_entry_no_update BEFORE UPDATE ON fin_entry BEGIN SELECT RAISE(ABORT, 'fin_entry is insert-only'); END`.execute(db);
      await sql`CREATE TRIGGER fin_entry_no_delete BEFORE DELETE ON fin_entry BEGIN SELECT RAISE(ABORT, 'fin_entry is insert-only'); END`.execute(db);
    } else {
      await sql`CREATE FUNCTION fin_entry_insert_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'fin_entry is insert-only'; END $$`.execute(
        db,
      );
      await sql`CREATE TRIGGER fin_entry_no_change BEFORE UPDATE OR DELETE ON fin_entry FOR EACH ROW EXECUTE FUNCTION fin_entry_insert_only()`.execute(db);
    }

    // Bank accounts a store withdraws to (headquarters marks them verified).
    await withId(db.schema.createTable('fin_bank_account'), 'bank_id', dialect)
      .addColumn('store_id', 'integer', notNull)
      .addColumn('account_name', text, notNull)
      .addColumn('bank_name', text, notNull)
      .addColumn('branch', text)
      .addColumn('card_no', text, notNull)
      .addColumn('verified', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('verified_by', text)
      .addColumn('verified_time', epoch)
      .addColumn('status', text, (c) => c.notNull().defaultTo('0')) // 0 in use, 1 removed
      .addColumn('create_by', text)
      .addColumn('create_time', epoch, notNull)
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema.createIndex('fin_bank_account_store').on('fin_bank_account').columns(['store_id', 'bank_id']).execute();

    // Withdrawals: 0 待审核 → 1 已通过 → 3 已打款 | 2 已驳回 (from 待审核 or 已通过).
    await withId(db.schema.createTable('fin_withdrawal'), 'withdraw_id', dialect)
      .addColumn('store_id', 'integer', notNull)
      .addColumn('bank_id', 'integer', notNull)
      .addColumn('amount', epoch, notNull) // fen
      .addColumn('account_name', text, notNull)
      .addColumn('bank_name', text, notNull)
      .addColumn('card_no', text, notNull)
      .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('remark', text)
      .addColumn('reason', text)
      .addColumn('bank_ref', text)
      .addColumn('request_key', text)
      .addColumn('create_by', text)
      .addColumn('create_time', epoch, notNull)
      .addColumn('update_time', epoch)
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema.createIndex('fin_withdrawal_store').on('fin_withdrawal').columns(['store_id', 'withdraw_id']).execute();
    await db.schema.createIndex('fin_withdrawal_status').on('fin_withdrawal').columns(['status', 'withdraw_id']).execute();
    await db.schema.createIndex('fin_withdrawal_request').unique().on('fin_withdrawal').columns(['store_id', 'request_key']).execute();

    // Invoice headers and invoices: 0 待开票, 1 已开票, 2 已驳回.
    await withId(db.schema.createTable('fin_invoice_header'), 'header_id', dialect)
      .addColumn('store_id', 'integer', notNull)
      .addColumn('title', text, notNull)
      .addColumn('tax_no', text, notNull)
      .addColumn('address', text)
      .addColumn('phone', text)
      .addColumn('bank_name', text)
      .addColumn('bank_account', text)
      .addColumn('status', text, (c) => c.notNull().defaultTo('0'))
      .addColumn('create_by', text)
      .addColumn('create_time', epoch, notNull)
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema.createIndex('fin_invoice_header_store').on('fin_invoice_header').columns(['store_id', 'header_id']).execute();

    await withId(db.schema.createTable('fin_invoice'), 'invoice_id', dialect)
      .addColumn('store_id', 'integer', notNull)
      .addColumn('header_id', 'integer', notNull)
      .addColumn('title', text, notNull)
      .addColumn('tax_no', text, notNull)
      .addColumn('header_json', text, notNull)
      .addColumn('amount', epoch, notNull) // fen
      .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('remark', text)
      .addColumn('reason', text)
      .addColumn('invoice_no', text)
      .addColumn('file_name', text)
      .addColumn('file_path', text)
      .addColumn('create_by', text)
      .addColumn('create_time', epoch, notNull)
      .addColumn('update_time', epoch)
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema.createIndex('fin_invoice_store').on('fin_invoice').columns(['store_id', 'invoice_id']).execute();
    await db.schema.createIndex('fin_invoice_status').on('fin_invoice').columns(['status', 'invoice_id']).execute();

    // The audit trail of the withdrawal and invoice state machines.
    await withId(db.schema.createTable('fin_action'), 'action_id', dialect)
      .addColumn('target_type', text, notNull) // withdrawal | invoice | bank
      .addColumn('target_id', 'integer', notNull)
      .addColumn('store_id', 'integer', notNull)
      .addColumn('action', text, notNull)
      .addColumn('from_status', 'integer')
      .addColumn('to_status', 'integer')
      .addColumn('detail', text)
      .addColumn('user_id', 'integer')
      .addColumn('user_name', text)
      .addColumn('create_time', epoch, notNull)
      .execute();
    await db.schema.createIndex('fin_action_target').on('fin_action').columns(['target_type', 'target_id']).execute();

    // Balances that exist already (a database from before the ledger) become opening postings from the world, and
    // what stores paid headquarters for cards before it (cus_balance_log, debits net of credits) becomes
    // headquarters' opening revenue, so a refund of such a card has revenue to come from.
    const now = Date.now();
    const stores = (await sql<Raw>`select store_id, balance from cus_store where balance <> 0 order by store_id`.execute(db)).rows.map((r) => ({
      storeId: Number(col(r, 'store_id')),
      amount: Number(col(r, 'balance')),
    }));
    const logged = (await sql<Raw>`select coalesce(sum(amount), 0) as total from cus_balance_log`.execute(db)).rows[0];
    const revenue = -Number(col(logged ?? {}, 'total') ?? 0);
    const openings = stores.map((s) => ({ ...s, kind: 'balance', key: `opening:${s.storeId}` }));
    if (revenue > 0) openings.push({ storeId: 1, amount: revenue, kind: 'revenue', key: 'opening:revenue' });
    if (openings.length) {
      await sql`insert into fin_account (store_id, kind, balance, version, create_time) values (0, 'world', 0, 1, ${now})`.execute(db);
    }
    for (const o of openings) {
      const memo = o.kind === 'revenue' ? '期初收入（账本启用前的发卡收入）' : '期初余额';
      const txn = await sql<Raw>`insert into fin_txn (type, memo, ref_type, ref_id, idempotency_key, user_name, create_time)
        values ('opening', ${memo}, 'store', ${String(o.storeId)}, ${o.key}, '系统', ${now}) returning txn_id`.execute(db);
      const txnId = Number(col(txn.rows[0], 'txn_id'));
      const acc = await sql<Raw>`insert into fin_account (store_id, kind, balance, version, create_time)
        values (${o.storeId}, ${o.kind}, ${o.amount}, 1, ${now}) returning account_id`.execute(db);
      const world = await sql<Raw>`update fin_account set balance = balance - ${o.amount}, version = version + 1
        where store_id = 0 and kind = 'world' returning account_id, balance`.execute(db);
      await sql`insert into fin_entry (txn_id, account_id, store_id, kind, amount, balance_after, create_time) values
        (${txnId}, ${Number(col(world.rows[0], 'account_id'))}, 0, 'world', ${-o.amount}, ${Number(col(world.rows[0], 'balance'))}, ${now}),
        (${txnId}, ${Number(col(acc.rows[0], 'account_id'))}, ${o.storeId}, ${o.kind}, ${o.amount}, ${o.amount}, ${now})`.execute(db);
    }
  },
};

type Raw = Record<string, unknown>;
/** A raw row's column: the app's connection camel-cases result columns (store_id → storeId), a bare one does not. */
function col(row: Raw | undefined, snake: string): unknown {
  if (!row) throw new Error(`016: no row for ${snake}`);
  return row[snake] ?? row[snake.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())];
}
