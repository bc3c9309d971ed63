import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../../server/db/seed/admission.js';
import {
  disciplineGrade,
  evaluationByDiscipline,
  rankingList,
  referenceSchoolNames,
  resolvedNames,
  schoolReference,
} from '../../../server/volunteer/reference.js';
import { backends, startServer, type TestServer } from '../harness.js';
import { api, loginAll, ok, type Tokens } from './helpers.js';

/** 院校百科 (issue 27, item 1): the reference files, their join to the catalogue by name, and the APIs that show them. */
describe('school reference data (软科 2026, 第四轮学科评估 2017, 双一流 2022)', () => {
  it('reads 北京大学: rank 2 of 软科 2026, a 自主确定 双一流 school, 21 A+ disciplines', () => {
    const pku = schoolReference('北京大学');
    expect(pku.bcur).toEqual({ rank: '2', rankNumeric: 2, score: 1036.3, category: '综合', province: '北京', tags: ['双一流', '985', '211'] });
    expect(pku.doubleFirstClass).toEqual({ disciplines: [], selfDetermined: true });
    const aPlus = pku.evaluations.filter((e) => e.grade === 'A+').map((e) => e.disciplineName);
    expect(aPlus).toHaveLength(21);
    expect(aPlus).toContain('哲学');
    // Best grade first.
    expect(pku.evaluations[0].grade).toBe('A+');
    expect(schoolReference('浙江大学').doubleFirstClass?.disciplines).toHaveLength(21);
    expect(disciplineGrade('清华大学', '0812')).toBe('A+');
    expect(disciplineGrade('清华大学', '9999')).toBeNull();
    expect(disciplineGrade('不存在的大学', '0812')).toBeNull();
  });

  it('joins by name: brackets of either width, renamed schools, campuses and the joint 2017 entries', () => {
    // （华东） in the files, (华东) in the catalogue.
    const upc = schoolReference('中国石油大学(华东)');
    expect(upc.bcur?.rank).toBe('73');
    expect(upc.doubleFirstClass?.disciplines).toEqual(['地质资源与地质工程', '石油与天然气工程']);
    expect(upc.evaluations.length).toBeGreaterThan(0);
    expect(upc.evaluationNote).toMatch(/联合参评/);
    expect(upc.campusOf).toBeNull();
    // Renamed since 2017: 上海电力学院 → 上海电力大学; 新乡医学院 → 河南医药大学.
    expect(resolvedNames('上海电力大学').evaluation).toBe('上海电力大学');
    expect(schoolReference('上海电力大学').evaluations.length).toBeGreaterThan(0);
    expect(schoolReference('河南医药大学').evaluations.length).toBeGreaterThan(0);
    // A campus shows its university's data and says whose it is.
    const weihai = schoolReference('哈尔滨工业大学(威海)');
    expect(weihai.bcur?.rank).toBe(schoolReference('哈尔滨工业大学').bcur?.rank);
    expect(weihai.campusOf).toBe('哈尔滨工业大学');
    expect(schoolReference('北京大学医学部').campusOf).toBe('北京大学');
    expect(resolvedNames('中国石油大学(北京)克拉玛依校区').bcur).toBe('中国石油大学(北京)');
    // No data is no data: an unknown school gets nothing, not another school's figures.
    expect(schoolReference('山东某某职业学院')).toEqual({ bcur: null, doubleFirstClass: null, evaluations: [], campusOf: null, evaluationNote: null });
  });

  it('matches every 985 school of the catalogue and all but the named 双一流 schools that do not recruit in Shandong', () => {
    const schools = parseCsv(fs.readFileSync(new URL('../../../server/db/seed/data/gaokao-shandong/schools.csv', import.meta.url), 'utf8'));
    const unranked985 = schools.filter((s) => s.tags.split('|').includes('985') && !schoolReference(s.name).bcur).map((s) => s.name);
    // Both are outside the 主榜 (a military school; 民族类 schools have their own list), not missed by the join.
    expect(unranked985.sort()).toEqual(['中央民族大学', '国防科技大学'].sort());
    expect(schoolReference('山东大学威海分校').campusOf).toBe('山东大学');
    const hit = new Set(schools.map((s) => resolvedNames(s.name).doubleFirstClass).filter(Boolean));
    const missing = referenceSchoolNames().doubleFirstClass.filter((n) => !hit.has(n));
    // Not in the Shandong catalogue at all (checked by name and 院校标识码): nothing to join.
    expect(missing.sort()).toEqual(['上海科技大学', '中国人民公安大学', '中国音乐学院', '中央音乐学院', '外交学院', '广州医科大学'].sort());
  });

  it('lists the ranking by filters and the evaluation by discipline, best grade first', () => {
    const bj = rankingList({ province: '北京', category: '综合', pageSize: 2 });
    expect(bj.year).toBe(2026);
    expect(bj.rows.map((r) => r.name).slice(0, 2)).toEqual(['清华大学', '北京大学']);
    expect(bj.rows.every((r) => r.province === '北京' && r.category === '综合')).toBe(true);
    expect(bj.total).toBeGreaterThan(2);
    expect(rankingList({ province: '北京', category: '综合', page: 2, pageSize: 2 }).rows[0].name).not.toBe('北京大学');
    expect(rankingList({ keyword: '石油大学（华东）' }).rows.map((r) => r.name)).toEqual(['中国石油大学(华东)']);
    const page2 = rankingList({ page: 2, pageSize: 10 });
    expect(page2.rows[0].rankNumeric).toBe(11);

    const cs = evaluationByDiscipline('0812', {});
    expect(cs?.discipline.name).toBe('计算机科学与技术');
    expect(cs?.rows.slice(0, 4).map((r) => r.grade)).toEqual(['A+', 'A+', 'A+', 'A+']);
    expect(cs?.rows[0].meaning).toBe('前2%或前2名');
    const onlyB = evaluationByDiscipline('0812', { grade: 'B' });
    expect(onlyB?.rows.every((r) => r.grade === 'B' && r.meaning === '20%–30%')).toBe(true);
    expect(evaluationByDiscipline('9999', {})).toBeNull();
  });
});

describe.each(backends)('院校百科 APIs on %s', (backend) => {
  let s: TestServer;
  let t: Tokens;
  let pku = '';
  const tool = async <D>(url: string, query: Record<string, string>) => (await s.call<D>('GET', url, { token: t.expert, query, sign: false })).body;

  beforeAll(async () => {
    s = await startServer(backend);
    t = await loginAll(s);
    pku = (await s.app.db.kysely.selectFrom('gkSchool').select('schoolCode').where('name', '=', '北京大学').executeTakeFirstOrThrow()).schoolCode;
  });
  afterAll(async () => {
    await s?.close();
  });

  it('schoolSubjectEvaluate answers the grades with their meaning; bad input gets a Chinese message', async () => {
    const d = await ok<{ year: number; round: string; list: Array<{ disciplineName: string; grade: string; meaning: string }> }>(
      s,
      t.expert,
      '/appv2/api/index/schoolSubjectEvaluate',
      { schoolCode: pku },
    );
    expect(d.year).toBe(2017);
    expect(d.round).toBe('第四轮学科评估');
    expect(d.list.find((e) => e.disciplineName === '哲学')).toMatchObject({ grade: 'A+', meaning: '前2%或前2名' });
    const none = await api(s, t.expert, '/appv2/api/index/schoolSubjectEvaluate', {});
    expect(none.code).toBe(500);
    expect(none.msg).toBe('请选择院校');
    const unknown = await api(s, t.expert, '/appv2/api/index/schoolSubjectEvaluate', { schoolCode: 'ZZZ9' });
    expect(unknown.msg).toBe('院校不存在：ZZZ9');
    // Same permission as schoolHome.
    expect((await api(s, t.operator, '/appv2/api/index/schoolSubjectEvaluate', { schoolCode: pku })).code).toBe(
      (await api(s, t.operator, '/appv2/api/index/schoolHome', { schoolCode: pku })).code,
    );
  });

  it('schoolHome fills the 双一流 and 学科评估 tabs and the 软科 rank; tabs without data stay unavailable', async () => {
    const d = await ok<{ tabs: Array<{ key: string; available: boolean; content: string }>; reference: { bcur: { rank: string; year: number } } }>(
      s,
      t.expert,
      '/appv2/api/index/schoolHome',
      { schoolCode: pku },
    );
    const tab = (key: string) => d.tabs.find((x) => x.key === key);
    expect(d.tabs.map((x) => x.key)).toEqual([
      'profile',
      'graduate',
      'doubleFirstClass',
      'evaluation',
      'featuredMajors',
      'departments',
      'academicians',
      'alumni',
    ]);
    expect(tab('profile')?.content).toContain('软科中国大学排名 2026：第 2 名');
    expect(tab('doubleFirstClass')).toMatchObject({ available: true });
    expect(tab('doubleFirstClass')?.content).toMatch(/2022年公布.*自主确定建设学科/);
    expect(tab('evaluation')?.available).toBe(true);
    expect(tab('evaluation')?.content).toMatch(/^第四轮学科评估（2017年）/);
    expect(tab('evaluation')?.content).toMatch(/A\+（前2%或前2名）：哲学、/);
    expect(tab('graduate')?.available).toBe(false);
    expect(d.reference.bcur).toMatchObject({ rank: '2', year: 2026 });

    // A school with none of the reference data: both tabs unavailable, no rank in the profile.
    const all = await s.app.db.kysely.selectFrom('gkSchool').select(['schoolCode', 'name']).where('examProvince', '=', '山东').orderBy('schoolCode').execute();
    const plain = all.find((x) => {
      const r = schoolReference(x.name);
      return !r.bcur && !r.doubleFirstClass && r.evaluations.length === 0;
    });
    if (!plain) throw new Error('the seed has no school without reference data');
    expect(schoolReference(plain.name).evaluations).toEqual([]);
    const p = await ok<{ tabs: Array<{ key: string; available: boolean; content: string }> }>(s, t.expert, '/appv2/api/index/schoolHome', {
      schoolCode: plain.schoolCode,
    });
    expect(p.tabs.filter((x) => x.available).map((x) => x.key)).toEqual(['profile']);
    expect(p.tabs.find((x) => x.key === 'evaluation')?.content).toBe('暂无学科评估数据');
    expect(p.tabs[0].content.includes('软科')).toBe(schoolReference(plain.name).bcur != null);
  });

  it('the tool cabinet lists the ranking and the evaluation, and opens a school of the 院校库', async () => {
    const rank = await tool<{ rows: Array<{ name: string; rank: string; schoolCode: string | null }>; total: number }>('/toolbox/api/ranking', {
      pageSize: '3',
    });
    expect(rank.code).toBe(200);
    expect(rank.data?.rows.map((r) => [r.rank, r.name])).toEqual([
      ['1', '清华大学'],
      ['2', '北京大学'],
      ['3', '浙江大学'],
    ]);
    expect(rank.data?.rows[1].schoolCode).toBe(pku);
    expect(rank.data?.total).toBe(590);

    const ev = await tool<{ rows: Array<{ school: string; grade: string }> }>('/toolbox/api/evaluation', { discipline: '0101', grade: 'A+' });
    expect(ev.data?.rows.map((r) => r.school)).toContain('北京大学');
    const badDiscipline = await tool('/toolbox/api/evaluation', { discipline: '9999' });
    expect(badDiscipline.msg).toBe('没有代码为 9999 的一级学科评估结果');

    const bySchool = await tool<{ schools: Array<{ name: string; list: Array<{ grade: string }> }> }>('/toolbox/api/school-evaluation', { name: '北京大学' });
    // 北京大学医学部 (its grades are 北京大学's) is not listed a second time.
    expect(bySchool.data?.schools.map((x) => x.name)).toEqual(['北京大学']);
    expect(bySchool.data?.schools[0].list.filter((e) => e.grade === 'A+')).toHaveLength(21);

    const lib = await tool<{ rows: Array<{ schoolCode: string; rank: string | null; aPlus: number; doubleFirstClass: number | string | null }> }>(
      '/toolbox/api/school-library',
      { name: '北京大学' },
    );
    expect(lib.data?.rows[0]).toMatchObject({ schoolCode: pku, rank: '2', aPlus: 21, doubleFirstClass: '自主确定' });
    const profile = await tool<{ school: { name: string }; reference: { bcur: { rank: string } }; history: { majors: unknown[] } }>(
      '/toolbox/api/school-profile',
      {
        schoolCode: pku,
      },
    );
    expect(profile.data?.school.name).toBe('北京大学');
    expect(profile.data?.reference.bcur.rank).toBe('2');
    expect(profile.data?.history.majors.length).toBeGreaterThan(0);
  });
});
