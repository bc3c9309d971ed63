import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanSimulationView } from '../../../common/volunteer/planSimulation.js';
import { startServer, type TestServer } from '../harness.js';
import { api, type ChanceRowT, loginAll, ok, refused, type Tokens } from './helpers.js';

/**
 * POST /appv2/api/Filling/simulatePlan (issue 24): the editor's unsaved plan simulated on every edit. It answers what
 * the report would answer for the same plan once saved, moves the landing when the order changes (P(录取) does not:
 * a year admits when any choice admits, whatever the order), refuses bad input in Chinese and stores nothing, and
 * sees only the caller's store.
 */

const URL = '/appv2/api/Filling/simulatePlan';

interface ReportT {
  simulation: PlanSimulationView | null;
}

describe('simulating the plan being edited', () => {
  let s: TestServer;
  let t: Tokens;
  let studentId = 0;
  let rows: ChanceRowT[] = [];
  /** Two lines of middling chance: each sometimes admits when the other does not. */
  let a: ChanceRowT;
  let b: ChanceRowT;
  const draft = (list: ChanceRowT[]) => list.map((r, i) => ({ sort: i + 1, lineId: r.lineId, tier: r.tier }));

  beforeAll(async () => {
    s = await startServer('sqlite');
    t = await loginAll(s);
    studentId = (await ok<{ studentId: number }>(s, t.expert, '/dev-api/api/Subscriber/add', { name: '草稿模拟', score: 600, subjects: [1, 2, 3] })).studentId;
    const res = await s.call('POST', '/appv2/api/Filling/schoolEnrollChance', {
      token: t.expert,
      body: { studentId, all: 1, includeUnreachable: 1, explain: 0 },
    });
    rows = (res.body as unknown as { rows: ChanceRowT[] }).rows;
    const middling = rows.filter((r) => (r.probability ?? 0) > 0.35 && (r.probability ?? 0) < 0.65);
    a = middling[0];
    // Another school, so the two lines do not share the school's move entirely.
    b = middling.find((r) => r.schoolCode !== a.schoolCode) as ChanceRowT;
    expect(a && b).toBeTruthy();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('answers the saved plan’s report figures for the same plan, for the exam year', async () => {
    const safe = rows.filter((r) => (r.probability ?? 0) > 0.9 && r.schoolCode !== a.schoolCode && r.schoolCode !== b.schoolCode).slice(0, 2);
    const plan = [a, b, ...safe];
    const sim = await ok<PlanSimulationView>(s, t.expert, URL, { studentId, items: draft(plan) });
    expect(sim.draws).toBe(10_000);
    expect(sim.choices.map((c) => c.sort)).toEqual([1, 2, 3, 4]);
    expect(sim.slide).toBeCloseTo(1 - sim.admitted, 12);
    // Nothing was saved by asking …
    expect((await api(s, t.expert, '/dev-api/api/Subscriber/report', { studentId })).msg).toBe('该学生还没有志愿方案');
    // … and once saved, the report simulates the same plan to the same figures.
    await ok(s, t.expert, '/appv2/api/index/zySave', { studentId, version: 0, items: plan.map((r) => ({ lineId: r.lineId })) });
    const report = await ok<ReportT>(s, t.expert, '/dev-api/api/Subscriber/report', { studentId });
    const saved = report.simulation as PlanSimulationView;
    expect(sim.year).toBe(saved.year);
    expect(sim.admitted).toBe(saved.admitted);
    expect(sim.choices.map((c) => c.landing)).toEqual(saved.choices.map((c) => c.landing));
  });

  it('moves the landing when the order changes, not P(录取)', async () => {
    const first = await ok<PlanSimulationView>(s, t.expert, URL, { studentId, items: draft([a, b]) });
    const swapped = await ok<PlanSimulationView>(s, t.expert, URL, { studentId, items: draft([b, a]) });
    expect(swapped.admitted).toBeCloseTo(first.admitted, 12);
    // a first takes every year it admits; second, only the years b does not.
    const aFirst = first.choices[0].landing;
    const aSecond = swapped.choices[1].landing;
    expect(aFirst).toBeGreaterThan(aSecond + 0.05);
    expect(first.choices[0].reach).toBe(1);
    expect(swapped.choices[1].reach).toBeLessThan(1);
    // The plan order is the order numbers, not the array's.
    const bySort = await ok<PlanSimulationView>(s, t.expert, URL, {
      studentId,
      items: [
        { sort: 2, lineId: a.lineId, tier: a.tier },
        { sort: 1, lineId: b.lineId, tier: b.tier },
      ],
    });
    expect(bySort.choices.map((c) => c.landing)).toEqual(swapped.choices.map((c) => c.landing));
  });

  it('refuses bad input in Chinese and changes nothing', async () => {
    const call = (body: Record<string, unknown>) => () => api(s, t.expert, URL, { studentId, ...body });
    await refused(
      s,
      studentId,
      call({
        items: [
          { sort: 1, lineId: a.lineId },
          { sort: 2, lineId: 987654321 },
        ],
      }),
      '第2个志愿不存在或不属于山东的招生数据（lineId 987654321）',
    );
    await refused(s, studentId, call({ items: [{ sort: 1, lineId: 'abc' }] }), '第1个志愿不存在或不属于山东的招生数据（lineId abc）');
    await refused(s, studentId, call({ items: draft([a, a]) }), '第2个志愿与第1个志愿重复');
    await refused(s, studentId, call({ items: [{ sort: 1, lineId: a.lineId, tier: '超' }] }), '第1个志愿的梯度不正确，应为冲、稳或保');
    await refused(s, studentId, call({ items: 'x' }), '志愿列表格式不正确，应为数组');
    await refused(s, studentId, call({ items: [] }), '志愿表为空，无法模拟');
    const tooMany = rows.slice(0, 97);
    expect(tooMany).toHaveLength(97);
    await refused(s, studentId, call({ items: draft(tooMany) }), '志愿数量超过上限：山东最多填报 96 个志愿，当前 97 个');
    expect((await api(s, t.expert, URL, { items: draft([a]) })).msg).toBe('请选择学生');
  });

  it('sees only the caller’s store: another store’s student is refused as not found', async () => {
    const foreign = (
      await ok<{ studentId: number }>(s, t.leader, '/dev-api/api/Subscriber/add', { name: '青岛草稿', score: 600, subjects: [1, 2, 3], ownerId: 3 })
    ).studentId;
    await s.app.db.kysely.updateTable('volStudent').set({ storeId: 3 }).where('studentId', '=', foreign).execute();
    const agency = await s.login('store2leader', 'store2leader123');
    const res = await api(s, agency, URL, { studentId: foreign, items: draft([a, b]) });
    expect(res.code).toBe(500);
    expect(res.msg).toBe('学生不存在或无权访问');
    expect(JSON.stringify(res)).not.toContain('青岛草稿');
    expect(res.data).toBeUndefined();
    // Headquarters' leader sees every store and gets the answer.
    expect((await ok<PlanSimulationView>(s, t.leader, URL, { studentId: foreign, items: draft([a, b]) })).choices).toHaveLength(2);
  });
});
