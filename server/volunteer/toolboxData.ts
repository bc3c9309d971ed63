import { sql } from 'kysely';
import { contains } from '../http/like.js';
import { admissionAsOf } from './asOf.js';
import type { Db } from './common.js';

/**
 * The 工具箱 queries on the imported admission data (server/toolbox/routes.ts serves them under /toolbox/api/*):
 * 招生计划 by batch, 院校分数线 by year, 选科查询 and 同分去向 over every imported year. Filters are fixed
 * parameters (no caller-chosen columns), text filters are LIKE with escaping, every list is paged.
 */

export interface Paging {
  pageNum?: number;
  pageSize?: number;
}

const offsetOf = (p: Paging) => ((p.pageNum ?? 1) - 1) * (p.pageSize ?? 20);

/** No year after ADMISSION_AS_OF is read (asOf.ts); unset: every loaded year. */
const yearCap = () => admissionAsOf() ?? 9999;

/** 招生计划: plan counts per batch and year (summary) and the lines of one year/batch with their plan counts. */
export async function planByBatch(db: Db, province: string, f: Paging & { year?: number; batch?: string; school?: string; major?: string }) {
  const summary = await db
    .selectFrom('gkAdmissionLine')
    .select((eb) => [
      'year',
      'batch',
      eb.fn.countAll<number>().as('lines'),
      eb.fn.count<number>('planCount').as('linesWithPlan'),
      eb.fn.sum<number>('planCount').as('planTotal'),
    ])
    .where('examProvince', '=', province)
    .where('year', '<=', yearCap())
    .where('majorName', 'is not', null)
    .groupBy(['year', 'batch'])
    .orderBy('year', 'desc')
    .orderBy('batch')
    .execute();
  const year = f.year ?? summary[0]?.year;
  let q = db
    .selectFrom('gkAdmissionLine as l')
    .leftJoin('gkSchool as s', (j) => j.onRef('s.schoolCode', '=', 'l.schoolCode').onRef('s.examProvince', '=', 'l.examProvince'))
    .where('l.examProvince', '=', province)
    .where('l.year', '<=', yearCap())
    .where('l.majorName', 'is not', null)
    .where('l.year', '=', year ?? 0);
  if (f.batch) q = q.where('l.batch', '=', f.batch);
  if (f.school?.trim()) q = q.where(contains('s.name', f.school.trim()));
  if (f.major?.trim()) q = q.where(contains('l.majorName', f.major.trim()));
  const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await q
    .select(['l.year', 'l.batch', 'l.schoolCode', 's.name as schoolName', 'l.majorCode', 'l.majorName', 'l.planCount', 'l.minScore', 'l.minRank'])
    .orderBy('l.schoolCode')
    .orderBy('l.majorCode')
    .orderBy('l.lineId')
    .limit(f.pageSize ?? 20)
    .offset(offsetOf(f))
    .execute();
  return {
    year: year ?? null,
    summary: summary.map((r) => ({
      ...r,
      lines: Number(r.lines),
      linesWithPlan: Number(r.linesWithPlan),
      planTotal: r.planTotal == null ? null : Number(r.planTotal),
    })),
    total: Number(total),
    rows,
  };
}

/**
 * 院校分数线 by year: a school's line is its lowest major line that year (the README of the data: school lines are
 * derived, not stored), with the number of majors and the places put to the round.
 */
export async function schoolLinesByYear(db: Db, province: string, f: Paging & { year?: number; name?: string; province?: string; tag?: string }) {
  const years = await db
    .selectFrom('gkAdmissionLine')
    .select('year')
    .distinct()
    .where('examProvince', '=', province)
    .where('year', '<=', yearCap())
    .orderBy('year', 'desc')
    .execute();
  const year = f.year ?? years[0]?.year ?? 0;
  let q = db
    .selectFrom('gkAdmissionLine as l')
    .innerJoin('gkSchool as s', (j) => j.onRef('s.schoolCode', '=', 'l.schoolCode').onRef('s.examProvince', '=', 'l.examProvince'))
    .where('l.examProvince', '=', province)
    .where('l.year', '<=', yearCap())
    .where('l.year', '=', year)
    .where('l.majorName', 'is not', null);
  if (f.name?.trim()) q = q.where(contains('s.name', f.name.trim()));
  if (f.province?.trim()) q = q.where('s.province', '=', f.province.trim());
  if (f.tag) q = q.where(contains('s.tags', f.tag));
  const grouped = q
    .select((eb) => [
      'l.schoolCode',
      eb.fn.max('s.name').as('name'),
      eb.fn.max('s.province').as('province'),
      eb.fn.max('s.city').as('city'),
      eb.fn.max('s.tags').as('tags'),
      eb.fn.min('l.minScore').as('minScore'),
      eb.fn.max('l.minRank').as('minRank'),
      eb.fn.countAll<number>().as('majors'),
      eb.fn.sum<number>('l.planCount').as('planTotal'),
    ])
    .groupBy('l.schoolCode');
  const { total } = await db
    .selectFrom(grouped.as('g'))
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  const rows = await grouped
    .orderBy('minScore', 'desc')
    .orderBy('l.schoolCode')
    .limit(f.pageSize ?? 20)
    .offset(offsetOf(f))
    .execute();
  return {
    year,
    years: years.map((y) => y.year),
    total: Number(total),
    rows: rows.map((r) => ({ ...r, year, majors: Number(r.majors), planTotal: r.planTotal == null ? null : Number(r.planTotal) })),
  };
}

/** The six 3+3 subjects as the data set writes them (思想政治, not 政治). */
export const SUBJECTS = ['物理', '化学', '生物', '历史', '地理', '思想政治'] as const;

/** Whether a student with these subjects may fill a line with this requirement (Shandong: 物理、化学 = both). */
export function meetsRequirement(requirement: string | null, subjects: readonly string[]): boolean {
  if (requirement == null || requirement === '' || requirement === '不限') return true;
  if (requirement.includes('或')) return requirement.split('或').some((r) => subjects.includes(r.trim()));
  return requirement.split('、').every((r) => subjects.includes(r.trim()));
}

/**
 * 选科查询: the majors of one year with their subject requirement; with the student's subjects, whether each may be
 * filled (onlyEligible keeps those). Eligibility is decided on the few distinct requirement texts, then filtered in SQL
 * so paging stays exact.
 */
export async function subjectRequirements(
  db: Db,
  province: string,
  f: Paging & { year?: number; school?: string; major?: string; subjects?: string[]; onlyEligible?: boolean },
) {
  const latest = await db
    .selectFrom('gkAdmissionLine')
    .select((eb) => eb.fn.max('year').as('year'))
    .where('examProvince', '=', province)
    .where('year', '<=', yearCap())
    .where('subjectReq', 'is not', null)
    .executeTakeFirst();
  const year = f.year ?? latest?.year ?? 0;
  const subjects = f.subjects ?? [];
  let q = db
    .selectFrom('gkAdmissionLine as l')
    .innerJoin('gkSchool as s', (j) => j.onRef('s.schoolCode', '=', 'l.schoolCode').onRef('s.examProvince', '=', 'l.examProvince'))
    .where('l.examProvince', '=', province)
    .where('l.year', '<=', yearCap())
    .where('l.year', '=', year)
    .where('l.majorName', 'is not', null)
    .where('l.subjectReq', 'is not', null);
  if (f.school?.trim()) q = q.where(contains('s.name', f.school.trim()));
  if (f.major?.trim()) q = q.where(contains('l.majorName', f.major.trim()));
  if (f.onlyEligible && subjects.length) {
    const reqs = await q.select('l.subjectReq').distinct().execute();
    const allowed = reqs.map((r) => r.subjectReq as string).filter((r) => meetsRequirement(r, subjects));
    q = allowed.length ? q.where('l.subjectReq', 'in', allowed) : q.where(sql<boolean>`1 = 0`);
  }
  const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await q
    .select(['l.schoolCode', 's.name as schoolName', 'l.majorCode', 'l.majorName', 'l.subjectReq', 'l.minScore', 'l.minRank'])
    .orderBy('l.minScore', 'desc')
    .orderBy('l.lineId')
    .limit(f.pageSize ?? 20)
    .offset(offsetOf(f))
    .execute();
  return {
    year: year || null,
    subjects,
    total: Number(total),
    rows: rows.map((r) => ({ ...r, eligible: subjects.length ? meetsRequirement(r.subjectReq, subjects) : null })),
  };
}

/**
 * 同分去向 over every imported year: per year, the majors whose lowest admitted score was within ±range of the score,
 * with a per-year count. A score means different things in different years, so the result also gives each year's
 * rank at that score (from that year's 一分一段 table) for comparison.
 */
export async function sameScoreYears(db: Db, province: string, f: Paging & { score: number; range?: number; year?: number }) {
  const range = f.range ?? 0;
  let q = db
    .selectFrom('gkAdmissionLine as l')
    .leftJoin('gkSchool as s', (j) => j.onRef('s.schoolCode', '=', 'l.schoolCode').onRef('s.examProvince', '=', 'l.examProvince'))
    .where('l.examProvince', '=', province)
    .where('l.year', '<=', yearCap())
    .where('l.majorName', 'is not', null)
    .where('l.minScore', '>=', f.score - range)
    .where('l.minScore', '<=', f.score + range);
  const byYear = await q
    .select((eb) => ['l.year', eb.fn.countAll<number>().as('count')])
    .groupBy('l.year')
    .orderBy('l.year', 'desc')
    .execute();
  const ranks = await db
    .selectFrom('gkScoreSegment')
    .select((eb) => ['year', eb.fn.max('cumulativeRank').as('rank')])
    .where('examProvince', '=', province)
    .where('year', '<=', yearCap())
    .where('score', '>=', f.score)
    .groupBy('year')
    .execute();
  const rankOf = new Map(ranks.map((r) => [r.year, r.rank]));
  if (f.year) q = q.where('l.year', '=', f.year);
  const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await q
    .select(['l.year', 'l.schoolCode', 's.name as schoolName', 's.province', 's.city', 'l.majorName', 'l.minScore', 'l.minRank', 'l.planCount'])
    .orderBy('l.year', 'desc')
    .orderBy('l.minScore', 'desc')
    .orderBy('l.minRank')
    .orderBy('l.lineId')
    .limit(f.pageSize ?? 20)
    .offset(offsetOf(f))
    .execute();
  return {
    score: f.score,
    range,
    years: byYear.map((y) => ({ year: y.year, count: Number(y.count), rankAtScore: rankOf.get(y.year) ?? null })),
    total: Number(total),
    rows,
  };
}
