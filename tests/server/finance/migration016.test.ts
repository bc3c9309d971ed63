import Database from 'better-sqlite3';
import { CamelCasePlugin, Kysely, SqliteDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../../server/db/migrations/index.js';
import type { Db } from '../../../server/db/types.js';
import { balanceOf, checkLedger } from '../../../server/finance/ledger.js';

/**
 * Migration 016 on a database from before the ledger, through a connection like the app's (CamelCasePlugin: raw
 * rows come back camelCased): store balances become opening postings, and what stores paid for cards before the
 * ledger becomes headquarters' opening revenue. The ledger balances afterwards.
 */
describe('migration 016 on an install from before the ledger', () => {
  const k = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(':memory:') }), plugins: [new CamelCasePlugin()] });
  const upTo = migrations.findIndex((m) => m.name === '016_finance_ledger');

  beforeAll(async () => {
    for (const m of migrations.slice(0, upTo)) await k.transaction().execute((trx) => m.up(trx, 'sqlite'));
    const now = Date.now();
    await sql`update cus_store set balance = 100000000 where store_id = 1`.execute(k);
    await sql`insert into cus_store (store_id, store_name, kind, balance, status, create_time, version) values (2, '济南门店', 'agency', 4000000, '0', ${now}, 1)`.execute(
      k,
    );
    // Before the ledger, 济南门店 bought cards for 10,000.00 元 and had 1,000.00 元 refunded.
    await sql`insert into cus_balance_log (store_id, amount, balance_after, reason, create_time) values (2, -1000000, 4100000, '发卡', ${now}), (2, 100000, 4000000, '退款', ${now})`.execute(
      k,
    );
    await k.transaction().execute((trx) => migrations[upTo].up(trx, 'sqlite'));
  });
  afterAll(async () => {
    await k.destroy();
  });

  it('turns balances into opening postings and past card payments into headquarters revenue, balanced', async () => {
    const db = k as unknown as Db;
    expect(await balanceOf(db, 1, 'balance')).toBe(100000000);
    expect(await balanceOf(db, 2, 'balance')).toBe(4000000);
    expect(await balanceOf(db, 1, 'revenue')).toBe(900000);
    expect(await balanceOf(db, 0, 'world')).toBe(-(100000000 + 4000000 + 900000));
    expect(await checkLedger(db)).toEqual({ total: 0, mismatches: [] });
  });
});
