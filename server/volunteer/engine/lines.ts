import { optionKey } from '../../../common/volunteer/gradient.js';
import type { AdmissionOption, HistoryYear } from './types.js';

/** A flat admission line as stored in gk_admission_line (one year, one school/group/major). */
export interface FlatLine {
  year: number;
  schoolCode: string;
  groupCode?: string | null;
  majorName?: string | null;
  minScore: number;
  minRank?: number | null;
  planCount?: number | null;
  batchLine?: number | null;
  cohortSize?: number | null;
  schoolName?: string | null;
}

/** Identity of a volunteer unit across years (school + group + major); shared with the console's gradient check. */
export { optionKey };

/**
 * Groups flat yearly lines into options (one per school + group + major, with its years as history), in order of
 * first appearance. planNow (this year's 招生计划) comes from planNowByKey, keyed by optionKey, when given.
 */
export function groupLines(lines: readonly FlatLine[], planNowByKey?: ReadonlyMap<string, number>): AdmissionOption[] {
  const byKey = new Map<string, AdmissionOption & { history: HistoryYear[] }>();
  for (const l of lines) {
    const key = optionKey(l);
    let opt = byKey.get(key);
    if (!opt) {
      opt = {
        id: key,
        schoolCode: l.schoolCode,
        schoolName: l.schoolName ?? null,
        groupCode: l.groupCode ?? null,
        majorName: l.majorName ?? null,
        history: [],
        planNow: planNowByKey?.get(key) ?? null,
      };
      byKey.set(key, opt);
    }
    opt.history.push({
      year: l.year,
      minScore: l.minScore,
      minRank: l.minRank ?? null,
      planCount: l.planCount ?? null,
      batchLine: l.batchLine ?? null,
      cohortSize: l.cohortSize ?? null,
    });
  }
  return [...byKey.values()];
}
