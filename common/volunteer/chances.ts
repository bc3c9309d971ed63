/**
 * The acceptance-rate list (录取概率, docs/volunteer-api.md): the filters the console sends (server/volunteer/filling.ts
 * reads the same names and checks every value itself) and the rows it answers (server/volunteer/catalogue.ts rowOf).
 * A row carries the engine's explanation as its one Chinese line.
 */
import type { Tier } from './gradient.js';
import type { EligibilityKind } from './students.js';

export interface ChanceQuery {
  /** Whose chances: a stored student, or an ad-hoc score / rank in a province. */
  studentId?: number;
  score?: number;
  rank?: number;
  province?: string;
  region?: string[];
  city?: string;
  level?: string;
  tags?: string[];
  isPublic?: 0 | 1;
  keyword?: string;
  schoolName?: string;
  majorName?: string;
  schoolCode?: string;
  tier?: Tier[];
  includeUnreachable?: boolean;
  usePreferences?: 0 | 1;
  sort?: 'rank' | 'probability' | 'score';
  pageNum?: number;
  pageSize?: number;
  all?: 1;
  /** 0: rows without the explanation text (the list pages); the 录取率 dialog asks for one row with it. */
  explain?: 0 | 1;
  /** Only the option(s) of these line ids (any year's). */
  lineId?: number;
  /** 计划类型: one or more of 普通, 中外合作, 师范, 地方专项 …; a line matching any of them is kept. */
  planType?: string[];
  /** 专项资格 of an ad-hoc score (no stored student); a stored student's own field is used otherwise. */
  specialEligibility?: EligibilityKind[];
}

/** How the engine estimated: 位次法 (rank), 线差法 (score-diff), or no data. */
export type Method = 'rank' | 'score-diff' | 'none';
/** The engine's flags of an option; 'new-line': no past min rank, a wider estimate from the line's min score. */
export type OptionFlag = 'unreachable' | 'wasteful' | 'new-line';
/** The engine's flags plus what the catalogue knows of a line: 'subject-unknown' 选科要求未知 (never auto-filled). */
export type LineFlag = OptionFlag | 'subject-unknown';

/** One year of a line's history; majorName as printed that year. */
export interface ChanceYear {
  year: number;
  minScore: number;
  minRank: number | null;
  planCount: number | null;
  majorName: string | null;
}

/** One admission option (a school + major line of the catalogue year) with the engine's estimate for the student. */
export interface ChanceRow {
  lineId: number;
  schoolCode: string;
  schoolName: string;
  province: string | null;
  city: string | null;
  tags: string[];
  /** 计划类型 tags of the line (地方专项, 中外合作, 师范 …). */
  planTags: string[];
  level: string | null;
  isPublic: number | null;
  majorName: string | null;
  /** 专业代号 of the catalogue year. */
  majorCode: string | null;
  groupCode: string | null;
  batch: string;
  /** 选考科目要求 of the catalogue-year line; null when unknown (flag subject-unknown). */
  subjectReq: string | null;
  /** 办学性质: 公办 / 民办 / 中外合作办学, null when unknown. */
  ownership: string | null;
  /** 新增: first offered in the catalogue year. */
  isNew: boolean;
  /** The year of minScore / minRank (the catalogue year). */
  year: number;
  /** The exam year the probability and the estimated rank are for. */
  targetYear: number;
  /** The line's history by identity, newest first (years[0].year === year). */
  years: ChanceYear[];
  minScore: number;
  minRank: number | null;
  probability: number | null;
  probabilityText: string | null;
  tier: Tier | null;
  flags: LineFlag[];
  method: Method | null;
  estimatedRank: number | null;
  /** The engine's explanation in one line; null when the list was asked without (explain=0). */
  explanation: string | null;
}

/** A row of the list answers: marked when the student liked it or has it in the plan. */
export interface ChanceListRow extends ChanceRow {
  liked: boolean;
  inPlan: boolean;
}
