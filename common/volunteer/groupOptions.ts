import type { Tier } from './gradient.js';

/**
 * One 院校专业组 a 3+1+2 student (湖北, 广东) may fill, with its group probability: one row of
 * `/dev-api/volunteer/groups/options` (docs/volunteer-api.md). Built by server/volunteer/groups/query.ts, shown by
 * src/modules/volunteer/filling/groups/.
 */
export interface GroupOptionRow {
  lineId: number;
  year: number;
  track: string;
  batch: string;
  schoolCode: string;
  schoolName: string;
  province: string | null;
  city: string | null;
  tags: string[];
  groupCode: string;
  /** 再选 requirement, '不限' when none. */
  subjectReq: string;
  planCount: number | null;
  minScore: number;
  minRank: number | null;
  probability: number | null;
  probabilityText: string | null;
  tier: Tier | null;
  /** Log-rank spread used and where it comes from (one year of data: borrowed, flagged). */
  sigma: number | null;
}
