import { BENCH_STUDENT, createVolunteerBench } from '../server/volunteer/bench.js';
import { assert, type HttpContext, sequentialRequests } from './http.js';
import { openServerDatabase, type RunningServer } from './server.js';
import { summarize } from './stats.js';

/**
 * Volunteer planning on the seeded Shandong 2025 data (21,282 admission lines), with the service functions of
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
}

export interface VolunteerOptions {
  /** Timed runs of chance, autofill96, save96 and of the HTTP query (default 200). */
  runs?: number;
  /** Timed runs of chanceAll, ~0.25 s each (default 20). */
  allRuns?: number;
}

const CHANCE_PATH = '/appv2/api/Filling/schoolEnrollChance';
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
  try {
    const k = db.kysely;
    const vb = await createVolunteerBench(k);
    lines = vb.lineCount;
    assert(lines === SHANDONG_LINES, `山东投档线应为 ${SHANDONG_LINES} 条，实际 ${lines}`);

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
  return {
    lines,
    coldChanceMs,
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
