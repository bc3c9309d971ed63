import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eligibilityNeeded, planTagsOf, planTypesOf } from '../../../server/volunteer/engine/specialPlans.js';
import { backends, startServer, type TestServer } from '../harness.js';
import { type AutoT, api, type ChanceRowT, loginAll, ok, refused, type StudentT, studentId, type Tokens } from './helpers.js';

type Row = ChanceRowT & { planTags: string[] };
interface ChanceBody {
  rows: Row[];
  total: number;
  notes: string[];
}

describe('special-plan tags from the notes of a line name', () => {
  it('reads 地方专项, 定向, 中外合作, 师范, 预科, 民族班 from the real Shandong names', () => {
    expect(planTagsOf('日语(地方专项计划)')).toEqual(['地方专项']);
    expect(planTagsOf('思想政治教育(师范类，地方专项计划)')).toEqual(['师范', '地方专项']);
    expect(planTagsOf('英语(师范类，非西藏生源定向西藏就业)')).toEqual(['师范', '定向']);
    expect(planTagsOf('交通运输(中外合作办学)')).toEqual(['中外合作']);
    expect(planTagsOf('机械工程(与英国萨里大学合作办学)')).toEqual(['中外合作']);
    expect(planTagsOf('本科预科班（招收边防军人子女）')).toEqual(['预科']);
    expect(planTagsOf('公共管理类(只招少数民族考生)')).toEqual(['民族班']);
    expect(planTagsOf('汉语言文学(公费师范生)')).toEqual(['公费师范']);
    expect(planTagsOf('临床医学(国家专项计划)')).toEqual(['国家专项']);
    expect(planTagsOf('计算机类(高校专项计划)')).toEqual(['高校专项']);
  });

  it('does not read tags where there are none', () => {
    // 非师范 is not 师范; a company partnership is 校企合作, not 中外合作; names themselves are not notes.
    expect(planTagsOf('英语(非师范类)')).toEqual([]);
    expect(planTagsOf('软件工程(校企合作，与华为ICT学院合作)')).toEqual(['校企合作']);
    expect(planTagsOf('旅游管理(校企合作，与山东文旅集团有限公司合作办学)')).toEqual(['校企合作']);
    expect(planTagsOf('中国少数民族语言文学')).toEqual([]);
    expect(planTagsOf('汉语言文学', '华南师范大学')).toEqual([]);
    // 院校专业组 provinces print the note after the school.
    expect(planTagsOf(null, '华南师范大学(地方专项)')).toEqual(['地方专项']);
  });

  it('says which tags need eligibility and which plan types a line counts as', () => {
    expect(eligibilityNeeded(['师范', '地方专项'])).toEqual(['地方专项']);
    expect(eligibilityNeeded(['中外合作', '师范'])).toEqual([]);
    expect(planTypesOf([])).toEqual(['普通']);
    expect(planTypesOf(['师范'])).toEqual(['普通', '师范']);
    expect(planTypesOf(['中外合作'])).toEqual(['中外合作']);
    expect(planTypesOf(['师范', '定向'])).toEqual(['师范', '定向']);
  });
});

describe.each(backends)('special plans and the spread auto-fill on %s', (backend) => {
  let s: TestServer;
  let t: Tokens;
  let zhang: number;

  beforeAll(async () => {
    s = await startServer(backend);
    t = await loginAll(s);
    zhang = await studentId(s, '张三');
  });
  afterAll(async () => {
    await s?.close();
  });

  const chance = async (body: Record<string, unknown>) =>
    (await s.call('POST', '/appv2/api/Filling/schoolEnrollChance', { token: t.expert, body: { explain: 0, ...body } })).body as unknown as ChanceBody & {
      code: number;
      msg: string;
    };
  const student = (id: number) => ok<StudentT & { specialEligibility: string[] }>(s, t.expert, '/dev-api/api/Subscriber/info', { studentId: id });
  const setEligibility = async (id: number, kinds: string[]) => {
    const cur = await student(id);
    return ok<StudentT & { specialEligibility: string[] }>(s, t.expert, '/appv2/api/index/editUser', {
      studentId: id,
      version: cur.version,
      specialEligibility: kinds,
    });
  };

  it('tags every row, filters by 计划类型, and offers special plans only to a student who declared the eligibility', async () => {
    // Without 专项资格 no 地方专项 / 定向 / 预科 / 民族班 line is offered, and the note says how many were held back.
    const all = await chance({ studentId: zhang, all: 1, includeUnreachable: 1 });
    expect(all.code).toBe(200);
    expect(all.rows.every((r) => Array.isArray(r.planTags))).toBe(true);
    expect(all.rows.filter((r) => eligibilityNeeded(r.planTags as never).length > 0)).toEqual([]);
    expect(all.notes.some((n) => /^已隐藏 \d+ 个需专项资格的志愿.*该学生未填写专项资格$/.test(n))).toBe(true);
    // Open special plans are tagged and offered.
    expect(all.rows.some((r) => r.planTags.includes('中外合作'))).toBe(true);

    const sino = await chance({ studentId: zhang, all: 1, includeUnreachable: 1, planType: '中外合作' });
    expect(sino.total).toBeGreaterThan(100);
    expect(sino.rows.every((r) => r.planTags.includes('中外合作'))).toBe(true);
    const ordinary = await chance({ studentId: zhang, all: 1, includeUnreachable: 1, planType: '普通' });
    expect(ordinary.rows.every((r) => !r.planTags.includes('中外合作'))).toBe(true);
    expect(ordinary.total + sino.total).toBe(all.total);
    const localNone = await chance({ studentId: zhang, planType: '地方专项' });
    expect(localNone.total).toBe(0);
    expect((await chance({ studentId: zhang, planType: '军校' })).msg).toMatch(/^计划类型不正确：军校（可选：普通、中外合作、师范/);

    // Declared 地方专项: those lines are offered (and only those of the special kinds).
    const saved = await setEligibility(zhang, ['地方专项']);
    expect(saved.specialEligibility).toEqual(['地方专项']);
    const local = await chance({ studentId: zhang, all: 1, includeUnreachable: 1, planType: '地方专项' });
    expect(local.total).toBeGreaterThan(50);
    expect(local.rows.every((r) => r.planTags.includes('地方专项'))).toBe(true);
    const withLocal = await chance({ studentId: zhang, all: 1, includeUnreachable: 1 });
    expect(withLocal.rows.some((r) => r.planTags.includes('定向'))).toBe(false);

    // The filter list of the console names the plan types with their counts.
    const filters = await ok<{ planTypes: Array<{ value: string; count: number; needsEligibility: boolean }>; eligibilityKinds: string[] }>(
      s,
      t.expert,
      '/dev-api/api/toolbox/OrdinaryBatchFiter',
      {},
    );
    expect(filters.planTypes.find((p) => p.value === '地方专项')).toMatchObject({ needsEligibility: true });
    expect(filters.planTypes.find((p) => p.value === '中外合作')?.count).toBeGreaterThan(100);
    expect(filters.eligibilityKinds).toContain('定向');

    // A bad kind is refused with the list of kinds; cleared again afterwards.
    const bad = await api(s, t.expert, '/appv2/api/index/editUser', { studentId: zhang, version: saved.version, specialEligibility: ['军人子女'] });
    expect(bad.msg).toBe('专项资格不正确：军人子女（可选：国家专项、地方专项、高校专项、定向、公费师范、预科、民族班）');
    expect((await setEligibility(zhang, [])).specialEligibility).toEqual([]);
  });

  it('refuses to save a plan with a special plan the student has no eligibility for, and changes nothing', async () => {
    const local = await s.app.db.kysely
      .selectFrom('gkAdmissionLine')
      .select(['lineId', 'majorName'])
      .where('majorName', 'like', '%地方专项%')
      .orderBy('lineId')
      .executeTakeFirstOrThrow();
    const plain = await s.app.db.kysely
      .selectFrom('gkAdmissionLine')
      .select('lineId')
      .where('majorName', 'not like', '%(%')
      .where('minScore', '>', 500)
      .orderBy('lineId')
      .executeTakeFirstOrThrow();
    const id = (await ok<StudentT>(s, t.expert, '/dev-api/api/Subscriber/add', { name: '专项测试', score: 560, subjects: [1, 2, 3] })).studentId;
    const save = (version: number) =>
      api(s, t.expert, '/appv2/api/index/zySave', { studentId: id, version, items: [{ lineId: plain.lineId }, { lineId: local.lineId }] });
    await refused(s, id, () => save(0), /^第2个志愿（.+）是地方专项计划，该学生未填写地方专项资格，不能填报（可在学生信息的「专项资格」中填写）$/);
    await setEligibility(id, ['地方专项']);
    const saved = await save(0);
    expect(saved.code, saved.msg).toBe(200);

    // The eligibility withdrawn after the save: submitting re-checks the stored plan, refuses, and changes nothing.
    await setEligibility(id, []);
    const version = (saved.data as { version: number }).version;
    await refused(
      s,
      id,
      () => api(s, t.expert, '/dev-api/api/Subscriber/submit', { studentId: id, version }),
      /^第2个志愿（.+）是地方专项计划，该学生未填写地方专项资格，不能填报（可在学生信息的「专项资格」中填写）；请修改志愿方案并保存后再提交$/,
    );
    await setEligibility(id, ['地方专项']);
    const submitted = await api(s, t.expert, '/dev-api/api/Subscriber/submit', { studentId: id, version });
    expect(submitted.code, submitted.msg).toBe(200);
  });

  it('auto-fills a plan spread across scores and probabilities, never a line the student may not fill', async () => {
    const auto = await ok<AutoT & { items: Row[] }>(s, t.expert, '/appv2/api/Filling/schoolEnrollChance_auto', {
      studentId: zhang,
      counts: { 冲: 20, 稳: 40, 保: 36 },
    });
    expect(auto.items).toHaveLength(96);
    // The requested tiers are filled from their own candidates, no borrowing.
    expect(auto.shortfalls.every((x) => x.missing === 0 && x.borrowed === 0)).toBe(true);
    const perScore = (tier: string) => {
      const m = new Map<number, number>();
      for (const i of auto.items) if (i.tier === tier) m.set(i.minScore, (m.get(i.minScore) ?? 0) + 1);
      return m;
    };
    const perSchool = new Map<string, number>();
    for (const i of auto.items) {
      perSchool.set(i.schoolCode, (perSchool.get(i.schoolCode) ?? 0) + 1);
      expect(eligibilityNeeded(i.planTags as never)).toEqual([]);
    }
    expect(Math.max(...perSchool.values())).toBeLessThanOrEqual(3);
    // 保 (36) and 冲 (20) spread over their scores: at most 3 on one min score (2 by default, raised only as far as
    // the tier's own scores need), so 保 sits on at least 12 different scores.
    const safe = perScore('保');
    expect(Math.max(...safe.values())).toBeLessThanOrEqual(3);
    expect(safe.size).toBeGreaterThanOrEqual(12);
    expect(Math.max(...perScore('冲').values())).toBeLessThanOrEqual(3);
    // 稳 (40–80 %) is only a few points wide for a 600-point student (about 598–602): its 40 share those scores, the
    // cap raised only as far as needed and said in a note; the cap counts the whole plan (冲 on the same score too).
    const match = perScore('稳');
    expect(match.size).toBeGreaterThanOrEqual(3);
    const raised = auto.notes.map((n) => /^稳档的候选集中在少数几个分数上，同一最低分最多填了 (\d+) 个$/.exec(n)).find(Boolean);
    const cap = Number(raised?.[1]);
    expect(cap).toBeGreaterThan(2);
    expect(cap).toBeLessThan(20);
    const planPerScore = new Map<number, number>();
    for (const i of auto.items) planPerScore.set(i.minScore, (planPerScore.get(i.minScore) ?? 0) + 1);
    expect(Math.max(...[...match.keys()].map((score) => planPerScore.get(score) ?? 0))).toBeLessThanOrEqual(cap);
    // 保 spreads over its probability range, not all at one near-certain end.
    const safeP = auto.items.filter((i) => i.tier === '保').map((i) => i.probability as number);
    expect(Math.min(...safeP)).toBeLessThan(0.9);
    expect(Math.max(...safeP)).toBeGreaterThan(0.98);
    // The caps are parameters, checked.
    const one = await ok<AutoT & { items: Row[] }>(s, t.expert, '/appv2/api/Filling/schoolEnrollChance_auto', {
      studentId: zhang,
      counts: { 冲: 5, 稳: 5, 保: 10 },
      maxPerSchool: 1,
      maxPerScore: 1,
    });
    expect(one.items).toHaveLength(20);
    expect(new Set(one.items.map((i) => i.schoolCode)).size).toBe(20);
    expect(new Set(one.items.filter((i) => i.tier === '保').map((i) => i.minScore)).size).toBe(10);
    expect((await api(s, t.expert, '/appv2/api/Filling/schoolEnrollChance_auto', { studentId: zhang, maxPerScore: 0 })).msg).toBe(
      '同一最低分的志愿数上限必须是 1 到 20 之间的整数',
    );
  });

  it('auto-fills nothing 本科 below the 一段线', async () => {
    const id = (await ok<StudentT>(s, t.expert, '/dev-api/api/Subscriber/add', { name: '线下考生', score: 430, subjects: [1, 2, 3] })).studentId;
    const auto = await ok<AutoT>(s, t.expert, '/appv2/api/Filling/schoolEnrollChance_auto', { studentId: id });
    expect(auto.items).toEqual([]);
    expect(auto.notes).toContain('考生 430 分低于 2025 年一段线 441 分，不能填报本科院校专业（常规批第 1 次志愿均为本科）');
  });
});
