import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadOrCreateKeys } from '../server/security/keys.js';
import { buildConsole, type ConsoleResult, consoleParts, printConsoleResult, runConsoleBench } from './console.js';
import { runContentBench } from './content.js';
import { printCustomerResult, runCustomerBench } from './customer.js';
import { type EngineResult, runEngineBench } from './engine.js';
import { printLedgerResult, runLedgerBench } from './financeLedger.js';
import { type HomeBenchResult, printHomeResult, runHomeBench } from './home.js';
import { HTTP_SCENARIOS, type HttpContext, type HttpResult, prepareHttp, runHttpScenario, signIn } from './http.js';
import { type ImportResult, runImportBench } from './import.js';
import { type MicroResult, runProtocolMicro } from './protocol-micro.js';
import { ROOT, type RunningServer, startServer } from './server.js';
import { printSimulateResult, runSimulateBench } from './simulate.js';
import { fmt, table } from './stats.js';
import { runVolunteerBench, type VolunteerResult } from './volunteer.js';
import { runZipBombBench, type ZipBombResult } from './zipBomb.js';

/**
 * npm run bench [name]
 *
 * Starts the reference server (fresh data folder, SQLite, seeded, quiet), runs the benches, prints tables, writes
 * bench/results/latest.json and stops the server. `name` runs one bench: `protocol` (in-process micro-benchmarks),
 * `http` (every HTTP scenario), one HTTP scenario by name (see bench/http.ts), `volunteer` (bench/volunteer.ts) or
 * `engine` (bench/engine.ts: 100 000 rows into sys_config, so it runs last), `content` (bench/content.ts: /site/ and the /appv2 banner list). `console` (bench/console.ts: the built
 * console in Chromium plus 1M rows; only when named) runs on a console build of its own.
 * Tuning: BENCH_DURATION (s per HTTP run, default 5), BENCH_CONNECTIONS (default 10), BENCH_OPS (default 2000),
 * BENCH_RUNS (timed runs of the volunteer and engine benches, default 200), BENCH_ENGINE_ROWS (default 100000),
 * BENCH_EXPORTS (exports of the whole table, default 3).
 */

const usage = `用法：npm run bench [-- <名称>]，名称：protocol | http | ${HTTP_SCENARIOS.map((s) => s.name).join(' | ')} | volunteer | engine | console | content | import | customer | home | ledger | simulate | cluster`;
const only = process.argv[2];
if (only === '-h' || only === '--help') {
  console.log(usage);
  process.exit(0);
}
// cluster (bench/cluster.ts): SQLite against PostgreSQL with and without Redis, one and two processes; servers of its own.
if (only === 'cluster') process.exit(await (await import('./cluster.js')).main());
const known = [
  'protocol',
  'http',
  ...HTTP_SCENARIOS.map((s) => s.name),
  'volunteer',
  'engine',
  'console',
  'content',
  'import',
  'customer',
  'home',
  'ledger',
  'simulate',
];
if (only && !known.includes(only)) {
  console.error(`未知的基准：${only}\n${usage}`);
  process.exit(2);
}

const runMicro = !only || only === 'protocol';
const scenarios = HTTP_SCENARIOS.filter((s) => !only || only === 'http' || only === s.name);
const runVolunteer = !only || only === 'volunteer';
const runEngine = !only || only === 'engine';
const runConsole = only === 'console';
const runContent = !only || only === 'content'; // /site/ home and the /appv2 public banner list (bench/content.ts)
const runImport = !only || only === 'import'; // the largest allowed import with reads alongside (bench/import.ts)
const runHome = !only || only === 'home'; // 首页 calls at 100,000 customers and a year of activity, own server (bench/home.ts)
const runCustomer = !only || only === 'customer'; // 发卡 10,000 and 用户列表 at 100,000 customers, own server (bench/customer.ts)
const runSimulate = !only || only === 'simulate'; // whole-plan simulation, 96 choices × 10,000 draws, in-process (bench/simulate.ts)
const runLedger = !only || only === 'ledger'; // finance ledger: postings, checkLedger, 资金流水, 100 concurrent 提现, own server (bench/financeLedger.ts)
const needServer = scenarios.length > 0 || runVolunteer || runEngine || runConsole || runContent || runImport;
const duration = Number(process.env.BENCH_DURATION ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ops = Number(process.env.BENCH_OPS ?? 2000);
const runs = Number(process.env.BENCH_RUNS ?? 200);
const engineRows = Number(process.env.BENCH_ENGINE_ROWS ?? 100_000);
const exportRuns = Number(process.env.BENCH_EXPORTS ?? 3);

const machine = {
  cpu: os.cpus()[0]?.model ?? 'unknown',
  nproc: os.availableParallelism(),
  memoryGiB: Math.round(os.totalmem() / 2 ** 30),
  node: process.version,
  platform: `${os.platform()} ${os.release()} ${os.arch()}`,
  /** 1-minute load average before the run: other work on the machine skews every figure. */
  loadAvgAtStart: Number(os.loadavg()[0].toFixed(2)),
};

const started = Date.now();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zhiyuan-bench-'));
let server: RunningServer | undefined;
let micro: MicroResult[] | undefined;
const http: HttpResult[] = [];
let volunteer: VolunteerResult | undefined;
let engine: EngineResult | undefined;
let consoleResult: ConsoleResult | undefined;
let importResult: ImportResult | undefined;
let importXlsxResult: ImportResult | undefined;
let zipBombResult: ZipBombResult | undefined;
let consoleBuildSeconds = 0;

const cleanup = async () => {
  await server?.stop();
  server = undefined;
  fs.rmSync(dataDir, { recursive: true, force: true });
};
process.once('SIGINT', () => {
  cleanup().finally(() => process.exit(130));
});

try {
  if (needServer) {
    process.stderr.write('启动服务端… ');
    const staticDir = runConsole && consoleParts().has('chromium') ? path.join(dataDir, 'console') : undefined;
    if (staticDir) {
      process.stderr.write(`构建控制台到 ${staticDir}… `);
      consoleBuildSeconds = buildConsole(staticDir);
    }
    server = await startServer(dataDir, { staticDir });
    process.stderr.write(`${server.base}（pid ${server.pid}）\n`);
  }
  // The server's own keys when it runs (generated at its start), otherwise fresh ones in the temp folder.
  const keys = loadOrCreateKeys(dataDir);

  if (runMicro) {
    process.stderr.write('protocol 微基准…\n');
    micro = runProtocolMicro(keys, { ops });
  }

  let ctx: HttpContext | undefined;
  if (server && scenarios.length > 0) {
    ctx = await prepareHttp(server.base, keys.requestPublicPem, keys.responsePrivatePem);
    for (const s of scenarios) {
      process.stderr.write(`http ${s.name}（${s.signing}，${duration}s × ${connections} 连接）…\n`);
      http.push(await runHttpScenario(ctx, s, { duration, connections }));
    }
  }
  if (server && (runVolunteer || runEngine || runConsole || runContent || runImport) && !ctx) {
    const token = await signIn(server.base, keys.requestPublicPem);
    ctx = { base: server.base, requestPublicPem: keys.requestPublicPem, responsePrivatePem: keys.responsePrivatePem, token, sessions: 1 };
  }
  if (server && ctx && runContent) {
    process.stderr.write(`content（/site/ 首页、/appv2 公开轮播列表；${duration}s × ${connections} 连接）…\n`);
    http.push(...(await runContentBench(ctx, { duration, connections })));
  }
  if (server && ctx && runVolunteer) {
    process.stderr.write(`volunteer（${runs} 次）…\n`);
    volunteer = await runVolunteerBench(server, ctx, { runs });
  }
  if (server && ctx && runEngine) {
    process.stderr.write(`engine（${engineRows} 行，${runs} 次列表，${exportRuns} 次导出）…\n`);
    engine = await runEngineBench(server, ctx, { rows: engineRows, requests: runs, exportRuns });
  }
  if (server && ctx && runImport) {
    process.stderr.write('import（50 000 行导入，同时读列表）…\n');
    importResult = await runImportBench(server, ctx);
    importXlsxResult = await runImportBench(server, ctx, 50_000, 'xlsx');
    zipBombResult = await runZipBombBench(server, ctx);
  }
  if (server && ctx && runConsole) {
    process.stderr.write('console（Chromium、列表 req/s、百万行分页）…\n');
    consoleResult = await runConsoleBench(server, ctx, consoleBuildSeconds, { duration, connections });
  }
} catch (err) {
  // A refused connection mid-run usually means the server went away: say so, with its output.
  const died = server?.died();
  if (died) console.error(died);
  throw err;
} finally {
  await cleanup();
}
// 会员卡 / 用户列表 on a server and data folder of its own, once the shared server has stopped.
if (runCustomer) process.stderr.write('customer（发卡 10 000 张，10 万客户的用户列表）…\n');
const customerResult = runCustomer ? await runCustomerBench(runs) : undefined;
if (runLedger) process.stderr.write('ledger（记账、对账检查、资金流水、并发提现）…\n');
const ledgerResult = runLedger ? await runLedgerBench(runs) : undefined;
if (runHome) process.stderr.write('home（10 万客户、一年业务数据的首页接口）…\n');
const homeResult: HomeBenchResult | undefined = runHome ? await runHomeBench(runs) : undefined;
if (runSimulate) process.stderr.write('simulate（96 个志愿 × 10 000 次模拟）…\n');
const simulateResult = runSimulate ? runSimulateBench(runs) : undefined;

const failed = http.filter((r) => r.non2xx + r.errors + r.timeouts + r.mismatches > 0);

if (micro) {
  console.log('\n协议微基准（µs / 次）\n');
  console.log(
    table(
      ['operation', 'ops', 'mean', 'p50', 'p99', 'note'],
      micro.map((m) => [m.name, String(m.ops), fmt(m.meanUs), fmt(m.p50Us), fmt(m.p99Us), m.note ?? '']),
      'lrrrrl',
    ),
  );
}
if (http.length > 0) {
  console.log(`\nHTTP（autocannon，${connections} 连接，每项 ${duration}s，预热 1s）\n`);
  console.log(
    table(
      ['scenario', 'signing', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'non-2xx', 'errors', 'mismatch'],
      http.map((r) => [
        r.title,
        r.signing,
        fmt(r.reqPerSec),
        fmt(r.latencyP50Ms),
        fmt(r.latencyP99Ms),
        String(r.requests),
        String(r.non2xx),
        String(r.errors + r.timeouts),
        String(r.mismatches),
      ]),
    ),
  );
}
if (volunteer) {
  console.log(`\n志愿填报（山东 ${volunteer.lines} 条投档线，一个 600 分学生；ms / 次）\n`);
  const v = volunteer;
  console.log(
    table(
      ['operation', 'runs', 'mean', 'p50', 'p99', 'note'],
      [
        ['chance, first call (loads the catalogue)', '1', fmt(v.coldChanceMs), '', '', ''],
        ...v.ops.map((o) => [o.name, String(o.runs), fmt(o.meanMs), fmt(o.p50Ms), fmt(o.p99Ms), o.note ?? '']),
        [v.http.name, String(v.http.runs), fmt(v.http.meanMs), fmt(v.http.p50Ms), fmt(v.http.p99Ms), `张三, POST ${v.http.path}, total ${v.http.total}`],
      ],
      'lrrrrl',
    ),
  );
  console.log(
    `\n一遍类型化数组（${v.lines} 个选项）：p50 ${fmt(v.floor.p50Ms)} ms；录取率查询 / 下限 = ${v.floor.chanceRatio.toFixed(1)}×，智能填报（落点+模拟）/ 下限 = ${v.floor.landingRatio.toFixed(1)}×`,
  );
  console.log(
    `10 位专家同时智能填报（HTTP，${v.concurrent.requests} 次）：p50 ${fmt(v.concurrent.p50Ms)} ms，p99 ${fmt(v.concurrent.p99Ms)} ms，最长 ${fmt(v.concurrent.maxMs)} ms`,
  );
  // Opening a student on the filling page (bench/volunteer.ts measureOpenStudent).
  const o = v.openStudent;
  console.log(
    `\n打开学生（填报页的 5 个请求；${o.runs} 次）：p50 ${fmt(o.p50Ms)} ms，p99 ${fmt(o.p99Ms)} ms，共 ${o.totalBytes} B（gzip ${o.totalGzipBytes} B）\n`,
  );
  console.log(
    table(
      ['request', 'bytes', 'gzip bytes'],
      [
        ...o.requests.map((r) => [r.path, String(r.bytes), String(r.gzipBytes)]),
        [`before: schoolEnrollChance all=1 (p50 ${fmt(o.before.p50Ms)} ms)`, String(o.before.bytes), String(o.before.gzipBytes)],
      ],
      'lrr',
    ),
  );
}
if (engine) {
  const e = engine;
  console.log(`\nschema 引擎（sys_config ${e.tableRows} 行；插入 ${e.insert.rows} 行用时 ${fmt(e.insert.seconds)} s，${fmt(e.insert.rowsPerSec)} 行/s）\n`);
  console.log(
    table(
      ['list: configName like, orderByColumn=configKey asc', 'matches', 'pages', 'requests', 'mean ms', 'p50 ms', 'p99 ms'],
      [
        ...e.list.classes.map((c) => [
          `${c.name} (${c.configName})`,
          String(c.total),
          String(c.pages),
          String(c.requests),
          fmt(c.meanMs),
          fmt(c.p50Ms),
          fmt(c.p99Ms),
        ]),
        ['all requests', '', '', String(e.list.requests), fmt(e.list.meanMs), fmt(e.list.p50Ms), fmt(e.list.p99Ms)],
      ],
    ),
  );
  console.log('');
  console.log(
    table(
      ['export (every row)', 'seconds', 'first byte ms', 'MB', 'RSS before MiB', 'RSS peak MiB', 'RSS after MiB'],
      e.export.runs.map((r, i) => [
        `run ${i + 1}`,
        fmt(r.seconds),
        fmt(r.firstByteMs),
        fmt(r.bytes / 1e6),
        fmt(r.rssBeforeMiB),
        fmt(r.rssPeakMiB),
        fmt(r.rssAfterMiB),
      ]),
    ),
  );
  console.log(
    `\n导出文件核对（exceljs 流式读取，${fmt(e.export.verified.readSeconds)} s）：${e.export.verified.dataRows} 行数据；峰值${e.export.peakReset ? '含 VmHWM（已重置）' : '仅 10 ms 采样'}`,
  );
}

if (consoleResult) printConsoleResult(consoleResult);
if (customerResult) printCustomerResult(customerResult);
if (ledgerResult) printLedgerResult(ledgerResult);
if (homeResult) printHomeResult(homeResult);
if (simulateResult) printSimulateResult(simulateResult);
for (const r of [importResult, importXlsxResult]) {
  if (!r) continue;
  console.log(`\n导入（${r.rows} 行 ${(r.fileBytes / 1024 / 1024).toFixed(1)} MB ${r.format.toUpperCase()} 到参数设置；同时读 20 行列表）\n`);
  console.log(
    table(
      ['measure', 'value'],
      [
        ['import time s', fmt(r.importSeconds)],
        ['server RSS before / peak MiB', `${fmt(r.rssBeforeMiB)} / ${fmt(r.peakRssMiB)}`],
        ['list read alone p50 / p99 ms', `${fmt(r.readsBefore.p50)} / ${fmt(r.readsBefore.p99)}`],
        ['list read during import p50 / p99 / max ms', `${fmt(r.reads.p50)} / ${fmt(r.reads.p99)} / ${fmt(r.reads.max)} (${r.reads.count} reads)`],
      ],
      'lr',
    ),
  );
}

if (zipBombResult) {
  const z = zipBombResult;
  console.log(`\n压缩炸弹（${(z.fileBytes / 1024).toFixed(0)} KB 的 .xlsx，解压后 ${z.inflatedMiB} MiB）\n`);
  console.log(
    table(
      ['route', 'answer ms', 'code', 'server RSS before / peak MiB', 'message'],
      z.imports.map((r) => [r.route, fmt(r.ms), String(r.code), `${fmt(r.rssBeforeMiB)} / ${fmt(r.rssPeakMiB)}`, r.msg]),
      'lrrrl',
    ),
  );
}

const out = path.join(ROOT, 'bench', 'results', 'latest.json');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(
  out,
  `${JSON.stringify({ date: new Date(started).toISOString(), elapsedS: (Date.now() - started) / 1000, loadAvgAtEnd: Number(os.loadavg()[0].toFixed(2)), only: only ?? null, machine, settings: { duration, connections, ops, runs, engineRows, exportRuns }, protocol: micro ?? null, http, volunteer: volunteer ?? null, engine: engine ?? null, console: consoleResult ?? null, import: importResult ?? null, importXlsx: importXlsxResult ?? null, zipBomb: zipBombResult ?? null, customer: customerResult ?? null, home: homeResult ?? null, ledger: ledgerResult ?? null, simulate: simulateResult ?? null }, null, 2)}\n`,
);
console.log(`\n结果已写入 ${path.relative(process.cwd(), out)}（用时 ${((Date.now() - started) / 1000).toFixed(0)} s）`);
if (failed.length > 0) {
  console.error(`以下场景出现非预期响应：${failed.map((r) => r.name).join(', ')}`);
  process.exitCode = 1;
}
