/**
 * File types by content. A type is accepted only when the name's extension is allowed AND the bytes are what that
 * extension claims (a text file named .png is refused). Raster images are judged by content alone once the extension
 * is an allowed image one (a JPEG named .png is stored as .jpg, as the avatar upload does).
 */

export const IMAGE_TYPES = ['png', 'jpg', 'jpeg', 'gif', 'webp'] as const;
export const DOCUMENT_TYPES = ['doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'txt', 'pdf'] as const;
export const ARCHIVE_TYPES = ['zip', 'rar', '7z'] as const;
/** What /common/upload accepts (spec §5 file upload, widened to the console's image and archive uploads). */
export const UPLOAD_TYPES: readonly string[] = [...IMAGE_TYPES, ...DOCUMENT_TYPES, ...ARCHIVE_TYPES];
/** The rich-text editor's image types (spec §5: jpeg, jpg, png, svg). */
export const EDITOR_IMAGE_TYPES: readonly string[] = ['png', 'jpg', 'jpeg', 'svg'];

const MIME: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  txt: 'text/plain; charset=utf-8',
  pdf: 'application/pdf',
  zip: 'application/zip',
  rar: 'application/vnd.rar',
  '7z': 'application/x-7z-compressed',
};
export const mimeOf = (ext: string) => MIME[ext] ?? 'application/octet-stream';

/** Lower-case extension of a file name ('' when there is none). */
export function extensionOf(fileName: string): string {
  const base = fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

const at = (b: Buffer, signature: number[] | string, offset = 0) => {
  const sig = typeof signature === 'string' ? Buffer.from(signature, 'latin1') : Buffer.from(signature);
  return b.length >= offset + sig.length && b.subarray(offset, offset + sig.length).equals(sig);
};

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const SEVEN_ZIP = [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c];

/** PNG, JPEG, GIF or WebP by signature. */
export function sniffRaster(b: Buffer): 'png' | 'jpg' | 'gif' | 'webp' | null {
  if (b.length > 8 && at(b, PNG)) return 'png';
  if (b.length > 3 && at(b, [0xff, 0xd8, 0xff])) return 'jpg';
  if (b.length > 6 && (at(b, 'GIF87a') || at(b, 'GIF89a'))) return 'gif';
  if (b.length > 15 && at(b, 'RIFF') && at(b, 'WEBP', 8) && at(b, 'VP8', 12)) return 'webp';
  return null;
}

const isZip = (b: Buffer) => at(b, 'PK\x03\x04') || at(b, 'PK\x05\x06');
/** Office Open XML: a zip holding [Content_Types].xml and the part folder of its kind. */
const OOXML: Record<string, string> = { docx: 'word/', xlsx: 'xl/', pptx: 'ppt/' };
/** Legacy Office: an OLE2 compound file holding the stream of its kind (directory names are UTF-16LE). */
const OLE_STREAMS: Record<string, string[]> = { doc: ['WordDocument'], xls: ['Workbook', 'Book'], ppt: ['PowerPoint Document'] };

/** Plain text: something, and no control bytes other than tab, newlines, form feed and escape (UTF-8 and GBK pass). */
export function isPlainText(b: Buffer): boolean {
  if (b.length === 0) return false;
  for (const byte of b) {
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d && byte !== 0x1b) return false;
    if (byte === 0x7f) return false;
  }
  return true;
}

/**
 * The extension to store the file under, or null when the name's extension is not in `allowed` or the content
 * is not what it claims.
 */
export function detectType(buffer: Buffer, claimedExt: string, allowed: readonly string[]): string | null {
  const ext = claimedExt.toLowerCase();
  if (!allowed.includes(ext)) return null;
  if ((IMAGE_TYPES as readonly string[]).includes(ext)) {
    const raster = sniffRaster(buffer);
    return raster && allowed.includes(raster) ? raster : null;
  }
  switch (ext) {
    case 'pdf':
      return at(buffer, '%PDF-') ? ext : null;
    case 'doc':
    case 'xls':
    case 'ppt':
      return at(buffer, OLE) && OLE_STREAMS[ext].some((name) => buffer.includes(Buffer.from(name, 'utf16le'))) ? ext : null;
    case 'docx':
    case 'xlsx':
    case 'pptx':
      return isZip(buffer) && buffer.includes('[Content_Types].xml') && buffer.includes(OOXML[ext]) ? ext : null;
    case 'zip':
      return isZip(buffer) ? ext : null;
    case 'rar':
      return at(buffer, 'Rar!\x1a\x07\x00') || at(buffer, 'Rar!\x1a\x07\x01\x00') ? ext : null;
    case '7z':
      return at(buffer, SEVEN_ZIP) ? ext : null;
    case 'txt':
      return isPlainText(buffer) ? ext : null;
    case 'svg':
      return isSafeSvg(buffer) ? ext : null;
    default:
      return null;
  }
}

/** True when `text` holds a C0 control character or DEL, other than those listed in `allowed`. */
export function hasControlChar(text: string, allowed: readonly number[] = []): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 || c === 0x7f) && !allowed.includes(c)) return true;
  }
  return false;
}

/** The text without whitespace and control characters (browsers skip them inside a URL scheme: java\tscript:). */
function squeeze(text: string): string {
  let out = '';
  for (const ch of text) if (ch.charCodeAt(0) > 0x20 && !/\s/.test(ch)) out += ch;
  return out;
}

const decodeEntities = (text: string) =>
  text
    .replace(/&#x([0-9a-f]+);?/gi, (_m, hex: string) => safeChar(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);?/g, (_m, dec: string) => safeChar(Number.parseInt(dec, 10)))
    .replace(/&(colon|tab|newline|lpar|rpar|sol|bsol|period|lt|gt|quot|apos|amp);/gi, (_m, name: string) => NAMED[name.toLowerCase()] ?? '');
const NAMED: Record<string, string> = {
  colon: ':',
  tab: '\t',
  newline: '\n',
  lpar: '(',
  rpar: ')',
  sol: '/',
  bsol: '\\',
  period: '.',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  amp: '&',
};
const safeChar = (code: number) => (Number.isFinite(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '');

/** Attribute references that stay inside the document (#id) or embed a raster image; anything else is external. */
const LOCAL_REFERENCE = /^\s*(#|data:image\/(png|jpeg|jpg|gif|webp);)/i;
const UNSAFE_SVG: RegExp[] = [
  /<([a-z0-9_-]+:)?script/i, // scripts, also namespaced (<svg:script)
  /[\s"'/]on[a-z-]+\s*=/i, // event handlers (onload=, onclick= …)
  /<!DOCTYPE|<!ENTITY/i, // external entities, entity expansion
  /<\?xml-stylesheet/i, // external style sheets
  /<([a-z0-9_-]+:)?(foreignObject|iframe|embed|object|handler|listener)\b/i, // embedded HTML or plugins
  /@import/i,
  /url\s*\(\s*['"]?\s*(?!#)/i, // url(...) other than url(#id)
  /attributeName\s*=\s*["']?\s*([a-z0-9_-]+:)?(href|src|on)/i, // animating a reference or handler into place
];

/**
 * An SVG the editor may store: UTF-8 text whose root element is <svg>, without scripts, event handlers, external
 * references (href/src other than #id or an embedded raster image, url(), @import, style sheets, entities) or embedded
 * HTML. Checked on the text and again after decoding character references (&#106;avascript: and the like).
 */
export function isSafeSvg(buffer: Buffer): boolean {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(buffer);
  } catch {
    return false;
  }
  text = text.replace(/^\uFEFF/, '');
  if (hasControlChar(text, [0x09, 0x0a, 0x0c, 0x0d])) return false;
  const body = text.replace(/^\s*(<\?xml\s[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*/, '');
  if (!/^<svg[\s>/]/.test(body)) return false;
  for (const t of [text, decodeEntities(text)]) {
    if (UNSAFE_SVG.some((re) => re.test(t))) return false;
    if (/(java|vb)script:|data:text\/html/i.test(squeeze(t))) return false;
    for (const m of t.matchAll(/(?:^|[\s"'/])(?:[a-z0-9_-]+:)?(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]*))/gi)) {
      const value = m[1] ?? m[2] ?? m[3] ?? '';
      if (!LOCAL_REFERENCE.test(value)) return false;
    }
  }
  return true;
}
