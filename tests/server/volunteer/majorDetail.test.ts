import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChanceRow } from '../../../common/volunteer/chances.js';
import type { MajorEvaluation, MajorFacts } from '../../../common/volunteer/majorEncyclopaedia.js';
import { backends, startServer, type TestServer } from '../harness.js';
import { api, loginAll, ok, type Tokens } from './helpers.js';

const DETAIL = '/appv2/api/index/majorDetail';

type School = ChanceRow & { via: 'major' | 'class'; evaluation: MajorEvaluation | null };
interface Detail {
  majorName: string;
  facts: MajorFacts | null;
  discipline: { code: string; name: string } | null;
  modules: Array<{ key: string; name: string; available: boolean; content: string }>;
  schools: School[];
  stats: { year: number; schoolCount: number; lineCount: number; minScore: number | null; maxScore: number | null };
}

/** 专业详情 (issue 27, item 2): catalogue facts of the 2025 目录, Shandong lines teaching the major, 第四轮学科评估 grades. */
describe.each(backends)('major encyclopaedia (majorDetail) on %s', (backend) => {
  let s: TestServer;
  let t: Tokens;

  beforeAll(async () => {
    s = await startServer(backend);
    t = await loginAll(s);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('gives 计算机科学与技术 its catalogue facts: 080901, 工学, 计算机类, 工学/理学 degrees, 2025 edition', async () => {
    const d = await ok<Detail>(s, t.expert, DETAIL, { majorName: '计算机科学与技术' });
    expect(d.facts).toMatchObject({
      rule: 'major',
      ruleText: '与目录中的专业同名',
      disciplineCode: '08',
      disciplineName: '工学',
      classCode: '0809',
      className: '计算机类',
      edition: 2025,
      major: { code: '080901', name: '计算机科学与技术', special: false, controlled: false, degrees: ['工学', '理学'], edition: 2025 },
    });
    expect(d.facts?.major?.note).toContain('可授工学或理学学士学位');
    expect(d.facts?.classMajors.map((m) => m.code)).toContain('080902');
    expect(d.discipline).toEqual({ code: '0812', name: '计算机科学与技术' });
    expect(d.modules[0]).toMatchObject({ key: 'majorIntroduction', available: true });
    expect(d.modules[0].content).toContain('代码 080901');
    // The seven modules without data stay unavailable (the console hides them).
    expect(d.modules.slice(1).every((m) => !m.available)).toBe(true);
  });

  it('lists the Shandong lines printed as the major or as 计算机类, with their year, and each school grade in 0812 (2017)', async () => {
    const d = await ok<Detail>(s, t.expert, DETAIL, { majorName: '计算机科学与技术' });
    expect(d.schools.length).toBeGreaterThan(10);
    expect(d.stats.lineCount).toBe(d.schools.length);
    expect(d.stats.schoolCount).toBe(new Set(d.schools.map((r) => r.schoolCode)).size);
    for (const r of d.schools) {
      expect(r.year).toBe(d.stats.year);
      expect(r.minScore).toBeGreaterThan(0);
      const printed = r.majorName ?? '';
      expect(printed.startsWith('计算机科学与技术') || printed.startsWith('计算机类'), printed).toBe(true);
      expect(r.via).toBe(printed.startsWith('计算机类') ? 'class' : 'major');
      expect(r.evaluation).toMatchObject({ disciplineCode: '0812', disciplineName: '计算机科学与技术', year: 2017 });
    }
    // Hardest first.
    const ranks = d.schools.map((r) => r.minRank).filter((x): x is number => x != null);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    // Published grades in 计算机科学与技术 (discipline_eval_round4_2017.csv): 山东大学 B+, 中国海洋大学 B.
    const grade = (name: string) => d.schools.find((r) => r.schoolName === name)?.evaluation?.grade;
    expect(grade('山东大学')).toBe('B+');
    expect(grade('中国海洋大学')).toBe('B');
    // A school that was not among the published 70 % shows no grade rather than a made-up one.
    expect(d.schools.some((r) => r.evaluation?.grade === null)).toBe(true);
  });

  it('places a printed 投档表 name by its rule: 计算机类(含双学士学位) is the class, with its majors', async () => {
    const d = await ok<Detail>(s, t.expert, DETAIL, { majorName: '计算机类(含双学士学位)' });
    expect(d.facts).toMatchObject({ rule: 'class', major: null, className: '计算机类', classCode: '0809' });
    expect(d.facts?.classMajors.length).toBeGreaterThan(10);
    expect(d.modules[0].content).toContain('计算机类');
  });

  it('answers a name the catalogue cannot place (工科试验班) without facts, with the lines printed with exactly that name', async () => {
    const d = await ok<Detail>(s, t.expert, DETAIL, { majorName: '工科试验班' });
    expect(d.facts).toBeNull();
    expect(d.discipline).toBeNull();
    expect(d.schools.length).toBeGreaterThan(0);
    expect(d.schools.every((r) => r.majorName === '工科试验班' && r.evaluation === null)).toBe(true);
  });

  it('gives a major without a discipline of its own no grade: 电子商务 (电子商务类) has evaluation null', async () => {
    const d = await ok<Detail>(s, t.expert, DETAIL, { majorName: '电子商务' });
    expect(d.facts?.major?.code).toBe('120801');
    expect(d.discipline).toBeNull();
    expect(d.schools.every((r) => r.evaluation === null)).toBe(true);
  });

  it('answers a major no line prints (宗教学) with its facts and only the 哲学类 lines that lead to it; refuses unknown names', async () => {
    const d = await ok<Detail>(s, t.expert, DETAIL, { majorName: '宗教学' });
    expect(d.facts?.major).toMatchObject({ code: '010103K', special: false, controlled: true, disciplineName: '哲学' });
    expect(d.schools.length).toBeGreaterThan(0);
    expect(d.schools.every((r) => r.via === 'class' && r.majorName?.startsWith('哲学类'))).toBe(true);
    expect((await api(s, t.expert, DETAIL, { majorName: '炼丹学' })).msg).toBe('暂无「炼丹学」的招生数据');
    expect((await api(s, t.expert, DETAIL, {})).msg).toBe('请选择专业');
  });
});
