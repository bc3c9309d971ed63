import { optionKey } from './lines.js';
import type { AutofillOptions, AutofillPick, AutofillResult, ScoredOption, Tier, TierCounts, TierShortfall } from './types.js';
import { TIERS } from './types.js';

const TIER_INDEX: Record<Tier, number> = { 冲: 0, 稳: 1, 保: 2 };

/**
 * The spreading rules of the service's auto-fill (docs/volunteer-model.md "Auto-fill that spreads"). Without them the
 * engine keeps its plain picking (strata by count, 保 safest first), which can put dozens of 保 on one min score.
 */
export interface SpreadRules {
  /** At most this many picks of one school in the whole plan. */
  maxPerSchool: number;
  /**
   * At most this many picks whose newest min score is the same, in the whole plan — as a start: when a tier cannot be
   * filled from its own candidates under it (a 稳 band of calibrated probabilities is often only 3–4 points wide), the
   * cap is raised one at a time for that tier only, as far as needed, before any neighbouring tier is borrowed from.
   */
  maxPerScore: number;
}

export const DEFAULT_SPREAD: SpreadRules = { maxPerSchool: 3, maxPerScore: 2 };

/** The newest year's min score of an option (the score the line was last filled at), null when it has none. */
export function lineScore(s: ScoredOption): number | null {
  let best: { year: number; minScore: number | null } | null = null;
  for (const h of s.option.history) if (best == null || h.year > best.year) best = h;
  return best?.minScore ?? null;
}

/**
 * n items spread evenly over a list: the middle of each of n equal strata (all items when n ≥ length). Applied to a
 * tier sorted by P, it gives a gradient across the tier instead of bunching at one end.
 */
function spread<T>(items: T[], n: number): T[] {
  if (n >= items.length) return items.slice();
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(items[Math.floor(((i + 0.5) * items.length) / n)]);
  return out;
}

/** Above this probability options count as equally certain when ranking 保 candidates. */
const CERTAIN = 0.999;

/**
 * Spread picking of one tier: n targets evenly over the tier's probability range (P capped at CERTAIN, the
 * middle of n equal-width bins between the pool's lowest and highest P), and for each target the not yet chosen
 * option nearest to it that the caps allow (maxPerSchool, maxPerScore). Equal-width bins in P, not equal counts:
 * a 保 pool is mostly lines at P ≈ 1, and picking by count would take almost all of them there. Among options of
 * the same capped P the hardest (smallest estimated rank) is found first, so near-certain picks do not waste the score.
 */
function spreadTier(
  pool: readonly ScoredOption[],
  n: number,
  tier: Tier,
  allowed: (s: ScoredOption) => boolean,
  take: (s: ScoredOption, t: Tier) => void,
  chosen: ReadonlySet<ScoredOption>,
): void {
  if (n <= 0 || pool.length === 0) return;
  const safety = (s: ScoredOption) => Math.min(s.probability as number, CERTAIN);
  // P ascending; within equal capped P the hardest last, so a target at the top meets it first.
  const sorted = pool.slice().sort((a, b) => safety(a) - safety(b) || byDifficulty(b, a));
  const lo = safety(sorted[0]);
  const hi = safety(sorted[sorted.length - 1]);
  for (let k = 0; k < n; k++) {
    const target = n === 1 ? (tier === '保' ? hi : (lo + hi) / 2) : lo + ((k + 0.5) * (hi - lo)) / n;
    // First index whose P > target, then outwards to the nearest allowed option; ties go to the lower side, which
    // walks an equal-P block from its hardest option down.
    let a = 0;
    let b = sorted.length;
    while (a < b) {
      const m = (a + b) >> 1;
      if (safety(sorted[m]) <= target) a = m + 1;
      else b = m;
    }
    let up = a;
    let down = a - 1;
    let found: ScoredOption | null = null;
    while (up < sorted.length || down >= 0) {
      const cu = up < sorted.length ? sorted[up] : null;
      const cd = down >= 0 ? sorted[down] : null;
      const useUp = cu != null && (cd == null || safety(cu) - target < target - safety(cd));
      const c = useUp ? cu : cd;
      if (useUp) up++;
      else down--;
      if (c && !chosen.has(c) && allowed(c)) {
        found = c;
        break;
      }
    }
    if (!found) return;
    take(found, tier);
  }
}

/** Hardest first by estimated admission rank (smaller R is harder); options without one after those with one. */
function byRank(a: ScoredOption, b: ScoredOption): number {
  return (a.estimatedRank ?? Number.POSITIVE_INFINITY) - (b.estimatedRank ?? Number.POSITIVE_INFINITY) || 0;
}

/** Hardest first by reference score (higher is harder); options without one last. */
function byScore(a: ScoredOption, b: ScoredOption): number {
  return (b.referenceScore ?? Number.NEGATIVE_INFINITY) - (a.referenceScore ?? Number.NEGATIVE_INFINITY) || 0;
}

/** Difficulty, hardest first: by rank when both have one, else by reference score. */
function byDifficulty(a: ScoredOption, b: ScoredOption): number {
  return a.estimatedRank != null && b.estimatedRank != null ? byRank(a, b) : byScore(a, b);
}

/** Trims requested counts to the slot limit: 冲 first, then 稳, keeping 保 (safety) longest. */
function trimCounts(counts: TierCounts, slotLimit: number): TierCounts {
  const c: TierCounts = { 冲: Math.max(0, Math.floor(counts.冲)), 稳: Math.max(0, Math.floor(counts.稳)), 保: Math.max(0, Math.floor(counts.保)) };
  let excess = c.冲 + c.稳 + c.保 - Math.max(0, slotLimit);
  for (const t of ['冲', '稳', '保'] as const) {
    if (excess <= 0) break;
    const cut = Math.min(c[t], excess);
    c[t] -= cut;
    excess -= cut;
  }
  return c;
}

/**
 * Picks a plan from scored options.
 *
 * Candidates: options with a probability, not flagged 'unreachable', not 'wasteful' (unless allowWasteful, then only
 * after every non-wasteful 保), one per school + group + major (the first occurrence wins).
 *  - 冲 and 稳: sorted by P ascending and picked spread evenly over the tier (a gradient from the most ambitious
 *    reachable option towards the next tier);
 *  - 保: the safest first, but not wasteful: P descending with P capped at 99.9 % (beyond that every option is
 *    equally certain), ties broken by difficulty, hardest first, so the score is not spent on needlessly easy options.
 * A tier that runs short borrows from its neighbour: 保 takes the safest remaining 稳; 稳 takes the riskiest
 * remaining 保, then the safest remaining 冲; 冲 takes the riskiest remaining 稳 (resolved in that order, safety first).
 * Requests above the slot limit are trimmed from 冲, then 稳. The plan is ordered 冲 → 稳 → 保 by each option's own
 * tier and, within a tier, by difficulty: estimated admission rank ascending when every pick of the tier has one,
 * otherwise reference score descending; ties by P ascending.
 */
export function autofill(scored: readonly ScoredOption[], opts: AutofillOptions & { spread?: SpreadRules }): AutofillResult {
  const counts = trimCounts(opts.counts, opts.slotLimit);
  const notes: string[] = [];
  const requestedTotal = opts.counts.冲 + opts.counts.稳 + opts.counts.保;
  if (requestedTotal > opts.slotLimit) {
    notes.push(`请求的志愿数 ${requestedTotal} 超过上限 ${opts.slotLimit}，已按 冲${counts.冲}/稳${counts.稳}/保${counts.保} 填报（先减冲、再减稳）`);
  }

  const seen = new Set<string>();
  const pools: Record<Tier, ScoredOption[]> = { 冲: [], 稳: [], 保: [] };
  const wasteful: ScoredOption[] = [];
  for (const s of scored) {
    if (s.probability == null || s.tier == null || s.flags.includes('unreachable')) continue;
    const key = optionKey(s.option);
    if (seen.has(key)) continue;
    seen.add(key);
    if (s.flags.includes('wasteful')) wasteful.push(s);
    else pools[s.tier].push(s);
  }
  const byP = (a: ScoredOption, b: ScoredOption) => (a.probability as number) - (b.probability as number);
  const safety = (s: ScoredOption) => Math.min(s.probability as number, CERTAIN);
  const safestFirst = (a: ScoredOption, b: ScoredOption) => safety(b) - safety(a) || byDifficulty(a, b);
  pools.冲.sort(byP);
  pools.稳.sort(byP);
  pools.保.sort(safestFirst);
  if (opts.allowWasteful) pools.保.push(...wasteful.filter((w) => w.tier === '保').sort(safestFirst));

  const chosen = new Set<ScoredOption>();
  const picks: AutofillPick[] = [];
  const own: TierCounts = { 冲: 0, 稳: 0, 保: 0 };
  const borrowed: TierCounts = { 冲: 0, 稳: 0, 保: 0 };
  const rules = opts.spread;
  const perSchool = new Map<string, number>();
  const perScore = new Map<number, number>();
  /** Whether the spreading caps still allow the option (always, without rules). */
  let scoreCap = rules?.maxPerScore ?? Number.POSITIVE_INFINITY;
  const allowed = (s: ScoredOption) => {
    if (!rules) return true;
    if ((perSchool.get(s.option.schoolCode) ?? 0) >= rules.maxPerSchool) return false;
    const score = lineScore(s);
    return score == null || (perScore.get(score) ?? 0) < scoreCap;
  };
  const take = (s: ScoredOption, filledFor: Tier) => {
    chosen.add(s);
    picks.push({ scored: s, tier: s.tier as Tier, filledFor });
    if (s.tier === filledFor) own[filledFor]++;
    else borrowed[filledFor]++;
    perSchool.set(s.option.schoolCode, (perSchool.get(s.option.schoolCode) ?? 0) + 1);
    const score = lineScore(s);
    if (score != null) perScore.set(score, (perScore.get(score) ?? 0) + 1);
  };

  const raised: Partial<Record<Tier, number>> = {};
  if (rules) {
    for (const tier of TIERS) {
      for (scoreCap = rules.maxPerScore; own[tier] < counts[tier] && scoreCap <= Math.max(rules.maxPerScore, counts[tier]); scoreCap++) {
        if (scoreCap > rules.maxPerScore) raised[tier] = scoreCap;
        spreadTier(pools[tier], counts[tier] - own[tier], tier, allowed, take, chosen);
      }
    }
    scoreCap = rules.maxPerScore;
  } else {
    for (const s of spread(pools.冲, counts.冲)) take(s, '冲');
    for (const s of spread(pools.稳, counts.稳)) take(s, '稳');
    for (const s of pools.保.slice(0, counts.保)) take(s, '保');
  }

  const missing = (t: Tier) => counts[t] - own[t] - borrowed[t];
  const borrow = (t: Tier, from: ScoredOption[]) => {
    for (const s of from) {
      if (missing(t) <= 0) break;
      if (!chosen.has(s) && allowed(s)) take(s, t);
    }
  };
  const riskiest = (xs: ScoredOption[]) => xs.slice().sort(byP);
  const safest = (xs: ScoredOption[]) => xs.slice().sort((a, b) => byP(b, a));
  borrow('保', safest(pools.稳));
  borrow('稳', riskiest(pools.保));
  borrow('稳', safest(pools.冲));
  borrow('冲', riskiest(pools.稳));

  const shortfalls: TierShortfall[] = TIERS.map((tier) => ({
    tier,
    requested: counts[tier],
    own: own[tier],
    borrowed: borrowed[tier],
    missing: missing(tier),
  }));
  for (const t of TIERS) {
    if (raised[t]) notes.push(`${t}档的候选集中在少数几个分数上，同一最低分最多填了 ${raised[t]} 个`);
  }
  for (const s of shortfalls) {
    if (s.borrowed > 0) notes.push(`${s.tier}档候选不足，从相邻档位补充 ${s.borrowed} 个`);
    if (s.missing > 0) {
      const why = rules ? `没有更多可用的候选志愿（每所院校最多 ${rules.maxPerSchool} 个、同一最低分最多 ${rules.maxPerScore} 个）` : '没有更多可用的候选志愿';
      notes.push(`${s.tier}档仍缺 ${s.missing} 个：${why}`);
    }
  }

  const rankedTiers = new Set(TIERS.filter((t) => picks.every((p) => p.tier !== t || p.scored.estimatedRank != null)));
  picks.sort((a, b) => {
    if (a.tier !== b.tier) return TIER_INDEX[a.tier] - TIER_INDEX[b.tier];
    const d = rankedTiers.has(a.tier) ? byRank(a.scored, b.scored) : byScore(a.scored, b.scored);
    return d || byP(a.scored, b.scored);
  });
  return { picks, shortfalls, effectiveCounts: counts, notes };
}
