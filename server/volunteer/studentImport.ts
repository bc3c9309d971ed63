import ExcelJS from 'exceljs';
import type { StudentImportProblem, StudentImportResult } from '../../common/volunteer/studentImport.js';
import { ELIGIBILITY_KINDS } from '../../common/volunteer/students.js';
import {
  isCellIssue,
  issueMessage,
  NOT_READABLE,
  type ParseLimits,
  readXlsxLines,
  type SheetCell,
  type SheetLine,
  SheetRefused,
  SheetTooManyRows,
} from '../engine/sheetReader.js';
import { ApiError, fail } from '../http/envelope.js';
import { type Actor, type Db, homeStore, SUBJECTS, seesAll } from './common.js';
import { buildPatch, newStudentRow, type StudentInput } from './students.js';

/**
 * 学生导入 (spec §7.2 /appv2/api/ExcelImport/import): an expert or a store imports students from an .xlsx sheet made
 * from the template (/appv2/api/ExcelImport/template). Every row is checked with the same rules as the student form
 * (students.ts buildPatch: score, rank from the 一分一段 table, subjects, 专项资格); one bad row refuses the whole
 * file with a report per row and nothing is written. The students land in the caller's own store (never a store named
 * in the file) and, as with the form, an expert owns what they import while a leader's imports wait for distribution.
 */

/** Rows of one student import (a class of a school at most; bigger lists are split). */
export const STUDENT_IMPORT_MAX_ROWS = 2000;
/** Bytes of one student import file. */
export const STUDENT_IMPORT_MAX_BYTES = 5 * 1024 * 1024;
/** Problems listed in the answer (the count says how many there were). */
const REPORT_LIMIT = 100;

/** The template's columns: header text → the student field it fills. 姓名 is required. */
const COLUMNS = [
  { header: '姓名', key: 'name', width: 12, note: '必填，最多 20 个字' },
  { header: '手机号', key: 'mobile', width: 14, note: '11 位手机号，可空' },
  { header: '省份', key: 'province', width: 8, note: '高考省份，空则为山东' },
  { header: '高考年份', key: 'examYear', width: 10, note: '空则为最新数据年份' },
  { header: '分数', key: 'score', width: 8, note: '0–750 的整数，可空' },
  { header: '位次', key: 'rank', width: 10, note: '空则按一分一段表换算' },
  { header: '选考科目', key: 'subjects', width: 18, note: '如 物理、化学、生物（用、或 / 分隔）' },
  { header: '专项资格', key: 'specialEligibility', width: 16, note: `可空；可填：${ELIGIBILITY_KINDS.join('、')}` },
  { header: '备注', key: 'remark', width: 24, note: '最多 500 个字' },
] as const;
type ColumnKey = (typeof COLUMNS)[number]['key'];

const SUBJECT_IDS = new Map<string, number>(Object.entries(SUBJECTS).map(([id, name]) => [name, Number(id)]));
SUBJECT_IDS.set('思想政治', 6);

/** The downloadable template: the header row, and a second sheet explaining each column. */
export async function studentTemplate(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('学生');
  sheet.columns = COLUMNS.map((c) => ({ header: c.header, key: c.key, width: c.width }));
  sheet.getRow(1).font = { bold: true };
  const help = wb.addWorksheet('填写说明');
  help.columns = [
    { header: '列', key: 'header', width: 12 },
    { header: '说明', key: 'note', width: 60 },
  ];
  help.getRow(1).font = { bold: true };
  for (const c of COLUMNS) help.addRow({ header: c.header, note: c.note });
  help.addRow({ header: '', note: `每个文件最多 ${STUDENT_IMPORT_MAX_ROWS} 行；任一行有误则整个文件不导入，并逐行列出错误。` });
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** The text of a parsed cell (sheetReader.ts has reduced rich text, hyperlinks and formulas): '' when empty. */
function cellText(v: SheetCell | undefined): string {
  if (v == null || isCellIssue(v)) return '';
  if (v instanceof Date) return v.toISOString();
  return String(v).trim();
}

/** 物理、化学、生物 / 物理/化学/生物 / 物理,化学,生物 → [1, 2, 3]; an unknown name is an error. */
function subjectIds(text: string): number[] {
  const names = text
    .split(/[、/,，\s]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  return names.map((n) => {
    const id = SUBJECT_IDS.get(n);
    if (id == null) throw fail(`选考科目「${n}」不正确（可选：物理、化学、生物、历史、地理、政治）`);
    return id;
  });
}

/** The xlsx signature: a zip file's local header. The extension alone says nothing about the content. */
const isZip = (b: Buffer) => b.length > 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04;

/** Parse limits when the caller passes none (the server passes its configuration's). */
const DEFAULT_LIMITS: ParseLimits = { maxRows: STUDENT_IMPORT_MAX_ROWS, maxUnzippedBytes: 100 * 1024 * 1024, timeoutMs: 60_000, memoryMb: 256 };

/**
 * Reads the sheet (checked and parsed off the main thread, sheetReader.ts) into student inputs by header name; a
 * cell that is a formula without a result or an error value is a problem of its row. Problems of the file throw.
 */
async function readSheet(
  buffer: Buffer,
  limits: ParseLimits,
): Promise<{ rows: Array<{ row: number; input: StudentInput }>; problems: StudentImportProblem[] }> {
  if (!isZip(buffer)) throw fail('文件内容不是 Excel（.xlsx）文件，请使用下载的导入模板');
  let lines: SheetLine[];
  try {
    lines = await readXlsxLines(buffer, { ...limits, maxRows: STUDENT_IMPORT_MAX_ROWS });
  } catch (err) {
    if (err instanceof SheetTooManyRows) throw fail(`导入文件不能超过 ${STUDENT_IMPORT_MAX_ROWS} 行数据，请分成几个文件导入`);
    if (err instanceof SheetRefused) {
      throw fail(err.message === NOT_READABLE ? '文件内容不是有效的 Excel（.xlsx）文件，请使用下载的导入模板' : err.message);
    }
    throw err;
  }
  const byColumn = new Map<number, (typeof COLUMNS)[number]>();
  const header = lines[0]?.row === 1 ? lines[0].cells : [];
  header.forEach((cell, col) => {
    const text = cellText(cell).replace(/[*＊\s]/g, '');
    const c = COLUMNS.find((x) => x.header === text);
    if (c) byColumn.set(col, c);
  });
  if (![...byColumn.values()].some((c) => c.key === 'name')) throw fail('导入文件第 1 行缺少「姓名」列，请使用下载的导入模板');
  const rows: Array<{ row: number; input: StudentInput }> = [];
  const problems: StudentImportProblem[] = [];
  for (const { row, cells: line } of lines) {
    if (row === 1) continue;
    const cells: Partial<Record<ColumnKey, string>> = {};
    const issues: string[] = [];
    for (const [col, c] of byColumn) {
      const v = line[col];
      if (isCellIssue(v)) issues.push(issueMessage(v, c.header));
      else cells[c.key] = cellText(v);
    }
    if (issues.length) problems.push({ row, message: issues.join('；') });
    else if (Object.values(cells).some((v) => v)) rows.push({ row, input: cells as StudentInput });
  }
  return { rows, problems };
}

/** The form's input of one sheet row (subjects and 专项资格 from their text); a problem throws. */
function inputOf(cells: Partial<Record<ColumnKey, string>>): StudentInput {
  const input: StudentInput = { name: cells.name ?? '' };
  if (cells.mobile) input.mobile = cells.mobile;
  if (cells.province) input.province = cells.province;
  if (cells.examYear) input.examYear = cells.examYear;
  if (cells.score) input.score = cells.score;
  if (cells.rank) input.rank = cells.rank;
  input.subjects = cells.subjects ? subjectIds(cells.subjects) : [];
  if (cells.specialEligibility) input.specialEligibility = cells.specialEligibility.split(/[、/,，\s]+/).filter(Boolean);
  if (cells.remark) input.remark = cells.remark;
  return input;
}

/**
 * Imports the students of one .xlsx file into the caller's store: all or nothing. A refused file answers
 * 导入失败，共 N 处错误，未写入任何数据。第 2 行：… with `data` listing each row's problem.
 */
export async function importStudents(
  db: Db,
  actor: Actor,
  file: { filename: string; buffer: Buffer },
  limits: ParseLimits = DEFAULT_LIMITS,
): Promise<StudentImportResult> {
  if (!/\.xlsx$/i.test(file.filename)) throw fail('文件格式不正确，请上传 .xlsx 文件（可先下载导入模板）');
  const { rows: sheetRows, problems } = await readSheet(file.buffer, limits);
  if (!sheetRows.length && !problems.length) throw fail('导入文件中没有学生数据');
  const patches: Array<{ row: number; patch: Awaited<ReturnType<typeof buildPatch>> }> = [];
  const mobiles = new Map<string, number>();
  for (const { row, input: cells } of sheetRows) {
    try {
      const patch = await buildPatch(db, inputOf(cells as Partial<Record<ColumnKey, string>>), null);
      if (patch.mobile) {
        const first = mobiles.get(patch.mobile);
        if (first != null) throw fail(`手机号 ${patch.mobile} 与第 ${first} 行重复`);
        mobiles.set(patch.mobile, row);
      }
      patches.push({ row, patch });
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      problems.push({ row, message: e.message });
    }
  }
  if (problems.length) {
    problems.sort((a, b) => a.row - b.row);
    const sample = problems
      .slice(0, 5)
      .map((p) => `第 ${p.row} 行：${p.message}`)
      .join('；');
    throw fail(`导入失败，共 ${problems.length} 处错误，未写入任何数据。${sample}${problems.length > 5 ? '……' : ''}`, 500, {
      data: problems.slice(0, REPORT_LIMIT),
      problemCount: problems.length,
    });
  }
  // As the form: an expert owns what they import; admin and leader import unassigned students (分配 later).
  const ownerId = seesAll(actor) ? null : actor.userId;
  const storeId = homeStore(actor);
  const now = Date.now();
  const ids = await db.transaction().execute(async (trx) => {
    const created: number[] = [];
    for (const { patch } of patches) {
      const row = await trx
        .insertInto('volStudent')
        .values(newStudentRow(patch, ownerId, storeId, actor.userId, now))
        .returning('studentId')
        .executeTakeFirstOrThrow();
      created.push(row.studentId);
    }
    for (let i = 0; i < created.length; i += 200) {
      await trx
        .insertInto('volPlanAction')
        .values(
          created.slice(i, i + 200).map((studentId) => ({
            studentId,
            planId: null,
            action: 'create',
            fromStatus: null,
            toStatus: null,
            version: null,
            userId: actor.userId,
            userName: actor.userName,
            comment: '导入',
            createTime: now,
          })),
        )
        .execute();
    }
    return created;
  });
  return { count: ids.length, studentIds: ids };
}
