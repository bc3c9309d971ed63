import path from 'node:path';

/** Where uploaded files live: DATA_DIR/uploads, served read-only under /profile/ (the local storage driver's root). */
export const uploadRoot = (dataDir: string) => path.join(dataDir, 'uploads');

/** Where export outputs wait to be fetched: DATA_DIR/download, read by GET /dev-api/common/download?fileName=… only. */
export const downloadRoot = (dataDir: string) => path.join(dataDir, 'download');
