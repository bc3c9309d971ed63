/**
 * The pure parts of `npm run replay` (scripts/replay.ts, issue 24 item 6): a plan made as of year Y−1 replayed on
 * year Y's real lines. Shandong's 常规批 is parallel 投档 (平行志愿): a student is sent to the first choice, in plan
 * order, whose line they clear; the choices after it are never looked at. Year Y's line of a choice is its
 * programme's line (the same school and line identity, engine/identity.ts), found by the caller.
 */

/** Whether a choice's year-Y requirement admits the student's subjects. */
export type SubjectCheck = 'ok' | 'violation' | 'unknown';

/** One choice of a plan as year Y saw it. */
export interface ReplayChoice {
  /** Year Y's 投档最低位次 of the programme; null when the programme has no line in Y (a dead choice). */
  minRank: number | null;
  /**
   * The student's subjects against year Y's requirement of the line ('unknown' when no requirement is known; a dead
   * choice is not checked and is 'unknown').
   */
  subjects: SubjectCheck;
}

export interface ReplayOutcome {
  /** Choices in the plan. */
  choices: number;
  /** Choices whose programme has no line in Y. */
  dead: number;
  /** Live choices whose year-Y requirement the student's subjects do not meet. */
  violations: number;
  /** The choice the student is admitted at (1-based), null for 滑档 (no choice admits). */
  landedAt: number | null;
  /** Year Y's min rank of that choice's line, null for 滑档. */
  landedRank: number | null;
}

/**
 * Parallel 投档 of one plan in one year: the first choice that is live, allowed by the student's subjects and whose
 * min rank is at or after the student's rank (a larger number: the line took students down to it). A choice whose
 * requirement the student does not meet never admits: the official system refuses to save it, so it is a wasted slot.
 */
export function replayPlan(choices: readonly ReplayChoice[], studentRank: number): ReplayOutcome {
  let dead = 0;
  let violations = 0;
  let landedAt: number | null = null;
  let landedRank: number | null = null;
  choices.forEach((c, i) => {
    if (c.minRank == null) {
      dead++;
      return;
    }
    if (c.subjects === 'violation') {
      violations++;
      return;
    }
    if (landedAt == null && c.minRank >= studentRank) {
      landedAt = i + 1;
      landedRank = c.minRank;
    }
  });
  return { choices: choices.length, dead, violations, landedAt, landedRank };
}

/**
 * The best line the student could have entered in year Y: the smallest min rank at or after the student's rank among
 * the min ranks given (the caller passes year Y's lines the student may fill). Null when none is that low.
 */
export function bestReachable(minRanks: Iterable<number>, studentRank: number): number | null {
  let best: number | null = null;
  for (const r of minRanks) if (r >= studentRank && (best == null || r < best)) best = r;
  return best;
}

/**
 * Landing waste: how much further down the admitted line reaches than the best the student could have entered,
 * as a ratio of ranks − 1 (0: the best line open to them; 1: a line whose last admitted student ranked twice as far
 * down). Ranks, not scores: a ratio means the same at 5,000 and at 150,000.
 */
export function landingWaste(admittedRank: number, bestRank: number): number {
  if (!(bestRank > 0) || !(admittedRank > 0)) throw new Error('位次必须为正数');
  return admittedRank / bestRank - 1;
}

/**
 * The score of the candidate at rank r in a 一分一段 table (rows of score and cumulative count, any order): the
 * score of the first row whose cumulative count reaches r. Past the last row, the lowest score.
 */
export function scoreAtRank(table: ReadonlyArray<{ score: number; cumulativeRank: number }>, rank: number): number {
  const rows = [...table].sort((a, b) => a.cumulativeRank - b.cumulativeRank || b.score - a.score);
  if (rows.length === 0) throw new Error('一分一段表为空');
  for (const r of rows) if (r.cumulativeRank >= rank) return r.score;
  return rows[rows.length - 1].score;
}

export interface NaiveLine<T> {
  id: T;
  /** The line's min rank in the planning year (Y−1). */
  minRank: number;
}

export interface NaiveOptions {
  /** Window around the student's rank r: from low × r … */
  low: number;
  /** … to high × r. */
  high: number;
  /** Choices to fill. */
  count: number;
}

export const NAIVE_DEFAULTS: NaiveOptions = { low: 0.8, high: 2.5, count: 96 };

/**
 * The naive planner, a careful person with a spreadsheet of last year's lines: `count` lines spread over the rank
 * window [low × r, high × r], evenly in log rank (the same number of choices from 0.8 r to 1.6 r as from 1.6 r to
 * 3.2 r), ordered most selective first. For each of `count` targets evenly placed in log rank the nearest line not
 * yet taken is chosen. When the window holds fewer lines than choices, it takes them all and then the lines just
 * past the window's ends, the less selective side first (what such a person does to fill every slot safely).
 * The caller passes only lines the student may fill.
 */
export function naivePlan<T>(lines: ReadonlyArray<NaiveLine<T>>, studentRank: number, options: NaiveOptions = NAIVE_DEFAULTS): T[] {
  const lo = options.low * studentRank;
  const hi = options.high * studentRank;
  const sorted = [...lines].sort((a, b) => a.minRank - b.minRank);
  const inWindow = sorted.filter((l) => l.minRank >= lo && l.minRank <= hi);
  let picked: Array<NaiveLine<T>>;
  if (inWindow.length <= options.count) {
    const after = sorted.filter((l) => l.minRank > hi);
    const before = sorted.filter((l) => l.minRank < lo).reverse();
    picked = [...inWindow, ...after, ...before].slice(0, options.count);
  } else {
    picked = spreadInLogRank(inWindow, lo, hi, options.count);
  }
  return picked.sort((a, b) => a.minRank - b.minRank).map((l) => l.id);
}

/** n of the lines (sorted by min rank, more than n) nearest to n targets evenly spaced in log rank over [lo, hi]. */
function spreadInLogRank<T>(sorted: ReadonlyArray<NaiveLine<T>>, lo: number, hi: number, n: number): Array<NaiveLine<T>> {
  const taken = new Uint8Array(sorted.length);
  const logs = sorted.map((l) => Math.log(l.minRank));
  const a = Math.log(lo);
  const b = Math.log(hi);
  const out: Array<NaiveLine<T>> = [];
  for (let k = 0; k < n; k++) {
    const target = n === 1 ? (a + b) / 2 : a + ((k + 0.5) * (b - a)) / n;
    // First line at or above the target, then outwards to the nearest one not taken (ties to the more selective).
    let i = 0;
    let j = sorted.length;
    while (i < j) {
      const m = (i + j) >> 1;
      if (logs[m] < target) i = m + 1;
      else j = m;
    }
    let up = i;
    let down = i - 1;
    while (up < sorted.length && taken[up]) up++;
    while (down >= 0 && taken[down]) down--;
    const pick = down < 0 ? up : up >= sorted.length ? down : target - logs[down] <= logs[up] - target ? down : up;
    taken[pick] = 1;
    out.push(sorted[pick]);
  }
  return out;
}

/** The q-quantile (0–1) of values, linear between order statistics; NaN when empty. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((x, y) => x - y);
  const at = q * (s.length - 1);
  const i = Math.floor(at);
  return i + 1 < s.length ? s[i] + (at - i) * (s[i + 1] - s[i]) : s[i];
}

/** One student's replay with the waste of where they landed (null for 滑档). */
export interface StudentReplay extends ReplayOutcome {
  waste: number | null;
}

/**
 * replayPlan with the landing waste against `best` (bestReachable over the lines the student may fill). The line the
 * student landed on was open to them, so a best that misses it (it was left out of the caller's list) is replaced
 * by it: the waste is never negative.
 */
export function replayStudent(choices: readonly ReplayChoice[], studentRank: number, best: number | null): StudentReplay {
  const out = replayPlan(choices, studentRank);
  if (out.landedRank == null) return { ...out, waste: null };
  return { ...out, waste: landingWaste(out.landedRank, best == null ? out.landedRank : Math.min(best, out.landedRank)) };
}

export interface ReplaySummary {
  plans: number;
  choices: number;
  dead: number;
  /** dead / choices. */
  deadShare: number;
  violations: number;
  /** Plans with at least one subject violation. */
  plansWithViolation: number;
  slides: number;
  /** 滑档 / plans. */
  slideShare: number;
  /** Median landing choice (1-based) of the admitted. */
  landingMedian: number;
  wasteMedian: number;
  wasteP90: number;
}

/** The figures of a set of replayed plans (a year's, or every year's pooled). */
export function summarise(rows: readonly StudentReplay[]): ReplaySummary {
  const choices = rows.reduce((n, r) => n + r.choices, 0);
  const dead = rows.reduce((n, r) => n + r.dead, 0);
  const landed = rows.filter((r) => r.landedAt != null);
  const wastes = landed.map((r) => r.waste).filter((w): w is number => w != null);
  return {
    plans: rows.length,
    choices,
    dead,
    deadShare: choices ? dead / choices : Number.NaN,
    violations: rows.reduce((n, r) => n + r.violations, 0),
    plansWithViolation: rows.filter((r) => r.violations > 0).length,
    slides: rows.length - landed.length,
    slideShare: rows.length ? (rows.length - landed.length) / rows.length : Number.NaN,
    landingMedian: quantile(
      landed.map((r) => r.landedAt as number),
      0.5,
    ),
    wasteMedian: quantile(wastes, 0.5),
    wasteP90: quantile(wastes, 0.9),
  };
}
