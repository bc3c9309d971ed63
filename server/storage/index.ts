import type { ServerConfig } from '../config.js';
import { createLocalStorage } from './local.js';
import { uploadRoot } from './roots.js';
import { createS3Storage } from './s3.js';
import type { Storage } from './types.js';

export { isSafeKey, keyBaseName, newObjectKey } from './object-keys.js';
export { type Storage, StorageNotFoundError, UnsafeKeyError } from './types.js';

/** The storage chosen by STORAGE_DRIVER: local disk (default; DATA_DIR/uploads served at /profile/) or S3-compatible. */
export async function createStorage(config: Pick<ServerConfig, 'dataDir' | 'storage'>): Promise<Storage> {
  const s = config.storage;
  if (s.driver === 's3') return createS3Storage(s);
  return createLocalStorage(uploadRoot(config.dataDir), '/profile');
}
