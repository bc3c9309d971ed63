import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const unbrotli = promisify(zlib.brotliDecompress);
const gunzip = promisify(zlib.gunzip);

/** Text assets worth compressing; images and fonts are already compressed formats. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map)$/;
/** Below this a compressed copy saves less than the extra file costs. */
const MIN_BYTES = 1024;
/**
 * Brotli quality 10, not 11 (the maximum): measured on this console's 173 assets (docs/production.md), 11 took 2.8×
 * the CPU time of 10 (6.2 s against 2.2 s on one core) for 1.6 % fewer bytes (1 240 kB against 1 260 kB).
 */
export const BROTLI_QUALITY = 10;

export interface PrecompressOptions {
  /**
   * The build this one replaces (dist/): an asset whose name and bytes are unchanged takes its .br/.gz from there
   * instead of being compressed again (asset names carry a content hash, so most of a rebuild is unchanged).
   */
  previousBuild?: string;
}

export interface PrecompressStats {
  files: number;
  reused: number;
  compressed: number;
  brBytes: number;
  gzBytes: number;
  ms: number;
}

/**
 * Writes a .br (brotli) and a .gz (gzip -9) beside every text file of the build's assets/ folder, so the server
 * (server/static.ts, preCompressed) hands out the smallest variant the browser accepts without compressing on each
 * request. zlib's asynchronous calls run on libuv's thread pool, so the files are compressed in parallel, largest
 * first so that no big file starts last and finishes alone.
 */
export function precompress({ previousBuild }: PrecompressOptions = {}): Plugin {
  let outDir = 'dist';
  let log: (message: string) => void = () => {};
  return {
    name: 'precompress-assets',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      log = (message) => config.logger.info(message);
    },
    async writeBundle(_options, bundle) {
      const stats = await precompressAssets(
        outDir,
        Object.keys(bundle).filter((name) => name.startsWith('assets/') && COMPRESSIBLE.test(name)),
        previousBuild,
      );
      log(`预压缩：${stats.files} 个文件，复用上次构建 ${stats.reused} 个，新压缩 ${stats.compressed} 个，用时 ${(stats.ms / 1000).toFixed(1)} 秒`);
    },
  };
}

/** Compresses the named files of outDir (paths relative to it); exported for measuring. */
export async function precompressAssets(outDir: string, names: string[], previousBuild?: string): Promise<PrecompressStats> {
  const t0 = performance.now();
  const files = (await Promise.all(names.map(async (name) => ({ name, source: await fs.readFile(path.join(outDir, name)) })))).filter(
    (f) => f.source.length >= MIN_BYTES,
  );
  const previous = previousBuild && path.resolve(previousBuild) !== path.resolve(outDir) ? previousBuild : undefined;
  const reused = await Promise.all(files.map((f) => (previous ? reuse(path.join(previous, f.name), f.source, path.join(outDir, f.name)) : null)));
  const todo = files.filter((_, i) => !reused[i]).sort((a, b) => b.source.length - a.source.length);
  const made = await Promise.all(
    todo.map(async ({ name, source }) => {
      const [br, gz] = await Promise.all([
        brotli(source, {
          params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length },
        }),
        gzip(source, { level: 9 }),
      ]);
      const file = path.join(outDir, name);
      await Promise.all([fs.writeFile(`${file}.br`, br), fs.writeFile(`${file}.gz`, gz)]);
      return { br: br.length, gz: gz.length };
    }),
  );
  const sizes = [...reused.filter((r) => r !== null), ...made];
  return {
    files: files.length,
    reused: files.length - todo.length,
    compressed: todo.length,
    brBytes: sizes.reduce((t, s) => t + s.br, 0),
    gzBytes: sizes.reduce((t, s) => t + s.gz, 0),
    ms: performance.now() - t0,
  };
}

/**
 * Copies the previous build's .br/.gz of an unchanged file. They are checked, not trusted: both must unpack to
 * exactly the new file's bytes (a copy cut short by an interrupted build would not), else the file is compressed anew.
 */
async function reuse(previousFile: string, source: Buffer, file: string): Promise<{ br: number; gz: number } | null> {
  try {
    const [old, br, gz] = await Promise.all([fs.readFile(previousFile), fs.readFile(`${previousFile}.br`), fs.readFile(`${previousFile}.gz`)]);
    if (!old.equals(source)) return null;
    const [fromBr, fromGz] = await Promise.all([unbrotli(br), gunzip(gz)]);
    if (!fromBr.equals(source) || !fromGz.equals(source)) return null;
    await Promise.all([fs.writeFile(`${file}.br`, br), fs.writeFile(`${file}.gz`, gz)]);
    return { br: br.length, gz: gz.length };
  } catch {
    return null; // not in the previous build (new or changed file), or no compressed copies there
  }
}
