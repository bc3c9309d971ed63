import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { columnName, XlsxStreamWriter, xmlText } from '../../../server/engine/xlsxStream.js';

/** The streaming .xlsx writer of exports: a file Excel readers open, sent while rows are still being added. */
describe('XlsxStreamWriter', () => {
  it('names columns like Excel and keeps cell text valid XML', () => {
    expect([0, 25, 26, 51, 52, 701, 702].map(columnName)).toEqual(['A', 'Z', 'AA', 'AZ', 'BA', 'ZZ', 'AAA']);
    expect(xmlText('a<b>&"c"\u0001\u0008\tok\n')).toBe('a&lt;b&gt;&amp;&quot;c&quot;\tok\n');
  });

  it('writes a workbook that reads back with every row, the bold header, numbers and text as given', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const writer = new XlsxStreamWriter(out, '参数设置', [
      { header: '编号', width: 12 },
      { header: '名称', width: 20 },
      { header: '备注', width: 30 },
    ]);
    const rows = 5000;
    for (let i = 1; i <= rows; i++) await writer.addRow([i, `名称_${i} <&>`, i % 2 ? null : `第${i}行\u0002`]);
    // Bytes have left before the file is closed: the sheet is compressed and sent as it grows.
    await new Promise((r) => setImmediate(r));
    const before = chunks.reduce((n, c) => n + c.length, 0);
    expect(before).toBeGreaterThan(0);
    await writer.end();
    const file = Buffer.concat(chunks);
    expect(file.length).toBeGreaterThan(before);

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file as unknown as ExcelJS.Buffer);
    const ws = wb.worksheets[0];
    expect(ws.name).toBe('参数设置');
    expect(ws.rowCount).toBe(rows + 1);
    expect((ws.getRow(1).values as unknown[]).slice(1)).toEqual(['编号', '名称', '备注']);
    expect(ws.getRow(1).getCell(1).font?.bold).toBe(true);
    expect((ws.getRow(2).values as unknown[]).slice(1)).toEqual([1, '名称_1 <&>']);
    expect((ws.getRow(3).values as unknown[]).slice(1)).toEqual([2, '名称_2 <&>', '第2行']);
    expect(ws.getRow(rows + 1).getCell(1).value).toBe(rows);
  });
});
