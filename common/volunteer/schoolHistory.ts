/**
 * 院校详情 → 历年分数线: the answer of `/appv2/api/index/schoolYXMajor` (docs/volunteer-api.md), built by
 * server/volunteer/schoolDetail.ts and shown by src/modules/volunteer/school/.
 *
 * One entry of `majors` is one programme: the lines of every loaded year joined by line identity (school + normalised
 * major name, server/volunteer/engine/identity.ts), never by 专业代号, which Shandong reassigns every year.
 */

/** 新增: the programme's first year (after the first loaded year); 恢复招生: back after a loaded year without it. */
export type ProgrammeYearTag = '新增' | '恢复招生';

/** One programme's line of one year. */
export interface SchoolYearLine {
  year: number;
  lineId: number;
  batch: string;
  /** 专业代号 of that year (it changes from year to year). */
  majorCode: string | null;
  /** The name as printed that year. */
  majorName: string;
  minScore: number;
  minRank: number | null;
  /** 投档计划数; null where the year's table has none (2026). */
  planCount: number | null;
  /** The score at the same share of candidates in the scale year's 一分一段 table. */
  derivedScore: number | null;
  subjectReq: string | null;
  tag: ProgrammeYearTag | null;
  /** planCount minus the previous loaded year's, when the programme ran that year and both counts are known. */
  planChange: number | null;
  /** The previous loaded year's planCount when the programme ran that year (null otherwise or unknown). */
  previousPlanCount: number | null;
}

/** One programme (one row of 历年分数线). */
export interface SchoolProgramme {
  /** Stable key of the row: the identity, plus the 专业代号 of its newest year when two lines of one year share it. */
  key: string;
  identity: string;
  /** The name as printed in the programme's newest year. */
  majorName: string;
  /** Older printed names that differ from majorName, newest first. */
  formerNames: string[];
  /** 专业代号 of the programme's newest year. */
  majorCode: string | null;
  subjectReq: string | null;
  firstYear: number;
  latestYear: number;
  /** Two lines of one year share this identity: rows of the same name are told apart by their 专业代号. */
  sharedIdentity: boolean;
  /** Absent from the newest loaded year (停招 / 未在<year>年招生): shown only in 院校详情, never offered to fill. */
  stopped: boolean;
  /** The loaded years in which the programme ran the year before and not that year (停招), newest first. */
  stoppedYears: number[];
  /** The programme's lines, newest first. */
  lines: SchoolYearLine[];
}

/** The school's figures of one loaded year. */
export interface SchoolYearSummary {
  year: number;
  /** Programmes with a line that year. */
  majors: number;
  /** Sum of the lines' planCount; null when the year has no plan counts. */
  planTotal: number | null;
  /** Programmes tagged 新增 that year. */
  added: number;
  /** Programmes that ran the year before and not that year (停招). */
  stopped: number;
}

export interface SchoolHistory {
  school: {
    schoolCode: string;
    name: string;
    province: string | null;
    city: string | null;
    level: string | null;
    isPublic: number | null;
    ownership: string | null;
    authority: string | null;
    tags: string[];
  };
  /** The province's loaded line years (≤ ADMISSION_AS_OF), oldest first. */
  years: number[];
  /** The newest loaded line year (the catalogue year); null when none is loaded. */
  latestYear: number | null;
  /** The year of the 一分一段 table derived scores are read in (the newest loaded one). */
  scaleYear: number | null;
  /** Programmes: those running in the newest year first (highest score first), then the stopped ones. */
  majors: SchoolProgramme[];
  /** One entry per loaded year from the school's first, newest first. */
  plans: SchoolYearSummary[];
}
