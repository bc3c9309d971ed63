import { parseCsv } from '../../db/seed/admission.js';

/**
 * Row-by-row checks of the admission files an administrator imports (server/volunteer/import/README.md). Every bad
 * row is reported with its file line number, column and value; the import writes nothing when there is one.
 */

export type ImportKind = 'lines' | 'rankTable' | 'schools' | 'subjects';

export const KIND_NAMES: Record<ImportKind, string> = {
  lines: '投档线',
  rankTable: '一分一段表',
  schools: '院校名单',
  subjects: '选科要求',
};

export interface RowError {
  /** Line number in the file (the header is line 1). */
  row: number;
  column: string;
  value: string;
  message: string;
}

/** At most this many row errors are reported (the first ones); the count says how many there were. */
export const MAX_REPORTED_ERRORS = 50;

export interface Parsed<T> {
  rows: T[];
  errors: RowError[];
  errorCount: number;
}

export type ParsedLines = Parsed<LineRow> & { columns: LineColumns };

export interface LineRow {
  row: number;
  schoolCode: string;
  schoolName: string;
  majorCode: string;
  majorName: string;
  /** Null when the file has no planCount column (2026) or the cell is empty. */
  planCount: number | null;
  /** Null when the 投档表 gives no number (a few lines). */
  minRank: number | null;
  /** The line's own 选考科目要求 (the 2026 file's subjectRequirement column); null when the file has no such column. */
  subjectReq: string | null;
}

/** Which optional columns a lines file carries: an absent column leaves the stored value of an updated line alone. */
export interface LineColumns {
  planCount: boolean;
  subjectRequirement: boolean;
}

export interface SegmentRow {
  row: number;
  score: number;
  cumulativeRank: number;
}

export interface SchoolRow {
  row: number;
  schoolCode: string;
  name: string;
  province: string | null;
  city: string | null;
  tags: string;
  level: string | null;
  ownership: string | null;
  authority: string | null;
}

export interface SubjectRow {
  row: number;
  schoolCode: string;
  majorCode: string;
  majorName: string;
  subjectReq: string;
}

const SCHOOL_CODE = /^[A-Z0-9]{2,8}$/;
const LEVELS = new Set(['本科', '专科']);
const TAGS = new Set(['985', '211', '双一流']);
const SUBJECTS = ['物理', '化学', '生物', '思想政治', '政治', '历史', '地理'];

class Checker {
  errors: RowError[] = [];
  count = 0;
  add(row: number, column: string, value: string | undefined, message: string) {
    this.count++;
    if (this.errors.length < MAX_REPORTED_ERRORS) this.errors.push({ row, column, value: value ?? '', message });
  }
  text(rec: Record<string, string>, row: number, column: string, label: string, max = 100): string {
    const v = (rec[column] ?? '').trim();
    if (!v) this.add(row, column, v, `${label}不能为空`);
    else if (v.length > max) this.add(row, column, v, `${label}超过 ${max} 个字`);
    return v;
  }
  /** 选考科目要求: 不限, or subjects joined by 、 (all required) or 或 (either). */
  subjectReq(rec: Record<string, string>, row: number, column: string): string {
    const v = this.text(rec, row, column, '选考科目要求', 50);
    if (v && v !== '不限' && v.split(/[、或]/).some((s) => !SUBJECTS.includes(s)))
      this.add(row, column, v, '选考科目要求只能是 不限，或 物理、化学、生物、思想政治、历史、地理 的组合');
    return v;
  }
  int(rec: Record<string, string>, row: number, column: string, label: string, min: number, max: number, optional = false): number | null {
    const v = (rec[column] ?? '').trim();
    if (!v && optional) return null;
    const n = Number(v);
    if (!v || !Number.isInteger(n) || n < min || n > max) {
      this.add(row, column, v, `${label}必须是 ${min} 到 ${max} 之间的整数`);
      return null;
    }
    return n;
  }
}

function records(csv: string, columns: string[]): { recs: Record<string, string>[]; missing: string[] } {
  let recs: Record<string, string>[];
  try {
    recs = parseCsv(csv);
  } catch (e) {
    return { recs: [], missing: [(e as Error).message] };
  }
  const header = recs[0] ? Object.keys(recs[0]) : [];
  return { recs, missing: recs.length ? columns.filter((c) => !header.includes(c)) : [] };
}

function headerErrors<T>(missing: string[], empty: boolean): Parsed<T> | null {
  if (missing.length) return { rows: [], errors: [{ row: 1, column: '', value: '', message: `缺少列：${missing.join('、')}` }], errorCount: 1 };
  if (empty) return { rows: [], errors: [{ row: 1, column: '', value: '', message: '文件没有数据行' }], errorCount: 1 };
  return null;
}

/**
 * toudang-YYYY.csv: schoolCode, schoolName, majorCode, major, minRank (前50名 / 前50 → 50), and two optional columns:
 * planCount (2021–2025; the 2026 file has none) and subjectRequirement (2026: the line's own 选考科目要求, checked like
 * the `subjects` file).
 */
export function parseLines(csv: string): ParsedLines {
  const { recs, missing } = records(csv, ['schoolCode', 'schoolName', 'majorCode', 'major', 'minRank']);
  const header = recs[0] ? Object.keys(recs[0]) : [];
  const columns: LineColumns = { planCount: header.includes('planCount'), subjectRequirement: header.includes('subjectRequirement') };
  const early = headerErrors<LineRow>(missing, recs.length === 0);
  if (early) return { ...early, columns };
  const c = new Checker();
  const rows: LineRow[] = [];
  const seen = new Map<string, number>();
  recs.forEach((r, i) => {
    const row = i + 2;
    const schoolCode = c.text(r, row, 'schoolCode', '院校代码', 8);
    if (schoolCode && !SCHOOL_CODE.test(schoolCode)) c.add(row, 'schoolCode', schoolCode, '院校代码只能是大写字母和数字');
    const schoolName = c.text(r, row, 'schoolName', '院校名称');
    const majorCode = c.text(r, row, 'majorCode', '专业代号', 8);
    const majorName = c.text(r, row, 'major', '专业名称', 200);
    const planCount = columns.planCount ? c.int(r, row, 'planCount', '投档计划数', 0, 100000, true) : null;
    const subjectReq = columns.subjectRequirement ? c.subjectReq(r, row, 'subjectRequirement') : null;
    const rawRank = (r.minRank ?? '').trim();
    const top = /^前(\d+)名?$/.exec(rawRank);
    const minRank = top ? Number(top[1]) : c.int(r, row, 'minRank', '最低位次', 1, 2000000, true);
    const key = `${schoolCode}|${majorCode}`;
    if (seen.has(key)) c.add(row, 'majorCode', majorCode, `与第 ${seen.get(key)} 行的院校代码和专业代号重复`);
    else seen.set(key, row);
    rows.push({ row, schoolCode, schoolName, majorCode, majorName, planCount, minRank, subjectReq });
  });
  return { rows, errors: c.errors, errorCount: c.count, columns };
}

/** rank-table-YYYY.csv: year, track, score, cumulativeRank — contiguous, scores falling, counts rising. */
export function parseRankTable(csv: string, year: number): Parsed<SegmentRow> {
  const { recs, missing } = records(csv, ['year', 'score', 'cumulativeRank']);
  const early = headerErrors<SegmentRow>(missing, recs.length === 0);
  if (early) return early;
  const c = new Checker();
  const rows: SegmentRow[] = [];
  let prev: SegmentRow | null = null;
  recs.forEach((r, i) => {
    const row = i + 2;
    const y = c.int(r, row, 'year', '年份', 2000, 2100);
    if (y != null && y !== year) c.add(row, 'year', r.year, `年份与导入的年份 ${year} 不一致`);
    const score = c.int(r, row, 'score', '分数', 0, 750);
    const cumulativeRank = c.int(r, row, 'cumulativeRank', '累计人数', 1, 2000000);
    if (score == null || cumulativeRank == null) return;
    const seg = { row, score, cumulativeRank };
    if (prev && score >= prev.score) c.add(row, 'score', r.score, `分数应从高到低排列（上一行 ${prev.score}）`);
    else if (prev && cumulativeRank < prev.cumulativeRank) c.add(row, 'cumulativeRank', r.cumulativeRank, `累计人数不能小于上一行的 ${prev.cumulativeRank}`);
    rows.push(seg);
    prev = seg;
  });
  return { rows, errors: c.errors, errorCount: c.count };
}

/** schools.csv: schoolCode, name, province, city, tags (985|211|双一流), level, ownership, authority. */
export function parseSchools(csv: string): Parsed<SchoolRow> {
  const { recs, missing } = records(csv, ['schoolCode', 'name', 'province', 'city', 'tags', 'level', 'ownership', 'authority']);
  const early = headerErrors<SchoolRow>(missing, recs.length === 0);
  if (early) return early;
  const c = new Checker();
  const rows: SchoolRow[] = [];
  const seen = new Map<string, number>();
  const opt = (v: string | undefined) => (v ?? '').trim() || null;
  recs.forEach((r, i) => {
    const row = i + 2;
    const schoolCode = c.text(r, row, 'schoolCode', '院校代码', 8);
    if (schoolCode && !SCHOOL_CODE.test(schoolCode)) c.add(row, 'schoolCode', schoolCode, '院校代码只能是大写字母和数字');
    if (seen.has(schoolCode)) c.add(row, 'schoolCode', schoolCode, `与第 ${seen.get(schoolCode)} 行的院校代码重复`);
    else seen.set(schoolCode, row);
    const name = c.text(r, row, 'name', '院校名称');
    const tags = (r.tags ?? '').trim();
    const badTag = tags.split('|').find((t) => t && !TAGS.has(t));
    if (badTag) c.add(row, 'tags', tags, `未知的院校标签「${badTag}」（可选：985、211、双一流，用 | 分隔）`);
    const level = opt(r.level);
    if (level && !LEVELS.has(level)) c.add(row, 'level', level, '办学层次只能是 本科 或 专科');
    // 公办 / 民办 / 中外合作办学, and a few special kinds (a foreign university's campus in Hainan): free text.
    const ownership = opt(r.ownership);
    if (ownership && ownership.length > 100) c.add(row, 'ownership', ownership, '办学性质超过 100 个字');
    rows.push({ row, schoolCode, name, province: opt(r.province), city: opt(r.city), tags, level, ownership, authority: opt(r.authority) });
  });
  return { rows, errors: c.errors, errorCount: c.count };
}

/** subject-requirements-YYYY.csv: schoolCode, majorCode, major, subjectRequirement (不限 / 物理 / 物理、化学 / 物理或化学 …). */
export function parseSubjects(csv: string): Parsed<SubjectRow> {
  const { recs, missing } = records(csv, ['schoolCode', 'majorCode', 'major', 'subjectRequirement']);
  const early = headerErrors<SubjectRow>(missing, recs.length === 0);
  if (early) return early;
  const c = new Checker();
  const rows: SubjectRow[] = [];
  recs.forEach((r, i) => {
    const row = i + 2;
    const schoolCode = c.text(r, row, 'schoolCode', '院校代码', 8);
    const majorCode = c.text(r, row, 'majorCode', '专业代号', 8);
    const majorName = c.text(r, row, 'major', '专业名称', 200);
    const subjectReq = c.subjectReq(r, row, 'subjectRequirement');
    rows.push({ row, schoolCode, majorCode, majorName, subjectReq });
  });
  return { rows, errors: c.errors, errorCount: c.count };
}
