/**
 * Types of the acceptance-rate engine. The engine is pure: no database, no HTTP, no clock. Callers load lines,
 * rank tables and batch lines (see server/db/seed/admission.ts for the tables) and pass plain objects in.
 */

import type { Method, OptionFlag } from '../../../common/volunteer/chances.js';
import type { Tier } from '../../../common/volunteer/gradient.js';

/** 冲 (reach), 稳 (match), 保 (safety): the type is shared with the console (common/volunteer/gradient.ts). */
export type { Tier };
export const TIERS: readonly Tier[] = ['冲', '稳', '保'];

/** One row of a 一分一段 table: candidates scoring at or above `score`. */
export interface SegmentRow {
  score: number;
  cumulativeRank: number;
}

/** A 一分一段 table sorted by score, highest first (use prepareSegmentTable). */
export interface SegmentTable {
  readonly rows: readonly SegmentRow[];
  /** Highest and lowest score in the table. */
  readonly top: number;
  readonly bottom: number;
  /** Cumulative count of the lowest row: everybody in the table. */
  readonly total: number;
}

export type RankFlag = 'exact' | 'interpolated' | 'above-table' | 'below-table';

export interface RankLookup {
  rank: number;
  flag: RankFlag;
}

/** What is known about an option (a volunteer unit) in one past year. */
export interface HistoryYear {
  year: number;
  minScore: number | null;
  minRank: number | null;
  /** 招生计划 of that year, when known. */
  planCount?: number | null;
  /** The batch line (控制线) of that year and batch, for the 线差法; settings.batchLineByYear is used when absent. */
  batchLine?: number | null;
  /** Candidates in that year's table, to convert ranks between years; settings.cohortByYear is used when absent. */
  cohortSize?: number | null;
}

/** A volunteer unit: 专业+院校 (Shandong), or a 院校专业组 with its major (3+1+2). */
export interface AdmissionOption {
  id: string;
  schoolCode: string;
  schoolName?: string | null;
  groupCode?: string | null;
  majorName?: string | null;
  history: readonly HistoryYear[];
  /** This year's plan count, for the plan-size adjustment. */
  planNow?: number | null;
}

export interface StudentProfile {
  score: number;
  /** 位次 in this year's 一分一段 table (rankForScore). Without it only the 线差法 can run. */
  rank?: number | null;
  /** The year being filled; history years are weighted newest first relative to this. */
  year: number;
  /** This year's batch line for the 线差法. */
  batchLine?: number | null;
  /** This year's number of candidates, for converting past ranks (equivalentRank). */
  cohortSize?: number | null;
}

export interface TierBands {
  /** P below this is 冲. Default 0.40. */
  rushBelow: number;
  /** P above this is 保; between the two (inclusive) is 稳. Default 0.80. */
  safeAbove: number;
}

export interface EngineSettings {
  bands: TierBands;
  /** Weights of the newest, second and third newest year. Default [0.5, 0.3, 0.2]; renormalised over the years used. */
  yearWeights: readonly number[];
  /** σ is at least this share of the estimated rank. Default 0.05. */
  sigmaFloorRatio: number;
  /** 线差法: σ in points is at least this. Default 4 (see README). */
  scoreSigmaFloor: number;
  /** Plan-size factor plan_now / plan_avg is clamped to this range. Default [0.5, 2]. */
  planFactorRange: readonly [number, number];
  /** P below this flags 'unreachable'. Default 0.05. */
  unreachableBelow: number;
  /** P above this, and the score at least wastefulScoreMargin above the option's reference score, flags 'wasteful'. */
  wastefulAbove: number;
  /** Points above the option's reference score (its line difference re-based on this year's batch line). Default 20. */
  wastefulScoreMargin: number;
  /** Fallback batch lines per year, when a HistoryYear lacks one. */
  batchLineByYear?: Readonly<Record<number, number>>;
  /** Fallback cohort sizes per year, when a HistoryYear lacks one. */
  cohortByYear?: Readonly<Record<number, number>>;
}

/** The method and flags of an estimate are on the wire too (common/volunteer/chances.ts). */
export type { Method, OptionFlag };

/** One year as used in an estimate. */
export interface YearUsed {
  year: number;
  weight: number;
  minScore: number | null;
  minRank: number | null;
  /** Rank method: minRank converted to this year's cohort (equal to minRank when no cohort sizes are known). */
  scaledRank?: number;
  /** 线差法: minScore − that year's batch line. */
  lineDiff?: number;
  batchLine?: number | null;
}

export interface Explanation {
  method: Method;
  years: YearUsed[];
  /** Rank method: estimated admission rank R. 线差法: estimated line difference. */
  estimate: number | null;
  sigma: number | null;
  /** Rank method: the student's rank r. 线差法: the student's line difference score − batch line. */
  student: number | null;
  probability: number | null;
  tier: Tier | null;
  /** plan_now / plan_avg as applied (after clamping), when plan counts were known. */
  planFactor: number | null;
  /** Score this option takes this year, estimated (used for the 'wasteful' flag). */
  referenceScore: number | null;
  flags: readonly OptionFlag[];
  /** One Chinese line (built on first read), e.g. 按位次法：2025年最低位次 12345（1年数据），估计录取位次 12345，σ=617，你的位次 10000，录取概率 99.99%，保. */
  text: string;
}

/**
 * Results from the engine are class instances whose `explanation` is a lazy getter: object spread does not copy it,
 * JSON.stringify does (toJSON).
 */
export interface ScoredOption {
  option: AdmissionOption;
  method: Method;
  /** null when neither method had data. */
  probability: number | null;
  tier: Tier | null;
  flags: readonly OptionFlag[];
  /** Estimated admission rank R (rank method), for ordering by difficulty; null for the 线差法. */
  estimatedRank: number | null;
  /** Reference score (see Explanation.referenceScore), for ordering 线差法 options by difficulty. */
  referenceScore: number | null;
  explanation: Explanation;
}

export type TierCounts = Record<Tier, number>;

export interface AutofillOptions {
  counts: TierCounts;
  /** Volunteer units per plan (Shandong 96). */
  slotLimit: number;
  /** Allow 'wasteful' options as a last resort for 保. Default false. */
  allowWasteful?: boolean;
}

export interface AutofillPick {
  scored: ScoredOption;
  /** The tier the option belongs to by its probability. */
  tier: Tier;
  /** The tier whose quota it fills (differs from tier when taken from a neighbouring tier). */
  filledFor: Tier;
}

export interface TierShortfall {
  tier: Tier;
  requested: number;
  /** Taken from the tier itself. */
  own: number;
  /** Taken from neighbouring tiers to make up for a shortfall. */
  borrowed: number;
  /** Still missing after borrowing. */
  missing: number;
}

export interface AutofillResult {
  picks: AutofillPick[];
  shortfalls: TierShortfall[];
  /** Requested counts after trimming to the slot limit (trimmed from 冲 first, then 稳, keeping 保). */
  effectiveCounts: TierCounts;
  /** Chinese notes on trimming and shortfalls. */
  notes: string[];
}

/** The plan gradient check's types live with the check, which the console runs too. */
export type { GradientCode, GradientOptions, GradientWarning, PlanEntry } from '../../../common/volunteer/gradient.js';
