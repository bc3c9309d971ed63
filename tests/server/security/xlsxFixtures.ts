import { PassThrough, Readable } from 'node:stream';
import archiver from 'archiver';

/** Spreadsheet files that attack an import (tests/server/security/imports.test.ts, bench/zipBomb.ts). */

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A minimal one-sheet .xlsx whose sheet XML comes from `sheet` (streamed into the zip), plus any `extra` entries. */
export async function xlsx(sheet: Readable, extra: Array<[string, Buffer]> = []): Promise<Buffer> {
  const archive = archiver('zip', { zlib: { level: 9 } });
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((resolve) => out.on('end', resolve));
  archive.pipe(out);
  archive.append(
    `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
    { name: '[Content_Types].xml' },
  );
  archive.append(
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    { name: '_rels/.rels' },
  );
  archive.append(
    `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${NS}" xmlns:r="${REL}"><sheets><sheet name="学生" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    {
      name: 'xl/workbook.xml',
    },
  );
  archive.append(
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    { name: 'xl/_rels/workbook.xml.rels' },
  );
  archive.append(sheet, { name: 'xl/worksheets/sheet1.xml' });
  for (const [name, data] of extra) archive.append(data, { name });
  await archive.finalize();
  await done;
  return Buffer.concat(chunks);
}

export const cell = (text: string) => `<c t="inlineStr"><is><t>${text}</t></is></c>`;

/** A zip bomb: `mb` MB of identical sheet rows (a name and a score) that deflate to a few tens of KB. */
export function bomb(mb: number, header: string[]): Promise<Buffer> {
  const row = `<row>${cell('张三')}<c><v>600</v></c></row>`;
  const block = row.repeat(Math.ceil((1024 * 1024) / row.length));
  async function* sheet() {
    yield `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${NS}"><sheetData><row>${header.map(cell).join('')}</row>`;
    for (let i = 0; i < mb; i++) yield block;
    yield '</sheetData></worksheet>';
  }
  return xlsx(Readable.from(sheet()));
}
