import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf } from '../../../server/finance/ledger.js';
import { createOrder } from '../../../server/finance/orders.js';
import { payProvidersOf } from '../../../server/finance/payRoutes.js';
import { freePort } from '../../processes.js';
import { startServer, type TestServer } from '../harness.js';
import { expectLedgerBalanced } from './ledgerInvariant.js';
import { notify, signedSandboxNotice } from './payHelpers.js';

/**
 * kill -9 during a burst of payment notifications: a second server process (the real entry, `server/main.ts`) on the
 * same SQLite data dir takes the burst and is killed mid-way. Every notification it acknowledged must have its order
 * paid and posted; nothing is half-written; the provider's retries after the crash finish the rest, once each.
 */

const root = path.resolve(import.meta.dirname, '../../..');
const N = 40;

describe('kill -9 during a burst of payments (sqlite)', () => {
  let s: TestServer;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    s = await startServer('sqlite', { jobs: { enabled: false } });
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    await s?.close();
  });

  it('loses no acknowledged payment and leaves the ledger balanced', { timeout: 180_000 }, async () => {
    const db = s.app.db.kysely;
    const providers = payProvidersOf(s.app);
    const orders: Array<{ orderNo: string; tradeNo: string; amountFen: number }> = [];
    for (let i = 0; i < N; i++) {
      const o = await createOrder(db, { purpose: 'customer_payment', storeId: 2, amountFen: 1_000 + i, subject: '客户付款', provider: 'sandbox' }, providers);
      const t = await db.selectFrom('finSandboxTrade').select('tradeNo').where('orderNo', '=', o.orderNo).executeTakeFirstOrThrow();
      orders.push({ orderNo: o.orderNo, tradeNo: t.tradeNo, amountFen: o.amountFen });
    }
    const before = await balanceOf(db, 2, 'collection');

    const port = await freePort();
    child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: s.dataDir,
        LOG: '0',
        DATABASE_URL: '',
        JOBS: '0',
        SEED: '0',
        STATIC_DIR: '/nonexistent',
      },
      stdio: 'ignore',
    });
    const base = `http://127.0.0.1:${port}`;
    const until = Date.now() + 120_000;
    for (;;) {
      try {
        if ((await fetch(`${base}/health`)).ok) break;
      } catch {
        // not up yet
      }
      if (Date.now() > until) throw new Error('second server did not start');
      await new Promise((r) => setTimeout(r, 250));
    }

    // The burst, eight at a time; the process is killed once a third of them were acknowledged.
    const acked = new Set<string>();
    let killed = false;
    const send = async (o: (typeof orders)[number]) => {
      const raw = signedSandboxNotice(s, o);
      try {
        const res = await fetch(`${base}/pay/notify/sandbox`, { method: 'POST', headers: raw.headers as Record<string, string>, body: raw.body });
        if (res.status === 200 && (await res.text()) === 'success') acked.add(o.orderNo);
      } catch {
        // the connection died with the process: not acknowledged
      }
      if (!killed && acked.size >= N / 3) {
        killed = true;
        child?.kill('SIGKILL');
      }
    };
    for (let i = 0; i < N; i += 8) await Promise.all(orders.slice(i, i + 8).map(send));
    expect(killed).toBe(true);
    expect(acked.size).toBeGreaterThan(0);
    expect(acked.size).toBeLessThan(N);

    // Every acknowledged payment is paid and posted exactly once; no order is paid without its posting.
    const rows = await db
      .selectFrom('finPayOrder')
      .select(['orderNo', 'status'])
      .where(
        'orderNo',
        'in',
        orders.map((o) => o.orderNo),
      )
      .execute();
    const paid = new Set(rows.filter((r) => r.status === 'paid').map((r) => r.orderNo));
    for (const no of acked) expect(paid.has(no), no).toBe(true);
    const posted = await db
      .selectFrom('finTxn')
      .select('refId')
      .where('refType', '=', 'pay_order')
      .where(
        'refId',
        'in',
        orders.map((o) => o.orderNo),
      )
      .execute();
    expect(new Set(posted.map((p) => p.refId))).toEqual(paid);
    expect(posted).toHaveLength(paid.size);
    await expectLedgerBalanced(s);

    // The provider retries everything after the crash: the rest is applied, nothing twice.
    for (const o of orders) expect((await notify(s, 'sandbox', signedSandboxNotice(s, o))).status).toBe(200);
    const total = orders.reduce((sum, o) => sum + o.amountFen, 0);
    expect(await balanceOf(db, 2, 'collection')).toBe(before + total);
    await expectLedgerBalanced(s);
  });
});
