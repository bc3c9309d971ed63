import fs from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../../server/db/seed/admission.js';
import { loadCatalogue } from '../../../server/volunteer/catalogue.js';
import { prepareSegmentTable, rankForScore } from '../../../server/volunteer/engine/index.js';
import { HISTORY_DIR, seedShandongHistory } from '../../../server/volunteer/import/history.js';
import { startServer, type TestServer } from '../harness.js';
import { api, type ChanceRowT, loginAll, ok, type Tokens } from './helpers.js';

/**
 * Issue 23 on the real data: Shandong 2021–2026 loaded through the product's own import. Families sit the 2027 exam;
 * the 2026 lines are the catalogue; older years are history joined by identity; rules are read from the 2026 line.
 */

type Row = ChanceRowT & {
  year: number;
  targetYear: number;
  majorCode: string | null;
  subjectReq: string | null;
  isNew: boolean;
  years: Array<{ year: number; minScore: number; minRank: number | null; majorName: string | null }>;
};
interface Chance {
  rows: Row[];
  total: number;
  notes: string[];
  student: { rank: number | null; examYear: number | null; year: number; targetYear: number; rankYear: number | null };
}
interface Auto {
  items: Row[];
  notes: string[];
}

const CHANCE = '/appv2/api/Filling/schoolEnrollChance';
const AUTO = '/appv2/api/Filling/schoolEnrollChance_auto';
/** The acceptance list answers at the top level of the body (rows, total, student, notes). */
async function chance(s: TestServer, token: string, body: Record<string, unknown>): Promise<Chance> {
  const res = await s.call('POST', CHANCE, { token, body });
  const b = res.body as unknown as Chance & { code: number; msg: string };
  if (b.code !== 200) throw new Error(`${CHANCE}: ${b.code} ${b.msg}`);
  return b;
}
const csv = (name: string) => fs.readFileSync(new URL(name, HISTORY_DIR), 'utf8');
const tableOf = (year: number) =>
  prepareSegmentTable(parseCsv(csv(`rank-table-${year}.csv`)).map((r) => ({ year, score: Number(r.score), cumulativeRank: Number(r.cumulativeRank) })));

/** The three students the issue tried: 580 物化生, 520 史地政, 650 物化生. */
const STUDENTS = [
  { name: '二七物化生580', score: 580, subjects: [1, 2, 3] },
  { name: '二七史地政520', score: 520, subjects: [4, 5, 6] },
  { name: '二七物化生650', score: 650, subjects: [1, 2, 3] },
];

async function fullServer(): Promise<TestServer> {
  const s = await startServer('sqlite');
  await seedShandongHistory(s.app.db.kysely);
  return s;
}

describe('planning the 2027 exam on the 2026 catalogue (real Shandong 2021–2026)', () => {
  let s: TestServer;
  let t: Tokens;
  let lines2026: Map<number, { subjectReq: string | null; majorCode: string | null }>;
  const ids: number[] = [];

  beforeAll(async () => {
    s = await fullServer();
    t = await loginAll(s);
    const rows = await s.app.db.kysely
      .selectFrom('gkAdmissionLine')
      .select(['lineId', 'subjectReq', 'majorCode'])
      .where('examProvince', '=', '山东')
      .where('year', '=', 2026)
      .execute();
    lines2026 = new Map(rows.map((r) => [r.lineId, r]));
    for (const st of STUDENTS) ids.push((await ok<{ studentId: number }>(s, t.expert, '/dev-api/api/Subscriber/add', st)).studentId);
  }, 120_000);
  afterAll(async () => {
    await s?.close();
  });

  it('defaults a new student to the 2027 exam, ranked in the 2026 table, and offers only 2026 lines, each once', async () => {
    expect(lines2026.size).toBeGreaterThan(23_000);
    const table2026 = tableOf(2026);
    for (const [n, id] of ids.entries()) {
      const info = await ok<{ examYear: number; rank: number }>(s, t.expert, '/dev-api/api/Subscriber/info', { studentId: id });
      expect(info.examYear).toBe(2027);
      expect(info.rank).toBe(rankForScore(table2026, STUDENTS[n].score).rank);
      const c = await chance(s, t.expert, { studentId: id, all: 1, includeUnreachable: 1, explain: 0 });
      expect(c.student).toMatchObject({ examYear: 2027, year: 2026, targetYear: 2027, rankYear: 2026 });
      expect(c.rows.length).toBe(c.total);
      expect(c.rows.length).toBeGreaterThan(1000);
      const seen = new Set<string>();
      for (const r of c.rows) {
        // Every option is a 2026 line, with its figures' year and its own 2026 专业代号.
        expect(lines2026.has(r.lineId), `${r.schoolName} ${r.majorName}`).toBe(true);
        expect(r.year).toBe(2026);
        expect(r.targetYear).toBe(2027);
        expect(r.years[0].year).toBe(2026);
        expect(r.majorCode).toBe(lines2026.get(r.lineId)?.majorCode);
        // One official choice once: 院校代码 + 2026 专业代号 never repeats.
        const key = `${r.schoolCode}|${r.majorCode}`;
        expect(seen.has(key), key).toBe(false);
        seen.add(key);
      }
    }
  });

  it('never offers a 史地政 student a line whose 2026 requirement names 物理 or 化学, over every option', async () => {
    for (const score of [520, 600, 460]) {
      const id = (await ok<{ studentId: number }>(s, t.expert, '/dev-api/api/Subscriber/add', { name: `史地政${score}`, score, subjects: [4, 5, 6] }))
        .studentId;
      const c = await chance(s, t.expert, { studentId: id, all: 1, includeUnreachable: 1, explain: 0 });
      expect(c.rows.length).toBeGreaterThan(100);
      for (const r of c.rows) {
        const req = lines2026.get(r.lineId)?.subjectReq ?? '';
        expect(req, `${r.schoolName} ${r.majorName}`).not.toMatch(/物理|化学/);
        expect(r.subjectReq).toBe(req);
      }
      // 专业 = 物理学 finds no physics line for this student.
      const physics = await chance(s, t.expert, { studentId: id, all: 1, includeUnreachable: 1, explain: 0, majorName: '物理学' });
      for (const r of physics.rows) expect(lines2026.get(r.lineId)?.subjectReq ?? '').not.toMatch(/物理/);
    }
  });

  it('auto-fills up to 96 choices, of 2026 lines only, for each of the three students', async () => {
    for (const id of ids) {
      const auto = await ok<Auto>(s, t.expert, AUTO, { studentId: id });
      // 96 unless the spreading caps leave a tier short, which the answer then says (仍缺).
      expect(auto.items.length).toBeGreaterThan(85);
      if (auto.items.length < 96) expect(auto.notes.some((n) => n.includes('仍缺'))).toBe(true);
      for (const it of auto.items) {
        expect(lines2026.has(it.lineId), `${it.schoolName} ${it.majorName}`).toBe(true);
        expect(it.year).toBe(2026);
        expect(it.flags).not.toContain('subject-unknown');
      }
      expect(new Set(auto.items.map((i) => i.lineId)).size).toBe(auto.items.length);
    }
  });

  it('carries each line’s history by identity, not by 专业代号: 济南大学 计算机 2024 is 55,578', async () => {
    const id = ids[0];
    const c = await chance(s, t.expert, { studentId: id, all: 1, includeUnreachable: 1, explain: 0, schoolName: '济南大学', majorName: '计算机科学与技术' });
    const row = c.rows.find((r) => r.majorName === '计算机科学与技术(济南走读)');
    expect(row, '济南大学 计算机科学与技术(济南走读) offered').toBeDefined();
    expect(row?.years.find((y) => y.year === 2024)?.minRank).toBe(55_578);
    // Every year of every row is the same programme: no year of another major leaks in.
    for (const r of c.rows) for (const y of r.years) expect(y.majorName?.replace(/类/g, '')).toContain('计算机');
  });

  it('refuses to save a line that left the catalogue or a second copy of one programme; a stored plan shows it 失效', async () => {
    const cat = await loadCatalogue(s.app.db.kysely, '山东');
    if (!cat) throw new Error('no catalogue');
    const gone = [...cat.retired.values()].find((l) => l.year === 2025);
    if (!gone) throw new Error('no 2025 line left the catalogue');
    const id = ids[0];
    const plan = await ok<{ plan: { version: number } | null }>(s, t.expert, '/appv2/api/index/zyInfo', { studentId: id });
    const version = plan.plan?.version ?? 0;
    const refusedGone = await api(s, t.expert, '/appv2/api/index/zySave', { studentId: id, version, items: [{ lineId: gone.lineId }] });
    expect(refusedGone.code).toBe(500);
    expect(refusedGone.msg).toMatch(/^第1个志愿（.+）不在2026年招生目录中（最近一次招生为2025年，已停招或更名），不能填报，请删除或替换$/);

    // The same programme under its 2025 line and its 2026 line: one choice, refused as a duplicate.
    const cont = cat.entries.find((e) => e.years.length >= 2 && e.years[1].year === 2025 && e.years[1].majorName !== e.years[0].majorName);
    if (!cont) throw new Error('no renamed programme');
    const dup = await api(s, t.expert, '/appv2/api/index/zySave', {
      studentId: id,
      version,
      items: [{ lineId: cont.lineId }, { lineId: cont.years[1].lineId }],
    });
    expect(dup.code).toBe(500);
    expect(dup.msg).toMatch(/^第2个志愿与第1个志愿重复/);

    // A plan saved last year that still holds the stopped line: shown 失效 with the reason.
    const saved = await ok<{ version: number }>(s, t.expert, '/appv2/api/index/zySave', { studentId: id, version, items: [{ lineId: cont.lineId }] });
    const k = s.app.db.kysely;
    const p = await k.selectFrom('volPlan').select('planId').where('studentId', '=', id).executeTakeFirstOrThrow();
    await k
      .insertInto('volPlanItem')
      .values({
        planId: p.planId,
        sort: 2,
        lineId: gone.lineId,
        schoolCode: gone.schoolCode,
        schoolName: gone.schoolName,
        groupCode: null,
        majorName: gone.majorName,
        minScore: 500,
        minRank: 100_000,
        tier: null,
        probability: null,
        obey: null,
      })
      .execute();
    const info = await ok<{ items: Array<{ lineId: number; stale: boolean; staleReason: string | null; year: number | null }> }>(
      s,
      t.expert,
      '/appv2/api/index/zyInfo',
      {
        studentId: id,
      },
    );
    expect(saved.version).toBeGreaterThan(version);
    expect(info.items.find((i) => i.lineId === cont.lineId)).toMatchObject({ stale: false, year: 2026 });
    expect(info.items.find((i) => i.lineId === gone.lineId)).toMatchObject({ stale: true, year: 2025 });
    expect(info.items.find((i) => i.lineId === gone.lineId)?.staleReason).toMatch(/不在2026年招生目录中/);
    await k.deleteFrom('volPlanItem').where('planId', '=', p.planId).where('lineId', '=', gone.lineId).execute();

    // A plan saved on the 2025 catalogue holding a programme still offered: shown as its 2026 line with 2026 figures,
    // and reordering by the shown ids works.
    const kept = cat.entries.find((e) => e !== cont && e.years.length >= 2 && e.years[1].year === 2025);
    if (!kept) throw new Error('no continuing programme');
    const old = kept.years[1];
    await k
      .insertInto('volPlanItem')
      .values({
        planId: p.planId,
        sort: 2,
        lineId: old.lineId,
        schoolCode: kept.school.schoolCode,
        schoolName: kept.school.name,
        groupCode: null,
        majorName: old.majorName,
        minScore: old.minScore,
        minRank: old.minRank,
        tier: null,
        probability: null,
        obey: null,
      })
      .execute();
    const shown = await ok<{ items: Array<{ lineId: number; stale: boolean; year: number | null; minRank: number | null }> }>(
      s,
      t.expert,
      '/appv2/api/index/zyInfo',
      {
        studentId: id,
      },
    );
    expect(shown.items[1]).toMatchObject({ lineId: kept.lineId, stale: false, year: 2026, minRank: kept.years[0].minRank });
    const sorted = await api(s, t.expert, '/appv2/api/index/saveSort', { studentId: id, version: saved.version, lineIds: [kept.lineId, cont.lineId] });
    expect(sorted.code, sorted.msg).toBe(200);
  });

  it('ranks a 2027 student in the 2026 table until a 2027 table is imported, then in it; the catalogue stays 2026', async () => {
    const id = ids[0];
    const before = await chance(s, t.expert, { studentId: id, pageSize: 5 });
    expect(before.student.rankYear).toBe(2026);
    expect(before.student.rank).toBe(rankForScore(tableOf(2026), 580).rank);
    // A 2027 table arrives (next June) before the 2027 lines: 3 % more candidates at every score.
    const rows = parseCsv(csv('rank-table-2026.csv'));
    const table2027 = ['year,track,score,cumulativeRank', ...rows.map((r) => `2027,${r.track},${r.score},${Math.round(Number(r.cumulativeRank) * 1.03)}`)].join(
      '\n',
    );
    const imported = await api(s, t.admin, '/dev-api/volunteer/admission/import', { province: '山东', kind: 'rankTable', year: 2027, csv: table2027 });
    expect(imported.code, imported.msg).toBe(200);
    const after = await chance(s, t.expert, { studentId: id, pageSize: 5 });
    expect(after.student.rankYear).toBe(2027);
    expect(after.student.rank).toBe(rankForScore(tableOf(2026), 580).rank === null ? null : Math.round(rankForScore(tableOf(2026), 580).rank * 1.03));
    expect(after.student.year).toBe(2026);
    expect(after.rows.every((r) => r.year === 2026)).toBe(true);
  });
});

describe('ADMISSION_AS_OF=2025 answers exactly as a server that never saw 2026', () => {
  let full: TestServer;
  let old: TestServer;
  let tFull: Tokens;
  let tOld: Tokens;
  const saved = process.env.ADMISSION_AS_OF;

  beforeAll(async () => {
    full = await fullServer();
    old = await startServer('sqlite');
    await seedShandongHistory(
      old.app.db.kysely,
      [2021, 2022, 2023, 2024, 2025].filter((y) => y <= 2025),
    );
    tFull = await loginAll(full);
    tOld = await loginAll(old);
  }, 180_000);
  afterEach(() => {
    if (saved == null) delete process.env.ADMISSION_AS_OF;
    else process.env.ADMISSION_AS_OF = saved;
  });
  afterAll(async () => {
    await full?.close();
    await old?.close();
  });

  /** What a family would see: every option with its figures, chance and tier, and the auto-fill. */
  async function answers(s: TestServer, t: Tokens, score: number) {
    const subjects = score < 550 ? [4, 5, 6] : [1, 2, 3];
    const studentId = (await ok<{ studentId: number }>(s, t.expert, '/dev-api/api/Subscriber/add', { name: `回放${score}`, score, subjects })).studentId;
    const c = await chance(s, t.expert, { studentId, all: 1, includeUnreachable: 1, explain: 0 });
    const a = await ok<Auto>(s, t.expert, AUTO, { studentId });
    const row = (r: Row) => [r.schoolCode, r.majorName, r.year, r.minScore, r.minRank, r.probability, r.tier, r.estimatedRank, JSON.stringify(r.years)];
    const { studentId: _id, ...student } = c.student as Chance['student'] & { studentId?: number };
    return { student, rows: c.rows.map(row), auto: a.items.map(row) };
  }

  it('gives the same options, ranks and model answers for three students', async () => {
    delete process.env.ADMISSION_AS_OF;
    const expected = [];
    for (const score of [650, 580, 520]) expected.push(await answers(old, tOld, score));
    expect(expected[0].student).toMatchObject({ examYear: 2026, year: 2025, targetYear: 2026, rankYear: 2025 });
    // The full server without ADMISSION_AS_OF: 2026 is its catalogue (the comparison is not empty).
    expect((await answers(full, tFull, 580)).student).toMatchObject({ year: 2026, targetYear: 2027 });

    process.env.ADMISSION_AS_OF = '2025';
    for (const [n, score] of [650, 580, 520].entries()) {
      const got = await answers(full, tFull, score);
      expect(got.student).toEqual(expected[n].student);
      expect(got.rows.length).toBe(expected[n].rows.length);
      expect(got.rows).toEqual(expected[n].rows);
      expect(got.auto).toEqual(expected[n].auto);
    }
    // A student created under it sits the 2026 exam, ranked in the 2025 table.
    const st = await ok<{ examYear: number; rank: number }>(full, tFull.expert, '/dev-api/api/Subscriber/add', {
      name: '回放考生',
      score: 580,
      subjects: [1, 2, 3],
    });
    expect(st.examYear).toBe(2026);
    expect(st.rank).toBe(rankForScore(tableOf(2025), 580).rank);
  });
});
