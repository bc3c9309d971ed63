import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MemoryBackend } from '../server/cache/backends.js';
import { CacheLayer } from '../server/cache/index.js';
import { loadConfig } from '../server/config.js';
import { openDatabase } from '../server/db/connection.js';
import { migrate } from '../server/db/migrate.js';
import { seed } from '../server/db/seed/index.js';
import { loadOrCreateKeys } from '../server/security/keys.js';
import { buildMenuTree, buildRouters } from '../server/system/menuTree.js';
import { type HttpResult, type HttpScenario, prepareHttp, runHttpScenario } from './http.js';
import { type RunningServer, startServer } from './server.js';
import { fmt, table } from './stats.js';

/**
 * The cache layer's gain (server/cache/, docs/monitor.md): getRuleList (admin's whole menu tree) and a dictionary read
 * (useDict: GET /dev-api/system/dict/data/type/sys_user_sex), each against a server with the in-process cache and one
 * started with CACHE=off, everything else equal. Every request is signed afresh (the server refuses a replayed
 * signature), so each costs the server one RSA private decrypt in both runs; the difference is the route's own work.
 * Run: `npx tsx bench/cache.ts [seconds] [connections]`.
 */

const duration = Number(process.argv[2] ?? 8);
const connections = Number(process.argv[3] ?? 10);

const SCENARIOS: HttpScenario[] = [
  {
    name: 'rules',
    title: 'POST getRuleList (admin)',
    method: 'POST',
    path: '/dev-api/api/auth/getRuleList',
    signedIn: true,
    signing: 'fresh',
    expect: 200,
  },
  {
    name: 'dict',
    title: 'GET dict/data/type/sys_user_sex',
    method: 'GET',
    path: '/dev-api/system/dict/data/type/sys_user_sex',
    signedIn: true,
    signing: 'fresh',
    expect: 200,
  },
];

async function measure(cache: 'on' | 'off'): Promise<HttpResult[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `zhiyuan-bench-cache-${cache}-`));
  const before = process.env.CACHE;
  process.env.CACHE = cache;
  let server: RunningServer | undefined;
  try {
    server = await startServer(dataDir);
    const keys = loadOrCreateKeys(dataDir);
    const ctx = await prepareHttp(server.base, keys.requestPublicPem, keys.responsePrivatePem);
    const out: HttpResult[] = [];
    for (const s of SCENARIOS) {
      process.stderr.write(`cache=${cache} ${s.name}（${duration}s × ${connections} 连接）…\n`);
      out.push(await runHttpScenario(ctx, s, { duration, connections }));
    }
    return out;
  } finally {
    process.env.CACHE = before;
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The work the cache saves, without HTTP, signing or sessions: admin's getRuleList tree read from SQLite and built,
 * against the same tree from the in-process cache (a hit: generation lookup, JSON parse).
 */
async function micro(iterations = 2000) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhiyuan-bench-cache-micro-'));
  const db = await openDatabase(loadConfig({}, { dataDir, logger: false }));
  try {
    await migrate(db);
    await seed(db);
    const build = async () => buildRouters(buildMenuTree(await db.kysely.selectFrom('sysMenu').selectAll().where('status', '=', '0').execute()));
    const cache = new CacheLayer(new MemoryBackend(), 'bench:');
    const time = async (fn: () => Promise<unknown>) => {
      for (let i = 0; i < 50; i++) await fn();
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < iterations; i++) await fn();
      return Number(process.hrtime.bigint() - t0) / 1e6 / iterations;
    };
    const uncachedMs = await time(build);
    const cachedMs = await time(() => cache.wrap('menu', 'rules:admin', build));
    return { iterations, uncachedMs, cachedMs, ratio: uncachedMs / cachedMs };
  } finally {
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const work = await micro();
console.log(
  `getRuleList tree (admin), in process: ${fmt(work.uncachedMs)} ms built from SQLite, ${fmt(work.cachedMs)} ms from the cache (${work.ratio.toFixed(1)}×)`,
);
if (process.argv.includes('--micro')) process.exit(0);

const on = await measure('on');
const off = await measure('off');
const rows = SCENARIOS.map((s, i) => [
  s.title,
  fmt(off[i].reqPerSec),
  fmt(on[i].reqPerSec),
  `${(on[i].reqPerSec / off[i].reqPerSec).toFixed(2)}×`,
  `${fmt(off[i].latencyP50Ms)} / ${fmt(off[i].latencyP99Ms)}`,
  `${fmt(on[i].latencyP50Ms)} / ${fmt(on[i].latencyP99Ms)}`,
]);
const bad = [...on, ...off].filter((r) => r.non2xx + r.errors + r.timeouts + r.mismatches > 0);
console.log(table(['scenario', 'req/s no cache', 'req/s cached', 'ratio', 'p50 / p99 ms no cache', 'p50 / p99 ms cached'], rows));
console.log(
  JSON.stringify(
    { date: new Date().toISOString(), duration, connections, cpus: os.cpus().length, loadAvg: os.loadavg()[0].toFixed(2), work, on, off },
    null,
    2,
  ),
);
if (bad.length) {
  console.error(`有错误的场景：${bad.map((r) => r.name).join(', ')}`);
  process.exit(1);
}
