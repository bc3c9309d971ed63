import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { balanceOf } from '../../../server/finance/ledger.js';
import { signTimer } from '../../../server/security/protocol.js';
import { freePort } from '../../processes.js';
import { startServer, type TestServer } from '../harness.js';
import { apiOk, collect, verifiedBank, W } from './financeHelpers.js';
import { expectLedgerBalanced } from './ledgerInvariant.js';

/**
 * kill -9 in the middle of a burst of withdrawals: the server runs as a child process on a file SQLite database
 * (synchronous = FULL, WAL), is SIGKILLed while requests are in flight, and restarted. Every withdrawal that was
 * answered 200 must be there with its ledger posting, and the ledger must balance.
 */

async function waitForPort(port: number, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited with ${child.exitCode ?? child.signalCode}`);
    const up = await new Promise<boolean>((resolve) => {
      const c = net.connect(port, '127.0.0.1', () => {
        c.end();
        resolve(true);
      });
      c.on('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not start');
}

describe('财务 kill -9 (sqlite file)', () => {
  let s: TestServer;
  let child: ChildProcess | undefined;
  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await s?.close();
  });

  it('every acknowledged withdrawal survives a SIGKILL and the ledger balances', { timeout: 180_000 }, async () => {
    s = await startServer('sqlite', { jobs: { enabled: false, tickMs: 1000, leaseMs: 30_000, graceMs: 5000 } });
    const admin = await s.login('admin', 'admin123');
    const store2 = await s.login('store2leader', 'store2leader123');
    const bankId = await verifiedBank(s, store2, admin);
    await collect(s, 2, 1_000_000);
    await apiOk(s, store2, `${W}/wallet`);
    const requestPem = s.app.keys.requestPublicPem;
    await s.app.close();

    const port = await freePort();
    child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: path.resolve(__dirname, '../../..'),
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: s.dataDir, LOG: '0', DATABASE_URL: '', JOBS: '0', SEED: '1' },
      stdio: 'ignore',
    });
    await waitForPort(port, child);
    const base = `http://127.0.0.1:${port}`;
    const call = async (url: string, body: unknown, token?: string) => {
      const res = await fetch(base + url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...signTimer(requestPem), ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      return (await res.json()) as { code: number; msg: string; data?: { withdrawId?: number; token?: string } };
    };
    const login = await call('/dev-api/api/login/login', { username: 'store2leader', password: 'store2leader123' });
    const token = login.data?.token as string;
    expect(token).toBeTruthy();

    // A burst of 80 withdrawals of 10.00 元; SIGKILL once 20 of them have been acknowledged.
    const acknowledged: number[] = [];
    let killed = false;
    const done = new Promise<void>((resolve) => {
      let settled = 0;
      for (let i = 0; i < 80; i++) {
        call(`${W}/commitCash`, { bankId, amountFen: 1_000, remark: `突发 ${i}` }, token)
          .then((r) => {
            if (r.code === 200 && !killed) acknowledged.push(r.data?.withdrawId as number);
            if (acknowledged.length >= 20 && !killed) {
              killed = true;
              child?.kill('SIGKILL');
            }
          })
          .catch(() => undefined) // cut off by the kill
          .finally(() => {
            settled++;
            if (settled === 80) resolve();
          });
      }
    });
    await done;
    expect(killed).toBe(true);
    expect(acknowledged.length).toBeGreaterThanOrEqual(20);
    const c = child as ChildProcess;
    if (c.exitCode === null && c.signalCode === null) await new Promise((r) => c.once('exit', r));

    await s.restart(); // in-process again, on the same file
    const db = s.app.db.kysely;
    const rows = await db.selectFrom('finWithdrawal').select(['withdrawId', 'amount', 'status']).where('withdrawId', 'in', acknowledged).execute();
    expect(rows.map((r) => r.withdrawId).sort((a, b) => a - b)).toEqual([...acknowledged].sort((a, b) => a - b));
    const posted = await db.selectFrom('finTxn').select('refId').where('type', '=', 'withdraw_request').execute();
    const postedIds = new Set(posted.map((p) => Number(p.refId)));
    expect(acknowledged.every((id) => postedIds.has(id))).toBe(true);
    // Every stored withdrawal (acknowledged or not) has its posting, and no posting lacks its withdrawal.
    const all = await db.selectFrom('finWithdrawal').select('withdrawId').where('storeId', '=', 2).execute();
    expect(new Set(all.map((w) => w.withdrawId))).toEqual(postedIds);
    expect((await balanceOf(db, 2, 'collection')) + (await balanceOf(db, 2, 'withdrawPending'))).toBe(1_000_000);
    expect(await balanceOf(db, 2, 'withdrawPending')).toBe(all.length * 1_000);
    await expectLedgerBalanced(s);
  });
});
