import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueMajor, MajorEvaluation, MajorFacts } from '../../../common/volunteer/majorEncyclopaedia.js';
import { backends, startServer, type TestServer } from '../harness.js';

interface Catalogue {
  edition: number;
  tree: Array<{ code: string; name: string; classes: Array<{ code: string; name: string; majorCount: number }> }>;
  total: number;
  rows: CatalogueMajor[];
}
interface Encyclopaedia {
  year: number;
  facts: MajorFacts;
  discipline: { code: string; name: string } | null;
  schoolCount: number;
  schools: Array<{ schoolName: string; majorName: string; via: string; year: number; minScore: number; evaluation: MajorEvaluation | null }>;
}

/** The tool cabinet's 专业库 (server/toolbox/majorTools.ts): the 2025 catalogue browser and one major's encyclopaedia view. */
describe.each(backends)('toolbox 专业库 on %s', (backend) => {
  let s: TestServer;
  let token: string;
  const get = async <D>(url: string, query: Record<string, string> = {}, auth = true) =>
    (await s.call<D>('GET', url, { token: auth ? token : undefined, query, sign: false })).body;

  beforeAll(async () => {
    s = await startServer(backend);
    token = await s.login('expert', 'expert123');
  });
  afterAll(async () => {
    await s?.close();
  });

  it('browses the catalogue: 12 门类, 93 专业类 with 845 majors, filtered by class or by name/code', async () => {
    const all = (await get<Catalogue>('/toolbox/api/major-catalogue')).data as Catalogue;
    expect(all.edition).toBe(2025);
    expect(all.total).toBe(845);
    expect(all.tree).toHaveLength(12);
    expect(all.tree.flatMap((d) => d.classes)).toHaveLength(93);
    expect(all.tree.flatMap((d) => d.classes).reduce((n, c) => n + c.majorCount, 0)).toBe(845);
    expect(all.rows).toHaveLength(50);

    const cs = (await get<Catalogue>('/toolbox/api/major-catalogue', { cls: '0809', pageSize: '100' })).data as Catalogue;
    expect(cs.rows.every((m) => m.className === '计算机类')).toBe(true);
    expect(cs.rows.map((m) => m.code)).toContain('080901');
    const byName = (await get<Catalogue>('/toolbox/api/major-catalogue', { keyword: '人工智能' })).data as Catalogue;
    expect(byName.rows.find((m) => m.name === '人工智能')).toMatchObject({ code: '080717T', special: true, className: '电子信息类' });
    expect((await get('/toolbox/api/major-catalogue', { cls: '计算机' })).code).not.toBe(200);
  });

  it('opens 计算机科学与技术: facts, the Shandong lines with their year and the schools’ 0812 grades (2017)', async () => {
    const d = (await get<Encyclopaedia>('/toolbox/api/major-encyclopaedia', { name: '计算机科学与技术' })).data as Encyclopaedia;
    expect(d.facts.major).toMatchObject({ code: '080901', disciplineName: '工学', className: '计算机类' });
    expect(d.discipline).toEqual({ code: '0812', name: '计算机科学与技术' });
    expect(d.schools.length).toBeGreaterThan(10);
    expect(d.schools.every((x) => x.year === d.year && x.minScore > 0 && x.evaluation?.year === 2017)).toBe(true);
    expect(d.schools.find((x) => x.schoolName === '山东大学')?.evaluation?.grade).toBe('B+');
  });

  it('refuses a name outside the catalogue and a call without a session', async () => {
    expect((await get('/toolbox/api/major-encyclopaedia', { name: '炼丹学' })).msg).toBe('「炼丹学」不在2025年本科专业目录中，请从专业库中选择专业');
    expect((await get('/toolbox/api/major-encyclopaedia', { name: '计算机科学与技术' }, false)).code).toBe(401);
  });
});
