import type { ProgrammeYearTag, SchoolHistory, SchoolProgramme, SchoolYearLine, SchoolYearSummary } from '../../common/volunteer/schoolHistory.js';
import { fail } from '../http/envelope.js';
import { admissionAsOf } from './asOf.js';
import type { Db } from './common.js';
import { lineIdentity } from './engine/identity.js';

/**
 * schoolYXMajor (spec §7.2, issue 23 item 7): the 院校详情 → 历年分数线 screen. One row per programme: a school's lines
 * of every loaded year (≤ ADMISSION_AS_OF) joined by line identity (school + normalised major name), never by
 * 专业代号, which Shandong reassigns every year (joined by code, 济南大学 计算机 2024 showed the 历史学 line). Per year
 * a programme carries its 专业代号, rank, score, plan count and a derived score (the score at the same share of
 * candidates in the newest 一分一段 table, so years with different cohorts read on one scale), and the changes an
 * expert checks: 新增, 停招 and the plan count against the year before. A programme absent from the newest year is
 * listed (停招) here only; the catalogue never offers it. Only what the data has: no year, no line is invented.
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

/** 提前批 lines are another choice than the regular batch's line of the same name (as in the catalogue). */
const batchKind = (batch: string) => (batch.includes('提前') ? 'advance' : 'regular');

/**
 * The province's loaded line years ≤ asOf, newest first. One index seek per year (gk_line_lookup starts with
 * province, year) instead of a DISTINCT over every line of the province.
 */
async function loadedYears(db: Db, province: string, asOf: number | null): Promise<number[]> {
  const years: number[] = [];
  let below = asOf == null ? null : asOf + 1;
  for (;;) {
    let q = db
      .selectFrom('gkAdmissionLine')
      .select((eb) => eb.fn.max('year').as('year'))
      .where('examProvince', '=', province);
    if (below != null) q = q.where('year', '<', below);
    const r = await q.executeTakeFirst();
    const year = r?.year == null ? null : Number(r.year);
    if (year == null) return years;
    years.push(year);
    below = year;
  }
}

interface Line {
  lineId: number;
  year: number;
  batch: string;
  track: string;
  schoolCode: string;
  groupCode: string | null;
  majorCode: string | null;
  majorName: string;
  minScore: number;
  minRank: number | null;
  planCount: number | null;
  subjectReq: string | null;
}

/**
 * Chains of one identity across years, newest year first. Usually one chain; when two lines of one year share the
 * identity (数学类 and 数学, a name printed twice) each stays its own row: a line continues the chain whose newer line
 * has the same printed name, else the same 专业代号, else the next free chain in line order; what is left starts a
 * chain of its own.
 */
function chainsOf(lines: Line[]): Line[][] {
  const chains: Line[][] = [];
  const byYear = new Map<number, Line[]>();
  for (const l of lines) byYear.set(l.year, [...(byYear.get(l.year) ?? []), l]);
  for (const year of [...byYear.keys()].sort((a, b) => b - a)) {
    const free = new Set(chains);
    const rest: Line[] = [];
    const take = (l: Line, match: (c: Line[]) => boolean) => {
      const c = [...free].find(match);
      if (!c) return false;
      c.push(l);
      free.delete(c);
      return true;
    };
    const own = (byYear.get(year) ?? []).sort((a, b) => a.lineId - b.lineId);
    for (const l of own) if (!take(l, (c) => c[c.length - 1].majorName === l.majorName)) rest.push(l);
    const rest2: Line[] = [];
    for (const l of rest) if (!(l.majorCode && take(l, (c) => c[c.length - 1].majorCode === l.majorCode))) rest2.push(l);
    for (const l of rest2) if (!take(l, () => true)) chains.push([l]);
  }
  return chains;
}

export async function schoolMajorLines(db: Db, input: { schoolCode?: unknown; province?: unknown }): Promise<SchoolHistory> {
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
  const asOf = admissionAsOf();
  const years = await loadedYears(db, province, asOf); // newest first
  // The year list lets the (province, year, school, 专业代号) index find the school's lines (a seek per year, not a scan).
  const lines: Line[] = years.length
    ? ((await db
        .selectFrom('gkAdmissionLine')
        .select(['lineId', 'year', 'batch', 'track', 'schoolCode', 'groupCode', 'majorCode', 'majorName', 'minScore', 'minRank', 'planCount', 'subjectReq'])
        .where('examProvince', '=', province)
        .where('year', 'in', years)
        .where('schoolCode', '=', schoolCode)
        .where('majorName', 'is not', null)
        .orderBy('year', 'desc')
        .orderBy('lineId')
        .execute()) as Line[])
    : [];
  let segmentsQ = db.selectFrom('gkScoreSegment').select(['year', 'score', 'cumulativeRank']).where('examProvince', '=', province);
  if (asOf != null) segmentsQ = segmentsQ.where('year', '<=', asOf);
  const segments = await segmentsQ.orderBy('year', 'desc').orderBy('score', 'desc').execute();

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
  const derived = (l: Line) => {
    const thenCohort = cohort(l.year);
    const equivalent = l.minRank != null && thenCohort && scaleCohort ? Math.round((l.minRank * scaleCohort) / thenCohort) : l.minRank;
    return equivalent == null ? null : scoreAtRank(scaleTable, equivalent);
  };

  const latestYear = years[0] ?? null;
  const firstLoaded = years[years.length - 1] ?? null;
  /** The loaded year before a year (years are newest first). */
  const before = (year: number): number | null => {
    const i = years.indexOf(year);
    return i >= 0 && i + 1 < years.length ? years[i + 1] : null;
  };

  const groups = new Map<string, Line[]>();
  for (const l of lines) {
    const key = `${batchKind(l.batch)}|${l.track}|${lineIdentity(l)}`;
    groups.set(key, [...(groups.get(key) ?? []), l]);
  }
  const programmes: SchoolProgramme[] = [];
  for (const [key, group] of groups) {
    const chains = chainsOf(group);
    const shared = chains.length > 1;
    for (const chain of chains) {
      const byYear = new Map(chain.map((l) => [l.year, l]));
      const newest = chain[0];
      const oldest = chain[chain.length - 1];
      const out: SchoolYearLine[] = chain.map((l) => {
        const prevYear = before(l.year);
        const prev = prevYear == null ? undefined : byYear.get(prevYear);
        const tag: ProgrammeYearTag | null = l === oldest ? (l.year !== firstLoaded ? '新增' : null) : prev ? null : '恢复招生';
        return {
          year: l.year,
          lineId: l.lineId,
          batch: l.batch,
          majorCode: l.majorCode,
          majorName: l.majorName,
          minScore: l.minScore,
          minRank: l.minRank,
          planCount: l.planCount,
          derivedScore: derived(l),
          subjectReq: l.subjectReq,
          tag,
          planChange: prev && prev.planCount != null && l.planCount != null ? l.planCount - prev.planCount : null,
          previousPlanCount: prev?.planCount ?? null,
        };
      });
      const stoppedYears = years.filter((y) => {
        const prevYear = before(y);
        return !byYear.has(y) && prevYear != null && byYear.has(prevYear);
      });
      const formerNames = [...new Set(chain.map((l) => l.majorName))].filter((n) => n !== newest.majorName);
      programmes.push({
        key: shared ? `${key}#${newest.year}:${newest.majorCode ?? newest.lineId}` : key,
        identity: lineIdentity(newest),
        majorName: newest.majorName,
        formerNames,
        majorCode: newest.majorCode,
        subjectReq: newest.subjectReq,
        firstYear: oldest.year,
        latestYear: newest.year,
        sharedIdentity: shared,
        stopped: newest.year !== latestYear,
        stoppedYears,
        lines: out,
      });
    }
  }
  programmes.sort((a, b) => b.latestYear - a.latestYear || b.lines[0].minScore - a.lines[0].minScore || a.lines[0].lineId - b.lines[0].lineId);

  const firstYear = lines.length ? Math.min(...lines.map((l) => l.year)) : null;
  const plans: SchoolYearSummary[] = years
    .filter((y) => firstYear != null && y >= firstYear)
    .map((year) => {
      const running = programmes.map((p) => p.lines.find((l) => l.year === year)).filter((l): l is SchoolYearLine => l != null);
      const counts = running.map((l) => l.planCount).filter((n): n is number => n != null);
      return {
        year,
        majors: running.length,
        planTotal: counts.length ? counts.reduce((a, b) => a + b, 0) : null,
        added: running.filter((l) => l.tag === '新增').length,
        stopped: programmes.filter((p) => p.stoppedYears.includes(year)).length,
      };
    });

  return {
    school: {
      ...school,
      tags: school.tags
        .split(/[|,，]/)
        .map((t) => t.trim())
        .filter(Boolean),
    },
    years: [...years].reverse(),
    latestYear,
    scaleYear,
    majors: programmes,
    plans,
  };
}
