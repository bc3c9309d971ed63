import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { refreshDaily } from '../server/home/daily.js';
import { DAY_MS } from '../server/home/days.js';
import { loadOrCreateKeys } from '../server/security/keys.js';
import { assert, type Envelope, sequentialRequests, signIn, type TimedRequest } from './http.js';
import { openServerDatabase, startServer } from './server.js';
import { type Summary, summarize } from './stats.js';

/**
 * 首页 (server/home/) against the real server process (SQLite, fresh data folder) for a headquarters with 100,000
 * customers and a year of activity: customers created over 365 days, 40,000 plans submitted (30,000 approved) with
 * their action log, 40,000 cards activated, 200 appointments today. Then the daily job (homeDailyFigures) backfills the
 * year, and each home call is timed one request at a time (p50 / p99). indexv over a year is also timed once before
 * the job, when every day is computed live, to show what the precomputation saves.
 * Run: `npm run bench -- home` or `npx tsx bench/home.ts` (BENCH_RUNS, default 200). Figures go to docs/benchmarks.md.
 */

const CUSTOMERS = 100_000;
const PLANS = 40_000;
const APPROVED = 30_000;
const CARDS = 40_000;
const YEAR_DAYS = 365;

export interface HomeBenchResult {
  customers: number;
  seedSeconds: number;
  jobSeconds: number;
  liveYearMs: number;
  calls: Record<string, Summary>;
  runs: number;
}

async function seed(dataDir: string, now: number): Promise<void> {
  const db = await openServerDatabase(dataDir);
  const k = db.kysely;
  // A fixed pseudo-random spread over the year (same data every run).
  let x = 12345;
  const rnd = () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
  const timeInYear = () => now - Math.floor(rnd() * YEAR_DAYS * DAY_MS);
  const created: number[] = [];
  for (let i = 0; i < CUSTOMERS; i += 1000) {
    const rows = [];
    for (let j = i; j < Math.min(i + 1000, CUSTOMERS); j++) {
      const t = timeInYear();
      created.push(t);
      rows.push({ name: `客户${j}`, province: '山东', examYear: 2026, delFlag: '0', createTime: t, version: 1, storeId: 1 + (j % 3) });
    }
    await k
      .insertInto('volStudent')
      .values(rows as never)
      .execute();
  }
  const first = Number(
    (
      await k
        .selectFrom('volStudent')
        .select((eb) => eb.fn.min('studentId').as('id'))
        .where('name', '=', '客户0')
        .executeTakeFirstOrThrow()
    ).id,
  );
  await k.transaction().execute(async (trx) => {
    for (let i = 0; i < PLANS; i += 1000) {
      const plans = [];
      const actions = [];
      for (let j = i; j < Math.min(i + 1000, PLANS); j++) {
        const studentId = first + j;
        const t = created[j] + 3600_000;
        const approved = j < APPROVED;
        plans.push({ studentId, status: approved ? 'approved' : 'submitted', version: 2, itemCount: 10, createTime: t, updateTime: t, submitTime: t });
        actions.push({
          studentId,
          planId: null,
          action: 'submit',
          fromStatus: 'draft',
          toStatus: 'submitted',
          version: 2,
          userId: 1,
          userName: 'admin',
          comment: null,
          createTime: t,
        });
        if (approved)
          actions.push({
            studentId,
            planId: null,
            action: 'approve',
            fromStatus: 'submitted',
            toStatus: 'approved',
            version: 2,
            userId: 1,
            userName: 'admin',
            comment: null,
            createTime: t + 600_000,
          });
      }
      await trx
        .insertInto('volPlan')
        .values(plans as never)
        .execute();
      await trx.insertInto('volPlanAction').values(actions).execute();
    }
    const batch = await trx
      .insertInto('cardBatch')
      .values({
        storeId: 1,
        kind: 1,
        cardNum: CARDS,
        vipPrice: 39_800,
        totalFen: CARDS * 39_800,
        cardNoFirst: 900_000_000,
        cardNoEnd: 900_000_000 + CARDS - 1,
        validDays: 365,
        remark: null,
        createBy: 1,
        createByName: 'admin',
        createTime: now - YEAR_DAYS * DAY_MS,
      })
      .returning('batchId')
      .executeTakeFirstOrThrow();
    for (let i = 0; i < CARDS; i += 1000) {
      const cards = [];
      for (let j = i; j < Math.min(i + 1000, CARDS); j++) {
        const t = created[j] + 1800_000;
        cards.push({
          cardNo: 900_000_000 + j,
          batchId: batch.batchId,
          storeId: 1 + (j % 3),
          kind: 1,
          validDays: 365,
          secretHash: `h${j}`,
          secretEnc: `e${j}`,
          status: 'activated',
          studentId: first + j,
          activateTime: t,
          expireTime: t + 365 * DAY_MS,
          voidTime: null,
          createTime: t,
          version: 1,
        });
      }
      await trx.insertInto('card').values(cards).execute();
    }
    const appointments = [];
    for (let j = 0; j < 200; j++)
      appointments.push({
        studentId: first + j,
        expertId: 3,
        appointTime: now + j * 60_000,
        duration: 30,
        status: 'pending',
        remark: null,
        remadeFrom: null,
        delFlag: '0',
        createBy: 1,
        createTime: now,
        updateTime: null,
        version: 1,
      });
    await trx.insertInto('volAppointment').values(appointments).execute();
  });
  await sql`ANALYZE`.execute(k);
  await db.close();
}

export async function runHomeBench(runs = Number(process.env.BENCH_RUNS ?? 200)): Promise<HomeBenchResult> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zy-bench-home-'));
  const server = await startServer(dataDir);
  try {
    const pem = loadOrCreateKeys(dataDir).requestPublicPem;
    const token = await signIn(server.base, pem);
    const ctx = { base: server.base, requestPublicPem: pem, token };
    const now = Date.now();
    const t0 = performance.now();
    await seed(dataDir, now);
    const seedSeconds = (performance.now() - t0) / 1000;
    const ok = (a: Envelope) => assert(a.code === 200, `返回 ${a.code} ${a.msg}`);
    const year = { method: 'GET' as const, path: `/dev-api/api/index/indexv?days=${YEAR_DAYS + 1}` };

    // Before the job: every day of the year computed live from the sources.
    const live = await sequentialRequests(ctx, 3, () => year, ok);
    const liveYearMs = summarize(live).p50;

    const db = await openServerDatabase(dataDir);
    const t1 = performance.now();
    const job = await refreshDaily(db.kysely, 3, Date.now());
    const jobSeconds = (performance.now() - t1) / 1000;
    await db.close();
    assert(job.backfilled + job.recomputed >= YEAR_DAYS, `补齐天数 ${job.backfilled + job.recomputed}`);

    const calls: Record<string, TimedRequest> = {
      'index/index (to-dos, platform)': { method: 'GET', path: '/dev-api/api/index/index' },
      'indexv 30 days': { method: 'GET', path: '/dev-api/api/index/indexv?days=30' },
      'indexv 366 days': year,
      fastPath: { method: 'GET', path: '/dev-api/api/index/fastPath' },
      'tabList app': { method: 'GET', path: '/dev-api/api/index/tabList?tab=app' },
      systermUpdateList: { method: 'GET', path: '/dev-api/api/index/systermUpdateList' },
    };
    const out: Record<string, Summary> = {};
    for (const [name, req] of Object.entries(calls)) out[name] = summarize(await sequentialRequests(ctx, runs, () => req, ok));
    return { customers: CUSTOMERS, seedSeconds, jobSeconds, liveYearMs, calls: out, runs };
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export function printHomeResult(r: HomeBenchResult) {
  const f = (n: number) => n.toFixed(1);
  console.log(`\n首页（${r.customers} 位客户、一年业务数据；造数 ${f(r.seedSeconds)} s，每日统计任务补齐一年 ${f(r.jobSeconds)} s）`);
  console.log(`indexv 366 天，任务运行前（逐日现算）：p50 ${f(r.liveYearMs)} ms`);
  for (const [name, s] of Object.entries(r.calls)) console.log(`${name}（${r.runs} 次）：p50 ${f(s.p50)} ms，p99 ${f(s.p99)} ms，平均 ${f(s.mean)} ms`);
  console.log(`负载（1 分钟平均）：${os.loadavg()[0].toFixed(2)}，${os.availableParallelism()} 核`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printHomeResult(await runHomeBench());
}
