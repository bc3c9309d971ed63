import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, multipartFile, startServer, type TestServer } from '../harness.js';
import { loginAll, type Tokens } from './helpers.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const HEADER = ['姓名', '手机号', '省份', '高考年份', '分数', '位次', '选考科目', '专项资格', '备注'];

async function sheet(rows: Array<Array<string | number | null>>, header = HEADER): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('学生');
  ws.addRow(header);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

interface ImportBody {
  code: number;
  msg: string;
  /** The import's result; a refused file's row report instead (an array). */
  data: { count: number; studentIds: number[] };
  problemCount?: number;
}

describe.each(backends)('student Excel import on %s', (backend) => {
  let s: TestServer;
  let t: Tokens;

  beforeAll(async () => {
    s = await startServer(backend);
    t = await loginAll(s);
  });
  afterAll(async () => {
    await s?.close();
  });

  const upload = async (token: string, data: Buffer, name = 'students.xlsx', extra: Record<string, string> = {}) => {
    const { body, headers } = await multipartFile('file', name, XLSX, data);
    return (await s.call('POST', '/appv2/api/ExcelImport/import', { token, body, headers, query: extra })).body as unknown as ImportBody;
  };
  const count = async () =>
    Number(
      (
        await s.app.db.kysely
          .selectFrom('volStudent')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('offers the template and imports a good file into the caller’s store, owned by the expert, rank derived', async () => {
    const tpl = await s.call('GET', '/appv2/api/ExcelImport/template', { token: t.expert });
    expect(tpl.status).toBe(200);
    expect(tpl.headers['content-type']).toBe(XLSX);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(tpl.rawBuffer as unknown as ArrayBuffer);
    expect((wb.worksheets[0].getRow(1).values as unknown[]).slice(1)).toEqual(HEADER);

    const file = await sheet([
      ['导入甲', '13900000001', '山东', 2025, 600, null, '物理、化学、生物', '', '一班'],
      ['导入乙', null, null, null, 580, 40000, '历史/地理/政治', '地方专项、定向', null],
      [null, null, null, null, null, null, null, null, null],
    ]);
    const res = await upload(t.expert, file);
    expect(res.code, res.msg).toBe(200);
    expect(res.msg).toBe('导入成功，共 2 名学生');
    const rows = await s.app.db.kysely.selectFrom('volStudent').selectAll().where('studentId', 'in', res.data.studentIds).orderBy('studentId').execute();
    expect(rows.map((r) => [r.name, r.score, r.rank, r.rankFlag, r.subjects, r.specialEligibility, r.storeId])).toEqual([
      ['导入甲', 600, 25061, 'exact', '1,2,3', '[]', 1],
      ['导入乙', 580, 40000, 'manual', '4,5,6', '["地方专项","定向"]', 1],
    ]);
    const expertId = (await s.app.db.kysely.selectFrom('sysUser').select('userId').where('userName', '=', 'expert').executeTakeFirstOrThrow()).userId;
    expect(rows.every((r) => r.ownerId === expertId)).toBe(true);
  });

  it('refuses a file with a bad row, reporting every bad row, and writes nothing', async () => {
    const before = await count();
    const file = await sheet([
      ['好学生', null, null, null, 600, null, '物理、化学、生物', null, null],
      ['', null, null, null, 600, null, null, null, null],
      ['分数错', null, null, null, 800, null, null, null, null],
      ['科目错', null, null, null, 600, null, '物理、体育、生物', null, null],
      ['资格错', null, null, null, 600, null, null, '军人子女', null],
      ['重复号1', '13900000009', null, null, null, null, null, null, null],
      ['重复号2', '13900000009', null, null, null, null, null, null, null],
    ]);
    const res = await upload(t.expert, file);
    expect(res.code).toBe(500);
    expect(res.msg).toMatch(/^导入失败，共 5 处错误，未写入任何数据。第 3 行：学生姓名不能为空；第 4 行：分数必须在 0 到 750 之间；/);
    expect(res.data as unknown).toEqual([
      { row: 3, message: '学生姓名不能为空' },
      { row: 4, message: '分数必须在 0 到 750 之间' },
      { row: 5, message: '选考科目「体育」不正确（可选：物理、化学、生物、历史、地理、政治）' },
      { row: 6, message: '专项资格不正确：军人子女（可选：国家专项、地方专项、高校专项、定向、公费师范、预科、民族班）' },
      { row: 8, message: '手机号 13900000009 与第 7 行重复' },
    ]);
    expect(await count()).toBe(before);
  });

  it('checks the content, not the name: a renamed text file, a wrong extension and a sheet without 姓名 are refused', async () => {
    const before = await count();
    expect((await upload(t.expert, Buffer.from('姓名,分数\n张,600\n'), 'students.xlsx')).msg).toBe('文件内容不是 Excel（.xlsx）文件，请使用下载的导入模板');
    expect((await upload(t.expert, Buffer.from('PK\x03\x04 not really a zip'), 'students.xlsx')).msg).toBe(
      '文件内容不是有效的 Excel（.xlsx）文件，请使用下载的导入模板',
    );
    expect((await upload(t.expert, await sheet([['甲']]), 'students.csv')).msg).toBe('文件格式不正确，请上传 .xlsx 文件（可先下载导入模板）');
    expect((await upload(t.expert, await sheet([['甲', 600]], ['名字', '分数']))).msg).toBe('导入文件第 1 行缺少「姓名」列，请使用下载的导入模板');
    expect((await upload(t.expert, await sheet([]))).msg).toBe('导入文件中没有学生数据');
    expect(await count()).toBe(before);
    // Without the permission (operator) the route refuses before reading anything.
    const denied = await upload(t.operator, await sheet([['甲']]));
    expect(denied.code).not.toBe(200);
    expect(await count()).toBe(before);
  });

  it('puts a store’s import into that store only, whatever the request says', async () => {
    const agency = await s.login('store2expert', 'store2expert123');
    const res = await upload(agency, await sheet([['门店学生', null, null, null, 590, null, null, null, null]]), 'students.xlsx', { storeId: '1' });
    expect(res.code, res.msg).toBe(200);
    const row = await s.app.db.kysely
      .selectFrom('volStudent')
      .select(['storeId', 'name'])
      .where('studentId', '=', res.data.studentIds[0])
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ storeId: 2, name: '门店学生' });
    // The store's leader sees it; the headquarters' expert (who owns only their own students) does not.
    const lead = await s.login('store2leader', 'store2leader123');
    const list = (await s.call('GET', '/dev-api/api/index/subscriber', { token: lead, query: { name: '门店学生' } })).body as unknown as { rows: unknown[] };
    expect(list.rows).toHaveLength(1);
    const hq = (await s.call('POST', '/dev-api/api/Subscriber/info', { token: t.expert, body: { studentId: res.data.studentIds[0] } })).body;
    expect(hq.msg).toBe('学生不存在或无权访问');
  });
});
