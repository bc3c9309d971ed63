import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Where uploaded files live: DATA_DIR/uploads, served read-only under /profile/. */
export const uploadRoot = (dataDir: string) => path.join(dataDir, 'uploads');

/** Where export outputs wait to be fetched: DATA_DIR/download, read by GET /dev-api/common/download?fileName=… only. */
export const downloadRoot = (dataDir: string) => path.join(dataDir, 'download');

const SIGNATURES: Array<{ ext: string; test: (b: Buffer) => boolean }> = [
  { ext: 'png', test: (b) => b.length > 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { ext: 'jpg', test: (b) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
];

/** The image type by content (not by the name the browser sent), or null when it is not a PNG/JPEG. */
export function sniffImage(buffer: Buffer): 'png' | 'jpg' | null {
  return (SIGNATURES.find((s) => s.test(buffer))?.ext as 'png' | 'jpg' | undefined) ?? null;
}

/** Stores a file under uploads/<folder>/<yyyy>/<mm>/<random>.<ext>; returns its public URL under /profile/. */
export function storeUpload(dataDir: string, folder: string, ext: string, buffer: Buffer): string {
  const now = new Date();
  const rel = path.posix.join(folder, String(now.getFullYear()), String(now.getMonth() + 1).padStart(2, '0'), `${crypto.randomUUID()}.${ext}`);
  const abs = path.join(uploadRoot(dataDir), rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, buffer);
  return `/profile/${rel}`;
}
