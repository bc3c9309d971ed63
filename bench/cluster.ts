import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import pg from 'pg';
import { loadConfig } from '../server/config.js';
import { openDatabase } from '../server/db/connection.js';
import { insertSyntheticRows } from '../server/engine/index.js';
import { loadOrCreateKeys } from '../server/security/keys.js';
import { assert, type Envelope, type HttpContext, type HttpResult, runHttpScenario, signIn } from './http.js';
import { freePort, openServerDatabase, ROOT, type RunningServer, startServer } from './server.js';
import { timerSigner } from './sign.js';
import { fmt, table } from './stats.js';

/**
 * npm run bench -- cluster (issue 25 item 6): throughput where an agency outgrows one process.
 *
 * The 20-row engine list of the console bench (GET system/config/list?pageNum=1&pageSize=20 over 200 synthetic rows,
 * signed as the console signs its reads: bench/http.ts signing 'console') against four set-ups started in one run:
 *   a. SQLite, one process (the default install);
 *   b. PostgreSQL, one process, no Redis;
 *   c. PostgreSQL + Redis, one process;
 *   d. PostgreSQL + Redis, two processes on two ports sharing the database and Redis, the load split between them
 *      (two autocannon clients of half the connections each, run at once).
 * They take turns for BENCH_CLUSTER_ROUNDS rounds (default 3) of BENCH_DURATION seconds each (default 5) with
 * BENCH_CONNECTIONS connections (default 10); each target's round with the median req/s is reported, with the ratio to
 * SQLite and the servers' CPU time per request. Before the load, the statements (Kysely's log hook, read back through
 * 数据监控) and Redis commands each request costs are counted over BENCH_CLUSTER_COUNT sequential requests.
 *
 * PostgreSQL: BENCH_DATABASE_URL or TEST_DATABASE_URL; every target gets a fresh schema, dropped at the end. Redis: a
 * redis-server child on a free port (no persistence), stopped at the end. Results: bench/results/cluster.json.
 */

const LIST = '/dev-api/system/config/list?pageNum=1&pageSize=20';
const ROWS = 200;

interface Target {
  key: 'a' | 'b' | 'c' | 'd';
  title: string;
  /** Where the load goes (one server, or two taking half the connections each). */
  servers: RunningServer[];
  ctx: HttpContext;
  /** Redis this target uses (its commands are counted per request). */
  redis?: Redis;
  /** The application_name its servers give PostgreSQL. */
  pgApplication?: string;
}

export interface RoundTrips {
  signing: 'console' | 'fresh';
  requests: number;
  /** Statements per request (those run by at least half of the requests), and each of them. */
  statementsPerRequest: number;
  statements: Array<{ sql: string; perRequest: number }>;
  /** Redis commands per request (every command the server sent). */
  redisPerRequest: number | null;
}

export interface ClusterRun {
  reqPerSec: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  requests: number;
  failures: number;
  /** Server CPU (every process of the target) per answered request. */
  cpuUsPerRequest: number;
  /** CPU of the target's PostgreSQL backends per answered request (null for SQLite). */
  postgresUsPerRequest: number | null;
  /** Share of the machine's CPU time left idle during the run (all cores; other jobs on the machine included). */
  machineIdle: number;
}

export interface ClusterTargetResult {
  key: Target['key'];
  title: string;
  processes: number;
  roundTrips: RoundTrips[];
  runs: ClusterRun[];
  median: ClusterRun;
  /** Median req/s over SQLite's median req/s. */
  ratioToSqlite: number;
}

export interface ClusterResult {
  date: string;
  loadAvg: { start: number; end: number };
  machine: { cpu: string; nproc: number };
  settings: { duration: number; connections: number; rounds: number; rows: number };
  targets: ClusterTargetResult[];
}

/** CPU time (user + system, ms) a process has used so far, from /proc/<pid>/stat (Linux; 0 elsewhere). */
function cpuMs(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/**
 * CPU time (ms) so far of each PostgreSQL backend serving `applicationName` (the target's servers connect with it,
 * pg_stat_activity names them), by pid, from /proc: the database's share of a target's requests, without the other
 * users of the same PostgreSQL.
 */
async function backendsMs(admin: pg.Pool, applicationName: string): Promise<Map<number, number>> {
  const { rows } = await admin.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [applicationName]);
  return new Map(rows.map((r) => [r.pid, cpuMs(r.pid)]));
}

/** The machine's CPU time so far (all cores, from /proc/stat): idle and total, in ticks. */
function machineTicks(): { idle: number; total: number } {
  try {
    const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    return { idle: cpu[3] + (cpu[4] ?? 0), total: cpu.reduce((a, b) => a + b, 0) };
  } catch {
    return { idle: 0, total: 0 };
  }
}

async function startRedis(): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const failed = new Promise<never>((_, reject) =>
    child.once('error', () => reject(new Error('无法启动 redis-server：请先安装 Redis（apt-get install redis-server）'))),
  );
  const url = `redis://127.0.0.1:${port}`;
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => {});
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      await Promise.race([probe.connect(), failed]);
      await probe.ping();
      break;
    } catch (error) {
      if (child.exitCode !== null || Date.now() > deadline) throw error;
      probe.disconnect();
      await sleep(100);
    }
  }
  probe.disconnect();
  return {
    url,
    child,
    async stop() {
      if (child.exitCode !== null) return;
      const gone = once(child, 'exit');
      child.kill('SIGTERM');
      await gone;
    },
  };
}

/** Total commands Redis has run so far (INFO commandstats), less the INFO calls themselves. */
async function redisCalls(redis: Redis): Promise<number> {
  const text = await redis.info('commandstats');
  let calls = 0;
  for (const m of text.matchAll(/^cmdstat_(\w+):calls=(\d+)/gm)) if (m[1] !== 'info') calls += Number(m[2]);
  return calls;
}

async function getJson(base: string, urlPath: string, token: string, headers: Record<string, string>, method = 'GET'): Promise<Envelope> {
  const res = await fetch(base + urlPath, { method, headers: { ...headers, Authorization: `Bearer ${token}` } });
  assert(res.status === 200, `${method} ${urlPath} 返回 HTTP ${res.status}`);
  return (await res.json()) as Envelope;
}

/**
 * Statements and Redis commands per list request: 数据监控's statement counts are reset, `n` list requests sent one at
 * a time to the first server of the target, then read back. Statements run by fewer than half the requests (the job
 * runner's poll, the heartbeat, 数据监控's own) are left out.
 */
async function countRoundTrips(t: Target, n: number, signing: 'console' | 'fresh'): Promise<RoundTrips> {
  const server = t.servers[0];
  const sign = timerSigner(t.ctx.requestPublicPem);
  // Warm what this signing mode leaves warm (the session, the permission set, a read signature), then start counting.
  const shared = sign();
  await getJson(server.base, LIST, t.ctx.token, signing === 'console' ? shared : sign());
  // A distinct query each time: the same write repeated within 1 s is refused as a double submit.
  const reset = await getJson(server.base, `/dev-api/monitor/druid/reset?at=${Date.now()}`, t.ctx.token, sign(), 'DELETE');
  assert(reset.code === 200, `重置 SQL 统计失败：${reset.code} ${reset.msg}`);
  const redisBefore = t.redis ? await redisCalls(t.redis) : 0;
  for (let i = 0; i < n; i++) {
    const answer = await getJson(server.base, LIST, t.ctx.token, signing === 'console' ? shared : sign());
    assert(answer.code === 200 && answer.rows?.length === 20, `${t.title}：列表应返回 20 行，实际 ${answer.code} ${answer.rows?.length}`);
  }
  const redisAfter = t.redis ? await redisCalls(t.redis) : 0;
  const druid = await getJson(server.base, '/dev-api/monitor/druid', t.ctx.token, sign());
  const frequent = ((druid.data as { frequent?: Array<{ sql: string; count: number }> })?.frequent ?? []).filter((s) => s.count >= n / 2);
  const statements = frequent.map((s) => ({ sql: s.sql.length > 110 ? `${s.sql.slice(0, 107)}…` : s.sql, perRequest: s.count / n }));
  return {
    signing,
    requests: n,
    statementsPerRequest: statements.reduce((sum, s) => sum + s.perRequest, 0),
    statements,
    redisPerRequest: t.redis ? (redisAfter - redisBefore) / n : null,
  };
}

/** One timed run against a target: one autocannon client per server, the connections split between them. */
async function loadRun(t: Target, duration: number, connections: number, admin: pg.Pool): Promise<ClusterRun> {
  const per = Math.max(1, Math.floor(connections / t.servers.length));
  const cpu0 = t.servers.map((s) => cpuMs(s.pid));
  const ticks0 = machineTicks();
  const pg0 = t.pgApplication ? await backendsMs(admin, t.pgApplication) : null;
  const results: HttpResult[] = await Promise.all(
    t.servers.map((s) =>
      runHttpScenario(
        { ...t.ctx, base: s.base },
        { name: `cluster-${t.key}`, title: t.title, method: 'GET', path: LIST, signedIn: true, signing: 'console', expect: 200 },
        { duration, connections: per },
      ),
    ),
  );
  const cpu = t.servers.reduce((sum, s, i) => sum + cpuMs(s.pid) - cpu0[i], 0);
  const ticks1 = machineTicks();
  let pgMs: number | null = null;
  if (t.pgApplication && pg0) {
    // Backends that started during the run count whole; one that ended during it is lost (the pools keep theirs).
    pgMs = 0;
    for (const [pid, ms] of await backendsMs(admin, t.pgApplication)) pgMs += ms - (pg0.get(pid) ?? 0);
  }
  const requests = results.reduce((sum, r) => sum + r.requests, 0);
  // The warm-up second's requests are not counted in `requests`; its CPU share is taken off proportionally.
  return {
    reqPerSec: results.reduce((sum, r) => sum + r.reqPerSec, 0),
    latencyP50Ms: Math.max(...results.map((r) => r.latencyP50Ms)),
    latencyP99Ms: Math.max(...results.map((r) => r.latencyP99Ms)),
    requests,
    failures: results.reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts + r.mismatches, 0),
    cpuUsPerRequest: (cpu * 1000 * duration) / (duration + 1) / Math.max(1, requests),
    postgresUsPerRequest: pgMs === null ? null : (pgMs * 1000 * duration) / (duration + 1) / Math.max(1, requests),
    machineIdle: (ticks1.idle - ticks0.idle) / Math.max(1, ticks1.total - ticks0.total),
  };
}

export async function runClusterBench(): Promise<ClusterResult> {
  const databaseUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (!databaseUrl)
    throw new Error('请设置 BENCH_DATABASE_URL（或 TEST_DATABASE_URL）为可建 schema 的 PostgreSQL 地址，例如 postgres://zy:zy@127.0.0.1:5432/zy_test');
  const duration = Number(process.env.BENCH_DURATION ?? 5);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
  const rounds = Math.max(1, Number(process.env.BENCH_CLUSTER_ROUNDS ?? 3));
  const countN = Math.max(20, Number(process.env.BENCH_CLUSTER_COUNT ?? 200));
  const loadStart = Number(os.loadavg()[0].toFixed(2));
  const tag = crypto.randomBytes(4).toString('hex');
  const schemas = { b: `bench_cluster_${tag}_b`, d: `bench_cluster_${tag}_d` };
  const dirs = { a: '', b: '', d: '' };
  for (const k of Object.keys(dirs) as Array<keyof typeof dirs>) dirs[k] = fs.mkdtempSync(path.join(os.tmpdir(), `zy-bench-cluster-${k}-`));
  const admin = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const servers: RunningServer[] = [];
  const redisClients: Redis[] = [];
  let redis: Awaited<ReturnType<typeof startRedis>> | undefined;

  const cleanup = async () => {
    for (const c of redisClients) c.disconnect();
    for (const s of servers.reverse()) await s.stop().catch(() => undefined);
    await redis?.stop().catch(() => undefined);
    for (const schema of Object.values(schemas)) await admin.query(`drop schema if exists ${schema} cascade`).catch(() => undefined);
    await admin.end().catch(() => undefined);
    for (const dir of Object.values(dirs)) fs.rmSync(dir, { recursive: true, force: true });
  };
  process.once('SIGINT', () => {
    cleanup().finally(() => process.exit(130));
  });

  try {
    process.stderr.write('启动 redis-server… ');
    redis = await startRedis();
    process.stderr.write(`${redis.url}\n`);
    const application = (schema: string) => schema.replace('bench_cluster_', 'zy_bench_');
    const withApplication = (schema: string) => {
      const url = new URL(databaseUrl);
      url.searchParams.set('application_name', application(schema));
      return url.toString();
    };
    const pgEnv = (schema: string, redisUrl = '') => ({ DATABASE_URL: withApplication(schema), DATABASE_SCHEMA: schema, REDIS_URL: redisUrl });
    process.stderr.write('启动服务端：SQLite… ');
    const a = await startServer(dirs.a, { env: { REDIS_URL: '' } });
    servers.push(a);
    process.stderr.write('PostgreSQL… ');
    const b = await startServer(dirs.b, { env: pgEnv(schemas.b) });
    servers.push(b);
    process.stderr.write('PostgreSQL + Redis ×2… ');
    // The second process starts once the first has migrated, seeded and written the keys both use.
    const d1 = await startServer(dirs.d, { env: pgEnv(schemas.d, redis.url) });
    servers.push(d1);
    const d2 = await startServer(dirs.d, { env: pgEnv(schemas.d, redis.url) });
    servers.push(d2);
    process.stderr.write('就绪\n');

    // The same 200 rows of 参数设置 in every database (the console bench's list).
    const sqlite = await openServerDatabase(dirs.a);
    await insertSyntheticRows(sqlite, 'sys_config', ROWS).finally(() => sqlite.close());
    for (const schema of [schemas.b, schemas.d]) {
      const db = await openDatabase(loadConfig({}, { databaseUrl, databaseSchema: schema, dataDir: dirs.b, logger: false }));
      await insertSyntheticRows(db, 'sys_config', ROWS).finally(() => db.close());
    }

    const context = async (server: RunningServer, dataDir: string): Promise<HttpContext> => {
      const { requestPublicPem, responsePrivatePem } = loadOrCreateKeys(dataDir);
      const token = await signIn(server.base, requestPublicPem);
      return { base: server.base, requestPublicPem, responsePrivatePem, token, sessions: 1 };
    };
    const redisFor = () => {
      const c = new Redis(redis?.url as string, { maxRetriesPerRequest: 1 });
      c.on('error', () => {});
      redisClients.push(c);
      return c;
    };
    const ctxD = await context(d1, dirs.d);
    const targets: Target[] = [
      { key: 'a', title: 'SQLite, 1 process', servers: [a], ctx: await context(a, dirs.a) },
      { key: 'b', title: 'PostgreSQL, 1 process, no Redis', servers: [b], ctx: await context(b, dirs.b), pgApplication: application(schemas.b) },
      { key: 'c', title: 'PostgreSQL + Redis, 1 process', servers: [d1], ctx: ctxD, redis: redisFor(), pgApplication: application(schemas.d) },
      { key: 'd', title: 'PostgreSQL + Redis, 2 processes', servers: [d1, d2], ctx: ctxD, redis: redisFor(), pgApplication: application(schemas.d) },
    ];
    // Both processes of (d) answer the same list for the same token (shared database and sessions).
    for (const t of targets)
      for (const s of t.servers) {
        const answer = await getJson(s.base, LIST, t.ctx.token, timerSigner(t.ctx.requestPublicPem)());
        assert(answer.code === 200 && answer.rows?.length === 20 && Number(answer.total) >= ROWS, `${t.title}（${s.base}）：列表应返回 20 行、总数 ≥ ${ROWS}`);
      }

    process.stderr.write(`每次请求的语句与 Redis 命令（${countN} 次顺序请求）…\n`);
    const roundTrips = new Map<Target['key'], RoundTrips[]>();
    for (const t of targets.slice(0, 3)) roundTrips.set(t.key, [await countRoundTrips(t, countN, 'console'), await countRoundTrips(t, countN, 'fresh')]);
    roundTrips.set('d', roundTrips.get('c') ?? []);

    const runs = new Map<Target['key'], ClusterRun[]>(targets.map((t) => [t.key, []]));
    for (let round = 1; round <= rounds; round++) {
      process.stderr.write(`第 ${round}/${rounds} 轮（${duration}s × ${connections} 连接，${targets.length} 个目标轮流）…\n`);
      for (const t of targets) runs.get(t.key)?.push(await loadRun(t, duration, connections, admin));
    }
    const median = (xs: ClusterRun[]) => [...xs].sort((x, y) => x.reqPerSec - y.reqPerSec)[Math.floor(xs.length / 2)];
    const sqliteMedian = median(runs.get('a') ?? []);
    return {
      date: new Date().toISOString(),
      loadAvg: { start: loadStart, end: Number(os.loadavg()[0].toFixed(2)) },
      machine: { cpu: os.cpus()[0]?.model ?? 'unknown', nproc: os.availableParallelism() },
      settings: { duration, connections, rounds, rows: ROWS },
      targets: targets.map((t) => {
        const m = median(runs.get(t.key) ?? []);
        return {
          key: t.key,
          title: t.title,
          processes: t.servers.length,
          roundTrips: roundTrips.get(t.key) ?? [],
          runs: runs.get(t.key) ?? [],
          median: m,
          ratioToSqlite: m.reqPerSec / sqliteMedian.reqPerSec,
        };
      }),
    };
  } finally {
    await cleanup();
  }
}

export function printClusterResult(r: ClusterResult): void {
  console.log(
    `\n多进程：20 行列表（${r.settings.rows} 行参数设置，控制台签名方式；${r.settings.connections} 连接，每项 ${r.settings.duration}s，${r.settings.rounds} 轮轮流取 req/s 中位；负载 ${r.loadAvg.start} → ${r.loadAvg.end}）\n`,
  );
  console.log(
    table(
      ['target', 'req/s', '× SQLite', 'p50 ms', 'p99 ms', 'CPU µs/req', 'postgres µs/req', 'machine idle', 'rounds req/s', 'failures'],
      r.targets.map((t) => [
        `${t.key}. ${t.title}`,
        fmt(t.median.reqPerSec),
        `${t.ratioToSqlite.toFixed(2)}×`,
        fmt(t.median.latencyP50Ms),
        fmt(t.median.latencyP99Ms),
        fmt(t.median.cpuUsPerRequest),
        t.median.postgresUsPerRequest === null ? '-' : fmt(t.median.postgresUsPerRequest),
        `${(t.median.machineIdle * 100).toFixed(0)} %`,
        t.runs.map((x) => fmt(x.reqPerSec)).join(' / '),
        String(t.runs.reduce((sum, x) => sum + x.failures, 0)),
      ]),
    ),
  );
  console.log('\n每次请求的往返（数据库语句；Redis 命令）\n');
  const rows: string[][] = [];
  for (const t of r.targets.filter((x) => x.key !== 'd'))
    for (const rt of t.roundTrips) {
      rows.push([`${t.key}. ${t.title}`, rt.signing, fmt(rt.statementsPerRequest), rt.redisPerRequest === null ? '-' : fmt(rt.redisPerRequest)]);
      for (const s of rt.statements) rows.push([`    ${s.sql}`, '', fmt(s.perRequest), '']);
    }
  console.log(table(['target / statement', 'signing', 'statements', 'redis'], rows, 'llrr'));
}

/** Entry point of `npm run bench -- cluster` (bench/run.ts hands over to it). */
export async function main(): Promise<number> {
  const result = await runClusterBench();
  printClusterResult(result);
  const out = path.join(ROOT, 'bench', 'results', 'cluster.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`\n结果已写入 ${path.relative(process.cwd(), out)}`);
  const failures = result.targets.reduce((sum, t) => sum + t.runs.reduce((s, x) => s + x.failures, 0), 0);
  if (failures > 0) {
    console.error(`有 ${failures} 个非预期响应，见上表 failures 列`);
    return 1;
  }
  return 0;
}
