import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { bandOf, type FittedModel } from '../server/volunteer/engine/calibrated.js';
import { type SimChoice, simulatePlan } from '../server/volunteer/engine/simulate.js';
import type { Tier } from '../server/volunteer/engine/types.js';
import { fittedModelOf, modelYearsOf } from '../server/volunteer/modelFiles.js';
import { type Summary, summarize } from './stats.js';

/**
 * The whole-plan simulation (server/volunteer/engine/simulate.ts), in-process, no server: 96 choices × 10 000 draws
 * on the newest 山东 model file, a student at rank 20 000, shared school and category shifts on (every variate drawn).
 *  - plan: 96 lines from 0.7 r to 3 r estimated rank, most selective first (as auto-fill orders them), 40 schools,
 *    30 categories: 投档 stops at the first admitting choice, as in use;
 *  - worst case: 96 lines none of which ever admits, so every draw examines all 96 (96 × 10 000 lookups);
 *  - floor: one plain pass over a Float64Array of the same 96 × 10 000 cells (compare and count), in the same run.
 * The ratio worst case / floor is what the simulation costs over merely touching its cells.
 * Run: `npm run bench -- simulate` or `npx tsx bench/simulate.ts` (BENCH_RUNS timed runs each, default 200).
 */

export interface SimulateBenchResult {
  model: string;
  method: 'residuals' | 'grid';
  choices: number;
  draws: number;
  runs: number;
  plan: Summary & { admitted: number; expectedPosition: number | null; examinedPerDraw: number };
  worst: Summary;
  floor: Summary;
  /** worst p50 / floor p50. */
  ratio: number;
}

const CHOICES = 96;
const DRAWS = 10_000;
const RANK = 20_000;

function plan(model: FittedModel, lowRatio: number, highRatio: number): SimChoice[] {
  const tiers: Tier[] = ['冲', '稳', '保'];
  return Array.from({ length: CHOICES }, (_, i) => {
    // Estimated ranks evenly spaced in log from RANK × lowRatio (most selective) to RANK × highRatio.
    const ratio = lowRatio * (highRatio / lowRatio) ** (i / (CHOICES - 1));
    const rank = RANK * ratio;
    const band = Math.min(model.cells.length - 1, bandOf(rank));
    return {
      id: `L${i}`,
      mu: Math.log(rank),
      band,
      years: 1,
      widened: i % 17 === 0,
      school: `S${(i * 7) % 40}`,
      category: `C${(i * 11) % 30}`,
      tier: tiers[Math.min(2, Math.floor((i * 3) / CHOICES))],
    };
  });
}

/**
 * Times the functions round-robin, one call of each per round after 20 warm-up rounds: on a busy machine all of them
 * see the same load, so their ratio holds even when the absolute figures move.
 */
function timeTogether(runs: number, fns: ReadonlyArray<() => unknown>): Summary[] {
  for (let r = 0; r < Math.min(20, runs); r++) for (const fn of fns) fn();
  const samples = fns.map(() => new Float64Array(runs));
  for (let r = 0; r < runs; r++)
    fns.forEach((fn, k) => {
      const t0 = performance.now();
      fn();
      samples[k][r] = performance.now() - t0;
    });
  return samples.map((s) => summarize(s));
}

export function runSimulateBench(runs = Number(process.env.BENCH_RUNS ?? 200)): SimulateBenchResult {
  const year = modelYearsOf('山东').pop();
  const model = year == null ? null : fittedModelOf('山东', year);
  if (!model) throw new Error('没有山东的模型文件（npm run backtest -- --write-model）');
  // Shares as the model carries them, else those measured on 山东 2022–2025 (calibrated.ts fitSharedShifts, as of
  // 2025: school 0.125, category 0.468), so the shared-shift path is timed too.
  const options = { draws: DRAWS, schoolShare: model.sharedShifts?.school || 0.125, categoryShare: model.sharedShifts?.category || 0.468 };
  const real = plan(model, 0.7, 3);
  const hopeless = plan(model, 0.0005, 0.001);
  const sim = simulatePlan(model, real, RANK, options);
  const worstSim = simulatePlan(model, hopeless, RANK, options);
  if (worstSim.admitted > 0) throw new Error(`最坏情形应无一录取，实际 ${worstSim.admitted}`);
  // The floor: the same number of cells in one typed array, each read, compared with its choice's threshold and
  // counted — never reached, as in the worst case, so the branch is as predictable as there.
  const cells = new Float64Array(CHOICES * DRAWS);
  for (let i = 0; i < cells.length; i++) cells[i] = Math.sin(i) * 0.3;
  const thresholds = new Float64Array(CHOICES).fill(1);
  let sink = 0;
  const [planTimes, worst, floor] = timeTogether(runs, [
    () => simulatePlan(model, real, RANK, options),
    () => simulatePlan(model, hopeless, RANK, options),
    () => {
      let c = 0;
      for (let i = 0; i < CHOICES; i++) {
        const t = thresholds[i];
        for (let d = i * DRAWS, end = d + DRAWS; d < end; d++) if (cells[d] >= t) c++;
      }
      sink += c;
    },
  ]);
  if (sink !== 0) throw new Error('下限循环不应计数');
  let examined = 0;
  for (let i = 0; i < CHOICES; i++) examined += sim.reach[i];
  return {
    model: `山东 ${year}`,
    method: sim.method,
    choices: CHOICES,
    draws: DRAWS,
    runs,
    plan: { ...planTimes, admitted: sim.admitted, expectedPosition: sim.expectedPosition, examinedPerDraw: examined },
    worst,
    floor,
    ratio: worst.p50 / floor.p50,
  };
}

/** Prints the figures of runSimulateBench. */
export function printSimulateResult(r: SimulateBenchResult) {
  const f = (n: number) => n.toFixed(2);
  console.log(
    `\n整套方案模拟（${r.model} 模型，${r.method === 'residuals' ? '残差分位数' : '生存网格（旧模型文件）'}；${r.choices} 个志愿 × ${r.draws} 次；${r.runs} 次计时）\n`,
  );
  console.log(
    `方案（最难的在前，平均每次检查 ${f(r.plan.examinedPerDraw)} 个志愿，录取 ${(r.plan.admitted * 100).toFixed(2)}%，平均落在第 ${f(r.plan.expectedPosition ?? Number.NaN)} 个）：p50 ${f(r.plan.p50)} ms，p99 ${f(r.plan.p99)} ms`,
  );
  console.log(`最坏情形（每次检查全部 ${r.choices} 个）：p50 ${f(r.worst.p50)} ms，p99 ${f(r.worst.p99)} ms`);
  console.log(`下限（同样 ${r.choices * r.draws} 个格的类型化数组单遍）：p50 ${f(r.floor.p50)} ms；最坏情形 / 下限 = ${r.ratio.toFixed(1)}×`);
  console.log(`负载（1 分钟平均）：${os.loadavg()[0].toFixed(2)}，${os.availableParallelism()} 核`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printSimulateResult(runSimulateBench());
}
