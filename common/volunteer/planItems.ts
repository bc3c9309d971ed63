import type { Tier } from './gradient';

/**
 * A plan item as every answer shows it (zyInfo, save, saveSort, 提交记录, 终版方案, the share page): the stored line
 * seen through the catalogue year (server/volunteer/plans.ts itemView).
 */
export interface PlanItem {
  sort: number;
  lineId: number;
  schoolCode: string;
  schoolName: string | null;
  majorName: string | null;
  groupCode: string | null;
  province: string | null;
  city: string | null;
  tags: string[];
  minScore: number | null;
  minRank: number | null;
  tier: Tier | null;
  probability: number | null;
  probabilityText: string | null;
  obey: boolean | null;
  /** 失效: the line is not offered in the catalogue year (stopped or renamed): the expert replaces it. */
  stale: boolean;
  staleReason: string | null;
  /** The year of minScore / minRank as stored (the catalogue year at save time); null for a stale line not found. */
  year: number | null;
  /** 专业代号 / 选考科目要求 / 办学性质 of the catalogue-year line (null when stale or unknown). */
  majorCode: string | null;
  subjectReq: string | null;
  ownership: string | null;
}

/** zyInfo's item: the saved figures and the ones recomputed now for the student (the 审核 view compares them). */
export interface PlanInfoItem extends PlanItem {
  currentTier: Tier | null;
  currentProbability: number | null;
  currentProbabilityText: string | null;
  /** 院校专业组 provinces: the majors picked in the group (up to groupMajorLimit). */
  majors?: string[];
}
