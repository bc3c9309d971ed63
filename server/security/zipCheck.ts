import yauzl from 'yauzl';

/**
 * Checks an uploaded .xlsx (a zip) from its central directory alone, before anything inflates it: a few hundred bytes
 * of a "zip bomb" can declare gigabytes of sheet XML, and the spreadsheet reader would inflate and parse all of it.
 * Only the directory is read (yauzl, lazily, entry by entry), so the check costs the same for a bomb as for a
 * normal file and never allocates the uncompressed data.
 *
 * The directory can lie about sizes; that is what the parse worker's memory and time limits are for
 * (server/engine/sheetReader.ts). This check refuses the honest bombs cheaply and with a clear message.
 */

export interface ZipLimits {
  /** Sum of the entries' uncompressed sizes (IMPORT_MAX_UNZIPPED_BYTES, default 100 MB). */
  maxUnzippedBytes: number;
  /** Most entries a workbook may have (a real one has a few dozen). */
  maxEntries?: number;
  /** Largest compression ratio of an entry over `ratioFloorBytes` uncompressed. */
  maxRatio?: number;
  ratioFloorBytes?: number;
}

export const ZIP_MAX_ENTRIES = 2000;
/** Sheet XML of real workbooks compresses about 5–20:1; 100:1 only comes from padding made to inflate. */
export const ZIP_MAX_RATIO = 100;
export const ZIP_RATIO_FLOOR_BYTES = 1024 * 1024;

/** Why a file was refused; the message is said to the user as it is. */
export class ZipRefused extends Error {}

export const NOT_XLSX = '文件内容不是有效的 Excel（.xlsx）文件，请另存为 .xlsx 后重试';
export const TOO_BIG_UNZIPPED = '文件过大，请拆分后重试（解压后的内容超过上限）';

const open = (buffer: Buffer) =>
  new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(buffer, { lazyEntries: true, autoClose: true }, (err, zip) => (err || !zip ? reject(err ?? new Error('no zip')) : resolve(zip))),
  );

/** Resolves when the file's directory is within the limits; otherwise rejects with a ZipRefused in Chinese. */
export async function checkZip(buffer: Buffer, limits: ZipLimits): Promise<void> {
  const maxEntries = limits.maxEntries ?? ZIP_MAX_ENTRIES;
  const maxRatio = limits.maxRatio ?? ZIP_MAX_RATIO;
  const floor = limits.ratioFloorBytes ?? ZIP_RATIO_FLOOR_BYTES;
  let zip: yauzl.ZipFile;
  try {
    zip = await open(buffer);
  } catch {
    throw new ZipRefused(NOT_XLSX);
  }
  // The directory's own count comes first: a file declaring a million entries is refused without walking them.
  if (zip.entryCount > maxEntries) {
    zip.close();
    throw new ZipRefused(`文件过大，请拆分后重试（压缩包内有 ${zip.entryCount} 个文件，超过上限 ${maxEntries}）`);
  }
  await new Promise<void>((resolve, reject) => {
    let total = 0;
    const refuse = (message: string) => {
      zip.close();
      reject(new ZipRefused(message));
    };
    zip.on('entry', (entry: yauzl.Entry) => {
      total += entry.uncompressedSize;
      if (total > limits.maxUnzippedBytes) return refuse(TOO_BIG_UNZIPPED);
      if (entry.uncompressedSize > floor && entry.uncompressedSize / Math.max(entry.compressedSize, 1) > maxRatio)
        return refuse('文件过大，请拆分后重试（文件压缩比异常，可能是恶意构造的文件）');
      zip.readEntry();
    });
    zip.on('end', () => resolve());
    zip.on('error', () => refuse(NOT_XLSX));
    zip.readEntry();
  });
}
