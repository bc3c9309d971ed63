import type { Kysely } from 'kysely';
import type { ChanceRow, LineFlag } from '../../common/volunteer/chances.js';
import type { SchoolInfo } from '../../common/volunteer/schools.js';
import { SHANDONG_BATCH_LINE } from '../db/seed/admission.js';
import type { Database } from '../db/types.js';
import { fail } from '../http/envelope.js';
import { admissionAsOf } from './asOf.js';
import { lineIdentity, normaliseText } from './engine/identity.js';
import {
  type AdmissionOption,
  prepareOptions,
  prepareSegmentTable,
  type RankLookup,
  rankForScore,
  type ScoredOption,
  type SegmentTable,
  type StudentProfile,
  scoreAll,
} from './engine/index.js';
import { scoreLiveColumn } from './engine/live.js';
import { scoreCompiled } from './engine/probability.js';
import { type PlanTag, planTagsOf } from './engine/specialPlans.js';
import { liveCatalogueOf } from './liveModel.js';

/**
 * The admission data of one province and batch kind, loaded once into memory (21,282 Shandong lines ≈ a few MB) and
 * shared by every request: the engine caches its per-option aggregates on the options array, so scoring a student
 * over all lines costs a few ms. A signature query (row count, newest line id and time), run at most every
 * SIGNATURE_TTL_MS, reloads it when the gk_* data change; invalidateCatalogue() forces a reload at once.
 */

export type BatchKind = 'regular' | 'advance';

export interface YearLine {
  year: number;
  lineId: number;
  minScore: number;
  minRank: number | null;
  planCount: number | null;
  /** The name as printed that year (it may differ from the catalogue year's: the identity joins them). */
  majorName: string | null;
  majorCode: string | null;
}

/** A line of an older year whose programme is not in the catalogue year (stopped, renamed beyond recognition, merged). */
export interface RetiredLine {
  lineId: number;
  year: number;
  schoolCode: string;
  schoolName: string;
  majorName: string | null;
}

export interface CatalogueEntry {
  /** The line's identity across years (engine/identity.ts): school + normalised major name. */
  key: string;
  /** The catalogue year's line: the id plans and favourites use. */
  lineId: number;
  /** 专业代号 of the catalogue year (what the family types into the official system). */
  majorCode: string | null;
  /** First offered in the catalogue year: no earlier year in its history (新增, estimated with a wider spread). */
  isNew: boolean;
  school: SchoolInfo;
  majorName: string | null;
  groupCode: string | null;
  batch: string;
  /** 选考科目要求 of the catalogue year's own line (不限, 物理, 物理、化学 = both, 物理或化学 = either), null when unknown. */
  subjectReq: string | null;
  /** 计划类型 tags read from the name's notes (engine/specialPlans.ts): 地方专项, 中外合作, 师范 …; [] for an ordinary line. */
  planTags: PlanTag[];
  /** Newest first. */
  years: YearLine[];
}

export interface ProvinceRules {
  province: string;
  mode: string;
  subjectType: number;
  zyType: number;
  slotLimit: number;
  groupMajorLimit: number;
  cohortSize: number | null;
}

export interface Catalogue {
  province: string;
  kind: BatchKind;
  rules: ProvinceRules;
  /**
   * The catalogue year: the newest loaded line year (≤ ADMISSION_AS_OF). Only its lines are offered; older years are
   * history joined by identity.
   */
  year: number;
  /** The exam year families fill for (catalogue year + 1): the year probabilities are estimated for. */
  targetYear: number;
  /** Loaded line years (≤ ADMISSION_AS_OF), newest first. */
  years: number[];
  /** ADMISSION_AS_OF when set (the catalogue ignores every later year), else null. */
  asOf: number | null;
  track: string;
  batches: string[];
  batchLineName: string | null;
  /** The batch line students are held to: the newest published one (the coming exam's is not known before it). */
  batchLine: number | null;
  batchLineYear: number | null;
  /** The newest 一分一段 table (≤ ADMISSION_AS_OF): the target cohort's, and the one students are ranked in by default. */
  segment: SegmentTable | null;
  segmentYear: number | null;
  /** Every loaded 一分一段 table by year (≤ ADMISSION_AS_OF). */
  segments: Map<number, SegmentTable>;
  /** Each table's cohort (its last cumulative count) by year. */
  cohortByYear: Map<number, number>;
  /** The cohort students are ranked in (segmentYear's), which the estimates are brought to. */
  targetCohort: number | null;
  /** The 一分一段 table year a student of this exam year is ranked in (the function rankYearFor below). */
  rankYearFor: (examYear?: number | null) => number | null;
  /** Same index as entries; the array the engine caches on. */
  options: AdmissionOption[];
  entries: CatalogueEntry[];
  /** Catalogue-year lines and the older lines of the same programmes → entry index. */
  byLineId: Map<number, number>;
  byKey: Map<string, number>;
  /** Lines of older years whose programme is not offered in the catalogue year (shown only in 院校详情; 失效 in a plan). */
  retired: Map<number, RetiredLine>;
  /** Entry indexes of each school, hardest first. */
  bySchool: Map<string, number[]>;
  /** Every entry index, hardest first (newest min rank ascending, then min score descending). */
  rankOrder: number[];
  schools: Map<string, SchoolInfo>;
  /** What the data set holds: subject requirements, plan counts, school level, public/private. */
  has: {
    subjectReq: boolean;
    planCount: boolean;
    level: boolean;
    isPublic: boolean;
    /**
     * The requirements come partly from a table published for the target year (applyTargetRequirements): a line
     * without one there is not known to be unfillable, so it is not 选科要求未知.
     */
    subjectReqPartial?: boolean;
  };
}

const ADVANCE = '提前';
const isAdvance = (batch: string) => batch.includes(ADVANCE);

interface Cached {
  signature: string;
  /** When the signature was last compared with the database. */
  checkedAt: number;
  catalogue: Promise<Catalogue | null>;
}

/** The signature query scans the lines table (a few ms); within this window a cached catalogue is used unchecked. */
export const SIGNATURE_TTL_MS = 5000;
const caches = new WeakMap<Kysely<Database>, Map<string, Cached>>();

/** Forget the cached catalogues of a database (after editing gk_* rows in place). */
export function invalidateCatalogue(db: Kysely<Database>): void {
  caches.delete(db);
}

async function signatureOf(db: Kysely<Database>, province: string): Promise<string> {
  const r = await db
    .selectFrom('gkAdmissionLine')
    .select((eb) => [eb.fn.countAll().as('n'), eb.fn.max('lineId').as('maxId'), eb.fn.max('createTime').as('maxTime')])
    .where('examProvince', '=', province)
    .executeTakeFirst();
  return `${r?.n ?? 0}|${r?.maxId ?? 0}|${r?.maxTime ?? 0}`;
}

export async function provinceRules(db: Kysely<Database>, province: string): Promise<ProvinceRules | null> {
  const p = await db.selectFrom('gkProvince').selectAll().where('province', '=', province).executeTakeFirst();
  return p ?? null;
}

export async function knownProvinces(db: Kysely<Database>): Promise<string[]> {
  return (await db.selectFrom('gkProvince').select('province').orderBy('province').execute()).map((r) => r.province);
}

/** Throws the Chinese "no data for this province" message. */
export async function requireProvince(db: Kysely<Database>, province: string): Promise<ProvinceRules> {
  const rules = await provinceRules(db, province);
  if (!rules) {
    const known = await knownProvinces(db);
    throw fail(`暂无「${province}」的招生数据，目前支持：${known.join('、') || '无'}`);
  }
  return rules;
}

/** The catalogue of a province's regular (or advance) batch; null when it has no lines of that kind. */
export async function loadCatalogue(db: Kysely<Database>, province = '山东', kind: BatchKind = 'regular'): Promise<Catalogue | null> {
  let byDb = caches.get(db);
  if (!byDb) {
    byDb = new Map();
    caches.set(db, byDb);
  }
  const cacheKey = `${province}|${kind}|${admissionAsOf() ?? ''}`;
  const hit = byDb.get(cacheKey);
  const now = performance.now();
  if (hit && now - hit.checkedAt < SIGNATURE_TTL_MS) return hit.catalogue;
  const signature = await signatureOf(db, province);
  if (hit && hit.signature === signature) {
    hit.checkedAt = now;
    return hit.catalogue;
  }
  const catalogue = build(db, province, kind);
  byDb.set(cacheKey, { signature, checkedAt: now, catalogue });
  catalogue.catch(() => byDb?.delete(cacheKey));
  return catalogue;
}

/** Like loadCatalogue, but answers the Chinese "no data" message instead of null. */
export async function requireCatalogue(db: Kysely<Database>, province = '山东'): Promise<Catalogue> {
  await requireProvince(db, province);
  const cat = await loadCatalogue(db, province, 'regular');
  if (!cat) throw fail(`暂无${province}的普通批投档数据`);
  return cat;
}

function splitTags(tags: string): string[] {
  return tags
    .split(/[|,，]/)
    .map((t) => t.trim())
    .filter(Boolean);
}

async function build(db: Kysely<Database>, province: string, kind: BatchKind): Promise<Catalogue | null> {
  const rules = await provinceRules(db, province);
  if (!rules) return null;
  const asOf = admissionAsOf();
  let lineQuery = db
    .selectFrom('gkAdmissionLine')
    .select(['lineId', 'year', 'batch', 'track', 'schoolCode', 'groupCode', 'majorName', 'majorCode', 'minScore', 'minRank', 'planCount', 'subjectReq'])
    .where('examProvince', '=', province);
  if (asOf != null) lineQuery = lineQuery.where('year', '<=', asOf);
  const lineRows = await lineQuery.orderBy('year', 'desc').orderBy('lineId').execute();
  const lines = lineRows.filter((l) => (kind === 'advance' ? isAdvance(l.batch) : !isAdvance(l.batch)));
  if (lines.length === 0) return null;

  const schoolRows = await db.selectFrom('gkSchool').selectAll().where('examProvince', '=', province).execute();
  const schools = new Map<string, SchoolInfo>();
  for (const s of schoolRows) {
    schools.set(s.schoolCode, {
      schoolCode: s.schoolCode,
      name: s.name,
      province: s.province,
      city: s.city,
      level: s.level,
      tags: splitTags(s.tags),
      isPublic: s.isPublic,
      ownership: s.ownership ?? null,
    });
  }
  const schoolOf = (code: string): SchoolInfo =>
    schools.get(code) ?? { schoolCode: code, name: code, province: null, city: null, level: null, tags: [], isPublic: null, ownership: null };

  const year = lines[0].year;
  const years = [...new Set(lines.map((l) => l.year))].sort((a, b) => b - a);
  const tracks = [...new Set(lines.map((l) => l.track))];

  const batchLines = (await db.selectFrom('gkBatchLine').selectAll().where('examProvince', '=', province).execute()).filter(
    (b) => asOf == null || b.year <= asOf,
  );
  const batchLineName = pickBatchLineName(
    province,
    batchLines.map((b) => b.batch),
  );
  const lineOf = (y: number) => batchLines.find((b) => b.year === y && b.batch === batchLineName)?.minScore ?? null;
  // The coming exam's batch line is not known before it: the newest published one stands in (its year is in the message).
  const batchLineYear = batchLines
    .filter((b) => b.batch === batchLineName && b.year <= year)
    .map((b) => b.year)
    .sort((a, b) => b - a)[0];

  let segmentQuery = db
    .selectFrom('gkScoreSegment')
    .select(['year', 'score', 'cumulativeRank'])
    .where('examProvince', '=', province)
    .where('track', '=', tracks[0]);
  if (asOf != null) segmentQuery = segmentQuery.where('year', '<=', asOf);
  const segmentRows = await segmentQuery.execute();
  const segYears = [...new Set(segmentRows.map((s) => s.year))].sort((a, b) => b - a);
  // Each year's cohort (the table's last cumulative count): past ranks are converted to the target cohort.
  const cohortByYear = new Map<number, number>();
  for (const s of segmentRows) cohortByYear.set(s.year, Math.max(cohortByYear.get(s.year) ?? 0, s.cumulativeRank));
  const segments = new Map<number, SegmentTable>();
  for (const y of segYears) segments.set(y, prepareSegmentTable(segmentRows.filter((s) => s.year === y)));
  // The newest table: a table of the coming exam year may arrive (next June) before its lines.
  const segmentYear = segYears[0] ?? null;
  const segment = segmentYear == null ? null : (segments.get(segmentYear) ?? null);
  const targetCohort = segmentYear == null ? rules.cohortSize : (cohortByYear.get(segmentYear) ?? rules.cohortSize);

  // One identity per line across years (engine/identity.ts); two lines of one year sharing it stay apart.
  const identities = identitiesOf(lines);
  const groups = new Map<string, number[]>();
  for (const [i, id] of identities.entries()) {
    const g = groups.get(id);
    if (g) g.push(i);
    else groups.set(id, [i]);
  }

  const options: AdmissionOption[] = [];
  const entries: CatalogueEntry[] = [];
  const byKey = new Map<string, number>();
  const byLineId = new Map<number, number>();
  const retired = new Map<number, RetiredLine>();
  for (const [identity, members] of groups) {
    const newest = lines[members[0]];
    if (newest.year !== year) {
      // Not offered in the catalogue year: history only (院校详情), and 失效 where a plan still holds it.
      for (const m of members) {
        const l = lines[m];
        retired.set(l.lineId, { lineId: l.lineId, year: l.year, schoolCode: l.schoolCode, schoolName: schoolOf(l.schoolCode).name, majorName: l.majorName });
      }
      continue;
    }
    const idx = entries.length;
    const school = schoolOf(newest.schoolCode);
    const yearLines: YearLine[] = members.map((m) => {
      const l = lines[m];
      return {
        year: l.year,
        lineId: l.lineId,
        minScore: l.minScore,
        minRank: l.minRank,
        planCount: l.planCount,
        majorName: l.majorName,
        majorCode: l.majorCode,
      };
    });
    options.push({
      id: identity,
      schoolCode: newest.schoolCode,
      schoolName: school.name,
      groupCode: newest.groupCode,
      majorName: newest.majorName,
      history: members.map((m) => {
        const l = lines[m];
        return {
          year: l.year,
          minScore: l.minScore,
          minRank: l.minRank,
          planCount: l.planCount,
          batchLine: lineOf(l.year),
          cohortSize: cohortByYear.get(l.year) ?? null,
        };
      }),
      planNow: null,
    });
    entries.push({
      key: identity,
      lineId: newest.lineId,
      majorCode: newest.majorCode,
      isNew: yearLines.length === 1 && years.length > 1,
      school,
      majorName: newest.majorName,
      groupCode: newest.groupCode,
      batch: newest.batch,
      subjectReq: newest.subjectReq ?? null,
      planTags: planTagsOf(newest.majorName, school.name),
      years: yearLines,
    });
    byKey.set(identity, idx);
    for (const y of yearLines) byLineId.set(y.lineId, idx);
  }

  const rankOrder = entries.map((_, i) => i);
  const diff = (a: number, b: number) => {
    const ea = entries[a].years[0];
    const eb = entries[b].years[0];
    return (ea.minRank ?? Number.POSITIVE_INFINITY) - (eb.minRank ?? Number.POSITIVE_INFINITY) || eb.minScore - ea.minScore || a - b;
  };
  rankOrder.sort(diff);
  const bySchool = new Map<string, number[]>();
  for (const i of rankOrder) {
    const code = entries[i].school.schoolCode;
    const list = bySchool.get(code);
    if (list) list.push(i);
    else bySchool.set(code, [i]);
  }
  const current = lines.filter((l) => l.year === year);
  const has = {
    subjectReq: current.some((l) => l.subjectReq != null && l.subjectReq !== ''),
    planCount: current.some((l) => l.planCount != null),
    level: schoolRows.some((r) => r.level != null && r.level !== ''),
    isPublic: schoolRows.some((r) => r.isPublic != null),
  };
  const cat: Catalogue = {
    province,
    kind,
    rules,
    bySchool,
    rankOrder,
    has,
    year,
    targetYear: year + 1,
    years,
    asOf,
    track: tracks[0],
    batches: [...new Set(current.map((l) => l.batch))],
    batchLineName,
    batchLine: batchLineYear == null ? null : lineOf(batchLineYear),
    batchLineYear: batchLineYear ?? null,
    segment,
    segmentYear,
    segments,
    cohortByYear,
    targetCohort: targetCohort ?? null,
    options,
    entries,
    byLineId,
    byKey,
    retired,
    schools,
    rankYearFor: (examYear) => rankYearFor(cat, examYear),
  };
  return cat;
}

/**
 * The identity of each line (lines sorted newest year first). Two lines of one school and year can share an identity
 * (数学类 and 数学, or one name printed twice under two 专业代号, e.g. a 地方专项 line without its note): they stay two
 * programmes, each keyed by its exact printed name (and, for the same name printed twice, the second by its 专业代号).
 * A line of another year joins the programme of its exact printed name when there is one, else the plain identity.
 */
function identitiesOf(
  lines: ReadonlyArray<{ year: number; schoolCode: string; groupCode: string | null; majorName: string | null; majorCode: string | null }>,
): string[] {
  const base = lines.map((l) => lineIdentity(l));
  const exact = lines.map((l, i) => `${base[i]}#${normaliseText(l.majorName ?? '')}`);
  const count = new Map<string, number>();
  for (const [i, l] of lines.entries()) count.set(`${l.year}|${base[i]}`, (count.get(`${l.year}|${base[i]}`) ?? 0) + 1);
  const split = new Set<string>();
  for (const [i, l] of lines.entries()) if ((count.get(`${l.year}|${base[i]}`) ?? 0) > 1) split.add(exact[i]);
  const used = new Set<string>();
  return lines.map((l, i) => {
    let id = split.has(exact[i]) ? exact[i] : base[i];
    if (used.has(`${l.year}|${id}`)) id = `${id}#${l.majorCode ?? l.year}`;
    used.add(`${l.year}|${id}`);
    return id;
  });
}

/** The batch line the 线差法 compares with: Shandong's 一段线, otherwise an undergraduate line when there is one. */
function pickBatchLineName(province: string, names: string[]): string | null {
  if (province === '山东' && names.includes(SHANDONG_BATCH_LINE)) return SHANDONG_BATCH_LINE;
  return names.find((n) => n.includes('一段')) ?? names.find((n) => n.includes('本科')) ?? names[0] ?? null;
}

/**
 * The 一分一段 table a student of this exam year is ranked in: their own year's when it is loaded (next June's 2027
 * table arrives weeks before the 2027 lines), else the newest one (≤ ADMISSION_AS_OF).
 */
export function rankYearFor(cat: Catalogue, examYear?: number | null): number | null {
  if (examYear != null && cat.segments.has(examYear)) return examYear;
  return cat.segmentYear;
}

/** A student's rank at a score, in the table of their exam year (rankYearFor). */
export function rankOf(cat: Catalogue, score: number, examYear?: number | null): RankLookup | null {
  const y = rankYearFor(cat, examYear);
  const table = y == null ? null : cat.segments.get(y);
  return table ? rankForScore(table, score) : null;
}

/** What the catalogue needs of a stored student to rank them. */
export interface RankedStudent {
  score: number | null;
  rank: number | null;
  rankFlag: string | null;
  examYear: number | null;
}

/**
 * A stored student's rank as the catalogue sees it: a rank typed in (manual) as given; otherwise read off the table of
 * their exam year now (rankYearFor), so a table imported later, or ADMISSION_AS_OF, ranks them where the server
 * would have. The stored rank is the fallback when no table is loaded.
 */
export function studentRankOf(cat: Catalogue, s: RankedStudent): number | null {
  if (s.score == null || s.rankFlag === 'manual') return s.rank;
  return rankOf(cat, s.score, s.examYear)?.rank ?? s.rank;
}

export function profileOf(cat: Catalogue, score: number, rank: number | null): StudentProfile {
  return { score, rank, year: cat.year, batchLine: cat.batchLine, cohortSize: cat.targetCohort };
}

/** Scores every option of the catalogue for one student (engine scoreAll; cached compile). */
export function scoreCatalogue(cat: Catalogue, score: number, rank: number | null): ScoredOption[] {
  const profile = profileOf(cat, score, rank);
  // The fitted model (docs/volunteer-model.md) answers wherever it has an estimate; lines it cannot estimate (no
  // rank at all) keep the engine's 线差法 answer, computed only for them.
  const live = rank != null ? liveCatalogueOf(cat) : null;
  if (!live || rank == null) return scoreAll(cat.options, profile);
  const { compiled, context, settings } = prepareOptions(cat.options, profile);
  const scored = new Array<ScoredOption>(compiled.length);
  // The estimates' numbers come from typed arrays (engine/live.ts LiveColumns): one pass over contiguous memory.
  const logRank = Math.log(rank);
  const { columns, estimates } = live;
  const options = cat.options;
  for (let i = 0; i < options.length; i++) {
    scored[i] = scoreLiveColumn(columns, i, options[i], estimates[i], rank, logRank, score) ?? scoreCompiled(compiled[i], profile, context, settings);
  }
  return scored;
}

/** scoreCatalogue for a stored student (rank by studentRankOf); null when the student has no score. */
export function scoreStudent(cat: Catalogue, s: RankedStudent): ScoredOption[] | null {
  return s.score == null ? null : scoreCatalogue(cat, s.score, studentRankOf(cat, s));
}

export function probabilityText(p: number | null): string | null {
  if (p == null) return null;
  return `${Math.min(99.99, Math.max(0.01, p * 100)).toFixed(2)}%`;
}

/** 办学性质 of a line: a 中外合作 line (by its note) is 中外合作办学 whatever its school; otherwise the school's. */
export function ownershipOfLine(planTags: readonly string[], schoolOwnership: string | null | undefined): string | null {
  return planTags.includes('中外合作') ? '中外合作办学' : (schoolOwnership ?? null);
}

/** The engine's flags plus what the catalogue knows of the line: 新增 (new-line), 选科要求未知 (subject-unknown). */
function rowFlags(cat: Catalogue, e: CatalogueEntry, scored: ScoredOption | null): LineFlag[] {
  const flags: LineFlag[] = scored ? [...scored.flags] : [];
  if (e.isNew && !flags.includes('new-line')) flags.push('new-line');
  if (subjectUnknown(cat, e)) flags.push('subject-unknown');
  return flags;
}

/**
 * A line whose own 选考科目要求 is unknown while the data set has requirements: marked 选科要求未知, never auto-filled.
 * (A data set without any requirement, such as the demo seed, says so once instead.)
 */
export function subjectUnknown(cat: Catalogue, e: CatalogueEntry): boolean {
  return cat.has.subjectReq && !cat.has.subjectReqPartial && (e.subjectReq == null || e.subjectReq === '');
}

const withTargetRequirements = new WeakSet<Catalogue>();

/**
 * The 选考科目要求 published for the target year before its lines (each spring, with the 招生计划), set on the
 * catalogue lines whose own line prints none: the subject filter and the auto-fill then hold the student to them.
 * `requirementOf` answers by the line's identity (CatalogueEntry.key); a line it does not know stays fillable (the
 * table may be partial). Once per catalogue object, before its filter columns are first built (filterColumns.ts
 * caches them per catalogue). Returns the lines given a requirement. Used by `npm run replay`, whose planner as of
 * Y−1 must know what year Y published (a requirement is public before filling; its lines are not).
 */
export function applyTargetRequirements(cat: Catalogue, requirementOf: (e: CatalogueEntry) => string | null): number {
  if (withTargetRequirements.has(cat)) return 0;
  withTargetRequirements.add(cat);
  let n = 0;
  for (const e of cat.entries) {
    if (e.subjectReq) continue;
    const r = requirementOf(e);
    if (r) {
      e.subjectReq = r;
      n++;
    }
  }
  if (n && !cat.has.subjectReq) {
    cat.has.subjectReq = true;
    cat.has.subjectReqPartial = true;
  }
  return n;
}

export function rowOf(cat: Catalogue, idx: number, scored: ScoredOption | null, explain = true): ChanceRow {
  const e = cat.entries[idx];
  const newest = e.years[0];
  return {
    lineId: e.lineId,
    schoolCode: e.school.schoolCode,
    schoolName: e.school.name,
    province: e.school.province,
    city: e.school.city,
    tags: e.school.tags,
    planTags: e.planTags,
    level: e.school.level,
    isPublic: e.school.isPublic,
    majorName: e.majorName,
    majorCode: e.majorCode,
    groupCode: e.groupCode,
    batch: e.batch,
    subjectReq: e.subjectReq,
    ownership: ownershipOfLine(e.planTags, e.school.ownership),
    isNew: e.isNew,
    year: newest.year,
    targetYear: cat.targetYear,
    years: e.years.map((y) => ({ year: y.year, minScore: y.minScore, minRank: y.minRank, planCount: y.planCount, majorName: y.majorName })),
    minScore: newest.minScore,
    minRank: newest.minRank,
    probability: scored?.probability ?? null,
    probabilityText: probabilityText(scored?.probability ?? null),
    tier: scored?.tier ?? null,
    flags: rowFlags(cat, e, scored),
    method: scored?.method ?? null,
    estimatedRank: scored?.estimatedRank != null ? Math.round(scored.estimatedRank) : null,
    // A getter on the engine's class instance: read it explicitly (spreading would drop it).
    explanation: scored && explain ? scored.explanation.text : null,
  };
}
