import { admissionMatrix, type SimChoice, type SimulateOptions, word } from './simulate.js';

/** Offset of the not-offered draws' stream from the simulation's own streams (simulate.ts word). */
const OFFERED_STREAM = 0x7f4a7c15;

/**
 * Auto-fill that optimises where the student lands (issue 24 item 2). In Shandong's parallel 投档 the student is sent
 * to the first choice in plan order whose line they clear, so with the plan ordered by value (most wanted first) the
 * student lands at the most valuable choice that admits them. The plan is chosen to maximise the expected value of
 * that landing over simulated admission years (simulate.ts: one common year shift, shifts shared by a school's and a
 * category's lines, each line's own move):
 *
 *   F(S) = mean over draws d of  max { value(c) : c ∈ S admits in d }   (SLIDE when none admits: 滑档)
 *
 * F is monotone and submodular (a facility-location objective: adding a line helps only in the draws where it beats
 * the current landing, and less so the more lines there are), so the greedy choice — each step the line with the
 * largest gain — is within 1 − 1/e of the best plan, and the lazy greedy (gains only shrink, so a stale gain is an
 * upper bound) finds the same plan re-evaluating only a few lines per step.
 *
 * SLIDE lies far below every value, so the first lines bought are those that stop 滑档 in the draws that have it (the
 * 保 tail) and no more than that; every later line buys value in the draws where it beats the landing (冲 and 稳).
 * The value of a line with no preferences is how selective it is: −log(its estimated min rank) — the rank a family
 * gives up is relative (2,000 vs 2,200 is like 100,000 vs 110,000). Preferences add to it in the same units
 * (valueOf in the caller).
 *
 * Rules: only lines with P ≥ chongFloor (no lottery tickets); at most maxPerSchool per school; one line per programme;
 * locked choices are part of the plan from the start and keep their places.
 */

export interface OptCandidate {
  /** The caller's index of the line. */
  key: number;
  /** log of the estimated min rank (SimChoice.mu): what the pool is thinned by. */
  mu: number;
  /** The line as the simulation draws it, built only for the lines that make the pool (most never do). */
  sim: () => SimChoice;
  /** Preference-weighted value (higher is better; log-rank units). */
  value: number;
  /** The line's own calibrated 录取概率. */
  probability: number;
  /** School code (maxPerSchool). */
  school: string;
  /** Programme identity (no two lines of one programme). */
  programme: string;
}

export interface OptimiseOptions {
  /** Choices in the plan (Shandong 96). */
  slots: number;
  /** Lines below this 录取概率 are not taken (default 0.15). */
  chongFloor?: number;
  /** At most this many lines per school (default 3). */
  maxPerSchool?: number;
  /** Simulated years the choice is made on (default 2,000). */
  draws?: number;
  /** Fixed choices: the candidate key and its 0-based place in the plan. */
  locked?: ReadonlyArray<{ key: number; position: number }>;
  /**
   * Share of lines the admission year still offers (default 1): in each draw a line is offered with this chance,
   * independently, so the tail holds enough lines that one stopped programme does not leave the student without a
   * place.
   */
  offered?: number;
  simulate?: Omit<SimulateOptions, 'draws'>;
}

export interface OptimiseResult {
  /** Candidate keys in plan order. */
  order: number[];
  /** Keys chosen because they stop 滑档 in some draw where nothing above admitted (the safety tail). */
  safety: Set<number>;
  /** Share of the optimisation's draws in which no chosen line admits (before the caller's final simulation). */
  slide: number;
  /** Candidates considered after pruning, and the draws. */
  pool: number;
  draws: number;
  /** Lines left out by the floor, the school cap or as a second line of a programme. */
  belowFloor: number;
}

export const OPTIMISE_DEFAULTS = { chongFloor: 0.15, maxPerSchool: 3, draws: 2_000 } as const;

/** Buckets of estimated log rank the pool is thinned by, and the lines kept per bucket (12: measured in the replay, docs/benchmarks.md). */
const BUCKET = 0.02;
const PER_BUCKET = 12;
/** Lines this certain are insurance only: the most valuable SAFE_KEEP of them stay in the pool. */
const SAFE_P = 0.995;
const SAFE_KEEP = 60;
/** Slots the simulated years leave unused are filled with lines at least this likely (see optimisePlan). */
const FILL_P = 0.5;

/**
 * The pool the greedy works on: lines above the floor, thinned to the PER_BUCKET most valuable per BUCKET of estimated
 * log rank (lines of one bucket admit in nearly the same years; more of them only cost time) and the SAFE_KEEP most
 * valuable near-certain lines. Locked lines always stay.
 */
function poolOf(cands: readonly OptCandidate[], floor: number, locked: ReadonlySet<number>): { pool: OptCandidate[]; belowFloor: number } {
  let belowFloor = 0;
  const buckets = new Map<number, OptCandidate[]>();
  const safe: OptCandidate[] = [];
  const pool: OptCandidate[] = [];
  for (const c of cands) {
    if (locked.has(c.key)) {
      pool.push(c);
      continue;
    }
    if (!(c.probability >= floor)) {
      belowFloor++;
      continue;
    }
    if (c.probability >= SAFE_P) {
      safe.push(c);
      continue;
    }
    const b = Math.floor(c.mu / BUCKET);
    const list = buckets.get(b);
    if (list) list.push(c);
    else buckets.set(b, [c]);
  }
  const byValue = (a: OptCandidate, b: OptCandidate) => b.value - a.value || a.key - b.key;
  for (const list of buckets.values()) {
    list.sort(byValue);
    // Distinct schools first: a bucket's lines of one school move together.
    const seen = new Set<string>();
    const firsts = list.filter((c) => !seen.has(c.school) && seen.add(c.school));
    const rest = list.filter((c) => !firsts.includes(c));
    pool.push(...[...firsts, ...rest].slice(0, PER_BUCKET));
  }
  pool.push(...topByValue(safe, SAFE_KEEP));
  return { pool, belowFloor };
}

/** FNV-1a of a string (32 bits). */
function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The k most valuable candidates, most valuable first (ties: the harder line, then the key), without sorting all. */
function topByValue(list: readonly OptCandidate[], k: number): OptCandidate[] {
  const order = (a: OptCandidate, b: OptCandidate) => b.value - a.value || a.mu - b.mu || a.key - b.key;
  if (list.length <= k * 4) return [...list].sort(order).slice(0, k);
  // The k-th largest value by a numeric sort of the values alone (typed, fast), then only those at or above it.
  const values = Float64Array.from(list, (c) => c.value).sort();
  const cut = values[Math.max(0, values.length - k)];
  return list
    .filter((c) => c.value >= cut)
    .sort(order)
    .slice(0, k);
}

/** Max-heap of (bound, index) on two parallel arrays. */
class Heap {
  private readonly idx: number[] = [];
  constructor(private readonly bound: Float64Array) {}
  get size() {
    return this.idx.length;
  }
  peekBound(): number {
    return this.idx.length ? this.bound[this.idx[0]] : Number.NEGATIVE_INFINITY;
  }
  push(i: number) {
    const a = this.idx;
    a.push(i);
    let k = a.length - 1;
    while (k > 0) {
      const p = (k - 1) >> 1;
      if (this.bound[a[p]] >= this.bound[a[k]]) break;
      [a[p], a[k]] = [a[k], a[p]];
      k = p;
    }
  }
  pop(): number {
    const a = this.idx;
    const top = a[0];
    const last = a.pop() as number;
    if (a.length) {
      a[0] = last;
      let k = 0;
      for (;;) {
        const l = 2 * k + 1;
        const r = l + 1;
        let m = k;
        if (l < a.length && this.bound[a[l]] > this.bound[a[m]]) m = l;
        if (r < a.length && this.bound[a[r]] > this.bound[a[m]]) m = r;
        if (m === k) break;
        [a[m], a[k]] = [a[k], a[m]];
        k = m;
      }
    }
    return top;
  }
}

/**
 * Chooses and orders up to `slots` of the candidates (see the file comment). `model` and `studentRank` are the
 * simulation's (simulate.ts simulatePlan).
 */
export function optimisePlan(
  model: Parameters<typeof admissionMatrix>[0],
  cands: readonly OptCandidate[],
  studentRank: number,
  options: OptimiseOptions,
): OptimiseResult {
  const floor = options.chongFloor ?? OPTIMISE_DEFAULTS.chongFloor;
  const cap = options.maxPerSchool ?? OPTIMISE_DEFAULTS.maxPerSchool;
  const lockedList = options.locked ?? [];
  const lockedKeys = new Set(lockedList.map((l) => l.key));
  const { pool, belowFloor } = poolOf(cands, floor, lockedKeys);
  const empty = { order: [], safety: new Set<number>(), slide: 1, pool: pool.length, draws: 0, belowFloor };
  if (!pool.length || options.slots <= 0) return empty;
  const { draws, rows } = admissionMatrix(
    model,
    pool.map((c) => c.sim()),
    studentRank,
    { ...options.simulate, draws: options.draws ?? OPTIMISE_DEFAULTS.draws },
  );
  const offered = options.offered ?? 1;
  if (offered < 1) {
    pool.forEach((c, i) => {
      const key = hashString(c.programme);
      const row = rows[i];
      for (let d = 0; d < draws; d++) if (row[d] && word(key + OFFERED_STREAM, d) / 4294967296 >= offered) row[d] = 0;
    });
  }
  // Per draw, the value of where the student lands so far (SLIDE: nowhere). The plan is ordered by value, so 投档
  // lands at the most valuable admitting choice. (Tried: a landing worth what the line turned out to be in that draw,
  // penalising volatile lines — it filled the plan with 稳 lines and landed worse in the replay of 2023–2026; see
  // docs/benchmarks.md.)
  const SLIDE = -1e7;
  const cur = new Float64Array(draws).fill(SLIDE);
  const perSchool = new Map<string, number>();
  const programmes = new Set<string>();
  const chosen: number[] = [];
  const safety = new Set<number>();
  const take = (i: number) => {
    const c = pool[i];
    const row = rows[i];
    let covered = false;
    for (let d = 0; d < draws; d++) {
      if (row[d] && c.value > cur[d]) {
        if (cur[d] === SLIDE) covered = true;
        cur[d] = c.value;
      }
    }
    if (covered && !lockedKeys.has(c.key)) safety.add(c.key);
    chosen.push(i);
    perSchool.set(c.school, (perSchool.get(c.school) ?? 0) + 1);
    programmes.add(c.programme);
  };
  const gainOf = (i: number) => {
    const v = pool[i].value;
    const row = rows[i];
    let g = 0;
    for (let d = 0; d < draws; d++) if (row[d] && v > cur[d]) g += v - cur[d];
    return g;
  };
  const isLocked = new Uint8Array(pool.length);
  pool.forEach((c, i) => {
    if (lockedKeys.has(c.key)) {
      isLocked[i] = 1;
      take(i);
    }
  });
  const free = Math.max(0, options.slots - chosen.length);
  const bound = new Float64Array(pool.length);
  const heap = new Heap(bound);
  for (let i = 0; i < pool.length; i++) {
    if (isLocked[i]) continue;
    bound[i] = gainOf(i);
    if (bound[i] > 0) heap.push(i);
  }
  let added = 0;
  while (added < free && heap.size) {
    const i = heap.pop();
    const c = pool[i];
    if (programmes.has(c.programme) || (perSchool.get(c.school) ?? 0) >= cap) continue;
    const g = gainOf(i);
    if (g <= 0) continue;
    if (g < heap.peekBound()) {
      bound[i] = g;
      heap.push(i);
      continue;
    }
    take(i);
    added++;
  }
  let slides = 0;
  for (let d = 0; d < draws; d++) if (cur[d] === SLIDE) slides++;
  // Slots left when no line gains any more in the simulated years (the plan already lands as well as the pool allows):
  // filled with the most valuable lines that admit at least half the time — they cannot worsen the landing (a line
  // below it is looked at only when everything above failed) and they are the cover for what the model does not
  // draw (a programme stopped, a rule changed).
  const fill: OptCandidate[] = [];
  if (added < free) {
    const taken = new Set(chosen.map((i) => pool[i].key));
    // The most valuable spare lines; a few times more than the free slots covers those the caps turn away.
    const spare = topByValue(
      cands.filter((c) => !taken.has(c.key) && c.probability >= Math.max(floor, FILL_P)),
      (free - added) * 8,
    );
    for (const c of spare) {
      if (added >= free) break;
      if (programmes.has(c.programme) || (perSchool.get(c.school) ?? 0) >= cap) continue;
      programmes.add(c.programme);
      perSchool.set(c.school, (perSchool.get(c.school) ?? 0) + 1);
      fill.push(c);
      added++;
    }
  }
  // Plan order: locked choices at their places, the rest by value, most wanted first (ties: the harder line first).
  const rest = [...chosen.filter((i) => !isLocked[i]).map((i) => pool[i]), ...fill]
    .sort((a, b) => b.value - a.value || a.mu - b.mu || a.key - b.key)
    .map((c) => c.key);
  const total = chosen.length + fill.length;
  const order = new Array<number | null>(total).fill(null);
  for (const l of [...lockedList].sort((a, b) => a.position - b.position)) {
    if (!pool.some((c) => c.key === l.key)) continue;
    let p = Math.min(Math.max(0, l.position), total - 1);
    while (order[p] != null) p = (p + 1) % total;
    order[p] = l.key;
  }
  let k = 0;
  for (let p = 0; p < total; p++) if (order[p] == null) order[p] = rest[k++];
  return { order: order as number[], safety, slide: slides / draws, pool: pool.length, draws, belowFloor };
}
