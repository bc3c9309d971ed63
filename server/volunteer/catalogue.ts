import type { Kysely } from 'kysely';
import { SHANDONG_BATCH_LINE } from '../db/seed/admission.js';
import type { Database } from '../db/types.js';
import { fail } from '../http/envelope.js';
import {
  type AdmissionOption,
  type FlatLine,
  groupLines,
  optionKey,
  prepareOptions,
  prepareSegmentTable,
  type RankLookup,
  rankForScore,
  type ScoredOption,
  type SegmentTable,
  type StudentProfile,
  scoreAll,
  type Tier,
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

export interface SchoolInfo {
  schoolCode: string;
  name: string;
  province: string | null;
  city: string | null;
  level: string | null;
  tags: string[];
  isPublic: number | null;
}

export interface YearLine {
  year: number;
  lineId: number;
  minScore: number;
  minRank: number | null;
}

export interface CatalogueEntry {
  key: string;
  /** The newest year's line: the id plans and favourites use. */
  lineId: number;
  school: SchoolInfo;
  majorName: string | null;
  groupCode: string | null;
  batch: string;
  /** 选考科目要求 of the newest year's line (不限, 物理, 物理、化学 = both, 物理或化学 = either), null when unknown. */
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
  /** Newest data year (the year scores are estimated for). */
  year: number;
  years: number[];
  track: string;
  batches: string[];
  batchLineName: string | null;
  batchLine: number | null;
  segment: SegmentTable | null;
  segmentYear: number | null;
  /** Same index as entries; the array the engine caches on. */
  options: AdmissionOption[];
  entries: CatalogueEntry[];
  byLineId: Map<number, number>;
  byKey: Map<string, number>;
  /** Entry indexes of each school, hardest first. */
  bySchool: Map<string, number[]>;
  /** Every entry index, hardest first (newest min rank ascending, then min score descending). */
  rankOrder: number[];
  schools: Map<string, SchoolInfo>;
  /** What the data set holds: subject requirements, plan counts, school level, public/private. */
  has: { subjectReq: boolean; planCount: boolean; level: boolean; isPublic: boolean };
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
  const cacheKey = `${province}|${kind}`;
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
  const lineRows = await db
    .selectFrom('gkAdmissionLine')
    .select(['lineId', 'year', 'batch', 'track', 'schoolCode', 'groupCode', 'majorName', 'majorCode', 'minScore', 'minRank', 'planCount', 'subjectReq'])
    .where('examProvince', '=', province)
    .orderBy('year', 'desc')
    .orderBy('lineId')
    .execute();
  const lines = distinctNames(lineRows.filter((l) => (kind === 'advance' ? isAdvance(l.batch) : !isAdvance(l.batch))));
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
    });
  }

  const year = lines[0].year;
  const years = [...new Set(lines.map((l) => l.year))].sort((a, b) => b - a);
  const tracks = [...new Set(lines.map((l) => l.track))];
  const batches = [...new Set(lines.map((l) => l.batch))];

  const batchLines = await db.selectFrom('gkBatchLine').selectAll().where('examProvince', '=', province).execute();
  const batchLineName = pickBatchLineName(
    province,
    batchLines.map((b) => b.batch),
  );
  const lineOf = (y: number) => batchLines.find((b) => b.year === y && b.batch === batchLineName)?.minScore ?? null;

  const segments = await db
    .selectFrom('gkScoreSegment')
    .select(['year', 'score', 'cumulativeRank'])
    .where('examProvince', '=', province)
    .where('track', '=', tracks[0])
    .execute();
  const segYears = [...new Set(segments.map((s) => s.year))].sort((a, b) => b - a);
  // Each year's cohort (the table's last cumulative count): past ranks are converted to this year's cohort.
  const cohortByYear = new Map<number, number>();
  for (const s of segments) cohortByYear.set(s.year, Math.max(cohortByYear.get(s.year) ?? 0, s.cumulativeRank));
  const segmentYear = segYears.find((y) => y <= year) ?? segYears[0] ?? null;
  const segment = segmentYear == null ? null : prepareSegmentTable(segments.filter((s) => s.year === segmentYear));

  const flat: FlatLine[] = lines.map((l) => ({
    year: l.year,
    schoolCode: l.schoolCode,
    groupCode: l.groupCode,
    majorName: l.majorName,
    minScore: l.minScore,
    minRank: l.minRank,
    planCount: l.planCount,
    batchLine: lineOf(l.year),
    cohortSize: l.year === segmentYear ? rules.cohortSize : (cohortByYear.get(l.year) ?? null),
    schoolName: schools.get(l.schoolCode)?.name ?? null,
  }));
  const options = groupLines(flat);
  const entries: CatalogueEntry[] = [];
  const byKey = new Map<string, number>();
  const byLineId = new Map<number, number>();
  for (const [i, o] of options.entries()) byKey.set(o.id, i);
  for (const o of options) {
    entries.push({
      key: o.id,
      lineId: 0,
      school: schools.get(o.schoolCode) ?? {
        schoolCode: o.schoolCode,
        name: o.schoolCode,
        province: null,
        city: null,
        level: null,
        tags: [],
        isPublic: null,
      },
      majorName: o.majorName ?? null,
      groupCode: o.groupCode ?? null,
      batch: '',
      subjectReq: null,
      planTags: planTagsOf(o.majorName, schools.get(o.schoolCode)?.name),
      years: [],
    });
  }
  for (const l of lines) {
    const idx = byKey.get(optionKey(l)) as number;
    const e = entries[idx];
    if (e.years.length === 0) {
      e.lineId = l.lineId;
      e.batch = l.batch;
      e.subjectReq = l.subjectReq;
    }
    e.years.push({ year: l.year, lineId: l.lineId, minScore: l.minScore, minRank: l.minRank });
    byLineId.set(l.lineId, idx);
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
  const has = {
    subjectReq: lines.some((l) => l.subjectReq != null && l.subjectReq !== ''),
    planCount: lines.some((l) => l.planCount != null),
    level: schoolRows.some((r) => r.level != null && r.level !== ''),
    isPublic: schoolRows.some((r) => r.isPublic != null),
  };
  return {
    province,
    kind,
    rules,
    bySchool,
    rankOrder,
    has,
    year,
    years,
    track: tracks[0],
    batches,
    batchLineName,
    batchLine: lineOf(year),
    segment,
    segmentYear,
    options,
    entries,
    byLineId,
    byKey,
    schools,
  };
}

/**
 * One school can print the same major name twice in a year under two 专业代号 (a 地方专项 or 中外合作 line without a
 * note): such lines carry their code in the name (…（代号QU）) so they stay two options instead of merging into one
 * option with two lines of the same year.
 */
function distinctNames<T extends { year: number; schoolCode: string; majorName: string | null; majorCode: string | null }>(lines: T[]): T[] {
  const count = new Map<string, number>();
  const key = (l: T) => `${l.year}|${l.schoolCode}|${l.majorName ?? ''}`;
  for (const l of lines) count.set(key(l), (count.get(key(l)) ?? 0) + 1);
  return lines.map((l) => ((count.get(key(l)) ?? 0) > 1 && l.majorCode ? { ...l, majorName: `${l.majorName ?? ''}（代号${l.majorCode}）` } : l));
}

/** The batch line the 线差法 compares with: Shandong's 一段线, otherwise an undergraduate line when there is one. */
function pickBatchLineName(province: string, names: string[]): string | null {
  if (province === '山东' && names.includes(SHANDONG_BATCH_LINE)) return SHANDONG_BATCH_LINE;
  return names.find((n) => n.includes('一段')) ?? names.find((n) => n.includes('本科')) ?? names[0] ?? null;
}

/** A student's rank at a score from the catalogue's 一分一段 table. */
export function rankOf(cat: Catalogue, score: number): RankLookup | null {
  return cat.segment ? rankForScore(cat.segment, score) : null;
}

export function profileOf(cat: Catalogue, score: number, rank: number | null): StudentProfile {
  return { score, rank, year: cat.year, batchLine: cat.batchLine, cohortSize: cat.rules.cohortSize };
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

export function probabilityText(p: number | null): string | null {
  if (p == null) return null;
  return `${Math.min(99.99, Math.max(0.01, p * 100)).toFixed(2)}%`;
}

/** One answer row: a volunteer unit with its history and, when scored, the student's chance. */
export interface ChanceRow {
  lineId: number;
  schoolCode: string;
  schoolName: string;
  province: string | null;
  city: string | null;
  tags: string[];
  /** 计划类型 tags of the line (地方专项, 中外合作, 师范 …). */
  planTags: string[];
  level: string | null;
  isPublic: number | null;
  majorName: string | null;
  groupCode: string | null;
  batch: string;
  years: Array<{ year: number; minScore: number; minRank: number | null }>;
  minScore: number;
  minRank: number | null;
  probability: number | null;
  probabilityText: string | null;
  tier: Tier | null;
  flags: string[];
  method: string | null;
  estimatedRank: number | null;
  explanation: string | null;
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
    groupCode: e.groupCode,
    batch: e.batch,
    years: e.years.map((y) => ({ year: y.year, minScore: y.minScore, minRank: y.minRank })),
    minScore: newest.minScore,
    minRank: newest.minRank,
    probability: scored?.probability ?? null,
    probabilityText: probabilityText(scored?.probability ?? null),
    tier: scored?.tier ?? null,
    flags: scored ? [...scored.flags] : [],
    method: scored?.method ?? null,
    estimatedRank: scored?.estimatedRank != null ? Math.round(scored.estimatedRank) : null,
    // A getter on the engine's class instance: read it explicitly (spreading would drop it).
    explanation: scored && explain ? scored.explanation.text : null,
  };
}
