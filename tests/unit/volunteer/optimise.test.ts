// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { type OptCandidate, optimisePlan } from '../../../server/volunteer/engine/optimise.js';
import { type SimChoice, simulatePlan } from '../../../server/volunteer/engine/simulate.js';
import { fittedModelOf } from '../../../server/volunteer/modelFiles.js';
import { mulberry32 as rng } from '../../seededRandom.js';

/**
 * The landing optimiser (server/volunteer/engine/optimise.ts) on synthetic catalogues drawn from a seeded generator,
 * with the real fitted Shandong model (as of 2025): whatever the student and catalogue, the plan never breaks the
 * 冲 floor, the school cap, one line per programme or a locked place, and it keeps 滑档 at zero in its own draws
 * whenever the catalogue has safe lines; ordered by value, the student lands at the best line that admits.
 */

const model = fittedModelOf('山东', 2025);
if (!model) throw new Error('model-shandong-2025.json missing');

/** P(admitted) of one line by the simulation itself (so the floor is tested against the model's own chance). */
function chanceOf(sim: SimChoice, rank: number): number {
  return simulatePlan(model as NonNullable<typeof model>, [sim], rank, { draws: 2_000 }).admitted;
}

function catalogue(seed: number, rank: number, lines: number) {
  const r = rng(seed);
  const cands: OptCandidate[] = [];
  for (let k = 0; k < lines; k++) {
    // Lines from 0.5 r to 8 r, log-uniform; 150 schools; some programmes printed twice (a second code).
    const mu = Math.log(rank) + Math.log(0.5) + r() * Math.log(16);
    const school = `S${Math.floor(r() * 150)}`;
    const programme = r() < 0.05 && k > 0 ? cands[k - 1].programme : `P${k}`;
    const sim: SimChoice = {
      mu,
      band: Math.min(model!.cells.length - 1, Math.floor(r() * model!.cells.length)),
      years: 3,
      widened: false,
      school,
      category: `C${k % 40}`,
      tier: '稳',
      id: `L${k}`,
    };
    const bonus = r() < 0.2 ? Math.log(1.4) : 0;
    cands.push({ key: k, mu, sim: () => sim, value: -mu + bonus, probability: chanceOf(sim, rank), school, programme });
  }
  return cands;
}

describe('landing optimiser (property test over random students and catalogues)', () => {
  const seeds = [1, 2, 3, 4, 5, 6];
  for (const seed of seeds) {
    it(`seed ${seed}: floor, school cap, one line per programme, locks kept, no 滑档 in its draws, ordered by value`, () => {
      const r = rng(seed * 7919);
      const rank = Math.round(2_000 + r() * 150_000);
      const cands = catalogue(seed, rank, 900);
      const floor = 0.1 + r() * 0.2;
      const cap = 1 + Math.floor(r() * 4);
      const lockedKeys = cands.filter((c) => c.probability < floor).slice(0, 2);
      const locked = lockedKeys.map((c, i) => ({ key: c.key, position: i * 10 + 3 }));
      const out = optimisePlan(model!, cands, rank, { slots: 96, chongFloor: floor, maxPerSchool: cap, locked, offered: 0.85 });
      const byKey = new Map(cands.map((c) => [c.key, c]));
      const picked = out.order.map((k) => byKey.get(k) as OptCandidate);
      expect(picked.length).toBeGreaterThan(0);
      expect(picked.length).toBeLessThanOrEqual(96);
      const lockedSet = new Set(locked.map((l) => l.key));
      // The floor holds for every line the optimiser chose (locked lines are the expert's).
      for (const c of picked) if (!lockedSet.has(c.key)) expect(c.probability).toBeGreaterThanOrEqual(floor);
      // School cap and one line per programme.
      const perSchool = new Map<string, number>();
      for (const c of picked) perSchool.set(c.school, (perSchool.get(c.school) ?? 0) + 1);
      const unlockedPerSchool = new Map<string, number>();
      for (const c of picked) if (!lockedSet.has(c.key)) unlockedPerSchool.set(c.school, (unlockedPerSchool.get(c.school) ?? 0) + 1);
      expect(Math.max(...unlockedPerSchool.values())).toBeLessThanOrEqual(cap);
      expect(new Set(picked.map((c) => c.programme)).size).toBe(picked.length);
      // Locked lines at their places.
      for (const l of locked) expect(out.order[l.position]).toBe(l.key);
      // The rest ordered by value, most wanted first.
      const free = picked.filter((c) => !lockedSet.has(c.key));
      for (let i = 1; i < free.length; i++) expect(free[i - 1].value).toBeGreaterThanOrEqual(free[i].value);
      // Safe lines exist (up to 8 r), so no simulated year of the optimiser's own is left without a place.
      expect(out.slide).toBe(0);
      expect(out.safety.size).toBeGreaterThanOrEqual(1);
    });
  }

  it('buys value where the student lands: the plan lands better than the same number of lines spread evenly', () => {
    const rank = 20_000;
    const cands = catalogue(42, rank, 1200);
    const out = optimisePlan(model!, cands, rank, { slots: 40, chongFloor: 0.15, maxPerSchool: 3 });
    const byKey = new Map(cands.map((c) => [c.key, c]));
    const plan = out.order.map((k) => byKey.get(k) as OptCandidate);
    // A spreadsheet plan: 40 lines above the floor evenly spread over the eligible range, hardest first, one per programme.
    const eligible = cands.filter((c) => c.probability >= 0.15).sort((a, b) => a.mu - b.mu);
    const even = Array.from({ length: 40 }, (_, i) => eligible[Math.floor((i * (eligible.length - 1)) / 39)]);
    const landed = (list: OptCandidate[]) => {
      const sim = simulatePlan(
        model!,
        list.map((c) => c.sim()),
        rank,
        { draws: 10_000 },
      );
      // Expected value of the landing (−log rank of the line), over the admitting years.
      return { value: sim.landing.reduce((s, p, i) => s + p * list[i].value, 0) / sim.admitted, admitted: sim.admitted };
    };
    const a = landed(plan);
    const b = landed(even);
    expect(a.admitted).toBeGreaterThanOrEqual(0.995);
    expect(a.value).toBeGreaterThan(b.value);
  });

  it('with no line above the floor it proposes nothing', () => {
    const rank = 5_000;
    const cands = catalogue(7, rank, 200).map((c) => ({ ...c, probability: 0.05 }));
    expect(optimisePlan(model!, cands, rank, { slots: 96 }).order).toEqual([]);
  });
});
