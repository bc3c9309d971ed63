import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app.js';
import { loadConfig, type ServerConfig } from '../../../server/config.js';
import { parseCsv, SHANDONG, SHANDONG_BATCH_LINE } from '../../../server/db/seed/admission.js';
import { seed } from '../../../server/db/seed/index.js';
import {
  autofill,
  checkGradient,
  groupLines,
  prepareOptions,
  prepareSegmentTable,
  rankForScore,
  type StudentProfile,
  scoreAll,
} from '../../../server/volunteer/engine/index.js';

const DATA = new URL('../../../server/db/seed/data/gaokao-shandong-2025/', import.meta.url);
const csv = (name: string) => parseCsv(fs.readFileSync(new URL(name, DATA), 'utf8'));
const dataLines = (name: string) => fs.readFileSync(new URL(name, DATA), 'utf8').trim().split('\n').length - 1;

const backends: Array<{ name: string; overrides: (dir: string) => Partial<ServerConfig> }> = [{ name: 'SQLite', overrides: () => ({}) }];
const pgUrl = process.env.TEST_DATABASE_URL;
if (pgUrl) {
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  backends.push({ name: 'PostgreSQL', overrides: () => ({ databaseUrl: pgUrl, databaseSchema: schema }) });
}

describe('parseCsv', () => {
  it('reads quoted fields, escaped quotes, CRLF and a BOM', () => {
    const text = '\ufeffa,b,c\r\n1,"x, y","say ""hi"""\r\n2,,\n';
    expect(parseCsv(text)).toEqual([
      { a: '1', b: 'x, y', c: 'say "hi"' },
      { a: '2', b: '', c: '' },
    ]);
    expect(() => parseCsv('a,b\n1\n')).toThrow('列');
  });
});

describe.each(backends)('admission seed on $name', ({ overrides }) => {
  let app: FastifyInstance;
  let dir: string;
  let config: ServerConfig;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zy-volunteer-'));
    config = loadConfig({}, { dataDir: dir, logger: false, ...overrides(dir) });
    app = await buildApp({ config, serveConsole: false });
  });

  afterAll(async () => {
    await app?.close();
    if (config?.databaseUrl && config.databaseSchema) {
      const client = new pg.Client({ connectionString: config.databaseUrl });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${config.databaseSchema} CASCADE`);
      await client.end();
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const count = async (table: 'gkProvince' | 'gkSchool' | 'gkAdmissionLine' | 'gkScoreSegment' | 'gkBatchLine') =>
    Number(
      (
        await app.db.kysely
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('loads every CSV row into the gk tables', async () => {
    expect(await count('gkSchool')).toBe(1140);
    expect(await count('gkAdmissionLine')).toBe(21282);
    expect(await count('gkScoreSegment')).toBe(543);
    expect(await count('gkBatchLine')).toBe(3);
    // the same numbers as the files' data lines
    expect([dataLines('schools.csv'), dataLines('major-lines.csv'), dataLines('rank-table.csv'), dataLines('batch-lines.csv')]).toEqual([1140, 21282, 543, 3]);
  });

  it('registers Shandong with its filling rules', async () => {
    const rows = await app.db.kysely.selectFrom('gkProvince').selectAll().execute();
    expect(rows).toEqual([{ province: SHANDONG, mode: '3+3', subjectType: 2, zyType: 1, slotLimit: 96, groupMajorLimit: 0, cohortSize: 681127 }]);
  });

  it('maps the columns faithfully and stores null where the CSV has nothing', async () => {
    const k = app.db.kysely;
    const pku = await k.selectFrom('gkSchool').selectAll().where('schoolCode', '=', 'A001').executeTakeFirstOrThrow();
    expect(pku).toMatchObject({
      examProvince: SHANDONG,
      name: '北京大学',
      province: '北京',
      city: '北京',
      tags: '985|211|双一流',
      level: null,
      isPublic: null,
    });
    const ucas = await k.selectFrom('gkSchool').selectAll().where('schoolCode', '=', 'E430').executeTakeFirstOrThrow();
    expect(ucas).toMatchObject({ name: '中国科学院大学', province: null, city: null, tags: '' });
    const line = await k.selectFrom('gkAdmissionLine').selectAll().where('schoolCode', '=', 'A002').where('majorName', '=', '法学').executeTakeFirstOrThrow();
    expect(line).toMatchObject({ year: 2025, batch: '常规批', track: '综合', groupCode: null, minScore: 672, minRank: 731, planCount: null, subjectReq: null });
    const seg = await k.selectFrom('gkScoreSegment').selectAll().where('score', '=', 600).executeTakeFirstOrThrow();
    expect(seg).toEqual({ examProvince: SHANDONG, year: 2025, track: '综合', score: 600, cumulativeRank: 25061 });
    const batch = await k.selectFrom('gkBatchLine').select(['batch', 'minScore']).orderBy('minScore', 'desc').execute();
    expect(batch).toEqual([
      { batch: '特殊类型招生控制线', minScore: 521 },
      { batch: '一段线', minScore: 441 },
      { batch: '二段线', minScore: 150 },
    ]);
  });

  it('reproduces school-lines.csv from the seeded major lines (it is derived, so not stored)', async () => {
    const rows = await app.db.kysely
      .selectFrom('gkAdmissionLine')
      .select((eb) => ['schoolCode', eb.fn.min('minScore').as('minScore')])
      .groupBy('schoolCode')
      .execute();
    const fromDb = new Map(rows.map((r) => [r.schoolCode, Number(r.minScore)]));
    const expected = csv('school-lines.csv');
    expect(fromDb.size).toBe(expected.length);
    for (const r of expected) expect(fromDb.get(r.schoolCode)).toBe(Number(r.minScore));
  });

  it('seeds only once', async () => {
    expect(await seed(app.db)).toBe(false);
    expect(await count('gkAdmissionLine')).toBe(21282);
  });

  it('gives a Shandong student with 600 points a rank and plausible chances from the seeded data', async () => {
    const k = app.db.kysely;
    const segments = await k
      .selectFrom('gkScoreSegment')
      .select(['score', 'cumulativeRank'])
      .where('examProvince', '=', SHANDONG)
      .where('year', '=', 2025)
      .execute();
    const table = prepareSegmentTable(segments);
    const lookup = rankForScore(table, 600);
    expect(lookup).toEqual({ rank: 25061, flag: 'exact' });
    const province = await k.selectFrom('gkProvince').selectAll().where('province', '=', SHANDONG).executeTakeFirstOrThrow();
    const batchLine = await k
      .selectFrom('gkBatchLine')
      .select('minScore')
      .where('examProvince', '=', SHANDONG)
      .where('year', '=', 2025)
      .where('batch', '=', SHANDONG_BATCH_LINE)
      .executeTakeFirstOrThrow();
    expect(batchLine.minScore).toBe(441);
    const rows = await k
      .selectFrom('gkAdmissionLine as l')
      .innerJoin('gkSchool as s', (j) => j.onRef('s.schoolCode', '=', 'l.schoolCode').onRef('s.examProvince', '=', 'l.examProvince'))
      .select(['l.year', 'l.schoolCode', 'l.groupCode', 'l.majorName', 'l.minScore', 'l.minRank', 'l.planCount', 's.name as schoolName'])
      .where('l.examProvince', '=', SHANDONG)
      .orderBy('l.lineId')
      .execute();
    const options = groupLines(rows);
    expect(options).toHaveLength(21282);

    const student: StudentProfile = { score: 600, rank: lookup.rank, year: 2025, batchLine: batchLine.minScore, cohortSize: province.cohortSize };
    const started = performance.now();
    prepareOptions(options, student);
    const compileMs = performance.now() - started;
    const runs: number[] = [];
    let scored = scoreAll(options, student);
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      scored = scoreAll(options, student);
      runs.push(performance.now() - t);
    }
    runs.sort((a, b) => a - b);
    console.info(`scoreAll over ${options.length} lines: compile once ${compileMs.toFixed(1)} ms, then ${runs[2].toFixed(2)} ms median per student`);
    expect(runs[2]).toBeLessThan(30);

    // 建筑类(卓越人才拔尖班) at 北京大学 (A004): R = 24830, σ = 5 % = 1241.5, z = (24830 − 25061)/1241.5 = −0.186 → P = 0.4262 → 稳
    const a004 = scored.find((s) => s.option.schoolCode === 'A004' && s.option.majorName === '建筑类(卓越人才拔尖班)');
    expect(a004?.probability).toBeCloseTo(0.4262, 4);
    expect(a004?.tier).toBe('稳');
    expect(a004?.explanation.text).toBe('按位次法：2025年最低位次 24830（1年数据），估计录取位次 24830，σ=1242，你的位次 25061，录取概率 42.62%，稳');
    // 北京大学 法学 (rank 731) is out of reach; the weakest lines (rank ~333k) are near-certain and wasteful
    expect(scored.find((s) => s.option.schoolCode === 'A002' && s.option.majorName === '法学')?.flags).toEqual(['unreachable']);
    expect(scored.find((s) => s.option.schoolCode === 'D378')?.flags).toEqual(['wasteful']);
    const tiers = { 冲: 0, 稳: 0, 保: 0 };
    for (const s of scored) if (s.tier) tiers[s.tier]++;
    expect(tiers.冲 + tiers.稳 + tiers.保).toBe(21282);
    expect(tiers.冲).toBeGreaterThan(100);
    expect(tiers.稳).toBeGreaterThan(50);
    expect(tiers.保).toBeGreaterThan(1000);

    const plan = autofill(scored, { counts: { 冲: 20, 稳: 40, 保: 36 }, slotLimit: province.slotLimit });
    expect(plan.picks).toHaveLength(96);
    expect(plan.shortfalls.every((s) => s.missing === 0)).toBe(true);
    const entries = plan.picks.map((p) => ({ ...p.scored.option, tier: p.tier }));
    expect(checkGradient(entries, { slotLimit: province.slotLimit, groupMajorLimit: province.groupMajorLimit })).toEqual([]);
  });
});
