import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHANDONG } from '../../../server/db/seed/admission.js';
import { predict } from '../../../server/volunteer/engine/calibrated.js';
import { groupLines, optionKey, tierFor } from '../../../server/volunteer/engine/index.js';
import { eligibilityNeeded, planTagsOf } from '../../../server/volunteer/engine/specialPlans.js';
import { fittedModelOf } from '../../../server/volunteer/liveModel.js';
import { backends, startServer, type TestServer } from '../harness.js';
import { type AutoT, api, type ChanceRowT, loginAll, ok, type PlanT, refused, type StudentT, studentId, type Tokens } from './helpers.js';

interface ChanceBody {
  code: number;
  msg: string;
  rows: ChanceRowT[];
  total: number;
  student: { score: number; rank: number; rankFlag: string; year: number };
  tierCounts: Record<string, number>;
  unreachableCount: number;
  notes: string[];
}

interface Expected {
  probability: number;
  tier: string;
  flags: string[];
  rank: number;
}

describe.each(backends)('volunteer filling on %s', (backend) => {
  let s: TestServer;
  let t: Tokens;
  let zhang: number;
  /** The fitted model's own answer (calibrated.ts predict, as backtested) for a 600-point student, keyed by school|group|major. */
  let engine: Map<string, Expected>;

  beforeAll(async () => {
    s = await startServer(backend);
    t = await loginAll(s);
    zhang = await studentId(s, '张三');
    const k = s.app.db.kysely;
    const rows = await k
      .selectFrom('gkAdmissionLine as l')
      .innerJoin('gkSchool as sc', (j) => j.onRef('sc.schoolCode', '=', 'l.schoolCode').onRef('sc.examProvince', '=', 'l.examProvince'))
      .select(['l.year', 'l.schoolCode', 'l.groupCode', 'l.majorName', 'l.minScore', 'l.minRank', 'l.planCount', 'sc.name as schoolName'])
      .where('l.examProvince', '=', SHANDONG)
      .orderBy('l.lineId')
      .execute();
    // The seeded data are 2025's lines; the student fills for 2026 and is ranked in the 2025 table (same cohort).
    const model = fittedModelOf(SHANDONG, 2025);
    if (!model) throw new Error('no fitted model');
    const cohorts = new Map([
      [2025, 681127],
      [2026, 681127],
    ]);
    engine = new Map(
      groupLines(rows)
        // 张三 declared no 专项资格: the special plans that need one (地方专项, 定向, 预科, 民族班 …) are not offered.
        .filter((o) => eligibilityNeeded(planTagsOf(o.majorName, o.schoolName)).length === 0)
        .map((o) => {
          const points = o.history.map((h) => ({ year: h.year, minRank: h.minRank as number, planCount: h.planCount ?? null }));
          const p = predict(model, points, 2026, cohorts, 25061, null);
          if (!p) throw new Error(`no estimate for ${o.id}`);
          const minScore = o.history[0].minScore as number;
          const flags = p.probability < 0.05 ? ['unreachable'] : p.probability > 0.99 && 600 - minScore >= 20 ? ['wasteful'] : [];
          return [optionKey(o), { probability: p.probability, tier: tierFor(p.probability), flags, rank: p.rank }];
        }),
    );
  });
  afterAll(async () => {
    await s?.close();
  });

  const chance = async (body: Record<string, unknown>, token = t.expert, url = '/appv2/api/Filling/schoolEnrollChance') =>
    (await s.call('POST', url, { token, body })).body as unknown as ChanceBody;
  const key = (r: ChanceRowT) => `${r.schoolCode}||${r.majorName ?? ''}`;

  it('gives 张三 (600 points) tiers, probabilities and explanations exactly as the engine computes them', async () => {
    const res = await chance({ studentId: zhang, pageSize: 50 });
    expect(res.code).toBe(200);
    expect(res.student).toMatchObject({ score: 600, rank: 25061, rankFlag: 'exact', year: 2025 });
    expect(res.rows).toHaveLength(50);
    for (const r of res.rows) {
      const e = engine.get(key(r)) as Expected;
      expect(r.probability).toBeCloseTo(e.probability, 12);
      expect(r.tier).toBe(e.tier);
      expect(r.flags).toEqual(e.flags);
      expect(r.estimatedRank).toBe(e.rank);
      // Each row explains itself: the year and rank used, the estimate, the spread's cell, the student's rank, P.
      expect(r.explanation).toContain(`2025年最低位次 ${r.minRank}（1年数据），估计录取位次 ${e.rank}`);
      expect(r.explanation).toMatch(/波动取自位次段 [\d–≥< ]+ × 1年数据的历年实际偏差，你的位次 25061/);
      expect(r.explanation).toContain(`录取概率 ${r.probabilityText}，${r.tier}`);
    }
    // Hardest first; P < 5 % left out by default.
    const ranks = res.rows.map((r) => r.minRank as number);
    expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
    expect(res.rows.every((r) => !r.flags.includes('unreachable'))).toBe(true);

    const counts = { 冲: 0, 稳: 0, 保: 0, none: 0 } as Record<string, number>;
    let unreachable = 0;
    for (const e of engine.values()) {
      if (e.flags.includes('unreachable')) unreachable++;
      else counts[e.tier ?? 'none']++;
    }
    expect(res.tierCounts).toEqual(counts);
    expect(res.unreachableCount).toBe(unreachable);
    expect(res.total).toBe(engine.size - unreachable);
    expect(res.notes).toContain('数据未包含选科要求，未按选科过滤，请填报前核对院校专业的选科要求');

    // The worked example of docs/volunteer-model.md: a line whose 2025 rank (24830) is just above the student's
    // (25061) is a coin toss at best, not a safe choice.
    const a004 = await chance({ studentId: zhang, schoolCode: 'A004', keyword: '建筑类' });
    expect(a004.rows).toHaveLength(1);
    expect(a004.rows[0]).toMatchObject({ schoolCode: 'A004', majorName: '建筑类(卓越人才拔尖班)', minRank: 24830 });
    expect(a004.rows[0].probability).toBeCloseTo(engine.get(key(a004.rows[0]))?.probability as number, 12);
    expect(a004.rows[0].probability as number).toBeGreaterThan(0.2);
    expect(a004.rows[0].probability as number).toBeLessThan(0.6);
    expect(a004.rows[0].explanation).toMatch(/^按校准模型：2025年最低位次 24830（1年数据），估计录取位次 \d+，波动取自位次段 10000–30000 × 1年数据/);

    // An ad-hoc score answers the same as the stored student.
    const adhoc = await chance({ score: 600, pageSize: 50 });
    expect(adhoc.rows.map((r) => [r.lineId, r.probability])).toEqual(res.rows.map((r) => [r.lineId, r.probability]));
    expect((await chance({ score: 751 })).msg).toBe('分数必须在 0 到 750 之间');
    expect((await chance({})).msg).toBe('请选择学生或填写分数');
  });

  it('filters by region, city, tags, tier, names and school; paging and all=1; unknown attributes are explained', async () => {
    const beijing = await chance({ studentId: zhang, region: '北京', all: 1 });
    expect(beijing.total).toBeGreaterThan(0);
    expect(beijing.rows).toHaveLength(beijing.total);
    expect(beijing.rows.every((r) => r.province === '北京')).toBe(true);
    const two = await chance({ studentId: zhang, region: ['北京', '上海'], all: 1 });
    expect(two.total).toBeGreaterThan(beijing.total);
    expect(new Set(two.rows.map((r) => r.province))).toEqual(new Set(['北京', '上海']));
    const city = await chance({ studentId: zhang, city: '西安', all: 1 });
    expect(city.total).toBeGreaterThan(0);
    expect(city.rows.every((r) => r.city === '西安')).toBe(true);

    const tags = await chance({ studentId: zhang, tags: '985,双一流', all: 1 });
    expect(tags.total).toBeGreaterThan(0);
    expect(tags.rows.every((r) => r.tags.includes('985') && r.tags.includes('双一流'))).toBe(true);

    for (const tier of ['冲', '稳', '保'] as const) {
      const res = await chance({ studentId: zhang, tier, pageSize: 100 });
      expect(res.total).toBe(res.tierCounts[tier]);
      expect(res.rows.every((r) => r.tier === tier)).toBe(true);
    }
    expect((await chance({ studentId: zhang, tier: '稳,保' })).total).toBe(
      (await chance({ studentId: zhang })).tierCounts.稳 + (await chance({ studentId: zhang })).tierCounts.保,
    );
    expect((await chance({ studentId: zhang, tier: '必中' })).msg).toBe('梯度不正确：必中（可选：冲、稳、保）');

    const kw = await chance({ studentId: zhang, keyword: '山东大学', all: 1 });
    expect(kw.rows.every((r) => r.schoolName.includes('山东大学') || (r.majorName ?? '').includes('山东大学'))).toBe(true);
    const major = await chance({ studentId: zhang, majorName: '计算机', all: 1 });
    expect(major.total).toBeGreaterThan(10);
    expect(major.rows.every((r) => (r.majorName ?? '').includes('计算机'))).toBe(true);
    const school = await chance({ studentId: zhang, schoolName: '北京大学', includeUnreachable: 1, all: 1 });
    expect(school.rows.some((r) => r.flags.includes('unreachable'))).toBe(true);

    const page1 = await chance({ studentId: zhang, pageNum: 1, pageSize: 10 });
    const page2 = await chance({ studentId: zhang, pageNum: 2, pageSize: 10 });
    const both = await chance({ studentId: zhang, pageNum: 1, pageSize: 20 });
    expect([...page1.rows, ...page2.rows].map((r) => r.lineId)).toEqual(both.rows.map((r) => r.lineId));

    const byP = await chance({ studentId: zhang, sort: 'probability', pageSize: 30 });
    const ps = byP.rows.map((r) => r.probability as number);
    expect([...ps].sort((a, b) => a - b)).toEqual(ps);

    // The data set has no public/private flag: the filter answers nothing and says why.
    const pub = await chance({ studentId: zhang, isPublic: 1 });
    expect(pub.total).toBe(0);
    expect(pub.notes).toContain('数据未包含公办/民办信息，按办学性质筛选无结果');

    // The student's preferences as filters (regions 山东/北京, level 211, majors 计算机/电子).
    const prefs = await chance({ studentId: zhang, usePreferences: 1, all: 1 });
    expect(prefs.total).toBeGreaterThan(0);
    expect(
      prefs.rows.every(
        (r) => ['山东', '北京'].includes(r.province ?? '') && r.tags.includes('211') && ['计算机', '电子'].some((m) => (r.majorName ?? '').includes(m)),
      ),
    ).toBe(true);

    // schoolEnrollChance1: every row, no paging.
    const all = (await s.call('GET', '/dev-api/api/FillingSelectAll/schoolEnrollChance1', { token: t.expert, query: { studentId: zhang, region: '北京' } }))
      .body as unknown as ChanceBody;
    expect(all.rows.map((r) => r.lineId)).toEqual(beijing.rows.map((r) => r.lineId));
  });

  it('answers the filling page one compact page at a time; the explanation comes for one option on demand', async () => {
    const url = '/appv2/api/Filling/schoolEnrollChance';
    const full = await chance({ studentId: zhang, pageSize: 50 });
    const res = await s.call('POST', url, { token: t.expert, body: { studentId: zhang, sort: 'probability', explain: 0, pageNum: 1, pageSize: 50 } });
    const page = res.body as unknown as ChanceBody;
    expect(page.rows).toHaveLength(50);
    expect(page.rows.every((r) => r.explanation === null)).toBe(true);
    // Same filters → same total and tier counts as the full answer: the tabs stay right with a page of rows.
    expect(page.total).toBe(full.total);
    expect(page.tierCounts).toEqual(full.tierCounts);
    // Sorted on the server over every line, not within the page: least likely first.
    const ps = page.rows.map((r) => r.probability as number);
    expect([...ps].sort((a, b) => a - b)).toEqual(ps);
    const second = (await chance({ studentId: zhang, sort: 'probability', explain: 0, pageNum: 2, pageSize: 50 })).rows;
    expect(second[0].probability as number).toBeGreaterThanOrEqual(ps[49]);
    expect(new Set([...page.rows, ...second].map((r) => r.lineId)).size).toBe(100);
    // The page is a few tens of kB, far under the 300 kB budget for opening a student.
    expect(res.rawBuffer.length).toBeLessThan(60_000);

    // 录取率 dialog: one option by line id, with its explanation.
    const one = await chance({ studentId: zhang, lineId: page.rows[3].lineId, includeUnreachable: true, pageSize: 1 });
    expect(one.total).toBe(1);
    expect(one.rows[0]).toMatchObject({ lineId: page.rows[3].lineId, probability: page.rows[3].probability });
    expect(one.rows[0].probability).toBeCloseTo(engine.get(key(one.rows[0]))?.probability as number, 12);
    expect(one.rows[0].explanation).toMatch(/^按校准模型：/);
    // Below the 一段线 (441 in 2025) nothing 本科 is offered — every 常规批 line is 本科 — and the note says why.
    const below = await chance({ score: 440, includeUnreachable: 1 });
    expect(below).toMatchObject({ code: 200, total: 0, rows: [], tierCounts: { 冲: 0, 稳: 0, 保: 0, none: 0 } });
    expect(below.notes).toContain('考生 440 分低于 2025 年一段线 441 分，不能填报本科院校专业（常规批第 1 次志愿均为本科）');
    expect((await chance({ score: 441, includeUnreachable: 1 })).total).toBeGreaterThan(0);
    // The hidden-options note names the checkbox a user sees, not a request parameter.
    expect(page.notes.join('；')).toMatch(/已隐藏 \d+ 个录取概率低于 5% 的志愿（勾选「含概率低于 5% 的」可显示）/);
    expect(page.notes.join('；')).not.toContain('includeUnreachable');
  });

  it('always encrypts /appv2/api/index/schoolEnrollChance, and encrypts on authEncode=1', async () => {
    const plain = await chance({ studentId: zhang, pageSize: 5 });
    const enc = await chance({ studentId: zhang, pageSize: 5 }, t.expert, '/appv2/api/index/schoolEnrollChance');
    expect(enc.code).toBe(20000);
    const data = s.decrypt<{ rows: ChanceRowT[]; total: number; tierCounts: Record<string, number> }>((enc as unknown as { data: string }).data);
    expect(data.rows).toEqual(plain.rows);
    expect(data.total).toBe(plain.total);
    expect(data.tierCounts).toEqual(plain.tierCounts);
    const asked = await chance({ studentId: zhang, pageSize: 5, authEncode: 1 });
    expect(asked.code).toBe(20000);
  });

  it('says clearly that Shandong has no advance-batch data', async () => {
    for (const url of ['/appv2/api/Filling/pre_batch', '/appv2/api/Filling/schoolEnrollChance_pre']) {
      const res = (await s.call('POST', url, { token: t.expert, body: { studentId: zhang } })).body;
      expect(res).toMatchObject({ code: 200, rows: [], total: 0, available: false, province: '山东' });
      expect(res.msg).toBe('山东暂无提前批投档数据，无法计算提前批录取概率；提前批请参考省教育招生考试院公布的招生计划');
    }
  });

  it('auto-fills 96 volunteers (冲20/稳40/保36) with a clean gradient, saves them, and reports shortfalls', async () => {
    const auto = await ok<AutoT>(s, t.expert, '/appv2/api/Filling/schoolEnrollChance_auto', { studentId: zhang, counts: { 冲: 20, 稳: 40, 保: 36 } });
    expect(auto.items).toHaveLength(96);
    expect(auto.shortfalls.every((x) => x.missing === 0 && x.borrowed === 0)).toBe(true);
    const tiers = { 冲: 0, 稳: 0, 保: 0 } as Record<string, number>;
    for (const i of auto.items) tiers[i.tier as string]++;
    expect(tiers).toEqual({ 冲: 20, 稳: 40, 保: 36 });
    expect(auto.warnings).toEqual([]);
    expect(new Set(auto.items.map((i) => i.lineId)).size).toBe(96);
    for (const i of auto.items) expect(i.probability).toBeCloseTo(engine.get(key(i))?.probability as number, 12);

    const cur = (await ok<{ plan: { version: number } | null }>(s, t.expert, '/appv2/api/index/zyInfo', { studentId: zhang })).plan?.version ?? 0;
    const saved = await ok<PlanT>(s, t.expert, '/appv2/api/index/zySave', {
      studentId: zhang,
      version: cur,
      items: auto.items.map((i) => ({ lineId: i.lineId })),
    });
    expect(saved.itemCount).toBe(96);
    expect(saved.items.map((i) => i.tier)).toEqual(auto.items.map((i) => i.tier));
    expect(saved.warnings).toEqual([]);
    const marked = await chance({ studentId: zhang, tier: '稳', all: 1 });
    expect(marked.rows.filter((r) => r.inPlan)).toHaveLength(40);

    // Over the slot limit: trimmed from 冲 first, with a note. Narrow filters: shortfalls reported.
    const over = await ok<AutoT>(s, t.expert, '/appv2/api/Filling/schoolEnrollChance_auto', { studentId: zhang, chong: 30, wen: 40, bao: 36 });
    expect(over.items).toHaveLength(96);
    expect(over.effectiveCounts).toEqual({ 冲: 20, 稳: 40, 保: 36 });
    expect(over.notes.some((n) => n.includes('超过上限 96'))).toBe(true);
    const narrow = await ok<AutoT>(s, t.expert, '/appv2/api/Filling/schoolEnrollChance_auto', { studentId: zhang, region: '西藏', strategy: 'tiers' });
    expect(narrow.items.length).toBeLessThan(96);
    expect(narrow.shortfalls.some((x) => x.missing > 0)).toBe(true);
    expect(narrow.notes.some((n) => n.includes('仍缺'))).toBe(true);
    // The default strategy (where the student lands) says the same of a region with few lines.
    const narrowLanding = await ok<AutoT>(s, t.expert, '/appv2/api/Filling/schoolEnrollChance_auto', { studentId: zhang, region: '西藏' });
    expect(narrowLanding.items.length).toBeLessThan(96);
    expect(narrowLanding.items.every((i) => i.province === '西藏')).toBe(true);
    expect(narrowLanding.notes.some((n) => n.includes('仍缺'))).toBe(true);
    expect((await api(s, t.expert, '/appv2/api/Filling/schoolEnrollChance_auto', { studentId: zhang, counts: { 冲: -1 } })).msg).toBe(
      '冲的数量必须是 0 到 200 之间的整数',
    );
  });

  it('looks up the score table, same-score destinations, province rules, schools and majors', async () => {
    const stage = await ok<{ rows: Array<{ score: number; count: number; cumulativeRank: number }>; lookup: { rank: number; flag: string } }>(
      s,
      t.expert,
      '/appv2/api/index/scoreStageFilter',
      { score: 600, scoreMin: 598, scoreMax: 601 },
    );
    expect(stage.lookup).toMatchObject({ rank: 25061, flag: 'exact' });
    expect(stage.rows.map((r) => r.score)).toEqual([601, 600, 599, 598]);
    expect(stage.rows[1].cumulativeRank - stage.rows[0].cumulativeRank).toBe(stage.rows[1].count);

    const same = (await s.call('GET', '/appv2/api/index/scoreStageInfo', { token: t.expert, query: { score: 600, pageSize: 100 } })).body;
    expect(same.code).toBe(200);
    expect((same.rows as ChanceRowT[]).every((r) => r.minScore === 600)).toBe(true);
    expect(same.total).toBeGreaterThan(0);
    expect(same.lookup).toMatchObject({ rank: 25061 });
    expect((await api(s, t.expert, '/appv2/api/index/scoreStageInfo', { score: 600, range: 9 })).msg).toBe('分差范围必须在 0 到 5 分之间');

    const gkb = await ok<{ slotLimit: number; zyType: number; zyTypeName: string; batchLineName: string; notes: string[] }>(
      s,
      t.expert,
      '/appv2/api/index/gkbInfo',
    );
    expect(gkb).toMatchObject({ slotLimit: 96, zyType: 1, zyTypeName: '专业+院校', batchLineName: '一段线' });
    expect(gkb.notes).toContain('山东暂无提前批投档数据');
    expect((await api(s, t.expert, '/appv2/api/index/gkbInfo', { province: '火星' })).msg).toBe('暂无「火星」的招生数据，目前支持：山东');

    const home = await ok<{ school: { name: string }; tabs: Array<{ index: number; key: string; available: boolean; content: string }>; lines: ChanceRowT[] }>(
      s,
      t.expert,
      '/appv2/api/index/schoolHome',
      { schoolCode: 'A001', studentId: zhang },
    );
    expect(home.school.name).toBe('北京大学');
    expect(home.tabs.map((x) => x.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(home.tabs[0].available).toBe(true);
    // 院校百科 (issue 27): 北京大学 has 双一流 (2022) and 学科评估 (2017) data; the other strength tabs have no data set.
    expect(home.tabs.filter((x) => x.available).map((x) => x.key)).toEqual(['profile', 'doubleFirstClass', 'evaluation']);
    expect(home.tabs.filter((x) => !x.available).every((x) => x.content.includes('暂无'))).toBe(true);
    expect(home.lines.every((l) => l.probability != null)).toBe(true);

    const major = await ok<{ modules: Array<{ key: string; available: boolean; content: string }>; schools: ChanceRowT[] }>(
      s,
      t.expert,
      '/appv2/api/index/majorDetail',
      { majorName: '计算机科学与技术' },
    );
    expect(major.modules.map((m) => m.key)).toEqual([
      'majorIntroduction',
      'eduObjective',
      'eduRequirement',
      'subjectRequirement',
      'studyDirection',
      'mainCourse',
      'famousScholar',
      'jobDirection',
    ]);
    expect(major.modules[0]).toMatchObject({ available: true });
    expect(major.modules[0].content).toContain(`${new Set(major.schools.map((r) => r.schoolCode)).size} 所院校`);
    expect(major.modules.slice(1).every((m) => !m.available)).toBe(true);
    expect((await api(s, t.expert, '/appv2/api/index/majorDetail', { majorName: '炼丹学' })).msg).toBe('暂无「炼丹学」的招生数据');

    const school = await ok<{ lines: ChanceRowT[] }>(s, t.expert, '/dev-api/api/FillingSelectAll/scoreSchool', { schoolCode: 'A002' });
    expect(school.lines.length).toBe(21);
    expect(school.lines.every((l) => l.probability === null)).toBe(true);

    const prov = await ok<{ examProvinces: Array<{ province: string }>; schoolProvinces: Array<{ province: string | null; cities: string[] }> }>(
      s,
      t.expert,
      '/dev-api/api/toolbox/getProvince',
    );
    expect(prov.examProvinces.map((p) => p.province)).toEqual(['山东']);
    expect(prov.schoolProvinces.find((p) => p.province === '山东')?.cities).toContain('济南');
    expect(await ok<string[]>(s, t.expert, '/appv2/api/index/areaChilds', { province: '陕西' })).toContain('西安');
    const filt = await ok<{ tags: Array<{ value: string; count: number }>; levels: string[]; notes: string[] }>(
      s,
      t.expert,
      '/dev-api/api/toolbox/OrdinaryBatchFiter',
    );
    expect(filt.tags.map((x) => x.value)).toEqual(['985', '211', '双一流']);
    expect(filt.levels).toEqual([]);
    expect(filt.notes).toContain('数据未包含院校层次（本科/专科）');
  });

  it('keeps favourites and recommends majors from chances and interests', async () => {
    const li = await studentId(s, '李四');
    const row = (await chance({ studentId: li, tier: '稳', pageSize: 1 })).rows[0];
    expect((await api(s, t.expert, '/appv2/api/index/likeAdd', { studentId: li, lineId: row.lineId })).msg).toBe('收藏成功');
    // The same body again at once is a double click (likeAdd is a declared write, issue 22); a second add of the same
    // line written differently is a second intention, refused by the rule.
    expect((await api(s, t.expert, '/appv2/api/index/likeAdd', { studentId: li, lineId: row.lineId })).msg).toBe('数据正在处理，请勿重复提交');
    expect((await api(s, t.expert, '/appv2/api/index/likeAdd', { studentId: String(li), lineId: String(row.lineId) })).msg).toBe('已收藏过该志愿');
    const likes = await ok<ChanceRowT[]>(s, t.expert, '/appv2/api/index/likeList', { studentId: li });
    expect(likes.map((l) => l.lineId)).toEqual([row.lineId]);
    expect(likes[0].tier).toBe('稳');
    expect((await chance({ studentId: li, tier: '稳', pageSize: 1 })).rows[0].liked).toBe(true);
    expect((await api(s, t.expert, '/appv2/api/index/likeDel', { studentId: li, lineId: row.lineId })).msg).toBe('已取消收藏');
    expect((await api(s, t.expert, '/appv2/api/index/likeDel', { studentId: String(li), lineId: String(row.lineId) })).msg).toBe('该志愿未收藏');
    expect(await ok(s, t.expert, '/appv2/api/index/likeList', { studentId: li })).toEqual([]);

    const rec = await ok<{ interests: string[]; rows: Array<{ majorName: string; matchedInterest: string | null; reachable: number; options: ChanceRowT[] }> }>(
      s,
      t.expert,
      '/dev-api/api/majorRecommend/list',
      { studentId: zhang, limit: 10 },
    );
    expect(rec.interests).toEqual(['计算机', '电子']);
    expect(rec.rows).toHaveLength(10);
    expect(rec.rows[0].matchedInterest).not.toBeNull();
    expect(rec.rows[0].reachable).toBeGreaterThan(0);
    expect(rec.rows[0].options.every((o) => o.tier === '稳' || o.tier === '保')).toBe(true);
    expect((await api(s, t.operator, '/dev-api/api/majorRecommend/list', { studentId: zhang })).code).toBe(403);
  });

  it('edits student info with Chinese validation, re-deriving the rank from the 一分一段 table', async () => {
    const st = await ok<StudentT>(s, t.expert, '/dev-api/api/Subscriber/add', { name: '编辑测试', score: 600, subjects: [1, 2, 3] });
    expect(st).toMatchObject({ rank: 25061, rankFlag: 'exact', ownerId: 3, version: 1 });
    const id = st.studentId;
    const EDIT = '/appv2/api/index/editUser';
    const edit = (body: Record<string, unknown>) => api<StudentT>(s, t.expert, EDIT, { studentId: id, ...body });
    await refused(s, id, () => edit({ version: 1, score: 751 }), '分数必须在 0 到 750 之间');
    await refused(s, id, () => edit({ version: 1, score: -1 }), '分数必须在 0 到 750 之间');
    await refused(s, id, () => edit({ version: 1, score: 'abc' }), '分数格式不正确，应为数字');
    await refused(s, id, () => edit({ version: 1, subjects: [1, 2] }), '选考科目须为物理、化学、生物、历史、地理、政治中的三门');
    await refused(s, id, () => edit({ version: 1, subjects: [1, 1, 2] }), '选考科目不能重复');
    await refused(s, id, () => edit({ version: 1, subjects: [1, 2, 9] }), /^选考科目不正确/);
    await refused(s, id, () => edit({ version: 1, province: '火星' }), '暂无「火星」的招生数据，目前支持：山东');
    await refused(s, id, () => edit({ version: 1, mobile: '12345' }), '手机号格式不正确');
    await refused(s, id, () => edit({ version: 1, name: '' }), '学生姓名不能为空');
    await refused(s, id, () => edit({ version: 1, rank: -5 }), '位次必须是正整数');
    await refused(s, id, () => edit({ version: 1, preferences: { tuitionCap: 999999 } }), '学费上限必须在 0 到 200000 元之间');
    await refused(
      s,
      id,
      () => edit({ version: 1, preferences: { levels: ['野鸡大学'] } }),
      '院校层次偏好不正确：野鸡大学（可选：985、211、双一流、本科、专科）',
    );
    await refused(s, id, () => edit({ version: 0, score: 610 }), '学生信息已被他人修改，请刷新后再保存');

    const changed = await edit({ version: 1, score: 650, subjects: [4, 5, 6], preferences: { regions: ['上海'], majors: ['金融'], tuitionCap: 8000 } });
    expect(changed).toMatchObject({ code: 200, msg: '修改成功' });
    const at650 = await s.app.db.kysely.selectFrom('gkScoreSegment').select('cumulativeRank').where('score', '=', 650).executeTakeFirstOrThrow();
    expect(changed.data).toMatchObject({ score: 650, rank: at650.cumulativeRank, rankFlag: 'exact', subjects: [4, 5, 6], version: 2 });
    expect(changed.data?.preferences).toEqual({ regions: ['上海'], levels: [], majors: ['金融'], tuitionCap: 8000 });
    const manual = await edit({ version: 2, rank: 4000 });
    expect(manual.data).toMatchObject({ score: 650, rank: 4000, rankFlag: 'manual' });
    const via = await api<StudentT>(s, t.expert, '/dev-api/api/FillingSelectAll/updateEnterScore', { studentId: id, version: 3, score: 600 });
    expect(via.data).toMatchObject({ score: 600, rank: 25061, rankFlag: 'exact', version: 4 });
    const infoRes = await ok<StudentT>(s, t.expert, '/dev-api/api/Subscriber/info', { studentId: id });
    expect(infoRes).toMatchObject({ score: 600, plan: null });
    expect((await api(s, t.operator, EDIT, { studentId: id, version: 4, score: 500 })).code).toBe(403);
  });
});
