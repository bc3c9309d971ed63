import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../harness.js';
import { type ChanceRowT, loginAll, ok, type Tokens } from './helpers.js';

/**
 * The plan report simulates the whole plan (issue 24, engine/simulate.ts): parallel 投档 in plan order over many
 * simulated years. Checked against what can be said without the simulation: one line alone lands as often as its own
 * 录取概率; the landing shares add up to P(录取); a plan of long shots shows its 滑档 risk.
 */

interface SimulationT {
  year: number;
  draws: number;
  admitted: number;
  slide: number;
  byTier: Record<string, number>;
  choices: Array<{ sort: number; landing: number; reach: number; idle: string | null; simulated: boolean }>;
  text: string;
}
interface ReportT {
  targetYear: number;
  summary: string;
  risks: string[];
  simulation: SimulationT | null;
  items: Array<{ sort: number; landing: number | null; idleReason: string | null }>;
}

describe('the plan report simulates the whole plan', () => {
  let s: TestServer;
  let t: Tokens;
  beforeAll(async () => {
    s = await startServer('sqlite');
    t = await loginAll(s);
  });
  afterAll(async () => {
    await s?.close();
  });

  async function planOf(name: string, score: number, pick: (rows: ChanceRowT[]) => ChanceRowT[]) {
    const studentId = (await ok<{ studentId: number }>(s, t.expert, '/dev-api/api/Subscriber/add', { name, score, subjects: [1, 2, 3] })).studentId;
    const res = await s.call('POST', '/appv2/api/Filling/schoolEnrollChance', {
      token: t.expert,
      body: { studentId, all: 1, includeUnreachable: 1, explain: 0 },
    });
    const rows = (res.body as unknown as { rows: ChanceRowT[] }).rows;
    const chosen = pick(rows);
    await ok(s, t.expert, '/appv2/api/index/zySave', { studentId, version: 0, items: chosen.map((r) => ({ lineId: r.lineId })) });
    return { studentId, chosen, report: await ok<ReportT>(s, t.expert, '/dev-api/api/Subscriber/report', { studentId }) };
  }

  it('lands a one-line plan as often as the line’s own chance, within the simulation’s error', async () => {
    const { chosen, report } = await planOf('单志愿模拟', 600, (rows) => [
      rows.find((r) => (r.probability ?? 0) > 0.3 && (r.probability ?? 0) < 0.7) as ChanceRowT,
    ]);
    const sim = report.simulation as SimulationT;
    expect(sim.year).toBe(report.targetYear);
    const p = chosen[0].probability as number;
    // Three standard errors of a share over `draws` independent years.
    const tolerance = 3 * Math.sqrt((p * (1 - p)) / sim.draws) + 0.005;
    expect(Math.abs(sim.admitted - p)).toBeLessThan(tolerance);
    expect(sim.slide).toBeCloseTo(1 - sim.admitted, 10);
    expect(report.items[0].landing).toBeCloseTo(sim.admitted, 10);
    expect(report.summary).toContain(`按${report.targetYear}年模拟`);
  });

  it('adds up: landing shares sum to P(录取), each choice reached no more often than the one before', async () => {
    const { report } = await planOf('梯度模拟', 580, (rows) => {
      const by = (lo: number, hi: number) => rows.filter((r) => (r.probability ?? 0) >= lo && (r.probability ?? 0) < hi).slice(0, 5);
      return [...by(0.1, 0.4), ...by(0.4, 0.8), ...by(0.8, 0.99)];
    });
    const sim = report.simulation as SimulationT;
    const sum = sim.choices.reduce((a, c) => a + c.landing, 0);
    expect(sum).toBeCloseTo(sim.admitted, 6);
    expect(sim.byTier.冲 + sim.byTier.稳 + sim.byTier.保).toBeCloseTo(sim.admitted, 6);
    for (let i = 1; i < sim.choices.length; i++) expect(sim.choices[i].reach).toBeLessThanOrEqual(sim.choices[i - 1].reach + 1e-12);
    expect(sim.choices[0].reach).toBe(1);
    // With five 保 lines at the end the student is almost surely admitted.
    expect(sim.admitted).toBeGreaterThan(0.95);
    // The report says so when most years land in 冲 (the 稳/保 part then goes unused), and not otherwise.
    expect(report.risks.some((r) => r.includes('的年份录取落在冲刺志愿'))).toBe(sim.byTier.冲 >= 0.8);
    const idle = sim.choices.filter((c) => c.idle).length;
    expect(report.risks.some((r) => r.startsWith(`${idle} 个志愿在模拟中几乎不会被投档或录取`))).toBe(idle >= 10);
  });

  it('says a plan of long shots risks 滑档', async () => {
    const { report } = await planOf('冲刺模拟', 560, (rows) => rows.filter((r) => (r.probability ?? 1) < 0.1).slice(0, 3));
    const sim = report.simulation as SimulationT;
    expect(sim.slide).toBeGreaterThan(0.5);
    expect(report.risks.some((r) => r.startsWith(`模拟${report.targetYear}年平行投档，滑档概率`))).toBe(true);
    expect(report.summary).toContain('滑档');
  });
});
