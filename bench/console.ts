import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { type BrowserContext, type CDPSession, chromium, type Page } from 'playwright-core';
import { buildEntity, DEFAULT_SCHEMAS_DIR, insertSyntheticRows, loadSchemas } from '../server/engine/index.js';
import { countRows, listQuery, PAGE_ANCHORS, PAGE_ROWS, selectRows } from '../server/engine/query.js';
import { engineDb, fromClause, selectList } from '../server/engine/store.js';
import { loadOrCreateKeys } from '../server/security/keys.js';
import { forgetWatch, registerWatch, WriteWatch } from '../server/security/writeWatch.js';
import { assert, type HttpContext, type HttpResult, LOGIN, runHttpScenario, sequentialRequests, signIn } from './http.js';
import { openServerDatabase, ROOT, type RunningServer, startServer } from './server.js';
import { timerSigner } from './sign.js';
import { fmt, summarize, table } from './stats.js';

/**
 * The console as a user gets it (issue 15 acceptance), measured in Chromium on a console built for this run:
 *  - bytes over the wire and compressed JavaScript of a first visit to /login, then of signing in to 首页;
 *  - time to interactive of /login, of a first switch to a menu page and of a return to its open tab, at 1× and at
 *    4× CPU slowdown (Chrome DevTools Protocol Emulation.setCPUThrottlingRate), with the longest main-thread task;
 *  - requests/s of a 20-row engine list against a bare Fastify endpoint answering the same bytes, in the same run;
 *  - one page of a 1M-row engine list: the first, the middle and the last.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const LIST_PATH = '/dev-api/system/config/list';

export interface Transfer {
  /** Every response's encoded body + headers as received (what crossed the wire). */
  wireBytes: number;
  requests: number;
  /** JavaScript files: count and bytes as received (brotli or gzip as the server chose). */
  jsFiles: number;
  jsWireBytes: number;
  /** The same files' decoded size. */
  jsDecodedBytes: number;
}

export interface Timing {
  ms: number;
  /** Longest main-thread task (PerformanceObserver longtask) seen during the step; 0 when none over 50 ms. */
  longestTaskMs: number;
}

export interface ThrottleRun {
  cpuSlowdown: number;
  loginInteractive: Timing;
  firstSwitch: Timing & { page: string };
  returnToTab: Timing & { runs: number; p50Ms: number; maxMs: number };
}

export interface ConsoleResult {
  build: { seconds: number };
  /** The Chromium passes (absent when BENCH_CONSOLE_PARTS leaves out `chromium`). */
  login?: Transfer;
  home?: Transfer;
  /** Fetched in the background while the pass stays on 首页 (the engine list page's code). */
  prefetch?: Transfer;
  runs?: ThrottleRun[];
  /** Absent when BENCH_CONSOLE_PARTS leaves out `list`. */
  list?: {
    /** Signed as the console signs its reads: one signature per 10 s (bench/http.ts signing 'console'). */
    engine: ListRun;
    /** The same server and list, a fresh signature per request: one RSA decrypt and one nonce claim each. */
    engineFresh: ListRun;
    /** BENCH_CONSOLE_BEFORE=1: every signature claimed by a durable INSERT of its own (NONCE_STORE=table), fresh signing. */
    engineTableNonces?: ListRun;
    bare: ListRun;
    ratio: number;
    /** How many rounds the three took turns (each figure is its median round by req/s). */
    rounds: number;
  };
  /** Absent when BENCH_CONSOLE_PARTS leaves out `million`. */
  million?: {
    rows: number;
    insertSeconds: number;
    /** Over HTTP (signature, session, permission, count and page, JSON), one request at a time. */
    pages: { label: string; pageNum: number; p50Ms: number; p99Ms: number; maxMs: number }[];
    /** The engine's list queries alone (count + page) in the bench process, by key now and by offset as before. */
    queries: {
      label: string;
      pageNum: number;
      byKeyP50Ms: number;
      byKeyMaxMs: number;
      offsetP50Ms: number;
      offsetMaxMs: number;
      /** By key with the total cached (the server's count cache, server/engine/query.ts countRows), no anchors. */
      cachedCountP50Ms: number;
      cachedCountMaxMs: number;
      /** Cached total and page anchors (PAGE_ANCHORS), as the server pages now; the first request builds the anchors. */
      anchorsP50Ms: number;
      anchorsMaxMs: number;
      anchorsFirstMs: number;
    }[];
  };
}

/** One autocannon run of the list comparison, with the answering process's CPU time per request. */
export type ListRun = HttpResult & { cpuUsPerRequest: number };

export interface ConsoleOptions {
  duration?: number;
  connections?: number;
  millionRows?: number;
  /** Timed requests per page of the 1M-row list. */
  pageRuns?: number;
}

/** Which parts run: `BENCH_CONSOLE_PARTS=chromium,list,million` (default all three). */
export function consoleParts(): Set<'chromium' | 'list' | 'million'> {
  const raw = process.env.BENCH_CONSOLE_PARTS ?? 'chromium,list,million';
  return new Set(raw.split(',').map((x) => x.trim()) as ('chromium' | 'list' | 'million')[]);
}

/** Builds the console into its own folder (never dist/, which others may be serving). */
export function buildConsole(outDir: string): number {
  const t0 = performance.now();
  const run = spawnSync(
    process.execPath,
    [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'],
    {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  assert(run.status === 0, `控制台构建失败（退出码 ${run.status}）`);
  return (performance.now() - t0) / 1000;
}

/** Sums what the page receives through the DevTools protocol's Network domain, between reset() and read(). */
async function watchNetwork(cdp: CDPSession) {
  await cdp.send('Network.enable');
  const kinds = new Map<string, string>();
  let totals: Transfer = { wireBytes: 0, requests: 0, jsFiles: 0, jsWireBytes: 0, jsDecodedBytes: 0 };
  const decoded = new Map<string, number>();
  cdp.on('Network.responseReceived', (e) => kinds.set(e.requestId, e.type));
  cdp.on('Network.dataReceived', (e) => decoded.set(e.requestId, (decoded.get(e.requestId) ?? 0) + e.dataLength));
  cdp.on('Network.loadingFinished', (e) => {
    totals.wireBytes += e.encodedDataLength;
    totals.requests += 1;
    if (kinds.get(e.requestId) === 'Script') {
      totals.jsFiles += 1;
      totals.jsWireBytes += e.encodedDataLength;
      totals.jsDecodedBytes += decoded.get(e.requestId) ?? 0;
    }
  });
  return {
    reset() {
      totals = { wireBytes: 0, requests: 0, jsFiles: 0, jsWireBytes: 0, jsDecodedBytes: 0 };
    },
    read: (): Transfer => ({ ...totals }),
  };
}

/** Records main-thread long tasks from the first byte of every document. */
// tsx compiles the functions handed to page.evaluate with esbuild's keepNames, which calls a __name helper the page
// does not have: a no-op one is defined first.
const LONG_TASKS = `
  window.__name = (fn) => fn;
  window.__longTasks = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push(e.duration); })
    .observe({ type: 'longtask', buffered: true });
`;

async function longestTaskSince(page: Page, from: number): Promise<number> {
  return page.evaluate((n) => Math.max(0, ...((window as unknown as { __longTasks: number[] }).__longTasks ?? []).slice(n)), from);
}
const longTaskCount = (page: Page) => page.evaluate(() => ((window as unknown as { __longTasks: number[] }).__longTasks ?? []).length);

/**
 * In the page: clicks `click` (a CSS selector plus the text it must have) and measures until the target is on screen
 * and the main thread is free again — `ready` names a visible element, e.g. a column header of the list plus at least
 * one of its rows. Time is taken inside the page (performance.now), so no DevTools round trip is counted.
 */
async function timedClick(page: Page, click: { selector: string; text: string }, ready: { header: string }): Promise<number> {
  return page.evaluate(
    async ({ click, ready }) => {
      // Rendered and not inside a hidden kept page (display: none or content-visibility: hidden, see AppMain).
      const visible = (el: Element) => (el as HTMLElement).offsetParent !== null && el.checkVisibility();
      const target = [...document.querySelectorAll(click.selector)].find((el) => visible(el) && el.textContent?.trim() === click.text);
      if (!target) throw new Error(`找不到可点击的「${click.text}」`);
      const t0 = performance.now();
      (target as HTMLElement).click();
      await new Promise<void>((resolve, reject) => {
        const deadline = t0 + 30_000;
        const tick = () => {
          const header = [...document.querySelectorAll('.ant-table-thead th')].find((th) => visible(th) && th.textContent?.trim() === ready.header);
          const table = header?.closest('.ant-table');
          const row = table && [...table.querySelectorAll('.ant-table-tbody tr.ant-table-row')].find(visible);
          if (row) resolve();
          else if (performance.now() > deadline) reject(new Error(`30 秒内未显示「${ready.header}」列表`));
          else requestAnimationFrame(tick);
        };
        tick();
      });
      // The frame with the page is painted and the main thread is free for input again.
      await new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      return performance.now() - t0;
    },
    { click, ready },
  );
}

/** From navigation start to the sign-in form ready for input (button enabled, next frame free). */
async function loginInteractive(page: Page, base: string): Promise<number> {
  await page.goto(`${base}/login`, { waitUntil: 'commit' });
  return page.evaluate(async () => {
    await new Promise<void>((resolve) => {
      const tick = () => {
        const button = [...document.querySelectorAll('button[type=submit]')].find((b) => (b as HTMLElement).offsetParent !== null);
        const input = document.querySelector('input[placeholder="账号 / 手机号"]');
        if (button && input && !(button as HTMLButtonElement).disabled) resolve();
        else requestAnimationFrame(tick);
      };
      tick();
    });
    await new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    return performance.now();
  });
}

async function signInToHome(page: Page): Promise<void> {
  await page.getByPlaceholder('账号 / 手机号').fill(LOGIN.username);
  await page.getByPlaceholder('密码').fill(LOGIN.password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await page.waitForURL('**/index', { timeout: 30_000 });
  await page.locator('.ant-layout-sider').getByText('系统管理', { exact: true }).waitFor({ timeout: 30_000 });
}

/** A fresh Chromium profile (--user-data-dir), so nothing is cached from an earlier visit. */
async function freshBrowser(): Promise<{ context: BrowserContext; page: Page; cdp: CDPSession; close(): Promise<void> }> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'zy-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1440, height: 900 },
    locale: 'zh-CN',
  });
  await context.addInitScript(LONG_TASKS);
  const page = context.pages()[0] ?? (await context.newPage());
  const cdp = await context.newCDPSession(page);
  return {
    context,
    page,
    cdp,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

const MENU_ITEM = '.ant-layout-sider .ant-menu-title-content';
/** How long the pass stays on 首页 before the first menu click (the console's background prefetch starts after 1.5 s). */
const PREFETCH_SETTLE_MS = 3000;
const TAB = '.zy-tags-view [role=tab]';

/** One pass at a CPU slowdown: sign-in page, a first switch to a menu page, returns to its tab from 首页. */
export async function measurePass(base: string, cpuSlowdown: number, target: { menu: string; header: string }, returns: number) {
  const b = await freshBrowser();
  try {
    await b.cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
    // BENCH_LATENCY_MS: a round trip as on a real network (each request waits this long), for side-by-side runs.
    const latency = Number(process.env.BENCH_LATENCY_MS ?? 0);
    if (latency > 0) await b.cdp.send('Network.emulateNetworkConditions', { offline: false, latency, downloadThroughput: -1, uploadThroughput: -1 });
    const network = await watchNetwork(b.cdp);
    network.reset();
    const loginMs = await loginInteractive(b.page, base);
    const loginTask = await longestTaskSince(b.page, 0);
    await b.page.waitForLoadState('networkidle');
    const login = network.read();

    network.reset();
    await signInToHome(b.page);
    await b.page.waitForLoadState('networkidle');
    await sleep(500);
    const home = network.read();

    // A user looks at 首页 before opening a menu: the console uses that time to fetch the engine's list page and
    // write its styles (src/router/prefetchPages.tsx). Those bytes are counted on their own; the first switch below
    // is then a first visit of the page, with its code and styles ready but no data.
    network.reset();
    await sleep(PREFETCH_SETTLE_MS);
    await b.page.waitForLoadState('networkidle');
    const prefetch = network.read();

    // Open the group (not timed: the click on the page is), then the first visit of the page.
    const sider = b.page.locator('.ant-layout-sider');
    if (!(await sider.getByText(target.menu, { exact: true }).isVisible())) await sider.getByText('系统管理', { exact: true }).click();
    await sider.getByText(target.menu, { exact: true }).waitFor();
    let tasks = await longTaskCount(b.page);
    const firstMs = await timedClick(b.page, { selector: MENU_ITEM, text: target.menu }, { header: target.header });
    const firstTask = await longestTaskSince(b.page, tasks);

    const returnsMs: number[] = [];
    let returnTask = 0;
    for (let i = 0; i < returns; i++) {
      await b.page.locator(TAB, { hasText: '首页' }).click();
      await b.page.waitForURL('**/index');
      await sleep(300);
      tasks = await longTaskCount(b.page);
      returnsMs.push(await timedClick(b.page, { selector: TAB, text: target.menu }, { header: target.header }));
      returnTask = Math.max(returnTask, await longestTaskSince(b.page, tasks));
    }
    const r = summarize(returnsMs);
    const run: ThrottleRun = {
      cpuSlowdown,
      loginInteractive: { ms: loginMs, longestTaskMs: loginTask },
      firstSwitch: { ms: firstMs, longestTaskMs: firstTask, page: target.menu },
      returnToTab: { ms: r.p50, p50Ms: r.p50, maxMs: Math.max(...returnsMs), runs: returns, longestTaskMs: returnTask },
    };
    return { run, login, home, prefetch };
  } finally {
    await b.close();
  }
}

/** A bare Fastify server in its own process answering GET /list with the given bytes: the floor for any route. */
async function startBareFastify(body: string): Promise<{ base: string; pid: number; stop(): Promise<void> }> {
  const file = path.join(os.tmpdir(), `zy-bench-bare-${process.pid}.json`);
  fs.writeFileSync(file, body);
  const script = `
    import fs from 'node:fs';
    import Fastify from 'fastify';
    const body = fs.readFileSync(process.env.BODY_FILE, 'utf8');
    const app = Fastify({ logger: false });
    app.get('/list', async (_request, reply) => reply.type('application/json; charset=utf-8').send(body));
    await app.listen({ port: 0, host: '127.0.0.1' });
    console.log('PORT ' + app.server.address().port);
  `;
  const child: ChildProcess = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { ...process.env, BODY_FILE: file },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  const deadline = Date.now() + 15_000;
  while (!/PORT (\d+)/.test(out)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('对照用的 Fastify 未启动');
    await sleep(50);
  }
  const port = Number(/PORT (\d+)/.exec(out)?.[1]);
  return {
    base: `http://127.0.0.1:${port}`,
    pid: child.pid as number,
    async stop() {
      const gone = once(child, 'exit');
      child.kill('SIGTERM');
      await gone;
      fs.rmSync(file, { force: true });
    },
  };
}

/**
 * The list's own database work for one page of sys_config (count + page, as server/engine/routes.ts does it), timed
 * in the bench process on the server's SQLite file: by key (selectRows now) and by plain offset (the query before).
 * This separates the paging cost from the per-request cost of the HTTP figures.
 */
async function timeListQueries(dataDir: string, lastPage: number, runs: number): Promise<NonNullable<ConsoleResult['million']>['queries']> {
  const entities = new Map(loadSchemas(DEFAULT_SCHEMAS_DIR).map((l) => [l.schema.$id, buildEntity(l)] as const));
  const entity = entities.get('sys_config');
  assert(entity, '没有 sys_config 的 schema');
  const db = await openServerDatabase(dataDir);
  const k = engineDb(db);
  const { from, labelColumns } = fromClause(entity, entities, true);
  const select = labelColumns.length ? sql`${selectList(entity)}, ${sql.join(labelColumns)}` : selectList(entity);
  const out: NonNullable<ConsoleResult['million']>['queries'] = [];
  // The cached columns time the count and the anchors, never a kept page: every run reads its rows.
  const keepPages = PAGE_ROWS.enabled;
  PAGE_ROWS.enabled = false;
  try {
    for (const [order, params] of [
      ['default', {}],
      ['configKey asc', { orderByColumn: 'configKey', isAsc: 'ascending' }],
    ] as const) {
      const q = listQuery(entity, params, 'sqlite');
      for (const [label, pageNum] of [
        ['first', 1],
        ['middle', Math.ceil(lastPage / 2)],
        ['last', lastPage],
      ] as const) {
        const offset = (pageNum - 1) * 20;
        const time = async (read: (total: number) => Promise<unknown[]>) => {
          const times: number[] = [];
          let first = 0;
          for (let i = 0; i < runs + 2; i++) {
            const t0 = performance.now();
            const total = await countRows(k, entity, q);
            const rows = await read(total);
            if (i === 0) first = performance.now() - t0;
            if (i >= 2) times.push(performance.now() - t0);
            assert(rows.length > 0, `${order} 第 ${pageNum} 页没有数据`);
          }
          return { p50: summarize(times).p50, max: Math.max(...times), first };
        };
        const byKey = await time((total) => selectRows(k, entity, entities, q, 20, offset, total));
        const byOffset = await time(
          async () => (await sql`select ${select} from ${from} where ${q.where} order by ${q.order} limit 20 offset ${offset}`.execute(k)).rows,
        );
        // The same page with the server's total cache on (server/security/writeWatch.ts): count(*) runs once, then
        // every later request of this filter set reuses it until the table is written.
        // Then with page anchors as well (a fresh watch: the first request builds them).
        const owner = k.getExecutor().adapter;
        const anchorsWere = PAGE_ANCHORS.enabled;
        PAGE_ANCHORS.enabled = false;
        registerWatch(owner, new WriteWatch());
        const cached = await time((total) => selectRows(k, entity, entities, q, 20, offset, total)).finally(() => forgetWatch(owner));
        PAGE_ANCHORS.enabled = true;
        registerWatch(owner, new WriteWatch());
        const anchored = await time((total) => selectRows(k, entity, entities, q, 20, offset, total)).finally(() => {
          forgetWatch(owner);
          PAGE_ANCHORS.enabled = anchorsWere;
        });
        out.push({
          label: `${order}: ${label}`,
          pageNum,
          byKeyP50Ms: byKey.p50,
          byKeyMaxMs: byKey.max,
          offsetP50Ms: byOffset.p50,
          offsetMaxMs: byOffset.max,
          cachedCountP50Ms: cached.p50,
          cachedCountMaxMs: cached.max,
          anchorsP50Ms: anchored.p50,
          anchorsMaxMs: anchored.max,
          anchorsFirstMs: anchored.first,
        });
      }
    }
  } finally {
    PAGE_ROWS.enabled = keepPages;
    await db.close();
  }
  return out;
}

export async function runConsoleBench(server: RunningServer, ctx: HttpContext, buildSeconds: number, options: ConsoleOptions = {}): Promise<ConsoleResult> {
  const { duration = 5, connections = 10, millionRows = Number(process.env.BENCH_CONSOLE_ROWS ?? 1_000_000), pageRuns = 20 } = options;

  const parts = consoleParts();
  const result: ConsoleResult = { build: { seconds: buildSeconds } };

  // 1. Chromium at 1× and 4× CPU slowdown, each with a fresh profile (a first visit), each on a page not yet opened.
  if (parts.has('chromium')) {
    process.stderr.write('  Chromium 1× …\n');
    const normal = await measurePass(server.base, 1, { menu: '参数设置', header: '参数键名' }, 5);
    process.stderr.write('  Chromium 4× …\n');
    const slow = await measurePass(server.base, 4, { menu: '岗位管理', header: '岗位编码' }, 3);
    Object.assign(result, { login: normal.login, home: normal.home, prefetch: normal.prefetch, runs: [normal.run, slow.run] });
  }
  if (parts.has('list')) result.list = await measureList(server, ctx, duration, connections);
  if (parts.has('million')) {
    // Its own server, with engine list pages not kept between requests (LIST_ROWS_CACHE=0): each timed request of
    // the same page then reads its rows, as the first request after a write does.
    const uncached = await withEnv({ LIST_ROWS_CACHE: '0' }, () => startSignedInServer());
    try {
      result.million = await measureMillion(uncached.server, uncached.ctx, millionRows, pageRuns);
    } finally {
      await uncached.stop();
    }
  }
  return result;
}

/** Runs `start` with these variables set in process.env (a server child reads them when it starts), then restores. */
async function withEnv<T>(vars: Record<string, string>, start: () => Promise<T>): Promise<T> {
  const previous = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    return await start();
  } finally {
    for (const [k, v] of Object.entries(previous)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** A second reference server on a fresh data folder, signed in as admin. */
async function startSignedInServer(): Promise<{ server: RunningServer; ctx: HttpContext; stop(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zy-bench-uncached-'));
  const server = await startServer(dataDir);
  const { requestPublicPem, responsePrivatePem } = loadOrCreateKeys(dataDir); // made by the server at its start
  const token = await signIn(server.base, requestPublicPem);
  return {
    server,
    ctx: { base: server.base, requestPublicPem, responsePrivatePem, token, sessions: 1 },
    async stop() {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** CPU time (user + system, ms) a process has used so far, from /proc/<pid>/stat (Linux; 0 elsewhere). */
function cpuMs(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return 0;
  }
}

/** One target of the list comparison: where it answers and which process to charge the CPU time to. */
interface ListTarget {
  ctx: HttpContext;
  path: string;
  pid: number;
  name: string;
  title: string;
  signedIn: boolean;
  signing: 'fresh' | 'console';
}

/**
 * A 20-row engine list against bare Fastify answering the same bytes: signed as the console signs its reads (one
 * signature per 10 s), and with a fresh signature per request; with BENCH_CONSOLE_BEFORE=1 also a second server with a
 * durable INSERT per signature (NONCE_STORE=table). On a shared machine a single 5 s run of each says little, so they
 * take turns for BENCH_CONSOLE_ROUNDS rounds (default 3) and the round with the median req/s of each is reported,
 * with the server's CPU time per request (from /proc), which other jobs' load disturbs much less than req/s.
 */
async function measureList(server: RunningServer, ctx: HttpContext, duration: number, connections: number): Promise<NonNullable<ConsoleResult['list']>> {
  const db = await openServerDatabase(server.dataDir);
  try {
    await insertSyntheticRows(db, 'sys_config', 200);
  } finally {
    await db.close();
  }
  const path20 = `${LIST_PATH}?pageNum=1&pageSize=20`;
  const sample = await fetch(`${server.base}${path20}`, { headers: { Authorization: `Bearer ${ctx.token}`, ...timerSigner(ctx.requestPublicPem)() } });
  const sampleBody = await sample.text();
  assert(JSON.parse(sampleBody).rows?.length === 20, '参数列表应返回 20 行');

  const cleanups: (() => Promise<void>)[] = [];
  try {
    const targets: ListTarget[] = [
      { ctx, path: path20, pid: server.pid, name: 'engine-list-20', title: 'GET system/config/list, 20 rows', signedIn: true, signing: 'console' },
      { ctx, path: path20, pid: server.pid, name: 'engine-list-20-fresh', title: 'same, a fresh signature per request', signedIn: true, signing: 'fresh' },
    ];
    // Before, on request: a second server whose signatures are each claimed by a durable INSERT (NONCE_STORE=table).
    let withBefore = false;
    if (process.env.BENCH_CONSOLE_BEFORE === '1') {
      const beforeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zy-bench-nonces-'));
      const previous = process.env.NONCE_STORE;
      process.env.NONCE_STORE = 'table'; // read by the child at its start (server/security/nonces.ts openNonceStore)
      const before = await startServer(beforeDir).finally(() => {
        if (previous === undefined) delete process.env.NONCE_STORE;
        else process.env.NONCE_STORE = previous;
      });
      cleanups.push(async () => {
        await before.stop();
        fs.rmSync(beforeDir, { recursive: true, force: true });
      });
      const beforeDb = await openServerDatabase(beforeDir);
      await insertSyntheticRows(beforeDb, 'sys_config', 200).finally(() => beforeDb.close());
      const requestPublicPem = fs.readFileSync(path.join(beforeDir, 'keys', 'request-public.pem'), 'utf8');
      const token = await signIn(before.base, requestPublicPem);
      targets.push({
        ctx: { ...ctx, base: before.base, requestPublicPem, token },
        path: path20,
        pid: before.pid,
        name: 'engine-list-20-table-nonces',
        title: 'same, fresh, nonce per request INSERT (before)',
        signedIn: true,
        signing: 'fresh',
      });
      withBefore = true;
    }
    const bareServer = await startBareFastify(sampleBody);
    cleanups.push(() => bareServer.stop());
    targets.push({
      ctx: { ...ctx, base: bareServer.base },
      path: '/list',
      pid: bareServer.pid,
      name: 'bare-fastify-20',
      title: 'bare Fastify, same 20-row answer',
      signedIn: false,
      signing: 'fresh',
    });

    const rounds = Math.max(1, Number(process.env.BENCH_CONSOLE_ROUNDS ?? 3));
    const runs: ListRun[][] = targets.map(() => []);
    for (let round = 1; round <= rounds; round++) {
      process.stderr.write(`  列表 req/s 第 ${round}/${rounds} 轮（${duration}s × ${connections} 连接，${targets.length} 个目标轮流）…\n`);
      for (const [i, t] of targets.entries()) {
        const cpu0 = cpuMs(t.pid);
        const result = await runHttpScenario(
          t.ctx,
          { name: t.name, title: t.title, method: 'GET', path: t.path, signedIn: t.signedIn, signing: t.signing, expect: 200 },
          { duration, connections },
        );
        // The warm-up second's requests are not counted in result.requests; charge its CPU share proportionally.
        const cpu = cpuMs(t.pid) - cpu0;
        runs[i].push({ ...result, cpuUsPerRequest: (cpu * 1000 * duration) / (duration + 1) / Math.max(1, result.requests) });
      }
    }
    const median = (xs: ListRun[]) => [...xs].sort((a, b) => a.reqPerSec - b.reqPerSec)[Math.floor(xs.length / 2)];
    const engine = median(runs[0]);
    const bare = median(runs[runs.length - 1]);
    return {
      engine,
      engineFresh: median(runs[1]),
      engineTableNonces: withBefore ? median(runs[2]) : undefined,
      bare,
      ratio: engine.reqPerSec / bare.reqPerSec,
      rounds,
    };
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

/** One page of a 1M-row list: first, second, middle, second to last, last (20 rows, default order and by key). */
async function measureMillion(server: RunningServer, ctx: HttpContext, millionRows: number, pageRuns: number): Promise<NonNullable<ConsoleResult['million']>> {
  process.stderr.write(`  插入 ${millionRows} 行…\n`);
  const db2 = await openServerDatabase(server.dataDir);
  const t0 = performance.now();
  try {
    await insertSyntheticRows(db2, 'sys_config', millionRows);
  } finally {
    await db2.close();
  }
  const insertSeconds = (performance.now() - t0) / 1000;
  let total = 0;
  // The insert takes minutes: the client's idle keep-alive sockets have been closed by the server meanwhile, and the
  // first request may land on one of them ("other side closed"). Retry it; a server that is really gone fails again.
  for (let attempt = 1; ; attempt++) {
    try {
      await sequentialRequests(
        ctx,
        1,
        () => ({ method: 'GET', path: `${LIST_PATH}?pageNum=1&pageSize=20` }),
        (a) => {
          total = a.total ?? 0;
        },
      );
      break;
    } catch (error) {
      if (attempt >= 3) throw error;
      await sleep(500);
    }
  }
  assert(total >= millionRows, `total=${total}，应 ≥ ${millionRows}`);
  const last = Math.ceil(total / 20);
  const pages: NonNullable<ConsoleResult['million']>['pages'] = [];
  for (const order of ['', '&orderByColumn=configKey&isAsc=ascending']) {
    for (const [label, pageNum] of [
      ['first', 1],
      ['second', 2],
      ['middle', Math.ceil(last / 2)],
      ['second to last', last - 1],
      ['last', last],
    ] as const) {
      const url = `${LIST_PATH}?pageNum=${pageNum}&pageSize=20${order}`;
      const check = (a: { code: number; rows?: unknown[] }) => assert(a.code === 200 && (a.rows?.length ?? 0) > 0, `${url} 应返回数据`);
      await sequentialRequests(ctx, 3, () => ({ method: 'GET', path: url }), check);
      const times = await sequentialRequests(ctx, pageRuns, () => ({ method: 'GET', path: url }), check);
      const s = summarize(times);
      pages.push({ label: `${order ? 'configKey asc' : 'default (configId desc)'}: ${label}`, pageNum, p50Ms: s.p50, p99Ms: s.p99, maxMs: Math.max(...times) });
    }
  }

  const queries = await timeListQueries(server.dataDir, last, pageRuns);

  return { rows: total, insertSeconds, pages, queries };
}

const kB = (n: number) => (n / 1024).toFixed(1);

export function printConsoleResult(r: ConsoleResult): void {
  if (r.login && r.home && r.runs) printChromium(r.build.seconds, r.login, r.home, r.runs, r.prefetch);
  if (r.list) printList(r.list);
  if (r.million) printMillion(r.million);
}

function printChromium(buildSeconds: number, login: Transfer, home: Transfer, runs: ThrottleRun[], prefetch?: Transfer): void {
  console.log(`\n控制台（Chromium，全新用户目录；构建 ${fmt(buildSeconds)} s）\n`);
  console.log(
    table(
      ['first visit', 'requests', 'wire kB', 'JS files', 'JS wire kB', 'JS decoded kB'],
      ([['/login', login], ['sign in → 首页', home], ...(prefetch ? ([['首页, background prefetch', prefetch]] as const) : [])] as const).map(([name, x]) => [
        name,
        String(x.requests),
        kB(x.wireBytes),
        String(x.jsFiles),
        kB(x.jsWireBytes),
        kB(x.jsDecodedBytes),
      ]),
    ),
  );
  console.log('');
  console.log(
    table(
      ['CPU', '/login interactive ms', 'first switch ms', 'return p50 ms', 'return max ms', 'longest task ms (login / switch / return)'],
      runs.map((x) => [
        `${x.cpuSlowdown}×`,
        fmt(x.loginInteractive.ms),
        `${fmt(x.firstSwitch.ms)} (${x.firstSwitch.page})`,
        fmt(x.returnToTab.p50Ms),
        fmt(x.returnToTab.maxMs),
        `${fmt(x.loginInteractive.longestTaskMs)} / ${fmt(x.firstSwitch.longestTaskMs)} / ${fmt(x.returnToTab.longestTaskMs)}`,
      ]),
      'lrlrrl',
    ),
  );
}

function printList(list: NonNullable<ConsoleResult['list']>): void {
  console.log('');
  console.log(
    table(
      ['20-row list', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/request', 'requests', 'errors'],
      [list.engine, list.engineFresh, ...(list.engineTableNonces ? [list.engineTableNonces] : []), list.bare].map((h) => [
        h.title,
        fmt(h.reqPerSec),
        fmt(h.latencyP50Ms),
        fmt(h.latencyP99Ms),
        fmt(h.cpuUsPerRequest),
        String(h.requests),
        String(h.non2xx + h.errors + h.mismatches),
      ]),
    ),
  );
  console.log(`engine / bare = ${(list.ratio * 100).toFixed(0)} %（${list.rounds} 轮轮流，各取 req/s 中位的一轮）\n`);
}

function printMillion(million: NonNullable<ConsoleResult['million']>): void {
  console.log(`百万行列表（sys_config ${million.rows} 行，插入 ${fmt(million.insertSeconds)} s）\n`);
  console.log(
    table(
      ['page (20 rows)', 'pageNum', 'p50 ms', 'p99 ms', 'max ms'],
      million.pages.map((p) => [p.label, String(p.pageNum), fmt(p.p50Ms), fmt(p.p99Ms), fmt(p.maxMs)]),
    ),
  );
  console.log('\n列表查询本身（count + 一页，进程内，ms）\n');
  console.log(
    table(
      [
        'page (20 rows)',
        'pageNum',
        'by key p50',
        'by key max',
        'offset p50',
        'offset max',
        'cached total p50',
        'cached total max',
        'anchors p50',
        'anchors max',
        'anchors 1st',
      ],
      million.queries.map((q) => [
        q.label,
        String(q.pageNum),
        fmt(q.byKeyP50Ms),
        fmt(q.byKeyMaxMs),
        fmt(q.offsetP50Ms),
        fmt(q.offsetMaxMs),
        fmt(q.cachedCountP50Ms),
        fmt(q.cachedCountMaxMs),
        fmt(q.anchorsP50Ms),
        fmt(q.anchorsMaxMs),
        fmt(q.anchorsFirstMs),
      ]),
    ),
  );
}
