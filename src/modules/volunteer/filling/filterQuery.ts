import type { ChanceQuery } from '@common/volunteer/chances';
import type { Tier } from '@/api/volunteer';

/** The filling page's filter form. */
export interface FillingFilterValues {
  regions: string[];
  city?: string;
  /** 本科 / 专科 */
  level?: string;
  /** 985 / 211 / 双一流: a school must carry all ticked tags. */
  tags: string[];
  /** 1 公办, 0 民办 */
  isPublic?: 0 | 1;
  schoolName?: string;
  majorName?: string;
  /** 计划类型 (普通, 中外合作, 师范, 地方专项 …): a line of any chosen type. */
  planType?: string[];
  tier: Tier | 'all';
  /** Apply the student's preferred regions, levels and majors. */
  usePreferences: boolean;
  /** Keep options below 5 %. */
  includeUnreachable: boolean;
  sort: 'rank' | 'probability' | 'score';
}

export const DEFAULT_FILTERS: FillingFilterValues = {
  regions: [],
  tags: [],
  tier: 'all',
  usePreferences: false,
  includeUnreachable: false,
  sort: 'rank',
};

/**
 * The schoolEnrollChance request for the filters (only filters in use). Paging is added by the caller: the server
 * sorts and filters every line and answers one page, without explanation strings (asked for one row on demand).
 */
export function buildChanceQuery(studentId: number, f: FillingFilterValues): ChanceQuery {
  const q: ChanceQuery = { studentId, sort: f.sort, explain: 0 };
  if (f.regions.length) q.region = [...f.regions];
  // A city only makes sense inside one chosen province.
  if (f.city && f.regions.length === 1) q.city = f.city;
  if (f.level) q.level = f.level;
  if (f.tags.length) q.tags = [...f.tags];
  if (f.isPublic === 0 || f.isPublic === 1) q.isPublic = f.isPublic;
  const school = f.schoolName?.trim();
  const major = f.majorName?.trim();
  if (school) q.schoolName = school;
  if (major) q.majorName = major;
  if (f.planType?.length) q.planType = [...f.planType];
  if (f.tier !== 'all') q.tier = [f.tier];
  if (f.usePreferences) q.usePreferences = 1;
  if (f.includeUnreachable) q.includeUnreachable = true;
  return q;
}
