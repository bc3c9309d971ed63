import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SchoolHistory, SchoolProgramme } from '../../../common/volunteer/schoolHistory.js';
import { lineIdentity, majorIdentity } from '../../../server/volunteer/engine/identity.js';
import { seedShandongHistory } from '../../../server/volunteer/import/history.js';
import { backends, startServer, type TestServer } from '../harness.js';
import { api, loginAll, ok, type Tokens } from './helpers.js';

const DETAIL = '/appv2/api/index/schoolYXMajor';

/** The 2024 row of a programme. */
const lineOf = (p: SchoolProgramme | undefined, year: number) => p?.lines.find((l) => l.year === year);

/** schoolYXMajor on the one-year demo seed: derived score, plan counts, lines joined by name and never by 专业代号. */
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

  it('joins a programme across years by its name, not its 专业代号, with a derived score on the newest scale and the plan counts', async () => {
    const db = s.app.db.kysely;
    const sdu = await db.selectFrom('gkSchool').select(['schoolCode', 'name']).where('name', '=', '山东大学').executeTakeFirstOrThrow();
    const [first, other] = await db
      .selectFrom('gkAdmissionLine')
      .select(['lineId', 'majorName', 'majorCode', 'minScore', 'minRank'])
      .where('schoolCode', '=', sdu.schoolCode)
      .where('year', '=', 2025)
      .where('majorName', 'is not', null)
      .where('minRank', 'is not', null)
      .orderBy('lineId')
      .limit(2)
      .execute();
    const base = {
      examProvince: '山东',
      year: 2024,
      batch: '常规批',
      track: '综合',
      schoolCode: sdu.schoolCode,
      groupCode: null,
      subjectReq: null,
      createTime: Date.now(),
    };
    // 2024: the same major under another 专业代号, and another major under the first one's 2025 code (Shandong reassigns codes).
    await db
      .insertInto('gkAdmissionLine')
      .values([
        { ...base, majorCode: 'X1', majorName: first.majorName, minScore: first.minScore - 3, minRank: first.minRank, planCount: 12 },
        { ...base, majorCode: first.majorCode ?? 'Z9', majorName: other.majorName, minScore: first.minScore + 20, minRank: 100, planCount: 5 },
      ])
      .execute();

    const d = await ok<SchoolHistory>(s, t.expert, DETAIL, { schoolCode: sdu.schoolCode });
    expect(d.school.name).toBe('山东大学');
    expect(d.school.tags).toEqual(expect.arrayContaining(['985', '211']));
    expect(d.years).toEqual([2024, 2025]);
    expect(d.latestYear).toBe(2025);
    expect(d.scaleYear).toBe(2025);
    const major = d.majors.find((m) => m.identity === lineIdentity({ schoolCode: sdu.schoolCode, majorName: first.majorName }));
    expect(major?.lines.map((l) => [l.year, l.majorCode])).toEqual([
      [2025, first.majorCode],
      [2024, 'X1'],
    ]);
    // Same rank → same derived score on the 2025 scale, and in 2025 the derived score is the line's own score.
    expect(major?.lines[0].derivedScore).toBe(first.minScore);
    expect(major?.lines[1]).toMatchObject({ minScore: first.minScore - 3, planCount: 12, derivedScore: first.minScore, tag: null });
    // The 2025 line carries no plan count (the demo seed has none): no change is claimed.
    expect(major?.lines[0]).toMatchObject({ planCount: null, previousPlanCount: 12, planChange: null, tag: null });
    // The other major's 2024 line sits in its own row, not under the code it shared.
    const second = d.majors.find((m) => m.identity === lineIdentity({ schoolCode: sdu.schoolCode, majorName: other.majorName }));
    expect(lineOf(second, 2024)).toMatchObject({ minRank: 100, planCount: 5 });
    expect(major?.lines.some((l) => l.minRank === 100)).toBe(false);
    // A 2025 programme without a 2024 line is 新增 in 2025.
    const fresh = d.majors.find((m) => m.lines.length === 1 && m.lines[0].year === 2025);
    expect(fresh?.lines[0].tag).toBe('新增');
    expect(d.plans.find((p) => p.year === 2024)).toEqual({ year: 2024, majors: 2, planTotal: 17, added: 0, stopped: 0 });
    expect(d.plans.find((p) => p.year === 2025)?.majors).toBe(d.majors.filter((m) => lineOf(m, 2025)).length);

    expect(await api(s, t.expert, DETAIL, { schoolCode: '9999' })).toEqual({
      code: 500,
      msg: '院校不存在或不在山东的招生数据中（院校代码 9999）',
    });
    expect((await api(s, t.expert, DETAIL, {})).msg).toBe('请选择院校');
  });
});

/** 院校详情 → 历年分数线 on the real Shandong history (issue 23 item 7): one row per programme. */
describe.each(backends)('school history on the real data on %s', (backend) => {
  let s: TestServer;
  let t: Tokens;
  const asOfBefore = process.env.ADMISSION_AS_OF;

  beforeAll(async () => {
    s = await startServer(backend);
    t = await loginAll(s);
    await seedShandongHistory(s.app.db.kysely);
  });
  afterEach(() => {
    if (asOfBefore == null) delete process.env.ADMISSION_AS_OF;
    else process.env.ADMISSION_AS_OF = asOfBefore;
  });
  afterAll(async () => {
    await s?.close();
  });

  const detail = (schoolCode: string) => ok<SchoolHistory>(s, t.expert, DETAIL, { schoolCode });
  const schoolsNamed = async (name: string) =>
    (await s.app.db.kysely.selectFrom('gkSchool').select('schoolCode').where('examProvince', '=', '山东').where('name', '=', name).execute()).map(
      (r) => r.schoolCode,
    );

  /** Every line of the school once, each row one identity and one line per year, tags and plan changes as the data say. */
  async function checkRows(schoolCode: string, d: SchoolHistory) {
    const db = s.app.db.kysely;
    const stored = await db
      .selectFrom('gkAdmissionLine')
      .select(['lineId', 'year', 'majorName', 'planCount'])
      .where('examProvince', '=', '山东')
      .where('schoolCode', '=', schoolCode)
      .where('majorName', 'is not', null)
      .execute();
    const shown = d.majors.flatMap((m) => m.lines.map((l) => l.lineId));
    expect(shown.sort((a, b) => a - b)).toEqual(stored.map((l) => l.lineId).sort((a, b) => a - b));
    const identities = new Map<string, Set<number>>(); // identity → years with a line of it
    for (const l of stored) {
      const id = majorIdentity(l.majorName);
      identities.set(id, (identities.get(id) ?? new Set()).add(l.year));
    }
    for (const m of d.majors) {
      // No row mixes two majors: every year's printed name has the row's identity.
      for (const l of m.lines) expect(lineIdentity({ schoolCode, majorName: l.majorName }), `${m.majorName} ${l.year} ${l.majorName}`).toBe(m.identity);
      expect(new Set(m.lines.map((l) => l.year)).size).toBe(m.lines.length);
      expect(m.majorName).toBe(m.lines[0].majorName);
      expect(m.stopped).toBe(m.lines[0].year !== d.latestYear);
      const years = identities.get(majorIdentity(m.majorName)) ?? new Set<number>();
      for (const [i, l] of m.lines.entries()) {
        const older = m.lines[i + 1];
        if (l.tag === '新增' && !m.sharedIdentity) expect([...years].some((y) => y < l.year)).toBe(false);
        const prevYear = d.years[d.years.indexOf(l.year) - 1];
        if (older && older.year === prevYear && older.planCount != null && l.planCount != null) expect(l.planChange).toBe(l.planCount - older.planCount);
        else expect(l.planChange).toBeNull();
      }
      for (const y of m.stoppedYears) {
        const prevYear = d.years[d.years.indexOf(y) - 1];
        expect(lineOf(m, prevYear)).toBeDefined();
        expect(lineOf(m, y)).toBeUndefined();
      }
    }
  }

  it('济南大学 计算机 shows its own 2024 line (55,578), not the line that had its 专业代号 that year', async () => {
    const db = s.app.db.kysely;
    const codes = await schoolsNamed('济南大学');
    expect(codes.length).toBeGreaterThan(0);
    // The 2025 计算机 line whose 专业代号 belonged to another major in 2024 (the case of the issue).
    const lines2025 = await db
      .selectFrom('gkAdmissionLine')
      .select(['schoolCode', 'majorCode', 'majorName'])
      .where('examProvince', '=', '山东')
      .where('year', '=', 2025)
      .where('schoolCode', 'in', codes)
      .where('majorName', 'like', '计算机%')
      .execute();
    let checked = 0;
    for (const l of lines2025) {
      const sameCode2024 = await db
        .selectFrom('gkAdmissionLine')
        .select(['lineId', 'majorName', 'minRank'])
        .where('examProvince', '=', '山东')
        .where('year', '=', 2024)
        .where('schoolCode', '=', l.schoolCode)
        .where('majorCode', '=', l.majorCode)
        .executeTakeFirst();
      if (!sameCode2024 || majorIdentity(sameCode2024.majorName) === majorIdentity(l.majorName)) continue;
      const d = await detail(l.schoolCode);
      const row = d.majors.find((m) => m.identity === lineIdentity(l));
      expect(row?.majorName).toBe(l.majorName);
      expect(lineOf(row, 2024)?.lineId).not.toBe(sameCode2024.lineId);
      if (l.majorName === '计算机科学与技术(济南走读)') {
        expect(lineOf(row, 2024)).toMatchObject({ year: 2024, minRank: 55578 });
        expect(sameCode2024.minRank).toBe(68890); // what the code-keyed table showed
      }
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
    for (const code of codes) await checkRows(code, await detail(code));
  });

  it('no row mixes two majors, and a programme that stopped is shown with 停招', async () => {
    const names = ['山东大学', '中国海洋大学', '南开大学', '东北林业大学', '青岛大学', '山东师范大学', '长春大学', '安阳师范学院'];
    let stopped = 0;
    let added = 0;
    for (const name of names) {
      for (const code of await schoolsNamed(name)) {
        const d = await detail(code);
        expect(d.years.length).toBeGreaterThan(1);
        await checkRows(code, d);
        stopped += d.majors.filter((m) => m.stopped && m.stoppedYears.includes(d.latestYear as number)).length;
        added += d.majors.filter((m) => m.lines.some((l) => l.tag === '新增')).length;
        const last = d.plans[0];
        expect(last.year).toBe(d.latestYear);
        expect(last.stopped).toBe(d.majors.filter((m) => m.stoppedYears.includes(last.year)).length);
      }
    }
    expect(stopped).toBeGreaterThan(0);
    expect(added).toBeGreaterThan(0);
  });

  it('ADMISSION_AS_OF hides the later years', async () => {
    const code = (await schoolsNamed('山东大学'))[0];
    const all = await detail(code);
    const asOf = all.years[all.years.length - 2];
    process.env.ADMISSION_AS_OF = String(asOf);
    const then = await detail(code);
    expect(then.years).toEqual(all.years.slice(0, -1));
    expect(then.latestYear).toBe(asOf);
    expect(then.scaleYear).toBeLessThanOrEqual(asOf);
    expect(then.majors.every((m) => m.lines.every((l) => l.year <= asOf))).toBe(true);
    // What ran in the as-of year is not stopped then.
    expect(then.majors.filter((m) => !m.stopped).length).toBe(then.plans[0].majors);
  });
});
