import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { assertSafeKey } from './object-keys.js';
import { type Storage, StorageNotFoundError } from './types.js';

const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const MISSING = new Set(['ENOENT', 'ENOTDIR', 'ELOOP', 'EISDIR']);

/**
 * Local-disk driver (the default): objects are files under `root` (DATA_DIR/uploads), which app.ts serves read-only
 * at /profile/. Reads resolve symbolic links and refuse anything that ends up outside `root`.
 */
export function createLocalStorage(root: string, publicBase = '/profile'): Storage {
  const base = publicBase.replace(/\/+$/, '');
  const absolute = (key: string) => {
    assertSafeKey(key);
    const abs = path.resolve(root, ...key.split('/'));
    if (!abs.startsWith(path.resolve(root) + path.sep)) throw new StorageNotFoundError(key);
    return abs;
  };
  const urlFor = (key: string) => {
    assertSafeKey(key);
    return `${base}/${key}`;
  };

  return {
    driver: 'local',
    publicBase: base,
    urlFor,
    async put(key, body) {
      const abs = absolute(key);
      await fs.promises.mkdir(path.dirname(abs), { recursive: true });
      // 'wx': never overwrite (keys are random; a clash is a bug, not something to paper over).
      await fs.promises.writeFile(abs, body, { flag: 'wx', mode: 0o644 });
      return urlFor(key);
    },
    async get(key): Promise<Readable> {
      const abs = absolute(key);
      let handle: fs.promises.FileHandle | undefined;
      try {
        const [realRoot, real] = await Promise.all([fs.promises.realpath(root), fs.promises.realpath(abs)]);
        if (!real.startsWith(realRoot + path.sep)) throw new StorageNotFoundError(key);
        handle = await fs.promises.open(real, fs.constants.O_RDONLY | NOFOLLOW);
        if (!(await handle.stat()).isFile()) throw new StorageNotFoundError(key);
        return handle.createReadStream();
      } catch (error) {
        await handle?.close();
        if (error instanceof StorageNotFoundError) throw error;
        if (MISSING.has((error as NodeJS.ErrnoException).code ?? '')) throw new StorageNotFoundError(key);
        throw error;
      }
    },
    async delete(key) {
      try {
        await fs.promises.unlink(absolute(key));
      } catch (error) {
        if (!MISSING.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
      }
    },
  };
}
