import fs from 'node:fs';
import { signTimer } from '../server/security/protocol.js';
import { bomb, XLSX_TYPE } from '../tests/server/security/xlsxFixtures.js';
import type { HttpContext } from './http.js';
import type { RunningServer } from './server.js';

/**
 * A zip bomb sent to both spreadsheet imports (issue 22: refused in under a second with flat memory): a ~1 MB .xlsx
 * whose one sheet inflates to `mb` MB. Measures each answer's time and the server's resident memory before and after
 * (peak sampled every 5 ms while the request runs).
 */
export interface ZipBombResult {
  fileBytes: number;
  inflatedMiB: number;
  imports: Array<{ route: string; ms: number; code: number; msg: string; rssBeforeMiB: number; rssPeakMiB: number }>;
}

const rssMiB = (pid: number) => {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return Math.round((kb / 1024) * 10) / 10;
};

export async function runZipBombBench(server: RunningServer, ctx: Pick<HttpContext, 'base' | 'requestPublicPem' | 'token'>, mb = 1024): Promise<ZipBombResult> {
  const file = await bomb(mb, ['参数名称', '参数键名', '参数键值']);
  const imports: ZipBombResult['imports'] = [];
  for (const route of ['/dev-api/system/config/importData', '/appv2/api/ExcelImport/import']) {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(file)], { type: XLSX_TYPE }), 'bomb.xlsx');
    const rssBefore = rssMiB(server.pid);
    let peak = rssBefore;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMiB(server.pid));
    }, 5);
    const t0 = performance.now();
    const res = await fetch(`${ctx.base}${route}`, {
      method: 'POST',
      headers: { ...signTimer(ctx.requestPublicPem), Authorization: `Bearer ${ctx.token}` },
      body: form,
    });
    const answer = (await res.json()) as { code: number; msg: string };
    const ms = performance.now() - t0;
    clearInterval(sampler);
    peak = Math.max(peak, rssMiB(server.pid));
    imports.push({ route, ms: Math.round(ms * 10) / 10, code: answer.code, msg: answer.msg, rssBeforeMiB: rssBefore, rssPeakMiB: peak });
  }
  return { fileBytes: file.length, inflatedMiB: mb, imports };
}
