import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv, SHANDONG } from '../../../server/db/seed/admission.js';
import { prepareSegmentTable, rankForScore } from '../../../server/volunteer/engine/index.js';
import { HISTORY_DIR, historyFiles, seedShandongHistory } from '../../../server/volunteer/import/history.js';
import { backends, startServer, type TestServer } from '../harness.js';
import { api, loginAll, ok, type StudentT, type Tokens } from './helpers.js';

const URL_IMPORT = '/dev-api/volunteer/admission/import';
const read = (name: string) => fs.readFileSync(new URL(name, HISTORY_DIR), 'utf8');
const files = historyFiles();
const newestLines = Math.max(...files.lines);
const newestTable = Math.max(...files.rankTables);

/** The newest bundled 一分一段表 as the next year's: same scores, counts scaled (a larger cohort), year + 1. */
function nextYearTable(scale: number): { year: number; csv: string; rows: Array<{ score: number; cumulativeRank: number }> } {
  const year = newestTable + 1;
  const rows = parseCsv(read(`rank-table-${newestTable}.csv`)).map((r) => ({
    track: r.track,
    score: Number(r.score),
    cumulativeRank: Math.round(Number(r.cumulativeRank) * scale),
  }));
  const csv = ['year,track,score,cumulativeRank', ...rows.map((r) => `${year},${r.track},${r.score},${r.cumulativeRank}`)].join('\n');
  return { year, csv, rows };
}

/**
 * Years are data (server/volunteer/import/history.ts): the bundled folder's years are found from its file names and
 * each start imports what the database lacks; the 2026 投档表 carries each line's own 选考科目要求 and no plan count;
 * a next year's 一分一段表 arrives before its lines and moves the students of that exam year to it (rerank.ts).
 */
describe.each(backends)('admission years through the import on %s', (backend) => {
  let s: TestServer;
  let t: Tokens;
  beforeAll(async () => {
    s = await startServer(backend);
    t = await loginAll(s);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('finds the years from the folder; a database holding the earlier years picks up only the newest at its next start', async () => {
    expect(files.lines).toContain(2026);
    expect(files.rankTables).toContain(2026);
    const k = s.app.db.kysely;
    const earlier = files.lines.filter((y) => y < newestLines);
    const first = await seedShandongHistory(k, earlier);
    expect(first?.filter((r) => r.kind === 'lines').map((r) => r.year)).toEqual(earlier);

    // The next start: only the newest year's rank table and lines are missing.
    const next = await seedShandongHistory(k);
    expect(next?.map((r) => `${r.kind} ${r.year}`)).toEqual([`rankTable ${newestLines}`, `lines ${newestLines}`]);
    expect(await seedShandongHistory(k)).toBeNull();

    const years = await k.selectFrom('gkAdmissionLine').select('year').distinct().where('examProvince', '=', SHANDONG).orderBy('year').execute();
    expect(years.map((r) => r.year)).toEqual(files.lines);
  });

  it('stores the 2026 lines with their own 选考科目要求 and no plan count; the separate requirements file is not applied', async () => {
    const k = s.app.db.kysely;
    const csv = parseCsv(read('toudang-2026.csv'));
    expect(Object.keys(csv[0])).not.toContain('planCount');
    const stored = await k
      .selectFrom('gkAdmissionLine')
      .select(['schoolCode', 'majorCode', 'majorName', 'subjectReq', 'planCount'])
      .where('examProvince', '=', SHANDONG)
      .where('year', '=', 2026)
      .execute();
    const byKey = new Map(stored.map((l) => [`${l.schoolCode}|${l.majorCode}`, l]));
    const withRank = csv.filter((r) => r.minRank.trim() !== '');
    expect(stored.length).toBe(withRank.length);
    for (const r of withRank) {
      const line = byKey.get(`${r.schoolCode}|${r.majorCode}`);
      expect(line, `${r.schoolCode} ${r.majorCode}`).toMatchObject({ majorName: r.major, subjectReq: r.subjectRequirement, planCount: null });
    }
    // e.g. 北京大学 理科试验班类(理科基础类专业) 2026 needs 物理、化学, as the 投档表 prints it.
    const pku = csv.find((r) => r.schoolCode === 'A001' && r.major.startsWith('理科试验班类'));
    expect(byKey.get(`A001|${pku?.majorCode}`)?.subjectReq).toBe(pku?.subjectRequirement);

    // The 2025 lines keep their plan counts and get no 2026 requirement (ADMISSION_AS_OF=2025 must not see 2026).
    const y2025 = await k
      .selectFrom('gkAdmissionLine')
      .select((eb) => [eb.fn.count('subjectReq').as('withReq'), eb.fn.count('planCount').as('withPlan')])
      .where('examProvince', '=', SHANDONG)
      .where('year', '=', 2025)
      .executeTakeFirstOrThrow();
    expect(Number(y2025.withReq)).toBe(0);
    expect(Number(y2025.withPlan)).toBeGreaterThan(20_000);

    // A school renamed in 2026 (same 院校代码) carries its 2026 name.
    const renamed = csv.find((r) => r.schoolCode === 'A440');
    const school = await k
      .selectFrom('gkSchool')
      .select('name')
      .where('examProvince', '=', SHANDONG)
      .where('schoolCode', '=', 'A440')
      .executeTakeFirstOrThrow();
    expect(school.name).toBe(renamed?.schoolName);

    // The administrator's requirements file leaves lines that carry their own alone.
    const subjects = read('subject-requirements-2026.csv')
      .split('\n')
      .map((l, i) => (i === 1 ? l.replace(/,[^,]*$/, ',历史') : l))
      .join('\n');
    const applied = await api<{ year: number; updated: number; notes: string[] }>(s, t.admin, URL_IMPORT, {
      province: SHANDONG,
      kind: 'subjects',
      csv: subjects,
    });
    expect(applied.data).toMatchObject({ year: 2026, updated: 0 });
    expect(applied.data?.notes).toContain(`${stored.length} 条投档线已有投档表自带的选科要求，保持不变`);
    const first = csv[0];
    const kept = await k
      .selectFrom('gkAdmissionLine')
      .select('subjectReq')
      .where('year', '=', 2026)
      .where('schoolCode', '=', first.schoolCode)
      .where('majorCode', '=', first.majorCode)
      .executeTakeFirstOrThrow();
    expect(kept.subjectReq).toBe(first.subjectRequirement);
  });

  it('refuses a 2026 file with a bad 选考科目要求 with the row, and writes nothing', async () => {
    const rows = read('toudang-2026.csv').split('\n').slice(0, 11);
    const header = rows[0].split(',');
    const col = header.indexOf('subjectRequirement');
    const cells = rows[3].split(',');
    cells[col] = '物理、体育';
    rows[3] = cells.join(',');
    const bad = await api<never>(s, t.admin, URL_IMPORT, { province: SHANDONG, kind: 'lines', year: 2026, csv: rows.join('\n') });
    expect(bad.code).toBe(500);
    expect(bad.msg).toBe(
      '投档线导入失败：共 1 处错误，未写入任何数据。第 4 行 subjectRequirement：选考科目要求只能是 不限，或 物理、化学、生物、思想政治、历史、地理 的组合',
    );
    const noRank = await api<never>(s, t.admin, URL_IMPORT, {
      province: SHANDONG,
      kind: 'lines',
      year: 2026,
      csv: 'schoolCode,schoolName,majorCode,major,subjectRequirement\nA001,北京大学,17,文科试验班类,不限',
    });
    expect(noRank.msg).toBe('投档线导入失败：共 1 处错误，未写入任何数据。第 1 行：缺少列：minRank');
  });

  it('takes the next year’s 一分一段表 before its lines and moves that exam year’s students to it; a typed rank stays', async () => {
    const k = s.app.db.kysely;
    const next = nextYearTable(1.04);
    const current = prepareSegmentTable(
      parseCsv(read(`rank-table-${newestTable}.csv`)).map((r) => ({ score: Number(r.score), cumulativeRank: Number(r.cumulativeRank) })),
    );
    const add = (body: Record<string, unknown>) => ok<StudentT>(s, t.expert, '/dev-api/api/Subscriber/add', { subjects: [1, 2, 3], ...body });
    const auto = await add({ name: '下届自动位次', score: 581, examYear: next.year });
    const typed = await add({ name: '下届手填位次', score: 581, rank: 30000, examYear: next.year });
    const thisYear = await add({ name: '本届考生', score: 581, examYear: newestTable });
    // Until the table of their year is loaded, they are ranked in the newest one.
    expect(auto).toMatchObject({ rank: rankForScore(current, 581).rank });
    expect(typed).toMatchObject({ rank: 30000, rankFlag: 'manual' });

    const lines = await k.selectFrom('gkAdmissionLine').select('lineId').where('year', '=', next.year).execute();
    expect(lines).toEqual([]);
    const res = await api<{ rows: number; rerankedStudents: number; notes: string[] }>(s, t.admin, URL_IMPORT, {
      province: SHANDONG,
      kind: 'rankTable',
      year: next.year,
      csv: next.csv,
    });
    expect(res.code, res.msg).toBe(200);
    const movable = await k
      .selectFrom('volStudent')
      .select('studentId')
      .where('province', '=', SHANDONG)
      .where('delFlag', '=', '0')
      .where('examYear', '>=', next.year)
      .where('score', 'is not', null)
      .where('rankFlag', '!=', 'manual')
      .execute();
    expect(res.data).toMatchObject({ rows: next.rows.length, rerankedStudents: movable.length });
    expect(res.data?.notes).toContain(`${movable.length} 名考生的位次已按 ${next.year} 年一分一段表重新换算`);

    const expected = rankForScore(prepareSegmentTable(next.rows), 581);
    const view = async (id: number) => ok<StudentT>(s, t.expert, '/dev-api/api/Subscriber/info', { studentId: id });
    expect(await view(auto.studentId)).toMatchObject({ rank: expected.rank, rankFlag: expected.flag, version: auto.version + 1 });
    expect(expected.rank).not.toBe(auto.rank);
    expect(await view(typed.studentId)).toMatchObject({ rank: 30000, rankFlag: 'manual', version: typed.version });
    expect(await view(thisYear.studentId)).toMatchObject({ rank: thisYear.rank, version: thisYear.version });

    // A score edited later is ranked in the same table as the import put the student in.
    const edited = await ok<StudentT>(s, t.expert, '/appv2/api/index/editUser', { studentId: auto.studentId, version: auto.version + 1, score: 600 });
    expect(edited.rank).toBe(rankForScore(prepareSegmentTable(next.rows), 600).rank);
  });

  it('imports a rank table found in another folder on its own, and only what the database lacks', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zy-years-'));
    try {
      const later = nextYearTable(1.08);
      const year = later.year + 1;
      fs.writeFileSync(path.join(dir, `rank-table-${year}.csv`), later.csv.replaceAll(`\n${later.year},`, `\n${year},`));
      fs.copyFileSync(new URL(`toudang-${newestLines}.csv`, HISTORY_DIR), path.join(dir, `toudang-${newestLines}.csv`));
      fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a data file');
      expect(historyFiles(dir)).toEqual({ schools: false, rankTables: [year], lines: [newestLines] });
      const reports = await seedShandongHistory(s.app.db.kysely, null, dir);
      expect(reports?.map((r) => `${r.kind} ${r.year}`)).toEqual([`rankTable ${year}`]);
      expect(await seedShandongHistory(s.app.db.kysely, null, dir)).toBeNull();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
