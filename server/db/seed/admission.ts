import fs from 'node:fs';
import type { Insertable, Kysely } from 'kysely';
import type { AdmissionLineTable, BatchLineTable, Database, ProvinceTable, SchoolTable, ScoreSegmentTable } from '../types.js';

/**
 * Shandong 2025 admission data (server/db/seed/data/gaokao-shandong-2025, see its README) loaded into the gk_* tables
 * on first start. Column mapping and what the CSVs lack: server/volunteer/README.md.
 */
export const SHANDONG = '山东';
/** The lines are 普通类常规批, 第1次志愿 投档 (the 一段 filling). */
export const SHANDONG_BATCH = '常规批';
/** 3+3: one combined track. */
export const SHANDONG_TRACK = '综合';
/** The batch line the 常规批 lines are compared with in the 线差法. */
export const SHANDONG_BATCH_LINE = '一段线';

const DATA_DIR = new URL('./data/gaokao-shandong-2025/', import.meta.url);
/** Rows per INSERT: 500 × 12 columns stays far below PostgreSQL's 65535 and SQLite's 32766 bind parameters. */
const BATCH = 500;

/** Parses RFC 4180 CSV (quoted fields, "" escapes, CRLF or LF) into records keyed by the header row. */
export function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let field = '';
  let row: string[] = [];
  let quoted = false;
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  for (let i = 0; i < src.length; i++) {
    const ch = src[i];
    if (quoted) {
      if (ch === '"' && src[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && src[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  const [header, ...body] = rows.filter((r) => !(r.length === 1 && r[0] === ''));
  if (!header) return [];
  return body.map((r, n) => {
    if (r.length !== header.length) throw new Error(`CSV 第 ${n + 2} 行有 ${r.length} 列，表头有 ${header.length} 列`);
    return Object.fromEntries(header.map((h, i) => [h, r[i]]));
  });
}

/** Parsed files, kept for the process: test suites build many fresh databases, each seeded from the same files. */
const parsed = new Map<string, Record<string, string>[]>();

function readCsv(name: string): Record<string, string>[] {
  let rows = parsed.get(name);
  if (!rows) {
    rows = parseCsv(fs.readFileSync(new URL(name, DATA_DIR), 'utf8'));
    parsed.set(name, rows);
  }
  return rows;
}

function int(value: string | undefined, file: string, row: number, column: string): number {
  const n = Number(value);
  if (value === undefined || value.trim() === '' || !Number.isInteger(n)) throw new Error(`${file} 第 ${row + 2} 行 ${column} 不是整数: ${value}`);
  return n;
}

const orNull = (v: string | undefined) => (v === undefined || v.trim() === '' ? null : v.trim());

export interface ShandongData {
  province: Insertable<ProvinceTable>;
  schools: Insertable<SchoolTable>[];
  lines: Insertable<AdmissionLineTable>[];
  segments: Insertable<ScoreSegmentTable>[];
  batchLines: Insertable<BatchLineTable>[];
}

/** Reads and checks the CSVs; rows ready to insert. */
export function loadShandongData(now = Date.now()): ShandongData {
  const schools = readCsv('schools.csv').map((r) => ({
    examProvince: SHANDONG,
    schoolCode: r.schoolCode,
    name: r.name,
    province: orNull(r.province),
    city: orNull(r.city),
    level: null,
    tags: r.tags?.trim() ?? '',
    isPublic: null,
  }));
  const lines = readCsv('major-lines.csv').map((r, i) => ({
    examProvince: SHANDONG,
    year: 2025,
    batch: SHANDONG_BATCH,
    track: SHANDONG_TRACK,
    schoolCode: r.schoolCode,
    groupCode: null,
    majorName: r.major,
    minScore: int(r.minScore, 'major-lines.csv', i, 'minScore'),
    minRank: int(r.minRank, 'major-lines.csv', i, 'minRank'),
    planCount: null,
    subjectReq: null,
    createTime: now,
  }));
  const segments = readCsv('rank-table.csv').map((r, i) => ({
    examProvince: SHANDONG,
    year: int(r.year, 'rank-table.csv', i, 'year'),
    track: r.track,
    score: int(r.score, 'rank-table.csv', i, 'score'),
    cumulativeRank: int(r.cumulativeRank, 'rank-table.csv', i, 'cumulativeRank'),
  }));
  const batchLines = readCsv('batch-lines.csv').map((r, i) => ({
    examProvince: SHANDONG,
    year: int(r.year, 'batch-lines.csv', i, 'year'),
    track: r.track,
    batch: r.batch,
    minScore: int(r.minScore, 'batch-lines.csv', i, 'minScore'),
  }));
  const known = new Set(schools.map((s) => s.schoolCode));
  const stray = lines.find((l) => !known.has(l.schoolCode));
  if (stray) throw new Error(`major-lines.csv 的院校代码 ${stray.schoolCode} 不在 schools.csv 中`);
  if (segments.length === 0) throw new Error('rank-table.csv 为空');
  const cohortSize = Math.max(...segments.map((s) => s.cumulativeRank)); // the last (lowest-score) cumulative count
  const province = { province: SHANDONG, mode: '3+3', subjectType: 2, zyType: 1, slotLimit: 96, groupMajorLimit: 0, cohortSize };
  return { province, schools, lines, segments, batchLines };
}

async function inBatches<T>(rows: T[], insert: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) await insert(rows.slice(i, i + BATCH));
}

export interface AdmissionSeedCounts {
  schools: number;
  lines: number;
  segments: number;
  batchLines: number;
}

/** Inserts the Shandong data; call inside the first-start seed transaction. */
export async function seedAdmission(k: Kysely<Database>, now = Date.now()): Promise<AdmissionSeedCounts> {
  const data = loadShandongData(now);
  await k.insertInto('gkProvince').values(data.province).execute();
  await inBatches(data.schools, (rows) => k.insertInto('gkSchool').values(rows).execute());
  await inBatches(data.lines, (rows) => k.insertInto('gkAdmissionLine').values(rows).execute());
  await inBatches(data.segments, (rows) => k.insertInto('gkScoreSegment').values(rows).execute());
  await inBatches(data.batchLines, (rows) => k.insertInto('gkBatchLine').values(rows).execute());
  return { schools: data.schools.length, lines: data.lines.length, segments: data.segments.length, batchLines: data.batchLines.length };
}
