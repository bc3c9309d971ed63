import { Worker } from 'node:worker_threads';
import { checkZip, NOT_XLSX, ZipRefused } from '../security/zipCheck.js';

/**
 * Every .xlsx an import reads goes through here (the schema engine's importData, the volunteer student import): the
 * zip's directory is checked first (server/security/zipCheck.ts), then the sheet is parsed in a worker thread
 * (xlsxWorker.mjs) with a heap limit and a time limit, so a hostile or huge file can exhaust only that worker — never
 * the server's memory or event loop. The worker sends plain rows in chunks; the caller validates and writes them.
 */

/** A cell the worker could not reduce to a value: a formula without a saved result, an error value (#REF!), other. */
export interface CellIssue {
  issue: 'formula' | 'error' | 'unknown';
  error?: string;
}
export type SheetCell = string | number | boolean | Date | null | CellIssue;
export interface SheetLine {
  /** Row number in the file (the header is 1). */
  row: number;
  cells: SheetCell[];
}

export interface ParseLimits {
  /** Non-empty data rows (after the header); more: SheetTooManyRows. */
  maxRows: number;
  /** IMPORT_MAX_UNZIPPED_BYTES: the sum of the zip's uncompressed entries. */
  maxUnzippedBytes: number;
  /** IMPORT_PARSE_TIMEOUT_MS: the worker is terminated after this long. */
  timeoutMs: number;
  /** IMPORT_WORKER_MEMORY_MB: the worker's old-generation heap limit. */
  memoryMb: number;
}

/** More data rows than the caller's cap; each caller words its own message. */
export class SheetTooManyRows extends Error {}
/** The file was refused before or while parsing; the message is for the user as it is. */
export class SheetRefused extends Error {}

export const PARSE_TIMEOUT = '文件解析超时，请拆分后重试';
export const PARSE_OUT_OF_MEMORY = '文件过大，请拆分后重试';
export const NOT_READABLE = NOT_XLSX;

export const isCellIssue = (c: unknown): c is CellIssue => typeof c === 'object' && c !== null && !(c instanceof Date) && 'issue' in c;

/** What to tell the user about a cell issue in column `title` (the caller adds the row). */
export function issueMessage(issue: CellIssue, title: string): string {
  if (issue.issue === 'formula') return `「${title}」是公式且没有计算结果，请粘贴为数值后重试`;
  if (issue.issue === 'error') return `「${title}」是错误值 ${issue.error ?? ''}，请改正后重试`.replace(' ，', '，');
  return `「${title}」的内容无法识别，请改为文本或数值后重试`;
}

/** Rows per message from the worker: large enough to be cheap, small enough that no message holds the loop. */
const CHUNK_ROWS = 100;

/**
 * Parse workers running at once. Each may use its whole heap limit, so this bounds the memory imports can take
 * together (eight bombs at once used to take 4 GB); further imports wait their turn.
 */
const MAX_PARSERS = 2;
let running = 0;
const waiting: Array<() => void> = [];
async function slot(): Promise<() => void> {
  if (running >= MAX_PARSERS) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  return () => {
    running--;
    waiting.shift()?.();
  };
}

const WORKER_URL = new URL('./xlsxWorker.mjs', import.meta.url);

/** Parse workers not yet exited (a refused or timed-out parse must not leave its worker running). */
const live = new Set<Worker>();
export const liveParseWorkers = () => live.size;

function parseInWorker(buffer: Buffer, limits: ParseLimits): Promise<SheetLine[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_URL, {
      workerData: { buffer: new Uint8Array(buffer), maxRows: limits.maxRows, chunkRows: CHUNK_ROWS },
      // The worker is plain JavaScript: it needs no TypeScript loader (which the server's own execArgv would add).
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    });
    live.add(worker);
    worker.on('exit', () => live.delete(worker));
    let lines: SheetLine[] = [];
    let settled = false;
    const finish = (error: Error | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      if (error) reject(error);
      else resolve(lines);
    };
    const timer = setTimeout(() => finish(new SheetRefused(PARSE_TIMEOUT)), limits.timeoutMs);
    worker.on('message', (m: { type: string; rows?: Array<[number, SheetCell[]]> }) => {
      if (m.type === 'rows' && m.rows) for (const [row, cells] of m.rows) lines.push({ row, cells });
      else if (m.type === 'reset') lines = [];
      else if (m.type === 'done') finish(null);
      else if (m.type === 'tooMany') finish(new SheetTooManyRows());
      else finish(new SheetRefused(NOT_READABLE));
    });
    worker.on('error', (err: Error & { code?: string }) =>
      finish(new SheetRefused(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? PARSE_OUT_OF_MEMORY : NOT_READABLE)),
    );
    worker.on('exit', () => finish(new SheetRefused(NOT_READABLE)));
  });
}

/**
 * The non-empty rows of the first sheet of an .xlsx, in order. Throws SheetRefused (not a zip, a bomb, too slow, too
 * much memory, unreadable) or SheetTooManyRows.
 */
export async function readXlsxLines(buffer: Buffer, limits: ParseLimits): Promise<SheetLine[]> {
  try {
    await checkZip(buffer, { maxUnzippedBytes: limits.maxUnzippedBytes });
  } catch (err) {
    if (err instanceof ZipRefused) throw new SheetRefused(err.message);
    throw err;
  }
  const release = await slot();
  try {
    return await parseInWorker(buffer, limits);
  } finally {
    release();
  }
}

/** The parse limits of a server's configuration. */
export const parseLimits = (
  config: { importMaxUnzippedBytes: number; importParseTimeoutMs: number; importWorkerMemoryMb: number },
  maxRows: number,
): ParseLimits => ({
  maxRows,
  maxUnzippedBytes: config.importMaxUnzippedBytes,
  timeoutMs: config.importParseTimeoutMs,
  memoryMb: config.importWorkerMemoryMb,
});
