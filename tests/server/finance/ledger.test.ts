import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { credit, debit, storeBalance } from '../../../server/customer/storeBalance.js';
import { balanceOf, checkLedger, LedgerDuplicate, post } from '../../../server/finance/ledger.js';
import { backends, startServer, type TestServer } from '../harness.js';
import { expectLedgerBalanced } from './ledgerInvariant.js';

describe.each(backends)('财务 ledger (%s)', (backend) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(backend);
  });
  afterAll(async () => {
    await s?.close();
  });
  afterEach(async () => {
    await expectLedgerBalanced(s);
  });
  const db = () => s.app.db.kysely;

  it('the demo balances are opening postings from the world, mirrored in cus_store', async () => {
    expect(await balanceOf(db(), 2, 'balance')).toBe(5_000_000);
    expect(await balanceOf(db(), 3, 'balance')).toBe(2_000_000);
    const store = await db().selectFrom('cusStore').select('balance').where('storeId', '=', 2).executeTakeFirstOrThrow();
    expect(Number(store.balance)).toBe(5_000_000);
    const opening = await db().selectFrom('finTxn').select('type').where('type', '=', 'opening').execute();
    expect(opening).toHaveLength(3);
    expect(await balanceOf(db(), 0, 'world')).toBe(-(100_000_000 + 5_000_000 + 2_000_000));
  });

  it('posts a balanced transaction and refuses unbalanced, one-line or fractional ones, writing nothing', async () => {
    const before = await db()
      .selectFrom('finEntry')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    await expect(post(db(), { type: 't', memo: '测试', lines: [{ storeId: 2, kind: 'collection', amount: 5 }] })).rejects.toThrow();
    await expect(
      post(db(), {
        type: 't',
        memo: '测试',
        lines: [
          { storeId: 0, kind: 'world', amount: -5 },
          { storeId: 2, kind: 'collection', amount: 4 },
        ],
      }),
    ).rejects.toThrow(/sum to 0/);
    await expect(
      post(db(), {
        type: 't',
        memo: '测试',
        lines: [
          { storeId: 0, kind: 'world', amount: -0.5 },
          { storeId: 2, kind: 'collection', amount: 0.5 },
        ],
      }),
    ).rejects.toThrow('金额必须是整数（分）');
    const after = await db()
      .selectFrom('finEntry')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));

    const { txnId } = await post(db(), {
      type: 'customer_payment',
      memo: '家长在线支付',
      lines: [
        { storeId: 0, kind: 'world', amount: -12_345 },
        { storeId: 2, kind: 'collection', amount: 12_345 },
      ],
    });
    expect(txnId).toBeGreaterThan(0);
    expect(await balanceOf(db(), 2, 'collection')).toBe(12_345);
  });

  it('refuses to take an account below 0 with a Chinese message, and the whole transaction rolls back', async () => {
    const have = await balanceOf(db(), 3, 'collection');
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await trx.updateTable('cusStore').set({ storeName: '不该留下' }).where('storeId', '=', 3).execute();
          await post(trx, {
            type: 'withdraw_request',
            memo: '提现',
            lines: [
              { storeId: 3, kind: 'collection', amount: -(have + 1) },
              { storeId: 3, kind: 'withdrawPending', amount: have + 1 },
            ],
          });
        }),
    ).rejects.toThrow(`收款钱包余额不足：需要 ${((have + 1) / 100).toFixed(2)} 元，当前余额 ${(have / 100).toFixed(2)} 元`);
    const store = await db().selectFrom('cusStore').select('storeName').where('storeId', '=', 3).executeTakeFirstOrThrow();
    expect(store.storeName).toBe('青岛门店');
    expect(await balanceOf(db(), 3, 'withdrawPending')).toBe(0);
  });

  it('an idempotency key posts once; the replay throws LedgerDuplicate and the transaction stays usable', async () => {
    const p = {
      type: 'customer_payment',
      memo: '家长在线支付',
      idempotencyKey: `notify:${backend}:1`,
      lines: [
        { storeId: 0, kind: 'world' as const, amount: -100 },
        { storeId: 3, kind: 'collection' as const, amount: 100 },
      ],
    };
    const before = await balanceOf(db(), 3, 'collection');
    await post(db(), p);
    await db()
      .transaction()
      .execute(async (trx) => {
        await expect(post(trx, p)).rejects.toBeInstanceOf(LedgerDuplicate);
        // Still usable after the refused replay (PostgreSQL aborts a transaction on a raised unique violation).
        await trx.selectFrom('finAccount').select('accountId').execute();
      });
    expect(await balanceOf(db(), 3, 'collection')).toBe(before + 100);
  });

  it('storeBalance debit / credit are postings between the store balance and headquarters revenue', async () => {
    const start = await storeBalance(db(), 2);
    const revenue = await balanceOf(db(), 1, 'revenue');
    await db()
      .transaction()
      .execute((trx) => debit(trx, { storeId: 2, amount: 39_800, reason: '发卡', refType: 'card_batch', refId: 77 }));
    expect(await storeBalance(db(), 2)).toBe(start - 39_800);
    expect(await balanceOf(db(), 1, 'revenue')).toBe(revenue + 39_800);
    const txn = await db()
      .selectFrom('finTxn')
      .select(['type', 'refId'])
      .where('refType', '=', 'card_batch')
      .where('refId', '=', '77')
      .executeTakeFirstOrThrow();
    expect(txn.type).toBe('card_release');
    await db()
      .transaction()
      .execute((trx) => credit(trx, { storeId: 2, amount: 39_800, reason: '退卡', refType: 'card_batch', refId: 77 }));
    expect(await storeBalance(db(), 2)).toBe(start);
    await expect(
      db()
        .transaction()
        .execute((trx) => debit(trx, { storeId: 2, amount: start + 1, reason: '发卡' })),
    ).rejects.toThrow(/^门店余额不足/);
    await expect(
      db()
        .transaction()
        .execute((trx) => debit(trx, { storeId: 2, amount: -1, reason: '发卡' })),
    ).rejects.toThrow('金额必须是大于 0 的整数（分）');
    expect(await storeBalance(db(), 2)).toBe(start);
  });

  it('entries are insert-only: the database refuses to change or delete one', async () => {
    const one = await db().selectFrom('finEntry').select('entryId').executeTakeFirstOrThrow();
    await expect(db().updateTable('finEntry').set({ amount: 1 }).where('entryId', '=', one.entryId).execute()).rejects.toThrow(/insert-only/);
    await expect(db().deleteFrom('finEntry').where('entryId', '=', one.entryId).execute()).rejects.toThrow(/insert-only/);
  });

  it('checkLedger reports a cached balance that drifted from its entries', async () => {
    const acc = await db()
      .selectFrom('finAccount')
      .select(['accountId', 'balance'])
      .where('storeId', '=', 3)
      .where('kind', '=', 'balance')
      .executeTakeFirstOrThrow();
    await db()
      .updateTable('finAccount')
      .set({ balance: Number(acc.balance) + 1 })
      .where('accountId', '=', acc.accountId)
      .execute();
    const r = await checkLedger(db());
    expect(r.mismatches).toEqual([{ accountId: acc.accountId, cached: Number(acc.balance) + 1, summed: Number(acc.balance) }]);
    await db()
      .updateTable('finAccount')
      .set({ balance: Number(acc.balance) })
      .where('accountId', '=', acc.accountId)
      .execute();
  });

  it('concurrent postings that together exceed an account leave it at 0 or above', async () => {
    await post(db(), {
      type: 'customer_payment',
      memo: '家长在线支付',
      lines: [
        { storeId: 0, kind: 'world', amount: -1_000 },
        { storeId: 2, kind: 'payment', amount: 1_000 },
      ],
    });
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, () =>
        post(db(), {
          type: 't',
          memo: '测试',
          lines: [
            { storeId: 2, kind: 'payment', amount: -100 },
            { storeId: 0, kind: 'world', amount: 100 },
          ],
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    expect(await balanceOf(db(), 2, 'payment')).toBe(0);
  });
});
