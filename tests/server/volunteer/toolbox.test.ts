import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startServer, type TestServer } from '../harness.js';

/**
 * The 工具箱 data APIs (server/volunteer/toolboxData.ts behind /toolbox/api/*). The test seed holds Shandong 2025
 * only; a small 2024 year with plan counts and subject requirements is added here so every figure is known.
 */
describe.each(backends)('toolbox data on %s', (backend) => {
  let s: TestServer;
  let token: string;
  let school: { schoolCode: string; name: string };

  const get = async <D>(url: string, query: Record<string, unknown> = {}) => {
    const res = await s.call<D>('GET', url, { token, query: query as Record<string, string>, sign: false });
    return res.body;
  };
  const data = async <D>(url: string, query: Record<string, unknown> = {}) => {
    const body = await get<D>(url, query);
    if (body.code !== 200) throw new Error(`${url}: ${body.code} ${body.msg}`);
    return body.data as D;
  };

  beforeAll(async () => {
    s = await startServer(backend);
    token = await s.login('expert', 'expert123');
    const db = s.app.db.kysely;
    school = await db.selectFrom('gkSchool').select(['schoolCode', 'name']).where('examProvince', '=', '山东').orderBy('schoolCode').executeTakeFirstOrThrow();
    const line = (majorCode: string, majorName: string, minScore: number, minRank: number, planCount: number, subjectReq: string) => ({
      examProvince: '山东',
      year: 2024,
      batch: '常规批',
      track: '综合',
      schoolCode: school.schoolCode,
      groupCode: null,
      majorCode,
      majorName,
      minScore,
      minRank,
      planCount,
      subjectReq,
      createTime: Date.now(),
    });
    await db
      .insertInto('gkAdmissionLine')
      .values([
        line('01', '测试物理类专业', 601, 30000, 10, '物理、化学'),
        line('02', '测试不限专业', 593, 36000, 5, '不限'),
        line('03', '测试历史专业', 587, 40000, 3, '历史'),
      ])
      .execute();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('needs a session', async () => {
    const res = await s.call('GET', '/toolbox/api/plans', { sign: false });
    expect(res.body.code).toBe(401);
  });

  it('招生计划: plan totals per year and batch, and the lines of a year paged', async () => {
    const d = await data<{
      summary: Array<{ year: number; batch: string; lines: number; planTotal: number | null }>;
      total: number;
      rows: Array<{ majorName: string; planCount: number }>;
    }>('/toolbox/api/plans', { year: 2024, pageSize: 2 });
    expect(d.summary.find((r) => r.year === 2024)).toMatchObject({ batch: '常规批', lines: 3, planTotal: 18 });
    expect(d.summary.some((r) => r.year === 2025)).toBe(true);
    expect(d.total).toBe(3);
    expect(d.rows).toHaveLength(2);
    expect(d.rows[0]).toMatchObject({ majorName: '测试物理类专业', planCount: 10 });
    const filtered = await data<{ total: number }>('/toolbox/api/plans', { year: 2024, major: '历史' });
    expect(filtered.total).toBe(1);
    expect((await get('/toolbox/api/plans', { pageSize: 500 })).code).not.toBe(200);
  });

  it('院校分数线 by year: the lowest major line of the school that year', async () => {
    const d = await data<{ years: number[]; total: number; rows: Array<Record<string, unknown>> }>('/toolbox/api/school-lines', { year: 2024 });
    expect(d.years).toEqual([2025, 2024]);
    expect(d.total).toBe(1);
    expect(d.rows[0]).toMatchObject({ schoolCode: school.schoolCode, name: school.name, minScore: 587, minRank: 40000, majors: 3, planTotal: 18, year: 2024 });
    const y2025 = await data<{ total: number; rows: Array<{ minScore: number }> }>('/toolbox/api/school-lines', { pageSize: 5 });
    expect(y2025.total).toBeGreaterThan(1000);
    expect(y2025.rows[0].minScore).toBeGreaterThanOrEqual(y2025.rows[1].minScore);
    const lines = await data<{ total: number }>('/toolbox/api/major-lines', { year: 2024, school: school.name });
    expect(lines.total).toBe(3);
  });

  it('选科查询: requirements and whether the given subjects meet them (物理、化学 = both)', async () => {
    type R = { total: number; rows: Array<{ majorName: string; subjectReq: string; eligible: boolean | null }> };
    const all = await data<R>('/toolbox/api/subject-requirements', { year: 2024, subjects: '物理,生物,地理' });
    expect(all.total).toBe(3);
    expect(Object.fromEntries(all.rows.map((r) => [r.majorName, r.eligible]))).toEqual({ 测试物理类专业: false, 测试不限专业: true, 测试历史专业: false });
    const history = await data<R>('/toolbox/api/subject-requirements', { year: 2024, subjects: '历史,地理,思想政治', onlyEligible: true });
    expect(history.rows.map((r) => r.majorName)).toEqual(['测试不限专业', '测试历史专业']);
    expect(await get('/toolbox/api/subject-requirements', { subjects: '物理,体育' })).toEqual({
      code: 500,
      msg: '选考科目“体育”不正确，可选：物理、化学、生物、历史、地理、思想政治',
    });
  });

  it('同分去向 over every year, with each year’s rank at the score', async () => {
    const d = await data<{
      years: Array<{ year: number; count: number; rankAtScore: number | null }>;
      total: number;
      rows: Array<{ year: number; majorName: string }>;
    }>('/toolbox/api/same-score-years', { score: 593, year: 2024 });
    expect(d.years.find((y) => y.year === 2024)?.count).toBe(1);
    expect(d.years.find((y) => y.year === 2025)?.rankAtScore).toBeGreaterThan(0);
    expect(d.rows).toEqual([expect.objectContaining({ year: 2024, majorName: '测试不限专业' })]);
    expect((await get('/toolbox/api/same-score-years', {})).code).not.toBe(200);
  });
});
