import type { DraftChoice, PlanSimulationView } from '../../common/volunteer/planSimulation.js';
import { type Catalogue, type RankedStudent, studentRankOf } from './catalogue.js';
import { IDLE_REASON_TEXT, type PlanSimulation, type SimChoice, simChoiceOf, simulatePlan } from './engine/simulate.js';
import { fittedModelOf, liveCatalogueOf } from './liveModel.js';

/**
 * The whole plan simulated (issue 24): parallel 投档 over the plan in order, many years drawn from the fitted model
 * (engine/simulate.ts). One function for the report, the editor and the PDF. A choice the model cannot estimate (失效,
 * no rank history and no score) is counted as never admitting, and said so.
 */

const pct = (p: number) => `${(Math.round(p * 1000) / 10).toFixed(1)}%`;

export type { PlanSimulationView };

/** Null when the province has no fitted model or the student has no rank. */
export function simulateStudentPlan(cat: Catalogue, student: RankedStudent, items: readonly DraftChoice[], draws?: number): PlanSimulationView | null {
  const model = fittedModelOf(cat.province, cat.year);
  const live = liveCatalogueOf(cat);
  const rank = studentRankOf(cat, student);
  if (!model || !live || rank == null || rank <= 0 || items.length === 0) return null;
  const choices: SimChoice[] = [];
  const position: number[] = [];
  items.forEach((it, i) => {
    const idx = cat.byLineId.get(it.lineId);
    const est = idx == null ? null : live.estimates[idx];
    if (idx == null || !est || !it.tier) return;
    choices.push(simChoiceOf(model, est, cat.options[idx], it.tier));
    position.push(i);
  });
  const sim: PlanSimulation | null = choices.length ? simulatePlan(model, choices, rank, draws ? { draws } : {}) : null;
  const landing = new Array<number>(items.length).fill(0);
  const reach = new Array<number>(items.length).fill(0);
  const idle = new Array<string | null>(items.length).fill(null);
  const simulated = new Array<boolean>(items.length).fill(false);
  if (sim) {
    position.forEach((p, k) => {
      landing[p] = sim.landing[k];
      reach[p] = sim.reach[k];
      simulated[p] = true;
    });
    for (const d of sim.idle) idle[position[d.index]] = IDLE_REASON_TEXT[d.reason];
  }
  const admitted = sim?.admitted ?? 0;
  const byTier = sim?.byTier ?? { 冲: 0, 稳: 0, 保: 0 };
  const idleCount = idle.filter(Boolean).length;
  const unsimulated = simulated.filter((s) => !s).length;
  const text = [
    `按${cat.targetYear}年模拟 ${(sim?.draws ?? 0).toLocaleString('en-US')} 次平行投档：被录取的概率 ${pct(admitted)}，滑档 ${pct(1 - admitted)}`,
    `录取落在冲 ${pct(byTier.冲)}、稳 ${pct(byTier.稳)}、保 ${pct(byTier.保)}`,
    idleCount ? `${idleCount} 个志愿在模拟中几乎没有作用（录取落在该志愿的概率低于 0.1%）` : null,
    unsimulated ? `${unsimulated} 个志愿无法估计（失效或缺少历年数据），按不录取计` : null,
  ]
    .filter(Boolean)
    .join('；');
  return {
    year: cat.targetYear,
    draws: sim?.draws ?? 0,
    admitted,
    slide: 1 - admitted,
    byTier,
    choices: items.map((it, i) => ({ sort: it.sort, landing: landing[i], reach: reach[i], idle: idle[i], simulated: simulated[i] })),
    expectedPosition: sim?.expectedPosition ?? null,
    text,
  };
}
