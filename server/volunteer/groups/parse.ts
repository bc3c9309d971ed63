import { parseCsv } from '../../db/seed/admission.js';
import { MAX_REPORTED_ERRORS, type Parsed, type RowError } from '../import/parse.js';

/**
 * Row checks of the 3+1+2 files (院校专业组 投档线 and the per-track 一分一段 table) an administrator imports. Same
 * contract as import/parse.ts: every bad row is reported with its file line, column and value; one bad row and
 * nothing is written.
 */

export const TRACKS = ['物理类', '历史类'] as const;
export type Track = (typeof TRACKS)[number];

/** 再选 subjects as the 投档表 print them (湖北: 化, 化和生, 政和地 …; 不限 or empty = no requirement). */
export const RESELECT: Record<string, string> = {
  化: '化学',
  生: '生物',
  政: '政治',
  地: '地理',
  化学: '化学',
  生物: '生物',
  政治: '政治',
  思想政治: '政治',
  地理: '地理',
};

export interface GroupLineRow {
  row: number;
  year: number;
  track: Track;
  batch: string;
  schoolCode: string;
  schoolName: string;
  groupCode: string;
  groupLabel: string;
  /** Normalised: '' = 不限, else 再选 subjects joined by '、' (all required). */
  subjectReq: string;
  planCount: number | null;
  minScore: number;
  minRank: number | null;
}

export interface TrackSegmentRow {
  row: number;
  year: number;
  track: Track;
  score: number;
  cumulativeRank: number;
}

/** '化和生' → '化学、生物'; null when a part is not a 再选 subject. */
export function normaliseReselect(raw: string): string | null {
  const v = raw.trim();
  if (v === '' || v === '不限') return '';
  const parts = v
    .split(/和|、|\+|\/|,|，/)
    .map((s) => s.trim())
    .filter(Boolean);
  const names = parts.map((p) => RESELECT[p]);
  if (names.some((n) => n === undefined)) return null;
  return [...new Set(names)].join('、');
}

class Checker {
  errors: RowError[] = [];
  count = 0;
  add(row: number, column: string, value: string | undefined, message: string) {
    this.count++;
    if (this.errors.length < MAX_REPORTED_ERRORS) this.errors.push({ row, column, value: value ?? '', message });
  }
  text(row: number, column: string, v: string | undefined, label: string, max: number): string {
    const t = (v ?? '').trim();
    if (!t) this.add(row, column, v, `${label}不能为空`);
    else if (t.length > max) this.add(row, column, v, `${label}超过 ${max} 个字`);
    return t;
  }
  int(row: number, column: string, v: string | undefined, label: string, min: number, max: number, optional = false): number | null {
    const t = (v ?? '').trim();
    if (t === '' && optional) return null;
    const n = Number(t);
    if (t === '' || !Number.isInteger(n) || n < min || n > max) {
      this.add(row, column, v, `${label}必须是 ${min} 到 ${max} 之间的整数`);
      return null;
    }
    return n;
  }
  track(row: number, v: string | undefined): Track | null {
    const t = (v ?? '').trim();
    if (!(TRACKS as readonly string[]).includes(t)) {
      this.add(row, 'track', v, '科类只能是 物理类 或 历史类');
      return null;
    }
    return t as Track;
  }
}

function records(csv: string, columns: string[]): { recs: Record<string, string>[]; missing: string[] } {
  const recs = parseCsv(csv);
  const header = recs.length > 0 ? Object.keys(recs[0]) : (csv.split(/\r?\n/)[0] ?? '').split(',').map((s) => s.trim());
  return { recs, missing: columns.filter((c) => !header.includes(c)) };
}

function headerErrors<T>(missing: string[], empty: boolean): Parsed<T> | null {
  if (missing.length > 0)
    return { rows: [], errors: [{ row: 1, column: missing.join(','), value: '', message: `缺少列：${missing.join('、')}` }], errorCount: 1 };
  if (empty) return { rows: [], errors: [{ row: 1, column: '', value: '', message: '文件没有数据行' }], errorCount: 1 };
  return null;
}

export function parseGroupLines(csv: string, year: number): Parsed<GroupLineRow> {
  const cols = ['year', 'track', 'batch', 'schoolCode', 'schoolName', 'groupCode', 'subjectRequirement', 'planCount', 'minScore', 'minRank'];
  const { recs, missing } = records(csv, cols);
  const bad = headerErrors<GroupLineRow>(missing, recs.length === 0);
  if (bad) return bad;
  const c = new Checker();
  const rows: GroupLineRow[] = [];
  const seen = new Map<string, number>();
  recs.forEach((r, i) => {
    const row = i + 2;
    const y = c.int(row, 'year', r.year, '年份', 2000, 2100);
    if (y != null && y !== year) c.add(row, 'year', r.year, `年份与导入的年份 ${year} 不一致`);
    const track = c.track(row, r.track);
    const batch = c.text(row, 'batch', r.batch, '批次', 50);
    const schoolCode = c.text(row, 'schoolCode', r.schoolCode, '院校代码', 10);
    if (schoolCode && !/^[A-Z0-9]{2,10}$/.test(schoolCode)) c.add(row, 'schoolCode', r.schoolCode, '院校代码只能是大写字母和数字');
    const schoolName = c.text(row, 'schoolName', r.schoolName, '院校名称', 100);
    const groupCode = c.text(row, 'groupCode', r.groupCode, '专业组代码', 10);
    const subjectReq = normaliseReselect(r.subjectRequirement ?? '');
    if (subjectReq == null) c.add(row, 'subjectRequirement', r.subjectRequirement, '再选科目要求只能是 不限，或 化、生、政、地 的组合（如 化和生）');
    const planCount = c.int(row, 'planCount', r.planCount, '计划数', 0, 100000, true);
    const minScore = c.int(row, 'minScore', r.minScore, '投档线', 0, 750);
    const minRank = c.int(row, 'minRank', r.minRank, '最低位次', 1, 2000000, true);
    const key = `${track}|${schoolCode}|${groupCode}`;
    if (seen.has(key)) c.add(row, 'groupCode', r.groupCode, `与第 ${seen.get(key)} 行的科类、院校代码和专业组代码重复`);
    else seen.set(key, row);
    if (track && subjectReq != null && minScore != null)
      rows.push({
        row,
        year,
        track,
        batch,
        schoolCode,
        schoolName,
        groupCode,
        groupLabel: (r.groupLabel ?? '').trim() || `${groupCode}专业组`,
        subjectReq,
        planCount,
        minScore,
        minRank,
      });
  });
  return { rows: c.count ? [] : rows, errors: c.errors, errorCount: c.count };
}

export function parseTrackRankTable(csv: string, year: number): Parsed<TrackSegmentRow> {
  const { recs, missing } = records(csv, ['year', 'track', 'score', 'cumulativeRank']);
  const bad = headerErrors<TrackSegmentRow>(missing, recs.length === 0);
  if (bad) return bad;
  const c = new Checker();
  const rows: TrackSegmentRow[] = [];
  const prev = new Map<Track, TrackSegmentRow>();
  recs.forEach((r, i) => {
    const row = i + 2;
    const y = c.int(row, 'year', r.year, '年份', 2000, 2100);
    if (y != null && y !== year) c.add(row, 'year', r.year, `年份与导入的年份 ${year} 不一致`);
    const track = c.track(row, r.track);
    const score = c.int(row, 'score', r.score, '分数', 0, 750);
    const cumulativeRank = c.int(row, 'cumulativeRank', r.cumulativeRank, '累计人数', 1, 2000000);
    if (track == null || score == null || cumulativeRank == null) return;
    const p = prev.get(track);
    if (p && score >= p.score) c.add(row, 'score', r.score, `分数应从高到低排列（上一行 ${p.score}）`);
    else if (p && cumulativeRank < p.cumulativeRank) c.add(row, 'cumulativeRank', r.cumulativeRank, `累计人数不能小于上一行的 ${p.cumulativeRank}`);
    const s = { row, year, track, score, cumulativeRank };
    prev.set(track, s);
    rows.push(s);
  });
  return { rows: c.count ? [] : rows, errors: c.errors, errorCount: c.count };
}
