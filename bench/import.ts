import fs from 'node:fs';
import { PassThrough } from 'node:stream';
import { XlsxStreamWriter } from '../server/engine/xlsxStream.js';
import { signTimer } from '../server/security/protocol.js';
import { assert, type HttpContext } from './http.js';
import type { RunningServer } from './server.js';
import { type Summary, summarize } from './stats.js';

/**
 * The largest import the caps allow (IMPORT_MAX_ROWS rows, default 50 000, into 参数设置) while another client keeps
 * reading a 20-row list: the import's time and the server's peak memory, and the latencies of the concurrent reads
 * (docs/security.md, finding 4: imports must not stall the server; target p99 < 200 ms).
 */
export interface ImportResult {
  /** csv: parsed on the main thread; xlsx: zip check, then parsed in the worker (server/engine/sheetReader.ts). */
  format: 'csv' | 'xlsx';
  rows: number;
  fileBytes: number;
  importSeconds: number;
  peakRssMiB: number;
  rssBeforeMiB: number;
  reads: Summary & { count: number; max: number };
  readsBefore: Summary & { count: number };
}

const rssMiB = (pid: number, field: 'VmRSS' | 'VmHWM') => {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return Math.round((kb / 1024) * 10) / 10;
};

async function timedRead(ctx: Pick<HttpContext, 'base' | 'requestPublicPem' | 'token'>): Promise<number> {
  const headers = { ...signTimer(ctx.requestPublicPem), Authorization: `Bearer ${ctx.token}` };
  const t0 = performance.now();
  const res = await fetch(`${ctx.base}/dev-api/system/config/list?pageNum=1&pageSize=20`, { headers });
  await res.text();
  return performance.now() - t0;
}

export async function runImportBench(
  server: RunningServer,
  ctx: Pick<HttpContext, 'base' | 'requestPublicPem' | 'token'>,
  rows = 50_000,
  format: 'csv' | 'xlsx' = 'csv',
): Promise<ImportResult> {
  // Keys differ per format, so both runs insert new rows into the same server.
  const cells = (i: number) => [`导入基准参数${i}`, `bench.import.${format}.${i}`, i % 7 === 0 ? 'true' : String(i), `批量导入基准第 ${i} 行`];
  const header = ['参数名称', '参数键名', '参数键值', '备注'];
  let file: Buffer;
  if (format === 'csv') {
    const lines = [header.join(',')];
    for (let i = 0; i < rows; i++) lines.push(cells(i).join(','));
    file = Buffer.from(`${lines.join('\r\n')}\r\n`);
  } else {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const writer = new XlsxStreamWriter(
      out,
      '参数设置',
      header.map((h) => ({ header: h, width: 20 })),
    );
    for (let i = 0; i < rows; i++) await writer.addRow(cells(i));
    await writer.end();
    file = Buffer.concat(chunks);
  }

  // Reads alone first, for the baseline in the same run: as many as the import will see (about 1000), so that both p99
  // are a tail of a real sample and not the one slowest read of a hundred.
  const before: number[] = [];
  for (let i = 0; i < 1000; i++) before.push(await timedRead(ctx));

  const rssBefore = rssMiB(server.pid, 'VmRSS');
  const form = new FormData();
  const type = format === 'csv' ? 'text/csv' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  form.append('file', new Blob([new Uint8Array(file)], { type }), `bench-import.${format}`);
  const t0 = performance.now();
  let done = false;
  const importing = fetch(`${ctx.base}/dev-api/system/config/importData`, {
    method: 'POST',
    headers: { ...signTimer(ctx.requestPublicPem), Authorization: `Bearer ${ctx.token}` },
    body: form,
  })
    .then((r) => r.json() as Promise<{ code: number; msg: string; data?: { total: number } }>)
    .finally(() => {
      done = true;
    });
  const during: number[] = [];
  let peak = rssBefore;
  while (!done) {
    during.push(await timedRead(ctx));
    peak = Math.max(peak, rssMiB(server.pid, 'VmRSS'));
  }
  const answer = await importing;
  const importSeconds = (performance.now() - t0) / 1000;
  assert(answer.code === 200 && answer.data?.total === rows, `导入基准失败：${answer.code} ${answer.msg}`);
  return {
    format,
    rows,
    fileBytes: file.length,
    importSeconds: Math.round(importSeconds * 100) / 100,
    rssBeforeMiB: rssBefore,
    peakRssMiB: peak,
    reads: { ...summarize(during), count: during.length, max: Math.max(...during) },
    readsBefore: { ...summarize(before), count: before.length },
  };
}
