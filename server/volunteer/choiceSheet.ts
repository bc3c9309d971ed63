import { admissionAsOf } from './asOf.js';
import { type Catalogue, ownershipOfLine, probabilityText, requireCatalogue, scoreStudent } from './catalogue.js';
import { type Caution, type CautionKind, FEE_UNKNOWN, feeInName, feeNoteOf, lineCautions, schoolCautions } from './cautions.js';
import type { Db } from './common.js';
import type { ScoredOption, Tier } from './engine/index.js';
import { planTagsOf } from './engine/specialPlans.js';
import { groupRules } from './groups/query.js';

/**
 * What a family needs to type each choice of a plan into the official system, and to read every figure with its year
 * (issue 23 item 6): the exam year they fill (the catalogue year + 1), 院校代码 and 专业代号 of the catalogue year,
 * 选科要求, 办学性质 with a fee note, the line figures each with their year ("2026 · 581分 · 29,348名"), the estimate
 * for the exam year ("2027 录取概率 53.20%", "2027 估计位次 30,120"), and 失效 with its reason for a choice that is no
 * longer in the catalogue. Shared by the PDF, the Excel workbook, the share page and the plan report.
 */

// The fee rules live with the per-line cautions (cautions.ts), which name the fee too; the sheet prints the same note.
export { FEE_UNKNOWN, feeInName };
export const SUBJECT_UNKNOWN = '选科要求未知';
/** How many years of a choice's line history the exports show (newest first). */
export const FIGURE_YEARS = 3;

export interface LineFigure {
  year: number;
  minScore: number | null;
  minRank: number | null;
  /** "2026 · 581分 · 29,348名". */
  text: string;
}

export interface ChoiceDetail {
  sort: number;
  lineId: number;
  schoolCode: string;
  schoolName: string | null;
  groupCode: string | null;
  /** 专业代号 of the catalogue year's line (the line's own for a 失效 choice); null when the data has none. */
  majorCode: string | null;
  majorName: string | null;
  /** The line's own 选考科目要求; null = unknown. */
  subjectReq: string | null;
  /** subjectReq, or 选科要求未知. */
  subjectText: string;
  /** 公办 / 民办 / 中外合作办学 (a 中外合作 line by its note), null when unknown. */
  ownership: string | null;
  /** The fee for a 中外合作办学 / 民办 choice: the data's own (学费每年…元) or 学费较高，以招生章程为准; null otherwise. */
  feeNote: string | null;
  /** The year of the line figures (figures[0]); the catalogue year for an offered choice. */
  year: number | null;
  /** The programme's lines, newest first (at most FIGURE_YEARS). */
  figures: LineFigure[];
  /** The tier of the estimate now (the saved one when there is no estimate). */
  tier: Tier | null;
  /** The tier the plan was saved with. */
  savedTier: Tier | null;
  probability: number | null;
  probabilityText: string | null;
  /** The line's estimated lowest rank in the exam year (the target cohort), when the estimate is by rank. */
  estimatedRank: number | null;
  /** "2027 录取概率 53.20%；2027 估计位次 30,120" (or why there is none). */
  estimateText: string;
  /** Not in the catalogue (stopped or renamed): the family cannot fill it; the expert must replace it. */
  stale: boolean;
  staleReason: string | null;
  obey: boolean | null;
  /** What to know before filling it (cautions.ts): 位次波动大, 仅招 1 人, fee, 军队/公安, 选科要求未知; [] for a 失效 choice. */
  cautions: Caution[];
}

export interface ChoiceSheet {
  province: string;
  /** The catalogue year: the newest loaded line year. */
  catalogueYear: number | null;
  /** The exam year the family fills (catalogue year + 1). */
  targetYear: number;
  /** The 一分一段 table year the student's rank is in. */
  rankYear: number | null;
  items: ChoiceDetail[];
}

/** A plan item as planInfo / itemView answer it (the fields the sheet reads). */
export interface SheetItem {
  sort: number;
  lineId: number;
  schoolCode: string;
  schoolName: string | null;
  majorName: string | null;
  groupCode: string | null;
  minScore: number | null;
  minRank: number | null;
  tier: Tier | null;
  probability: number | null;
  obey: boolean | null;
  currentTier?: Tier | null;
  currentProbability?: number | null;
  /** Set by the plan view (plans.ts) when it has decided; otherwise the sheet decides from the catalogue. */
  stale?: boolean;
  staleReason?: string | null;
}

export interface SheetStudent {
  province: string;
  examYear: number | null;
  score: number | null;
  rank: number | null;
  /** 'manual' for a typed-in rank; otherwise the rank is read off the exam year's table (catalogue studentRankOf). */
  rankFlag?: string | null;
}

/** 29348 → "29,348". */
export const thousands = (n: number) => n.toLocaleString('en-US');

/** "2026 · 581分 · 29,348名" (a year beside every line figure). */
export function figureText(year: number | null, minScore: number | null, minRank: number | null): string {
  const y = year == null ? '年份未知' : String(year);
  const score = minScore == null ? '最低分未知' : `${minScore}分`;
  const rank = minRank == null ? '位次未公布' : `${thousands(minRank)}名`;
  return `${y} · ${score} · ${rank}`;
}

/** 专业代号 as printed: "17", or "17（2024年）" for a 失效 choice (an old year's code the official system no longer has). */
export function majorCodeText(d: Pick<ChoiceDetail, 'majorCode' | 'stale' | 'year'>): string {
  if (d.majorCode == null) return '未知';
  return d.stale && d.year != null ? `${d.majorCode}（${d.year}年）` : d.majorCode;
}

function ownershipOf(majorName: string | null, schoolName: string | null, schoolOwnership: string | null | undefined): string | null {
  return ownershipOfLine(planTagsOf(majorName, schoolName), schoolOwnership);
}

/** The estimate for the exam year, one figure a line, each with that year: "2027 录取概率 53.20%", "2027 估计位次 30,120". */
export function estimateLines(targetYear: number, d: Pick<ChoiceDetail, 'stale' | 'probability' | 'estimatedRank'>): string[] {
  if (d.stale) return [`${targetYear} 失效，无法估计`];
  if (d.probability == null) return [`${targetYear} 无法估计录取概率`];
  const lines = [`${targetYear} 录取概率 ${probabilityText(d.probability)}`];
  if (d.estimatedRank != null) lines.push(`${targetYear} 估计位次 ${thousands(d.estimatedRank)}`);
  return lines;
}

function estimateTextOf(targetYear: number, stale: boolean, probability: number | null, estimatedRank: number | null): string {
  return estimateLines(targetYear, { stale, probability, estimatedRank }).join('；');
}

export const staleReasonOf = (catalogueYear: number) => `该志愿不在${catalogueYear}年招生目录中（已停招或更名），请替换`;

interface LineRow {
  lineId: number;
  year: number;
  majorCode: string | null;
  subjectReq: string | null;
  minScore: number;
  minRank: number | null;
}

async function linesById(db: Db, ids: number[]): Promise<Map<number, LineRow>> {
  const out = new Map<number, LineRow>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom('gkAdmissionLine')
      .select(['lineId', 'year', 'majorCode', 'subjectReq', 'minScore', 'minRank'])
      .where('lineId', 'in', ids.slice(i, i + 500))
      .execute();
    for (const r of rows) out.set(r.lineId, r);
  }
  return out;
}

async function ownershipBySchool(db: Db, province: string, codes: string[]): Promise<Map<string, string | null>> {
  if (codes.length === 0) return new Map();
  const rows = await db
    .selectFrom('gkSchool')
    .select(['schoolCode', 'ownership'])
    .where('examProvince', '=', province)
    .where('schoolCode', 'in', [...new Set(codes)])
    .execute();
  return new Map(rows.map((r) => [r.schoolCode, r.ownership ?? null]));
}

/**
 * The facts of a choice read from its saved item and its line row, not from the catalogue (a line the catalogue no
 * longer holds, or a 院校专业组 province's line): the line's own year and figures, the saved names.
 */
function fromSavedLine(it: SheetItem, line: LineRow | undefined, year: number | null, ownership: string | null) {
  const minScore = line?.minScore ?? it.minScore;
  const minRank = line?.minRank ?? it.minRank;
  return {
    sort: it.sort,
    lineId: it.lineId,
    schoolCode: it.schoolCode,
    schoolName: it.schoolName,
    groupCode: it.groupCode,
    majorCode: line?.majorCode ?? null,
    majorName: it.majorName,
    subjectReq: line?.subjectReq ?? null,
    subjectText: line?.subjectReq || SUBJECT_UNKNOWN,
    ownership,
    feeNote: feeNoteOf(it.majorName, ownership),
    year,
    figures: [{ year: year ?? 0, minScore, minRank, text: figureText(year, minScore, minRank) }],
  };
}

/** The sheet of a plan's items for the student (current estimates for the exam year). */
export async function choiceSheet(db: Db, student: SheetStudent, items: SheetItem[]): Promise<ChoiceSheet> {
  if (await groupRules(db, student.province)) return groupSheet(db, student, items);
  const cat = await requireCatalogue(db, student.province);
  return catalogueSheet(db, cat, student, items);
}

async function catalogueSheet(db: Db, cat: Catalogue, student: SheetStudent, items: SheetItem[]): Promise<ChoiceSheet> {
  const scored: ScoredOption[] | null = items.length ? scoreStudent(cat, { ...student, rankFlag: student.rankFlag ?? null }) : null;
  const own = await linesById(
    db,
    items.filter((it) => cat.byLineId.get(it.lineId) == null).map((it) => it.lineId),
  );
  const details = items.map((it): ChoiceDetail => {
    const idx = cat.byLineId.get(it.lineId);
    const savedTier = it.tier ?? null;
    if (idx == null) {
      // Not in the catalogue: the line's own figures, with its own year.
      const line = own.get(it.lineId);
      const retired = cat.retired.get(it.lineId);
      const year = line?.year ?? retired?.year ?? null;
      const ownership = ownershipOf(it.majorName, it.schoolName, cat.schools.get(it.schoolCode)?.ownership);
      return {
        ...fromSavedLine(it, line, year, ownership),
        tier: null,
        savedTier,
        probability: null,
        probabilityText: null,
        estimatedRank: null,
        estimateText: estimateTextOf(cat.targetYear, true, null, null),
        stale: true,
        staleReason: it.staleReason ?? staleReasonOf(cat.year),
        obey: it.obey,
        // A 失效 choice is to be replaced, not weighed: its 失效 reason is the one thing to say.
        cautions: [],
      };
    }
    const e = cat.entries[idx];
    const s = scored?.[idx] ?? null;
    // The plan view decides 失效 when it says so (an older year's line of a programme still offered, for example).
    const stale = it.stale === true;
    const probability = stale ? null : (s?.probability ?? null);
    const estimatedRank = stale || s?.estimatedRank == null ? null : Math.round(s.estimatedRank);
    const ownership = ownershipOf(e.majorName, e.school.name, e.school.ownership);
    return {
      sort: it.sort,
      lineId: it.lineId,
      schoolCode: e.school.schoolCode,
      schoolName: e.school.name,
      groupCode: e.groupCode,
      majorCode: e.majorCode,
      majorName: e.majorName,
      subjectReq: e.subjectReq,
      subjectText: e.subjectReq || SUBJECT_UNKNOWN,
      ownership,
      feeNote: feeNoteOf(e.majorName, ownership),
      year: e.years[0]?.year ?? null,
      figures: e.years
        .slice(0, FIGURE_YEARS)
        .map((y) => ({ year: y.year, minScore: y.minScore, minRank: y.minRank, text: figureText(y.year, y.minScore, y.minRank) })),
      tier: stale ? null : (s?.tier ?? savedTier),
      savedTier,
      probability,
      probabilityText: probabilityText(probability),
      estimatedRank,
      estimateText: estimateTextOf(cat.targetYear, stale, probability, estimatedRank),
      stale,
      staleReason: stale ? (it.staleReason ?? staleReasonOf(cat.year)) : null,
      obey: it.obey,
      cautions: stale ? [] : lineCautions(cat, idx),
    };
  });
  return { province: cat.province, catalogueYear: cat.year, targetYear: cat.targetYear, rankYear: rankYearOf(cat, student.examYear), items: details };
}

function rankYearOf(cat: Catalogue, examYear: number | null): number | null {
  return cat.rankYearFor(examYear ?? cat.targetYear);
}

/**
 * 院校专业组 provinces (湖北, 广东): the lines of the newest loaded year are the catalogue; a line of another year is
 * 失效. Estimates are the group module's (planInfo's current ones, else the saved ones).
 */
async function groupSheet(db: Db, student: SheetStudent, items: SheetItem[]): Promise<ChoiceSheet> {
  const asOf = admissionAsOf();
  let q = db
    .selectFrom('gkAdmissionLine')
    .select((eb) => eb.fn.max('year').as('year'))
    .where('examProvince', '=', student.province);
  if (asOf != null) q = q.where('year', '<=', asOf);
  const newest = (await q.executeTakeFirst())?.year;
  const catalogueYear = newest == null ? null : Number(newest);
  const targetYear = (catalogueYear ?? student.examYear ?? new Date().getFullYear() - 1) + 1;
  const lines = await linesById(
    db,
    items.map((it) => it.lineId),
  );
  const owners = await ownershipBySchool(
    db,
    student.province,
    items.map((it) => it.schoolCode),
  );
  const details = items.map((it): ChoiceDetail => {
    const line = lines.get(it.lineId);
    const year = line?.year ?? null;
    const stale = it.stale === true || line == null || (catalogueYear != null && year !== catalogueYear);
    const probability = stale ? null : (it.currentProbability ?? it.probability);
    const ownership = ownershipOf(it.majorName, it.schoolName, owners.get(it.schoolCode));
    return {
      ...fromSavedLine(it, line, year, ownership),
      tier: stale ? null : (it.currentTier ?? it.tier ?? null),
      savedTier: it.tier ?? null,
      probability,
      probabilityText: probabilityText(probability),
      estimatedRank: null,
      estimateText: estimateTextOf(targetYear, stale, probability, null),
      stale,
      staleReason: stale ? (it.staleReason ?? staleReasonOf(catalogueYear ?? targetYear - 1)) : null,
      obey: it.obey,
      // The group provinces have no catalogue history: only what the names and 办学性质 say (fee, 军队/公安).
      cautions: stale ? [] : schoolCautions(it.schoolName, it.majorName, ownership),
    };
  });
  return { province: student.province, catalogueYear, targetYear, rankYear: null, items: details };
}

/** The student's rank with the table it is read in: "29,348（2026年一分一段表）". */
export function studentRankText(rank: number | null, rankYear: number | null, rankFlag?: string | null): string {
  if (rank == null) return '未知';
  if (rankFlag === 'manual') return `${thousands(rank)}（手动填写）`;
  return rankYear == null ? thousands(rank) : `${thousands(rank)}（${rankYear}年一分一段表）`;
}

/** When the student's record names another exam year than the one the plan is filled for, say so. */
export function examYearNote(examYear: number | null, targetYear: number): string | null {
  if (examYear == null || examYear === targetYear) return null;
  return `注意：学生档案登记的高考年份为 ${examYear} 年，本方案按 ${targetYear} 年高考填报，请核对学生档案`;
}

/** Cautions the sheet's own columns already print (办学性质 / 学费, 选科要求): left out of the 提示 line. */
const SHOWN_IN_COLUMNS: ReadonlySet<CautionKind> = new Set(['fee', 'subject-unknown']);

/** The 提示 of a choice in the exports: its cautions that no column already says, one sentence each. */
export function hintLines(d: Pick<ChoiceDetail, 'cautions'>): string[] {
  return d.cautions.filter((c) => !SHOWN_IN_COLUMNS.has(c.kind)).map((c) => c.text);
}
