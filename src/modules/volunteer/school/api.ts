import type { SchoolHistory } from '@common/volunteer/schoolHistory';
import { request } from '@/api/request';

export type { SchoolHistory, SchoolProgramme, SchoolYearLine, SchoolYearSummary } from '@common/volunteer/schoolHistory';

/**
 * schoolYXMajor: a school's programmes over every loaded year (院校详情 → 历年分数线 and 招生计划). The answer's type is
 * shared with the server (common/volunteer/schoolHistory.ts).
 */
export async function loadSchoolHistory(schoolCode: string): Promise<SchoolHistory> {
  return (await request<SchoolHistory>({ url: '/appv2/api/index/schoolYXMajor', method: 'post', data: { schoolCode } })).data as SchoolHistory;
}
