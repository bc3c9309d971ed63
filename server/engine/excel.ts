import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { type QueryResult, type RawBuilder, sql } from 'kysely';
import type { ImportProblem } from '../../common/engine/imports.js';
import type { Dialect } from '../db/connection.js';
import { foregroundIdle } from '../http/foreground.js';
import { CST_OFFSET_MS, type Entity, type Field, formatTime, fromDb, parseTime, rowToRecord, toDb } from './model.js';
import type { Order } from './query.js';
import { keysetAfter, orderClause } from './query.js';
import type { DictLookup } from './records.js';
import { isCellIssue, issueMessage, NOT_READABLE, type ParseLimits, readXlsxLines, type SheetLine, SheetRefused, SheetTooManyRows } from './sheetReader.js';
import { fromClause, type Q, type Row, selectList } from './store.js';
import { type XlsxCell, XlsxStreamWriter } from './xlsxStream.js';

/** Spreadsheets: streamed exports, import templates and reading uploaded .xlsx / .csv files. */

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const EXPORT_BATCH = 1000;
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;

/** Sheet names may not hold []:*?/\ and are at most 31 characters. */
const sheetName = (title: string) => title.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || 'Sheet1';

export function setDownloadHeaders(reply: FastifyReply, fileName: string): void {
  const encoded = encodeURIComponent(fileName);
  reply.header('content-type', XLSX_TYPE);
  reply.header('download-filename', encoded);
  reply.header('content-disposition', `attachment; filename="${encoded}"; filename*=UTF-8''${encoded}`);
  reply.header('access-control-expose-headers', 'download-filename, content-disposition');
  reply.header('cache-control', 'no-store');
}

/** `<title>_<epoch ms>.xlsx` (RuoYi names exports by time). */
export const exportFileName = (entity: Entity, suffix = '') => `${entity.title}${suffix}_${Date.now()}.xlsx`;

/** A stored value as an export cell: dictionary label, formatted time, plain text. */
async function cellOf(k: Q, field: Field, raw: unknown, dicts: DictLookup): Promise<XlsxCell> {
  const v = fromDb(field, raw);
  if (v === null || v === undefined) return null;
  if (field.dict) {
    const entry = (await dicts.entries(k, field.dict)).find((e) => e.value === String(v));
    if (entry) return entry.label;
  }
  const enumLabel = field.prop['x-enumLabels']?.[String(v)];
  if (enumLabel !== undefined) return enumLabel;
  if (field.time && typeof v === 'number') return formatTime(v, field.dateOnly);
  if (Array.isArray(v)) return v.join(',');
  if (typeof v === 'boolean') return v ? '是' : '否';
  return typeof v === 'number' ? v : String(v);
}

export interface ExportOptions {
  k: Q;
  dialect: Dialect;
  entity: Entity;
  entities: Map<string, Entity>;
  where: RawBuilder<unknown>;
  order: Order;
  dicts: DictLookup;
  /** Called once the last row is written (before the file is closed), or with the error that stopped it. */
  onDone: (error: Error | null, rows: number) => Promise<void>;
}

/**
 * Reads the rows of an export in order, `EXPORT_BATCH` at a time, handing each batch to `onBatch` before reading the
 * next. PostgreSQL: one server-side cursor (the query runs and sorts once). SQLite: keyset paging on the sort column
 * and primary key (each batch starts where the last ended, and the connection is free between batches).
 */
async function readInBatches(o: ExportOptions, onBatch: (rows: Row[]) => Promise<void>): Promise<void> {
  const { from, labelColumns } = fromClause(o.entity, o.entities, true);
  const select = labelColumns.length ? sql`${selectList(o.entity)}, ${sql.join(labelColumns)}` : selectList(o.entity);
  const order = orderClause(o.entity, o.order, o.dialect);
  if (o.dialect === 'postgres') {
    await o.k.transaction().execute(async (trx) => {
      await sql`declare zy_export no scroll cursor for select ${select} from ${from} where ${o.where} order by ${order}`.execute(trx);
      for (;;) {
        const res: QueryResult<Row> = await sql<Row>`fetch forward ${sql.raw(String(EXPORT_BATCH))} from zy_export`.execute(trx);
        await onBatch(res.rows);
        if (res.rows.length < EXPORT_BATCH) break;
      }
      await sql`close zy_export`.execute(trx);
    });
    return;
  }
  let last: Row | null = null;
  for (;;) {
    const where = last ? sql`${o.where} and ${keysetAfter(o.entity, o.order, o.dialect, last)}` : o.where;
    const res: QueryResult<Row> = await sql<Row>`select ${select} from ${from} where ${where} order by ${order} limit ${EXPORT_BATCH}`.execute(o.k);
    await onBatch(res.rows);
    if (res.rows.length < EXPORT_BATCH) break;
    last = res.rows[res.rows.length - 1];
  }
}

/**
 * Streams an export: rows are read in batches (readInBatches) and each is written to a streaming one-sheet .xlsx
 * (xlsxStream.ts) whose zip goes out while rows are still being read, so memory stays flat however many rows there
 * are. Reading waits while the client is slower than the database.
 */
export function streamExport(reply: FastifyReply, o: ExportOptions): FastifyReply {
  const out = new PassThrough();
  const fields = o.entity.listFields;
  const writer = new XlsxStreamWriter(
    out,
    sheetName(o.entity.title),
    fields.map((f) => ({ header: f.title, width: Math.min(60, Math.max(12, Math.round((f.prop['x-list']?.width ?? 120) / 7))) })),
  );
  setDownloadHeaders(reply, exportFileName(o.entity));
  reply.send(out);

  const run = async () => {
    // Dictionary labels are read once, before any row.
    for (const f of fields) if (f.dict) await o.dicts.entries(o.k, f.dict);
    let written = 0;
    // An export is what the list shows: the entity's readers' view (hooks.present, e.g. a live broadcast's status
    // derived from its times), taken at the start of the export.
    const present = o.entity.hooks?.present;
    const now = Date.now();
    await readInBatches(o, async (rows) => {
      if (out.destroyed) throw new Error('客户端已断开，导出中止');
      for (const row of rows) {
        const shown = present ? present(rowToRecord(o.entity, row), now) : null;
        const cells: XlsxCell[] = [];
        for (const f of fields) cells.push(await cellOf(o.k, f, shown ? toDb(f, shown[f.name]) : row[f.column], o.dicts));
        await writer.addRow(cells);
      }
      written += rows.length;
    });
    await o.onDone(null, written);
    await writer.end();
  };
  run().catch(async (err: Error) => {
    await o.onDone(err, 0).catch(() => undefined);
    out.destroy(err);
  });
  return reply;
}

/** Columns an import reads: every writable property. */
export const importFields = (entity: Entity) => entity.writable;

/** The import template: one header row with the titles of the importable columns, each with a note (必填 / 选填, allowed values). */
export async function templateBuffer(entity: Entity, dictNote: (f: Field) => Promise<string | null>): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(sheetName(entity.title));
  const fields = importFields(entity);
  sheet.columns = fields.map((f) => ({ header: f.title, key: f.name, width: 20 }));
  const required = new Set(entity.schema.required ?? []);
  const header = sheet.getRow(1);
  header.font = { bold: true };
  for (const [i, f] of fields.entries()) {
    const cell = header.getCell(i + 1);
    const notes = [required.has(f.name) ? '必填' : '选填', await dictNote(f), f.prop.maxLength ? `最多 ${f.prop.maxLength} 个字符` : null].filter(Boolean);
    cell.note = notes.join('；');
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** One data line of an uploaded sheet: its row number in the file (header = 1) and its cells by property name. */
export interface SheetRow {
  row: number;
  cells: Record<string, unknown>;
}

/**
 * RFC 4180 CSV (quotes, doubled quotes, CRLF), UTF-8 with or without BOM. Yields to waiting requests as its time slice
 * runs out (a 10 MB file is some 100 ms of work), checking the clock every few thousand characters.
 */
export async function parseCsv(text: string, slicer = new Slicer()): Promise<string[][]> {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  for (let i = 0; i < src.length; i++) {
    if ((i & 4095) === 0) await slicer.tick();
    const ch = src[i];
    if (quoted) {
      if (ch === '"') {
        if (src[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else cell += ch;
      continue;
    }
    if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && src[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  if (cell !== '' || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/** A cell as the value the record validator expects (times parsed, dictionary labels mapped to values). */
async function importValue(k: Q, field: Field, raw: unknown, dicts: DictLookup): Promise<unknown> {
  let v = raw;
  if (v instanceof Date) v = field.time ? v.getTime() - CST_OFFSET_MS : formatTime(v.getTime() - CST_OFFSET_MS, true);
  if (typeof v === 'string') {
    v = v.trim();
    if (v === '') return undefined;
  }
  if (v === undefined || v === null) return undefined;
  if (field.time && typeof v === 'string') return parseTime(v) ?? v;
  if (field.dict) {
    const entry = (await dicts.entries(k, field.dict)).find((e) => e.label === String(v));
    if (entry) return field.kind === 'integer' || field.kind === 'number' ? Number(entry.value) : entry.value;
  }
  if (field.kind === 'text' && typeof v === 'number') return String(v);
  if (field.kind === 'boolean' && typeof v === 'string') return ['是', 'true', '1', 'Y', 'y'].includes(v);
  if (field.kind === 'json' && typeof v === 'string') {
    try {
      const parsed = JSON.parse(v);
      if (Array.isArray(parsed)) return parsed;
    } catch {
      // comma separated list
    }
    return v.split(/[,，]/).map((s) => s.trim());
  }
  return v;
}

/** Lets other requests run during a long import: parsing and checking 50 000 rows must not hold the event loop. */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * How long an import may keep the event loop before it lets waiting requests run. Counted in time, not rows: a request
 * of another user passes several turns of the loop (parse, gate, query, answer) and waits for the import's slice at
 * each, so a slice must stay a few milliseconds whatever one row costs (issue 22: list p99 during a 50 000-row import
 * within 2× of idle).
 */
export const IMPORT_SLICE_MS = 0.5;

/** How long an import waits between slices for the requests in flight to be answered, at most. */
export const IMPORT_STEP_ASIDE_MS = 10;

/**
 * A clock for one import's slices: `due()` says the slice is used up; `pause()` yields, lets the requests in flight be
 * answered first (server/http/foreground.ts, at most IMPORT_STEP_ASIDE_MS) and starts the next slice.
 */
export class Slicer {
  private started = performance.now();
  constructor(private readonly sliceMs = IMPORT_SLICE_MS) {}
  due(): boolean {
    return performance.now() - this.started >= this.sliceMs;
  }
  async pause(): Promise<void> {
    await yieldToEventLoop();
    await foregroundIdle(IMPORT_STEP_ASIDE_MS);
    this.started = performance.now();
  }
  /** Yields when the slice is used up. */
  async tick(): Promise<void> {
    if (this.due()) await this.pause();
  }
}

/** An import larger than the configured caps is refused at once, before any row is checked. */
export class ImportTooLarge extends Error {}

/**
 * Reads an uploaded .xlsx (first sheet) or .csv: the first row is the header, matched to properties by title (or
 * property name); other columns are ignored. Empty lines are skipped. More than `maxRows` data lines: ImportTooLarge.
 * An .xlsx is checked and parsed outside the main thread (sheetReader.ts): a refused file throws SheetRefused; a
 * formula without a saved result, or an error value, is a problem of its row.
 */
export async function readSheet(
  k: Q,
  entity: Entity,
  buffer: Buffer,
  fileName: string,
  dicts: DictLookup,
  limits: ParseLimits,
): Promise<{ rows: SheetRow[]; problems: ImportProblem[] }> {
  let lines: SheetLine[];
  if (/\.csv$/i.test(fileName)) {
    const table = await parseCsv(buffer.toString('utf8'));
    if (table.length - 1 > limits.maxRows) throw new ImportTooLarge();
    lines = table.map((cells, i) => ({ row: i + 1, cells }));
  } else {
    try {
      lines = await readXlsxLines(buffer, limits);
    } catch (err) {
      if (err instanceof SheetTooManyRows) throw new ImportTooLarge();
      if (err instanceof SheetRefused && err.message === NOT_READABLE)
        return { rows: [], problems: [{ row: 0, field: '', message: '文件不是有效的 .xlsx 表格' }] };
      throw err;
    }
  }
  const table = lines[0]?.row === 1 ? lines : [{ row: 1, cells: [] }, ...lines];
  const header = table[0].cells.map((h) => (isCellIssue(h) || h === null || h === undefined ? '' : String(h)).trim());
  const fields = importFields(entity);
  const byHeader = new Map<number, Field>();
  header.forEach((h, i) => {
    const f = fields.find((x) => x.title === h || x.name === h);
    if (f) byHeader.set(i, f);
  });
  const problems: ImportProblem[] = [];
  const present = new Set([...byHeader.values()].map((f) => f.name));
  for (const r of entity.schema.required ?? []) {
    const f = entity.byName.get(r);
    if (f && !f.readOnly && !present.has(r)) problems.push({ row: 1, field: f.title, message: `缺少列"${f.title}"` });
  }
  const rows: SheetRow[] = [];
  const slicer = new Slicer();
  for (let i = 1; i < table.length; i++) {
    const { row, cells: line } = table[i];
    await slicer.tick();
    if (line.every((c) => c === undefined || c === null || String(c).trim() === '')) continue;
    const cells: Record<string, unknown> = {};
    let refused = false;
    for (const [index, f] of byHeader) {
      const raw = line[index];
      if (isCellIssue(raw)) {
        problems.push({ row, field: f.title, message: issueMessage(raw, f.title) });
        refused = true;
        continue;
      }
      const v = await importValue(k, f, raw, dicts);
      if (v !== undefined) cells[f.name] = v;
    }
    if (!refused) rows.push({ row, cells });
  }
  return { rows, problems };
}
