import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { XLSX_TYPE } from '../server/engine/excel.js';
import { insertSyntheticRows } from '../server/engine/index.js';
import { assert, type Envelope, type HttpContext, sequentialRequests } from './http.js';
import { openServerDatabase, processMemory, type RunningServer, resetPeakMemory } from './server.js';
import { timerSigner } from './sign.js';
import { summarize } from './stats.js';

/**
 * The schema engine on a large table: `sys_config` (schemas/system/sys_config.json) filled with synthetic rows, then
 *  - list: GET /dev-api/system/config/list with a `like` filter on configName and a sort on the sortable configKey,
 *    one request at a time, pages and filters varied (four filters from "every row matches" to "11 rows"; the page
 *    drawn at random over all pages of the filter, so deep offsets are included);
 *  - export: POST /dev-api/system/config/export of every row, timed to the last byte, while the server's resident
 *    memory is sampled (VmRSS every 10 ms, and VmHWM after resetting it); the first file is read back with exceljs'
 *    streaming reader to check its row count.
 * The rows go straight into the running server's SQLite file (insertSyntheticRows from the bench process, before
 * any timing), so what is timed is the real server process, and its memory is not mixed with the bench's.
 */

export interface EngineListClass {
  name: string;
  configName: string;
  /** Rows the filter matches. */
  total: number;
  pages: number;
  requests: number;
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
}

export interface EngineExportRun {
  seconds: number;
  firstByteMs: number;
  bytes: number;
  /** Server RSS just before the request. */
  rssBeforeMiB: number;
  /** Highest server RSS seen during the export: max of the 10 ms samples and of VmHWM (reset before the run). */
  rssPeakMiB: number;
  rssAfterMiB: number;
  samples: number;
}

export interface EngineResult {
  /** Rows in sys_config (synthetic + seeded). */
  tableRows: number;
  insert: { rows: number; seconds: number; rowsPerSec: number };
  list: { requests: number; warmup: number; meanMs: number; p50Ms: number; p99Ms: number; classes: EngineListClass[] };
  export: { runs: EngineExportRun[]; peakReset: boolean; verified: { dataRows: number; header: string[]; readSeconds: number } };
}

export interface EngineOptions {
  /** Synthetic rows to insert (default 100 000). */
  rows?: number;
  /** Timed list requests (default 200). */
  requests?: number;
  /** Exports of the whole table (default 3). */
  exportRuns?: number;
}

const BASE = '/dev-api/system/config';
const PAGE_SIZE = 20;

/**
 * Filters of the list bench. Synthetic names are `参数名称_<seq><6 hex>` (server/engine/synth.ts), so `名称_1`
 * matches the sequence numbers starting with 1 (about 11 %), `名称_12` about 1 %, `名称_4242` a handful (a random
 * hex tail can add a few matches to the last three).
 */
const FILTERS = [
  { name: 'every row matches', configName: '参数名称' },
  { name: '~11 % match', configName: '名称_1' },
  { name: '~1 % match', configName: '名称_12' },
  { name: 'a few rows match', configName: '名称_4242' },
];

/** Small deterministic generator (mulberry32), so every run asks for the same pages. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const listPath = (configName: string, pageNum: number) =>
  `${BASE}/list?pageNum=${pageNum}&pageSize=${PAGE_SIZE}&configName=${encodeURIComponent(configName)}&orderByColumn=configKey&isAsc=asc`;

/** A list answer must be the right page: the right row count, every name containing the filter, keys ascending. */
function checkPage(answer: Envelope, configName: string, pageNum: number, total: number): void {
  assert(answer.code === 200, `列表返回 ${answer.code} ${answer.msg}`);
  assert(answer.total === total, `"${configName}" 的 total=${answer.total}，应为 ${total}`);
  const rows = answer.rows as Array<{ configName: string; configKey: string }>;
  const expected = Math.max(0, Math.min(PAGE_SIZE, total - (pageNum - 1) * PAGE_SIZE));
  assert(rows.length === expected, `"${configName}" 第 ${pageNum} 页应有 ${expected} 行，实际 ${rows.length}`);
  for (let i = 0; i < rows.length; i++) {
    assert(rows[i].configName.toLowerCase().includes(configName.toLowerCase()), `"${configName}" 的结果含不匹配的行 ${rows[i].configName}`);
    if (i > 0) assert(rows[i - 1].configKey <= rows[i].configKey, `第 ${pageNum} 页未按 configKey 升序`);
  }
}

const mib = (kib: number) => kib / 1024;

/** One export of every row: wall time, first byte, size, and the server's memory around it. */
async function exportOnce(ctx: HttpContext, pid: number, file: string | null): Promise<EngineExportRun & { peakReset: boolean }> {
  const before = processMemory(pid).rssKiB;
  const peakReset = resetPeakMemory(pid);
  let peak = processMemory(pid).rssKiB;
  let samples = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, processMemory(pid).rssKiB);
    samples++;
  }, 10);

  const { Authentication, Timer } = timerSigner(ctx.requestPublicPem)();
  const t0 = performance.now();
  const res = await fetch(`${ctx.base}${BASE}/export`, {
    method: 'POST',
    headers: { Authentication, Timer, Authorization: `Bearer ${ctx.token}`, 'Content-Type': 'application/json' },
    body: '{}',
  });
  let firstByteMs = Number.NaN;
  let bytes = 0;
  const chunks: Buffer[] = [];
  assert(res.status === 200 && res.body, `导出返回 HTTP ${res.status}`);
  assert(res.headers.get('content-type')?.startsWith(XLSX_TYPE), `导出的 content-type 是 ${res.headers.get('content-type')}`);
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    if (bytes === 0) firstByteMs = performance.now() - t0;
    bytes += chunk.byteLength;
    if (file) chunks.push(Buffer.from(chunk));
  }
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(timer);
  const after = processMemory(pid);
  peak = Math.max(peak, after.rssKiB, peakReset ? after.hwmKiB : 0);
  if (file) fs.writeFileSync(file, Buffer.concat(chunks));
  return { seconds, firstByteMs, bytes, rssBeforeMiB: mib(before), rssPeakMiB: mib(peak), rssAfterMiB: mib(after.rssKiB), samples, peakReset };
}

/** Reads an exported workbook back with exceljs' streaming reader: data rows (after the header) and the header. */
async function countXlsxRows(file: string): Promise<{ dataRows: number; header: string[] }> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, { worksheets: 'emit', sharedStrings: 'cache', styles: 'ignore', hyperlinks: 'ignore' });
  let rows = 0;
  let header: string[] = [];
  for await (const sheet of reader) {
    for await (const row of sheet) {
      if (rows === 0) header = (row.values as unknown[]).slice(1).map(String);
      rows++;
    }
    break;
  }
  return { dataRows: rows - 1, header };
}

export async function runEngineBench(
  server: RunningServer,
  ctx: HttpContext,
  { rows = 100_000, requests = 200, exportRuns = 3 }: EngineOptions = {},
): Promise<EngineResult> {
  // 1. Rows straight into the server's database file.
  const db = await openServerDatabase(server.dataDir);
  let tableRows = 0;
  const t0 = performance.now();
  try {
    await insertSyntheticRows(db, 'sys_config', rows);
  } finally {
    await db.close();
  }
  const insertSeconds = (performance.now() - t0) / 1000;
  await sequentialRequests(
    ctx,
    1,
    () => ({ method: 'GET', path: `${BASE}/list?pageNum=1&pageSize=1` }),
    (a) => {
      assert(a.code === 200 && typeof a.total === 'number' && a.total >= rows, `插入后 total=${a.total}，应 ≥ ${rows}`);
      tableRows = a.total;
    },
  );

  // 2. List: the total of each filter first (and a check of its first page), then warm-up and timed requests.
  const classes = FILTERS.map((f) => ({ ...f, total: 0, pages: 1, times: [] as number[] }));
  for (const c of classes) {
    await sequentialRequests(
      ctx,
      1,
      () => ({ method: 'GET', path: listPath(c.configName, 1) }),
      (a) => {
        c.total = a.total ?? 0;
        checkPage(a, c.configName, 1, c.total);
      },
    );
    c.pages = Math.max(1, Math.ceil(c.total / PAGE_SIZE));
  }
  const plan = (seed: number, n: number) => {
    const next = random(seed);
    return Array.from({ length: n }, (_, i) => {
      const c = classes[i % classes.length];
      return { c, pageNum: 1 + Math.floor(next() * c.pages) };
    });
  };
  const warmup = Math.max(20, Math.round(requests / 10));
  const warm = plan(7, warmup);
  await sequentialRequests(
    ctx,
    warmup,
    (i) => ({ method: 'GET', path: listPath(warm[i].c.configName, warm[i].pageNum) }),
    (a, i) => checkPage(a, warm[i].c.configName, warm[i].pageNum, warm[i].c.total),
  );
  const timed = plan(42, requests);
  const times = await sequentialRequests(
    ctx,
    requests,
    (i) => ({ method: 'GET', path: listPath(timed[i].c.configName, timed[i].pageNum) }),
    (a, i) => checkPage(a, timed[i].c.configName, timed[i].pageNum, timed[i].c.total),
  );
  times.forEach((t, i) => {
    timed[i].c.times.push(t);
  });
  const overall = summarize(times);

  // 3. Export of every row, with the server's memory sampled; the first file is read back.
  const file = path.join(server.dataDir, 'bench-export.xlsx');
  const runs: EngineExportRun[] = [];
  let peakReset = true;
  for (let r = 0; r < exportRuns; r++) {
    const { peakReset: reset, ...run } = await exportOnce(ctx, server.pid, r === 0 ? file : null);
    peakReset &&= reset;
    runs.push(run);
  }
  const t1 = performance.now();
  const verified = await countXlsxRows(file);
  const readSeconds = (performance.now() - t1) / 1000;
  fs.rmSync(file, { force: true });
  assert(verified.dataRows === tableRows, `导出文件有 ${verified.dataRows} 行数据，应为 ${tableRows}`);
  assert(verified.header[0] === '参数主键', `导出表头不对：${verified.header.join(',')}`);

  return {
    tableRows,
    insert: { rows, seconds: insertSeconds, rowsPerSec: rows / insertSeconds },
    list: {
      requests,
      warmup,
      meanMs: overall.mean,
      p50Ms: overall.p50,
      p99Ms: overall.p99,
      classes: classes.map((c) => {
        const s = summarize(c.times);
        return { name: c.name, configName: c.configName, total: c.total, pages: c.pages, requests: s.ops, meanMs: s.mean, p50Ms: s.p50, p99Ms: s.p99 };
      }),
    },
    export: { runs, peakReset, verified: { ...verified, readSeconds } },
  };
}
