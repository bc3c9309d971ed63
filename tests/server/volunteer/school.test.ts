import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startServer, type TestServer } from '../harness.js';
import { api, loginAll, ok, type Tokens } from './helpers.js';

interface Detail {
  school: { schoolCode: string; name: string; tags: string[]; ownership: string | null; authority: string | null };
  years: number[];
  scaleYear: number;
  majors: Array<{
    majorName: string;
    lines: Array<{ year: number; minScore: number; minRank: number | null; planCount: number | null; derivedScore: number | null }>;
  }>;
  plans: Array<{ year: number; majors: number; planTotal: number | null }>;
}

/** schoolYXMajor: the 院校详情 data — every year's line per major with rank and derived score, plan counts per year. */
describe.each(backends)('school detail (schoolYXMajor) on %s', (backend) => {
  let s: TestServer;
  let t: Tokens;

  beforeAll(async () => {
    s = await startServer(backend);
    t = await loginAll(s);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('lists each major with the lines of every year, a derived score on the newest scale and the plan counts', async () => {
    const db = s.app.db.kysely;
    const sdu = await db.selectFrom('gkSchool').select(['schoolCode', 'name']).where('name', '=', '山东大学').executeTakeFirstOrThrow();
    const first = await db
      .selectFrom('gkAdmissionLine')
      .select(['majorName', 'majorCode', 'minScore', 'minRank'])
      .where('schoolCode', '=', sdu.schoolCode)
      .where('year', '=', 2025)
      .where('majorName', 'is not', null)
      .where('minRank', 'is not', null)
      .orderBy('lineId')
      .executeTakeFirstOrThrow();
    // An earlier year of the same major (same 专业代号 / name), with a plan count.
    await db
      .insertInto('gkAdmissionLine')
      .values({
        examProvince: '山东',
        year: 2024,
        batch: '常规批',
        track: '综合',
        schoolCode: sdu.schoolCode,
        groupCode: null,
        majorCode: first.majorCode,
        majorName: first.majorName,
        minScore: first.minScore - 3,
        minRank: first.minRank,
        planCount: 12,
        subjectReq: null,
        createTime: Date.now(),
      })
      .execute();

    const d = await ok<Detail>(s, t.expert, '/appv2/api/index/schoolYXMajor', { schoolCode: sdu.schoolCode });
    expect(d.school.name).toBe('山东大学');
    expect(d.school.tags).toEqual(expect.arrayContaining(['985', '211']));
    expect(d.years).toEqual([2024, 2025]);
    expect(d.scaleYear).toBe(2025);
    const major = d.majors.find((m) => m.majorName === first.majorName);
    expect(major?.lines.map((l) => l.year)).toEqual([2025, 2024]);
    // Same rank → same derived score on the 2025 scale, and in 2025 the derived score is the line's own score.
    expect(major?.lines[0].derivedScore).toBe(first.minScore);
    expect(major?.lines[1]).toMatchObject({ minScore: first.minScore - 3, planCount: 12, derivedScore: first.minScore });
    expect(d.plans.find((p) => p.year === 2024)).toEqual({ year: 2024, majors: 1, planTotal: 12 });
    expect(d.plans.find((p) => p.year === 2025)?.majors).toBe(d.majors.filter((m) => m.lines.some((l) => l.year === 2025)).length);

    expect(await api(s, t.expert, '/appv2/api/index/schoolYXMajor', { schoolCode: '9999' })).toEqual({
      code: 500,
      msg: '院校不存在或不在山东的招生数据中（院校代码 9999）',
    });
    expect((await api(s, t.expert, '/appv2/api/index/schoolYXMajor', {})).msg).toBe('请选择院校');
  });
});
