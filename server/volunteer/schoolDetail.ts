import { fail } from '../http/envelope.js';
import type { Db } from './common.js';

/**
 * schoolYXMajor (spec §7.2): one school's majors with the lines of every imported year — the 院校详情 screen's chart
 * and table. Each line carries its rank and a derived score: the score at the same share of candidates in the newest
 * year's 一分一段 table, so lines of years with different cohorts and papers can be read on one scale. Plan counts per
 * year are summed for the school. Only what the data has: no year, no major, no row is invented.
 */

interface Segment {
  score: number;
  cumulativeRank: number;
}

/** The score a rank falls at in a table sorted by score descending: the highest score whose cumulative count reaches it. */
export function scoreAtRank(table: readonly Segment[], rank: number): number | null {
  if (!table.length) return null;
  for (const row of table) if (row.cumulativeRank >= rank) return row.score;
  return table[table.length - 1].score;
}

export async function schoolMajorLines(db: Db, input: { schoolCode?: unknown; province?: unknown }) {
  const schoolCode = typeof input.schoolCode === 'string' ? input.schoolCode.trim() : '';
  const province = typeof input.province === 'string' && input.province.trim() ? input.province.trim() : '山东';
  if (!schoolCode || schoolCode.length > 20) throw fail('请选择院校');
  const school = await db
    .selectFrom('gkSchool')
    .select(['schoolCode', 'name', 'province', 'city', 'level', 'isPublic', 'ownership', 'authority', 'tags'])
    .where('examProvince', '=', province)
    .where('schoolCode', '=', schoolCode)
    .executeTakeFirst();
  if (!school) throw fail(`院校不存在或不在${province}的招生数据中（院校代码 ${schoolCode}）`);
  const lines = await db
    .selectFrom('gkAdmissionLine')
    .select(['year', 'batch', 'majorCode', 'majorName', 'minScore', 'minRank', 'planCount', 'subjectReq'])
    .where('examProvince', '=', province)
    .where('schoolCode', '=', schoolCode)
    .where('majorName', 'is not', null)
    .orderBy('year', 'desc')
    .orderBy('minScore', 'desc')
    .execute();
  const segments = await db
    .selectFrom('gkScoreSegment')
    .select(['year', 'score', 'cumulativeRank'])
    .where('examProvince', '=', province)
    .orderBy('year', 'desc')
    .orderBy('score', 'desc')
    .execute();
  const tables = new Map<number, Segment[]>();
  for (const s of segments) {
    const t = tables.get(s.year) ?? [];
    t.push(s);
    tables.set(s.year, t);
  }
  const cohort = (year: number) => {
    const t = tables.get(year);
    return t?.length ? t[t.length - 1].cumulativeRank : null;
  };
  const scaleYear = segments[0]?.year ?? null;
  const scaleTable = scaleYear == null ? [] : (tables.get(scaleYear) ?? []);
  const scaleCohort = scaleYear == null ? null : cohort(scaleYear);

  // Majors keyed by 专业代号 when known (stable across years), else by name.
  const majors = new Map<string, { majorCode: string | null; majorName: string; subjectReq: string | null; lines: unknown[] }>();
  const planByYear = new Map<number, { year: number; majors: number; planTotal: number | null }>();
  for (const l of lines) {
    const key = l.majorCode ? `c:${l.majorCode}` : `n:${l.majorName}`;
    const m = majors.get(key) ?? { majorCode: l.majorCode, majorName: l.majorName as string, subjectReq: l.subjectReq, lines: [] };
    const thenCohort = cohort(l.year);
    const equivalent = l.minRank != null && thenCohort && scaleCohort ? Math.round((l.minRank * scaleCohort) / thenCohort) : l.minRank;
    m.lines.push({
      year: l.year,
      batch: l.batch,
      majorName: l.majorName,
      minScore: l.minScore,
      minRank: l.minRank,
      planCount: l.planCount,
      derivedScore: equivalent == null ? null : scoreAtRank(scaleTable, equivalent),
    });
    m.subjectReq ??= l.subjectReq;
    majors.set(key, m);
    const p = planByYear.get(l.year) ?? { year: l.year, majors: 0, planTotal: null };
    p.majors += 1;
    if (l.planCount != null) p.planTotal = (p.planTotal ?? 0) + l.planCount;
    planByYear.set(l.year, p);
  }
  return {
    school: {
      ...school,
      tags: school.tags
        .split(/[|,，]/)
        .map((t) => t.trim())
        .filter(Boolean),
    },
    years: [...planByYear.keys()].sort((a, b) => a - b),
    scaleYear,
    majors: [...majors.values()],
    plans: [...planByYear.values()].sort((a, b) => b.year - a.year),
  };
}
