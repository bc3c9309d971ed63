import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { insertSyntheticRows } from '../server/engine/synth.js';
import { loadOrCreateKeys } from '../server/security/keys.js';
import { assert, sequentialRequests, signIn } from './http.js';
import { openServerDatabase, processMemory, resetPeakMemory, startServer } from './server.js';
import { timerSigner } from './sign.js';
import { summarize } from './stats.js';

/**
 * Customers and membership cards (server/customer/) against the real server process (SQLite, fresh data folder):
 *  - 发卡 of 10,000 cards over HTTP (POST /dev-api/card/release, the streamed answer read to its last line): wall
 *    time, and the server's peak RSS over the release (VmHWM reset before, read after);
 *  - 用户列表 (GET /dev-api/customer/list) with 1,000,000 customers (BENCH_CUSTOMERS): the first, second, middle,
 *    second to last and last page, a store's list, a user type and a name search, one request at a time, p50 / p99;
 *  - beside it, in the same run, an engine list (参数设置, GET /dev-api/system/config/list) of as many rows: the
 *    first, middle and last page (issue 26: any page of the customer list ≤ 50 ms, like the engine's).
 * Run: `npm run bench -- customer` or `npx tsx bench/customer.ts` (BENCH_RUNS, default 200). Figures go to
 * docs/benchmarks.md by hand, with the machine load the run prints.
 */

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 1_000_000);
const CARDS = 10_000;

/** A list's total as the server answers it. */
async function listTotal(ctx: Parameters<typeof sequentialRequests>[0], path: string): Promise<number> {
  let total = 0;
  await sequentialRequests(
    ctx,
    1,
    () => ({ method: 'GET', path: `${path}?pageNum=1&pageSize=1` }),
    (a) => {
      total = (a as { total?: number }).total ?? 0;
    },
  );
  return total;
}

export async function runCustomerBench(runs = Number(process.env.BENCH_RUNS ?? 200)) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zy-bench-customer-'));
  const server = await startServer(dataDir);
  try {
    const keys = loadOrCreateKeys(dataDir);
    const pem = keys.requestPublicPem;
    const token = await signIn(server.base, pem);
    const sign = timerSigner(pem);

    // ---- 发卡 10,000 ----
    const peakReset = resetPeakMemory(server.pid);
    const before = processMemory(server.pid);
    const t0 = performance.now();
    const res = await fetch(`${server.base}/dev-api/card/release`, {
      method: 'POST',
      headers: { ...sign(), Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ storeId: 1, kind: 3, card_num: CARDS, vip_price: 9_900 }),
    });
    const text = await res.text();
    const releaseMs = performance.now() - t0;
    const after = processMemory(server.pid);
    const lines = text.trim().split('\n');
    const final = JSON.parse(lines.at(-1) as string) as { code: number; msg: string };
    assert(final.code === 200, `发卡失败：${final.msg}`);
    const release = {
      cards: CARDS,
      ms: releaseMs,
      progressLines: lines.length - 1,
      rssBeforeMiB: before.rssKiB / 1024,
      peakMiB: after.hwmKiB / 1024,
      peakReset,
    };

    // ---- 100,000 customers ----
    const db = await openServerDatabase(dataDir);
    const k = db.kysely;
    const now = Date.now();
    const insertStarted = performance.now();
    for (let i = 0; i < CUSTOMERS; i += 1000) {
      const rows = [];
      for (let j = i; j < Math.min(i + 1000, CUSTOMERS); j++) {
        rows.push({
          name: `客户${j}`,
          mobile: `139${String(j).padStart(8, '0')}`,
          province: '山东',
          examYear: 2026,
          score: 400 + (j % 300),
          rank: null,
          rankFlag: null,
          subjects: '1,2,3',
          preferRegions: '[]',
          preferLevels: '[]',
          preferMajors: '[]',
          tuitionCap: null,
          ownerId: null,
          remark: null,
          delFlag: '0',
          createBy: null,
          createTime: now,
          updateTime: now,
          version: 1,
          storeId: 1 + (j % 3),
          userType: j % 4,
        });
      }
      await k.insertInto('volStudent').values(rows).execute();
    }
    // The engine list beside it: as many 参数设置 rows (synthetic, server/engine/synth.ts).
    await insertSyntheticRows(db, 'sys_config', CUSTOMERS);
    await sql`ANALYZE`.execute(k);
    await db.close();
    const insertSeconds = (performance.now() - insertStarted) / 1000;
    const ctx = { base: server.base, requestPublicPem: pem, token };
    const check = (a: { code: number; rows?: unknown[] }) => assert(a.code === 200 && (a.rows?.length ?? 0) > 0, `用户列表返回 ${a.code}`);
    const measure = async (p: string, n = runs) => {
      // The first request after the inserts builds what later ones reuse (the total, the page anchors): not timed.
      await sequentialRequests(ctx, 3, () => ({ method: 'GET', path: p }), check);
      return summarize(await sequentialRequests(ctx, n, () => ({ method: 'GET', path: p }), check));
    };
    const pages = async (path: string, lastPage: number) => ({
      first: await measure(`${path}?pageNum=1&pageSize=20`),
      second: await measure(`${path}?pageNum=2&pageSize=20`),
      middle: await measure(`${path}?pageNum=${Math.ceil(lastPage / 2)}&pageSize=20`),
      secondToLast: await measure(`${path}?pageNum=${lastPage - 1}&pageSize=20`),
      last: await measure(`${path}?pageNum=${lastPage}&pageSize=20`),
    });
    const customerTotal = await listTotal(ctx, '/dev-api/customer/list');
    const configTotal = await listTotal(ctx, '/dev-api/system/config/list');
    const list = {
      customers: customerTotal,
      ...(await pages('/dev-api/customer/list', Math.ceil(customerTotal / 20))),
      // A page in the middle of one store's third of the customers.
      store: await measure(`/dev-api/customer/list?pageNum=${Math.ceil(CUSTOMERS / 3 / 20 / 2)}&pageSize=20&storeId=2`),
      userType: await measure('/dev-api/customer/list?pageNum=1&pageSize=20&userType=2'),
      name: await measure(`/dev-api/customer/list?pageNum=1&pageSize=20&name=${encodeURIComponent('客户9999')}`, Math.min(runs, 20)),
    };
    const engine = { rows: configTotal, ...(await pages('/dev-api/system/config/list', Math.ceil(configTotal / 20))) };
    return { release, list, engine, runs, insertSeconds };
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Prints the figures of runCustomerBench (npm run bench -- customer, or npx tsx bench/customer.ts). */
export function printCustomerResult(r: Awaited<ReturnType<typeof runCustomerBench>>) {
  const f = (n: number) => n.toFixed(1);
  console.log(
    `\n发卡 ${r.release.cards} 张：${f(r.release.ms)} ms，进度行 ${r.release.progressLines}，服务端 RSS 前 ${f(r.release.rssBeforeMiB)} MiB，峰值 ${f(r.release.peakMiB)} MiB${r.release.peakReset ? '' : '（无法重置峰值，峰值为进程生命周期）'}`,
  );
  console.log(`插入 ${r.list.customers} 位客户和 ${r.engine.rows} 行参数：${f(r.insertSeconds)} s`);
  for (const [name, s] of Object.entries(r.list).filter(([n]) => n !== 'customers')) {
    const sum = s as { p50: number; p99: number; mean: number };
    console.log(`用户列表 ${name}（${r.list.customers} 位客户）：p50 ${f(sum.p50)} ms，p99 ${f(sum.p99)} ms，平均 ${f(sum.mean)} ms`);
  }
  for (const [name, s] of Object.entries(r.engine).filter(([n]) => n !== 'rows')) {
    const sum = s as { p50: number; p99: number; mean: number };
    console.log(`引擎列表（参数设置）${name}（${r.engine.rows} 行）：p50 ${f(sum.p50)} ms，p99 ${f(sum.p99)} ms，平均 ${f(sum.mean)} ms`);
  }
  console.log(`负载（1 分钟平均）：${os.loadavg()[0].toFixed(2)}，${os.availableParallelism()} 核`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printCustomerResult(await runCustomerBench());
}
