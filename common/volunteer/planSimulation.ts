/**
 * The whole plan simulated (issue 24): the answer of server/volunteer/planSimulation.ts, shown by the console's plan
 * report. Shares are of the simulated years (parallel 投档 in plan order, server/volunteer/engine/simulate.ts).
 */
import type { Tier } from './gradient.js';

/** One choice of a plan as the simulation takes it (an unsaved draft too): its place, its line and the tier shown. */
export interface DraftChoice {
  sort: number;
  lineId: number;
  tier: Tier | null;
}

/** The simulation's answer. */
export interface PlanSimulationView {
  /** The exam year the simulation is for. */
  year: number;
  draws: number;
  /** P(admitted by some choice) and P(滑档). */
  admitted: number;
  slide: number;
  /** P(landing in a choice of that tier). */
  byTier: Record<'冲' | '稳' | '保', number>;
  /** Per plan item (by sort): the share of years landing there, how often 投档 reaches it, why it is idle. */
  choices: Array<{ sort: number; landing: number; reach: number; idle: string | null; simulated: boolean }>;
  /** Mean landing position (1-based, over the years that admit). */
  expectedPosition: number | null;
  /** Chinese summary: P(录取), where the student lands, idle choices. */
  text: string;
}
