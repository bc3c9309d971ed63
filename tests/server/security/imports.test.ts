import crypto from 'node:crypto';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { liveParseWorkers } from '../../../server/engine/sheetReader.js';
import { backends, multipartFile, startServer, type TestServer } from '../harness.js';
import { bomb, XLSX_TYPE as XLSX } from './xlsxFixtures.js';

/**
 * Spreadsheet imports cannot hurt the server (docs/security.md, Imports): zip bombs and non-zip files are refused
 * from the zip directory before any parse, the parse runs in a worker with time and memory limits, and formula /
 * rich-text / hyperlink cells count by the value the user saw — never "[object Object]".
 */

async function workbook(rows: ExcelJS.CellValue[][], header: string[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('学生');
  ws.addRow(header);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe.each(backends)('imports that cannot hurt the server on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  let expert: string;
  // The duplicate-submit guard keys a multipart upload by user and URL (its body is not parsed): each upload gets its own URL.
  let seq = 0;

  beforeAll(async () => {
    s = await startServer(backend);
    admin = await s.login('admin', 'admin123');
    expert = await s.login('expert', 'expert123');
  });
  afterAll(async () => {
    await s?.close();
  });

  const studentImport = async (data: Buffer) => {
    const { body, headers } = await multipartFile('file', 'students.xlsx', XLSX, data);
    return (await s.call<unknown>('POST', '/appv2/api/ExcelImport/import', { token: expert, body, headers, query: { n: ++seq } })).body;
  };
  const configImport = async (data: Buffer) => {
    const { body, headers } = await multipartFile('file', 'config.xlsx', XLSX, data);
    return (await s.call<unknown>('POST', '/dev-api/system/config/importData', { token: admin, body, headers, query: { n: ++seq } })).body;
  };
  const students = async () =>
    (await s.app.db.kysely.selectFrom('volStudent').select(['studentId', 'name']).orderBy('studentId').execute()) as Array<{ studentId: number; name: string }>;
  const configs = async () =>
    Number(
      (
        await s.app.db.kysely
          .selectFrom('sysConfig' as never)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('refuses a zip bomb from its directory in under a second, with flat memory, writing nothing', async () => {
    const file = await bomb(60, ['姓名', '分数']);
    expect(file.length).toBeLessThan(1024 * 1024); // 60 MB of sheet in a file far under the upload caps
    const before = (await students()).length;
    const heapBefore = process.memoryUsage().heapUsed;
    const t0 = performance.now();
    const res = await studentImport(file);
    const seconds = (performance.now() - t0) / 1000;
    expect(res).toMatchObject({ code: 500, msg: '文件过大，请拆分后重试（文件压缩比异常，可能是恶意构造的文件）' });
    expect(seconds).toBeLessThan(1);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(40 * 1024 * 1024);
    expect((await students()).length).toBe(before);

    const configsBefore = await configs();
    const engine = await configImport(await bomb(60, ['参数名称', '参数键名', '参数键值']));
    expect(engine).toMatchObject({ code: 500, msg: '文件过大，请拆分后重试（文件压缩比异常，可能是恶意构造的文件）' });
    expect(await configs()).toBe(configsBefore);
  });

  it('refuses a file whose unzipped total is over IMPORT_MAX_UNZIPPED_BYTES, and a file that is not a zip', async () => {
    // Random text hardly compresses: the ratio is normal, only the total (about 600 KB) is over the lowered cap.
    const padded = await workbook(
      Array.from({ length: 150 }, (_, i) => [`学生${i}`, 600, crypto.randomBytes(2000).toString('hex')]),
      ['姓名', '分数', '附加'], // a column the import ignores
    );
    expect(await studentImport(padded)).toMatchObject({ code: 200, msg: '导入成功，共 150 名学生' });
    s.app.config.importMaxUnzippedBytes = 512 * 1024;
    try {
      expect(await studentImport(padded)).toMatchObject({ code: 500, msg: '文件过大，请拆分后重试（解压后的内容超过上限）' });
    } finally {
      s.app.config.importMaxUnzippedBytes = 100 * 1024 * 1024;
    }
    // A zip signature with no directory behind it is not a workbook.
    expect(await configImport(Buffer.from('PK\x03\x04 but not a zip at all'))).toMatchObject({
      code: 500,
      data: [{ row: 0, field: '', message: '文件不是有效的 .xlsx 表格' }],
    });
  });

  it('terminates a parse that runs past its time limit and says so, writing nothing', async () => {
    const file = await workbook([['超时学生', 600]], ['姓名', '分数']);
    const before = (await students()).length;
    s.app.config.importParseTimeoutMs = 1;
    try {
      expect(await studentImport(file)).toMatchObject({ code: 500, msg: '文件解析超时，请拆分后重试' });
      expect(await configImport(await workbook([['超时参数', 'timeout.test', 'v']], ['参数名称', '参数键名', '参数键值']))).toMatchObject({
        code: 500,
        msg: '文件解析超时，请拆分后重试',
      });
    } finally {
      s.app.config.importParseTimeoutMs = 60_000;
    }
    await vi.waitFor(() => expect(liveParseWorkers()).toBe(0), { timeout: 10_000 });
    expect((await students()).length).toBe(before);
    // The same file within the limit goes in.
    expect(await studentImport(file)).toMatchObject({ code: 200, msg: '导入成功，共 1 名学生' });
  });

  it('stops a parse that outgrows its memory limit in the worker, not in the server, and says so', async () => {
    const before = (await students()).length;
    s.app.config.importWorkerMemoryMb = 4; // less than the reader itself needs: the worker runs out, the server does not
    try {
      expect(await studentImport(await workbook([['内存学生', 600]], ['姓名', '分数']))).toMatchObject({ code: 500, msg: '文件过大，请拆分后重试' });
    } finally {
      s.app.config.importWorkerMemoryMb = 256;
    }
    await vi.waitFor(() => expect(liveParseWorkers()).toBe(0), { timeout: 10_000 });
    expect((await students()).length).toBe(before);
  });

  it('stores the value the user saw for formula, rich-text and hyperlink cells, never "[object Object]"', async () => {
    const file = await workbook(
      [
        [{ formula: 'CONCATENATE("张","三")', result: '张三' }, 600],
        [{ richText: [{ text: '李' }, { font: { bold: true }, text: '四' }] }, 601],
        // Excel keeps a formatted hyperlink's text as rich text; exceljs' type says string, the file says otherwise.
        [
          { text: { richText: [{ text: '王' }, { font: { italic: true }, text: '五' }] }, hyperlink: 'https://example.com/a' } as unknown as ExcelJS.CellValue,
          602,
        ],
        [{ text: '赵六', hyperlink: 'https://example.com/b' }, 603],
      ],
      ['姓名', '分数'],
    );
    const before = (await students()).map((r) => r.studentId);
    const res = await studentImport(file);
    expect(res).toMatchObject({ code: 200, msg: '导入成功，共 4 名学生' });
    const added = (await students()).filter((r) => !before.includes(r.studentId)).map((r) => r.name);
    expect(added).toEqual(['张三', '李四', '王五', '赵六']);
  });

  it('refuses a formula without a saved result with a row message, in both imports, writing nothing', async () => {
    const before = (await students()).length;
    const res = await studentImport(
      await workbook(
        [
          ['正常学生', 600],
          [{ formula: 'A2' }, 600],
        ],
        ['姓名', '分数'],
      ),
    );
    expect(res).toMatchObject({
      code: 500,
      msg: '导入失败，共 1 处错误，未写入任何数据。第 3 行：「姓名」是公式且没有计算结果，请粘贴为数值后重试',
    });
    expect((await students()).length).toBe(before);

    const configsBefore = await configs();
    const engine = await configImport(await workbook([['公式参数', { formula: 'A1' }, 'v']], ['参数名称', '参数键名', '参数键值']));
    expect(engine).toMatchObject({
      code: 500,
      data: [{ row: 2, field: '参数键名', message: '「参数键名」是公式且没有计算结果，请粘贴为数值后重试' }],
    });
    expect(await configs()).toBe(configsBefore);
  });
});
