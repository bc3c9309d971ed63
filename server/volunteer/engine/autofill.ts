import { optionKey } from './lines.js';
import type { AutofillOptions, AutofillPick, AutofillResult, ScoredOption, Tier, TierCounts, TierShortfall } from './types.js';
import { TIERS } from './types.js';

const TIER_INDEX: Record<Tier, number> = { 冲: 0, 稳: 1, 保: 2 };

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
export function autofill(scored: readonly ScoredOption[], opts: AutofillOptions): AutofillResult {
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
  const take = (s: ScoredOption, filledFor: Tier) => {
    chosen.add(s);
    picks.push({ scored: s, tier: s.tier as Tier, filledFor });
    if (s.tier === filledFor) own[filledFor]++;
    else borrowed[filledFor]++;
  };

  for (const s of spread(pools.冲, counts.冲)) take(s, '冲');
  for (const s of spread(pools.稳, counts.稳)) take(s, '稳');
  for (const s of pools.保.slice(0, counts.保)) take(s, '保');

  const missing = (t: Tier) => counts[t] - own[t] - borrowed[t];
  const borrow = (t: Tier, from: ScoredOption[]) => {
    for (const s of from) {
      if (missing(t) <= 0) break;
      if (!chosen.has(s)) take(s, t);
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
  for (const s of shortfalls) {
    if (s.borrowed > 0) notes.push(`${s.tier}档候选不足，从相邻档位补充 ${s.borrowed} 个`);
    if (s.missing > 0) notes.push(`${s.tier}档仍缺 ${s.missing} 个：没有更多可用的候选志愿`);
  }

  const rankedTiers = new Set(TIERS.filter((t) => picks.every((p) => p.tier !== t || p.scored.estimatedRank != null)));
  picks.sort((a, b) => {
    if (a.tier !== b.tier) return TIER_INDEX[a.tier] - TIER_INDEX[b.tier];
    const d = rankedTiers.has(a.tier) ? byRank(a.scored, b.scored) : byScore(a.scored, b.scored);
    return d || byP(a.scored, b.scored);
  });
  return { picks, shortfalls, effectiveCounts: counts, notes };
}
