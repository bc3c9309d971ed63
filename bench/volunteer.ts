import { gzipSync } from 'node:zlib';
import { BENCH_STUDENT, createVolunteerBench } from '../server/volunteer/bench.js';
import { assert, type HttpContext, sequentialRequests } from './http.js';
import { openServerDatabase, type RunningServer } from './server.js';
import { timerSigner } from './sign.js';
import { summarize } from './stats.js';

/**
 * Volunteer planning on the seeded Shandong data (a started server loads 2021–2025: 31,139 options, of which 21,282
 * are 2025 lines), with the service functions of
 * server/volunteer/bench.ts called in the bench process on the running server's SQLite file (no HTTP, no JSON):
 *  - chance: the acceptance query for one student over every line (score all, filter, sort, first page of 20);
 *  - chanceAll: the same answering every row (all=1), as FillingSelectAll/schoolEnrollChance1;
 *  - autofill96: auto-fill 冲20 / 稳40 / 保36 (not saved);
 *  - save96: save a 96-item plan (one transaction: plan row, 96 items, action log; each save bumps the version).
 * The first chance call loads the catalogue into memory and is reported on its own. Then the HTTP figure: POST
 * /appv2/api/Filling/schoolEnrollChance for the demo student 张三 (600 points, like the bench student), one request
 * at a time against the server process.
 */

export interface VolunteerOp {
  name: string;
  runs: number;
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
  note?: string;
}

export interface VolunteerResult {
  lines: number;
  /** First chance call of the process: loads the catalogue (every line, school and score segment) and scores it. */
  coldChanceMs: number;
  ops: VolunteerOp[];
  http: VolunteerOp & { path: string; total: number };
  /** Opening 张三 on the filling page over HTTP: the page's own requests, their bytes and the time to rows. */
  openStudent: OpenStudentResult;
  /** Issue 24: the acceptance query and the landing auto-fill against one typed-array pass, in the same run. */
  floor: { p50Ms: number; chanceRatio: number; landingRatio: number };
  /** 10 experts auto-filling at once over HTTP (each request's own time, queueing included). */
  concurrent: { clients: number; requests: number; p50Ms: number; p99Ms: number; maxMs: number };
}

export interface OpenStudentResult {
  runs: number;
  p50Ms: number;
  p99Ms: number;
  /** Each answer's JSON bytes as sent uncompressed, and gzipped (level 6) for what compression would carry. */
  requests: Array<{ path: string; bytes: number; gzipBytes: number }>;
  totalBytes: number;
  totalGzipBytes: number;
  /** The old way (every row with explanations, all=1), for comparison: bytes and p50 of that one answer. */
  before: { bytes: number; gzipBytes: number; p50Ms: number; runs: number };
}

export interface VolunteerOptions {
  /** Timed runs of chance, autofill96, save96 and of the HTTP query (default 200). */
  runs?: number;
  /** Timed runs of chanceAll, ~0.25 s each (default 20). */
  allRuns?: number;
}

const CHANCE_PATH = '/appv2/api/Filling/schoolEnrollChance';
/** The 2025 lines alone; a started server also loads 2021–2024 (server/volunteer/import/history.ts): more options. */
const SHANDONG_LINES = 21_282;

async function measure(name: string, runs: number, warmup: number, fn: () => Promise<unknown>, note?: string): Promise<VolunteerOp> {
  for (let i = 0; i < warmup; i++) await fn();
  const times = new Float64Array(runs);
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times[i] = performance.now() - t0;
  }
  const s = summarize(times);
  return { name, runs, meanMs: s.mean, p50Ms: s.p50, p99Ms: s.p99, ...(note ? { note } : {}) };
}

export async function runVolunteerBench(
  server: RunningServer,
  ctx: HttpContext,
  { runs = 200, allRuns = 20 }: VolunteerOptions = {},
): Promise<VolunteerResult> {
  const db = await openServerDatabase(server.dataDir);
  const ops: VolunteerOp[] = [];
  let coldChanceMs: number;
  let lines: number;
  let zhang: number;
  let chanceTotal: number;
  let floor: VolunteerResult['floor'];
  try {
    const k = db.kysely;
    const vb = await createVolunteerBench(k);
    lines = vb.lineCount;
    assert(lines >= SHANDONG_LINES, `山东投档线应不少于 ${SHANDONG_LINES} 条，实际 ${lines}`);

    const t0 = performance.now();
    const first = await vb.chance();
    coldChanceMs = performance.now() - t0;
    assert(first.rows.length === 20 && first.total > 0, `chance 返回 ${first.rows.length} 行 / total ${first.total}`);
    chanceTotal = first.total;
    const all = await vb.chanceAll();
    assert(all.rows.length === all.total && all.total === chanceTotal, `chanceAll 返回 ${all.rows.length} 行，total ${all.total}，应为 ${chanceTotal}`);
    const proposal = await vb.autofill96();
    assert(proposal.items.length === 96, `autofill96 只填了 ${proposal.items.length} 个志愿`);
    const saved = await vb.save96();
    assert(saved.itemCount === 96, `save96 保存了 ${saved.itemCount} 个志愿`);

    const warmup = Math.max(10, Math.round(runs / 10));
    ops.push(await measure('chance (first page of 20)', runs, warmup, () => vb.chance(), `over ${lines} lines, ${chanceTotal} pass`));
    ops.push(await measure('chanceAll (every row, all=1)', allRuns, 2, () => vb.chanceAll(), `${chanceTotal} rows with explanations`));
    ops.push(await measure('autofill96 (96 choices)', runs, warmup, () => vb.autofill96(), '冲20 / 稳40 / 保36, not saved'));
    const landing = await vb.autofillLanding();
    assert(
      landing.strategy === 'landing' && landing.items.length === 96 && landing.simulation != null,
      `智能填报（落点）只填了 ${landing.items.length} 个志愿`,
    );
    const landingRuns = Math.max(20, Math.round(runs / 4));
    ops.push(
      await measure('autofillLanding (default, simulated)', landingRuns, 5, () => vb.autofillLanding(), 'optimised for the landing + 10,000-year simulation'),
    );
    // The floor, timed in the same run: many passes per sample so the clock resolves it.
    const PASSES = 20;
    ops.push(
      await measure(
        `typed-array pass ×${PASSES}`,
        runs,
        warmup,
        async () => {
          for (let i = 0; i < PASSES; i++) vb.typedPass();
        },
        `${lines} options, one Float64Array`,
      ),
    );
    let version = saved.version;
    ops.push(
      await measure(
        'save96 (96-item plan)',
        runs,
        warmup,
        async () => {
          const r = await vb.save96();
          assert(r.version === version + 1 && r.itemCount === 96, `save96 版本 ${r.version}，应为 ${version + 1}`);
          version = r.version;
        },
        'one transaction, synchronous=FULL',
      ),
    );

    const student = await k.selectFrom('volStudent').select('studentId').where('name', '=', '张三').where('delFlag', '=', '0').executeTakeFirst();
    assert(student, '没有演示学生 张三（SEED=1？）');
    zhang = student.studentId;
    const opOf = (name: string) => ops.find((o) => o.name.startsWith(name)) as VolunteerOp;
    const floorP50 = opOf('typed-array pass').p50Ms / PASSES;
    floor = { p50Ms: floorP50, chanceRatio: opOf('chance (first').p50Ms / floorP50, landingRatio: opOf('autofillLanding').p50Ms / floorP50 };
    const bench = await k.selectFrom('volStudent').select('score').where('name', '=', BENCH_STUDENT).executeTakeFirstOrThrow();
    assert(bench.score === 600, `基准学生分数 ${bench.score}，应为 600（与张三相同）`);
  } finally {
    await db.close();
  }

  // HTTP: 张三 has the bench student's score, so the server must answer the same total.
  const request = () => ({ method: 'POST' as const, path: CHANCE_PATH, body: { studentId: zhang } });
  const check = (a: { code: number; msg: string; rows?: unknown[]; total?: number; student?: unknown }) => {
    assert(a.code === 200, `${CHANCE_PATH} 返回 ${a.code} ${a.msg}`);
    assert(a.rows?.length === 20 && a.total === chanceTotal, `${CHANCE_PATH} 返回 ${a.rows?.length} 行 / total ${a.total}，应为 20 / ${chanceTotal}`);
    assert((a.student as { name?: string } | undefined)?.name === '张三', `${CHANCE_PATH} 的 student 不是张三`);
  };
  await sequentialRequests(ctx, Math.max(10, Math.round(runs / 10)), request, check);
  const times = summarize(await sequentialRequests(ctx, runs, request, check));
  const openStudent = await measureOpenStudent(ctx, zhang, chanceTotal, Math.max(20, Math.round(runs / 4)));
  // 10 experts auto-filling at once (the busy June of issue 24): 10 clients, each sending its requests one after another.
  const AUTO_PATH = '/appv2/api/Filling/schoolEnrollChance_auto';
  const clients = 10;
  const perClient = Math.max(5, Math.round(runs / 20));
  const autoCheck = (a: { code: number; msg: string; data?: unknown }) => {
    assert(a.code === 200, `${AUTO_PATH} 返回 ${a.code} ${a.msg}`);
    assert(((a.data as { items?: unknown[] } | undefined)?.items?.length ?? 0) > 0, `${AUTO_PATH} 没有志愿`);
  };
  await sequentialRequests(ctx, 3, () => ({ method: 'POST' as const, path: AUTO_PATH, body: { studentId: zhang } }), autoCheck);
  const parallel = await Promise.all(
    Array.from({ length: clients }, () =>
      sequentialRequests(ctx, perClient, () => ({ method: 'POST' as const, path: AUTO_PATH, body: { studentId: zhang } }), autoCheck),
    ),
  );
  const all = new Float64Array(parallel.reduce((n, t) => n + t.length, 0));
  let at = 0;
  for (const t of parallel) {
    all.set(t, at);
    at += t.length;
  }
  const conc = summarize(all);
  return {
    floor,
    concurrent: { clients, requests: all.length, p50Ms: conc.p50, p99Ms: conc.p99, maxMs: Math.max(...all) },
    lines,
    coldChanceMs,
    openStudent,
    ops,
    http: {
      name: 'HTTP schoolEnrollChance, first page',
      path: CHANCE_PATH,
      total: chanceTotal,
      runs,
      meanMs: times.mean,
      p50Ms: times.p50,
      p99Ms: times.p99,
    },
  };
}

/**
 * What the filling page asks when an expert opens a student (FillingWorkspace, usePlanEditor, useChanceRows):
 * Subscriber/info, then gkbInfo + OrdinaryBatchFiter together, then zyInfo + the first options page together (50
 * rows, no explanations). Timed from the first request to the last byte of the last answer, like a user waiting for
 * the rows; one run at a time, fresh signatures.
 */
async function measureOpenStudent(ctx: HttpContext, studentId: number, chanceTotal: number, runs: number): Promise<OpenStudentResult> {
  const sign = timerSigner(ctx.requestPublicPem);
  const post = async (path: string, body: unknown) => {
    const res = await fetch(ctx.base + path, {
      method: 'POST',
      headers: { ...sign(), Authorization: `Bearer ${ctx.token}`, 'Content-Type': 'application/json', 'Accept-Encoding': 'identity' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    assert(res.status === 200, `POST ${path} 返回 HTTP ${res.status}`);
    const answer = JSON.parse(text) as { code: number; msg: string; rows?: unknown[]; total?: number };
    assert(answer.code === 200, `POST ${path} 返回 ${answer.code} ${answer.msg}`);
    return { path, text, answer };
  };
  const page = { studentId, sort: 'rank', explain: 0, pageNum: 1, pageSize: 50 };
  const open = async () => {
    const info = await post('/dev-api/api/Subscriber/info', { studentId });
    const [rules, choices] = await Promise.all([post('/appv2/api/index/gkbInfo', { province: '山东' }), post('/dev-api/api/toolbox/OrdinaryBatchFiter', {})]);
    const [plan, rows] = await Promise.all([post('/appv2/api/index/zyInfo', { studentId }), post(CHANCE_PATH, page)]);
    assert(
      rows.answer.rows?.length === 50 && rows.answer.total === chanceTotal,
      `首页应为 50 行 / total ${chanceTotal}，实际 ${rows.answer.rows?.length} / ${rows.answer.total}`,
    );
    return [info, rules, choices, plan, rows];
  };
  const timed = async (fn: () => Promise<unknown>, n: number) => {
    const t = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await fn();
      t[i] = performance.now() - t0;
    }
    return summarize(t);
  };
  const sample = await open();
  const requests = sample.map((r) => ({ path: r.path, bytes: Buffer.byteLength(r.text), gzipBytes: gzipSync(r.text).length }));
  for (let i = 0; i < 5; i++) await open();
  const s = await timed(open, runs);
  const oldWay = await post(CHANCE_PATH, { studentId, sort: 'rank', all: 1 });
  const oldRuns = 10;
  const old = await timed(() => post(CHANCE_PATH, { studentId, sort: 'rank', all: 1 }), oldRuns);
  return {
    runs,
    p50Ms: s.p50,
    p99Ms: s.p99,
    requests,
    totalBytes: requests.reduce((a, r) => a + r.bytes, 0),
    totalGzipBytes: requests.reduce((a, r) => a + r.gzipBytes, 0),
    before: { bytes: Buffer.byteLength(oldWay.text), gzipBytes: gzipSync(oldWay.text).length, p50Ms: old.p50, runs: oldRuns },
  };
}
