import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHANDONG } from '../../../server/db/seed/admission.js';
import { HISTORY_DIR } from '../../../server/volunteer/import/history.js';
import { backends, startServer, type TestServer } from '../harness.js';
import { api, type ChanceRowT, loginAll, studentId, type Tokens } from './helpers.js';

const URL_IMPORT = '/dev-api/volunteer/admission/import';
const read = (name: string) => fs.readFileSync(new URL(name, HISTORY_DIR), 'utf8');
/** The header and the first n data rows of a bundled file. */
const head = (name: string, n: number) =>
  read(name)
    .split('\n')
    .slice(0, n + 1)
    .join('\n');

/**
 * The administrator's import of admission data (server/volunteer/import): a bad row refuses the whole file with a
 * row-level report and writes nothing; a rank table can arrive before its year's lines; lines of a past year become
 * history the acceptance query uses.
 */
describe.each(backends)('admission data import on %s', (backend) => {
  let s: TestServer;
  let t: Tokens;
  beforeAll(async () => {
    s = await startServer(backend);
    t = await loginAll(s);
  });
  afterAll(async () => {
    await s?.close();
  });

  const lineCount = async (year: number) =>
    Number(
      (
        await s.app.db.kysely
          .selectFrom('gkAdmissionLine')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('examProvince', '=', SHANDONG)
          .where('year', '=', year)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('refuses a file with a bad row, reports the rows, and writes nothing; only an administrator may import', async () => {
    const rankTable = read('rank-table-2024.csv');
    const denied = await api(s, t.expert, URL_IMPORT, { province: SHANDONG, kind: 'rankTable', year: 2024, csv: rankTable });
    expect(denied.code).toBe(403);

    // Lines before their year's rank table: refused (their min scores come from it).
    const early = await api(s, t.admin, URL_IMPORT, { province: SHANDONG, kind: 'lines', year: 2024, csv: head('toudang-2024.csv', 30) });
    expect(early.msg).toBe('请先导入山东 2024 年的一分一段表：投档线的最低分由位次换算');

    const good = await api<{ rows: number; inserted: number }>(s, t.admin, URL_IMPORT, { province: SHANDONG, kind: 'rankTable', year: 2024, csv: rankTable });
    expect(good.code).toBe(200);
    expect(good.data).toMatchObject({ rows: 547, inserted: 547 });

    const rows = head('toudang-2024.csv', 30).split('\n');
    rows[5] = rows[5].replace(/,\d+$/, ',abc'); // file line 6: a rank that is not a number
    rows[9] = rows[9].replace(/^[A-Z0-9]+,/, ','); // file line 10: no school code
    const bad = await api<never>(s, t.admin, URL_IMPORT, { province: SHANDONG, kind: 'lines', year: 2024, csv: rows.join('\n') });
    expect(bad.code).toBe(500);
    expect(bad.msg).toBe('投档线导入失败：共 2 处错误，未写入任何数据。第 6 行 minRank：最低位次必须是 1 到 2000000 之间的整数');
    expect((bad as unknown as { errors: unknown[] }).errors).toEqual([
      { row: 6, column: 'minRank', value: 'abc', message: '最低位次必须是 1 到 2000000 之间的整数' },
      { row: 10, column: 'schoolCode', value: '', message: '院校代码不能为空' },
    ]);
    expect(await lineCount(2024)).toBe(0);

    const noColumn = await api(s, t.admin, URL_IMPORT, { province: SHANDONG, kind: 'schools', csv: 'schoolCode,name\nA001,北京大学' });
    expect(noColumn.msg).toMatch(/^院校名单导入失败：共 1 处错误，未写入任何数据。第 1 行：缺少列：province、city、tags、level、ownership、authority$/);
    expect((await api(s, t.admin, URL_IMPORT, { province: '火星', kind: 'schools', csv: 'x' })).msg).toBe('暂无「火星」的省份设置，请先添加省份');
  });

  it('imports a past year that the acceptance query then uses, and the corrected school list', async () => {
    const k = s.app.db.kysely;
    // Schools: province for every school (the seed had 1,029 without one), private colleges without a parent's tags.
    const schools = await api<{ updated: number }>(s, t.admin, URL_IMPORT, { province: SHANDONG, kind: 'schools', csv: read('schools.csv') });
    expect(schools.data).toMatchObject({ rows: 1140, updated: 1140 });
    const withoutProvince = await k.selectFrom('gkSchool').select('schoolCode').where('examProvince', '=', SHANDONG).where('province', 'is', null).execute();
    expect(withoutProvince.length).toBe(2); // two of the five unmatched in the MoE lists (military schools)

    const lines = await api<{ inserted: number; skipped: unknown[] }>(s, t.admin, URL_IMPORT, {
      province: SHANDONG,
      kind: 'lines',
      year: 2024,
      csv: head('toudang-2024.csv', 40),
    });
    expect(lines.code).toBe(200);
    // 清华大学's 前50 (no number printed) counts as rank 50.
    expect(lines.data).toMatchObject({ rows: 40, inserted: 40, skipped: [] });
    expect(await lineCount(2024)).toBe(40);
    const top = await k
      .selectFrom('gkAdmissionLine')
      .select(['minRank', 'minScore'])
      .where('year', '=', 2024)
      .where('majorCode', '=', '1B')
      .executeTakeFirstOrThrow();
    expect(top.minRank).toBe(50);
    // The same lines again update in place (ids kept for plans and favourites). A trailing newline makes it a new
    // request: the same body at once would be refused as a double submit (§5).
    const again = await api<{ inserted: number; updated: number }>(s, t.admin, URL_IMPORT, {
      province: SHANDONG,
      kind: 'lines',
      year: 2024,
      csv: `${head('toudang-2024.csv', 40)}\n`,
    });
    expect(again.data).toMatchObject({ inserted: 0, updated: 40 });

    // 北京大学's lines now show two years to the acceptance query, with both years' ranks.
    const zhang = await studentId(s, '张三');
    const res = await api<never>(s, t.expert, '/appv2/api/Filling/schoolEnrollChance', { studentId: zhang, schoolCode: 'A001', includeUnreachable: 1, all: 1 });
    const rows = (res as unknown as { rows: Array<ChanceRowT & { years: Array<{ year: number; minRank: number | null }> }> }).rows;
    const twoYears = rows.filter((r) => r.years.length === 2);
    expect(twoYears.length).toBeGreaterThan(0);
    expect(twoYears[0].years.map((y) => y.year)).toEqual([2025, 2024]);
    expect(twoYears[0].province).toBe('北京');
  });

  it('applies the imported subject requirements: a 史地政 student is never offered a line that needs 物理', async () => {
    const subjects = await api<{ updated: number; year: number }>(s, t.admin, URL_IMPORT, {
      province: SHANDONG,
      kind: 'subjects',
      csv: read('subject-requirements-2026.csv'),
    });
    // 18,074 of the seed's 21,282 lines of 2025 (18,168 of the 投档表's 21,381 once the history is imported).
    expect(subjects.data).toMatchObject({ year: 2025, updated: 18074 });
    const physics = new Set(
      (
        await s.app.db.kysely
          .selectFrom('gkAdmissionLine')
          .select('lineId')
          .where('year', '=', 2025)
          .where('subjectReq', 'like', '%物理%')
          .where('subjectReq', 'not like', '%或%')
          .execute()
      ).map((r) => r.lineId),
    );
    expect(physics.size).toBeGreaterThan(10_000);
    const query = async (name: string) =>
      (await api<never>(s, t.expert, '/appv2/api/Filling/schoolEnrollChance', {
        studentId: await studentId(s, name),
        includeUnreachable: 1,
        all: 1,
      })) as unknown as {
        rows: ChanceRowT[];
        notes: string[];
      };
    const lisi = await query('李四'); // 历史/地理/政治
    expect(lisi.rows.length).toBeGreaterThan(1000);
    expect(lisi.rows.filter((r) => physics.has(r.lineId))).toEqual([]);
    expect(lisi.notes).toContain('只显示 历史/地理/政治 可报的专业（选考科目要求不符的不显示）');
    const zhang = await query('张三'); // 物理/化学/生物: the 物理、化学 lines are open
    expect(zhang.rows.filter((r) => physics.has(r.lineId)).length).toBeGreaterThan(10_000);
  });
});
