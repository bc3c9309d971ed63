// The spreadsheet parse of an import, run in a worker thread (server/engine/sheetReader.ts starts it with memory and
// time limits). Plain JavaScript on purpose: it loads as it is under `npm start` (node --import tsx), `tsx` and
// vitest, with no TypeScript loader in the worker.
//
// In:  workerData = { buffer: Uint8Array, maxRows: number, chunkRows: number }
// Out: { type: 'rows', rows: [[rowNumber, cells], …] } in chunks, then { type: 'done' };
//      { type: 'reset' } when the streamed read failed part-way and the file is read again whole;
//      { type: 'tooMany' } past maxRows data rows; { type: 'invalid' } when it is not a readable workbook.
// Cells are plain values the structured clone carries (string, number, boolean, Date, null) or an issue object
// { issue: 'formula' | 'error' | 'unknown', error? } that the main thread turns into a row message.
import { Readable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import ExcelJS from 'exceljs';

const { buffer, maxRows, chunkRows } = workerData;
const data = Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength);

class TooMany extends Error {}

/**
 * An exceljs cell value as a plain value. A formula counts by its cached result (what the user saw in Excel); a
 * formula saved without a result, or an error value, is an issue rather than a guess — never "[object Object]".
 */
function plain(v) {
  if (v === null || v === undefined) return null;
  if (v instanceof Date || typeof v !== 'object') return v;
  if (Array.isArray(v.richText)) return v.richText.map((r) => (typeof r?.text === 'string' ? r.text : '')).join('');
  if ('formula' in v || 'sharedFormula' in v) {
    const r = v.result;
    if (r === undefined || r === null || r === '') return { issue: 'formula' };
    if (typeof r === 'object' && !(r instanceof Date) && 'error' in r) return { issue: 'error', error: String(r.error) };
    return plain(r);
  }
  if ('hyperlink' in v || 'text' in v) return plain(v.text ?? null);
  if ('error' in v) return { issue: 'error', error: String(v.error) };
  return { issue: 'unknown' };
}

const empty = (c) => c === null || (typeof c === 'string' && c.trim() === '');

/** Collects rows and posts them every `chunkRows`; counts the non-empty data rows against maxRows. */
function sink() {
  let chunk = [];
  let count = 0;
  return {
    add(number, values) {
      // Array.from, not map: exceljs' row values are sparse, and a hole must arrive as an empty cell.
      const cells = Array.from(values.slice(1), plain);
      if (cells.every(empty)) return;
      if (number > 1 && ++count > maxRows) throw new TooMany();
      chunk.push([number, cells]);
      if (chunk.length >= chunkRows) this.flush();
    },
    flush() {
      if (chunk.length) parentPort.postMessage({ type: 'rows', rows: chunk });
      chunk = [];
    },
  };
}

/** The first sheet, streamed (exceljs' WorkbookReader): rows arrive as the zip is read. */
async function streamed() {
  const out = sink();
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(data), {
    sharedStrings: 'cache',
    styles: 'cache', // dates are numbers with a date format
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'emit',
  });
  for await (const sheet of reader) {
    for await (const row of sheet) out.add(row.number, row.values);
    break; // the first sheet only
  }
  out.flush();
}

/** The first sheet read whole (exceljs' Workbook): the streaming reader refuses a few valid workbooks this opens. */
async function whole() {
  const out = sink();
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(data);
  const sheet = workbook.worksheets[0];
  sheet?.eachRow({ includeEmpty: false }, (row, n) => out.add(n, row.values));
  out.flush();
}

try {
  try {
    await streamed();
  } catch (err) {
    if (err instanceof TooMany) throw err;
    parentPort.postMessage({ type: 'reset' });
    await whole();
  }
  parentPort.postMessage({ type: 'done' });
} catch (err) {
  parentPort.postMessage({ type: err instanceof TooMany ? 'tooMany' : 'invalid' });
}
