import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Worker } from 'node:worker_threads';
import archiver from 'archiver';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import yauzl from 'yauzl';
import type { ServerConfig } from '../config.js';
import { uploadRoot } from '../storage/roots.js';
import type { Db } from './connection.js';
import { MIGRATION_LOCK, migrations } from './migrations/index.js';

/**
 * Backup and restore (docs/backup.md): one .zip archive holding the database (`database/`) and the files of DATA_DIR
 * (`data/`: keys, uploads, invoice PDFs … — everything but what is temporary or rebuilt, see NOT_DATA), with
 * manifest.json (time, product version, database kind, migration level, every file's size and SHA-256).
 *
 *  - SQLite: SQLite's online backup API copies the live database (sqliteSnapshot.worker.mjs), consistent while the
 *    server keeps writing; the copy is checked (`quick_check`) before it goes into the archive.
 *  - PostgreSQL: `pg_dump --format=custom` of the configured schema, with the migration lock held shared so no
 *    migration runs mid-dump; restored with `pg_restore --clean --if-exists --single-transaction`.
 *
 * Restore checks everything before it changes anything: each file's SHA-256 against the manifest, that the archive is
 * not from a newer migration level than this code, that no server is running on the target, and that the target is
 * empty unless `force` (then the old contents are moved aside, never deleted).
 *
 * Every message thrown as BackupError is written for the operator (Chinese, says what to do); the CLIs, the job log
 * and the start-up print it as it is.
 */

export class BackupError extends Error {
  override name = 'BackupError';
}

/** The database file server/db/connection.ts opens in DATA_DIR. */
export const SQLITE_FILE = 'zhiyuan.sqlite';
const FORMAT = 'zhiyuan-backup';
const FORMAT_VERSION = 1;
const MANIFEST = 'manifest.json';
const DB_ENTRY = { sqlite: `database/${SQLITE_FILE}`, postgres: 'database/postgres.dump' } as const;
/** A manifest listing a very large uploads folder is still far below this; anything bigger is not ours. */
const MANIFEST_MAX_BYTES = 64 * 1024 * 1024;
/** 服务监控 lists a process as alive while its heartbeat is fresher than 3 × NODE_HEARTBEAT_MS (server/monitor/plugin.ts). */
const LIVE_NODE_MS = 30_000;
/** The entries restore leaves where they are: the backups folder and the folders earlier restores moved aside. */
const KEPT_IN_PLACE = (name: string) => name === 'backups' || name.startsWith('before-restore-') || name.startsWith('.restore-staging-');
/**
 * Entries of DATA_DIR that are not backed up as files: the database (copied through SQLite's backup API instead),
 * backups, folders moved aside by a restore, export files waiting to be fetched (download) and unfinished resumable
 * uploads (tus). Everything else is data — a folder a future module adds is backed up without anyone remembering to.
 */
const NOT_DATA = (name: string) => KEPT_IN_PLACE(name) || name === SQLITE_FILE || name.startsWith(`${SQLITE_FILE}-`) || name === 'download' || name === 'tus';
const DATA_PREFIX = 'data/';

export interface BackupManifest {
  format: typeof FORMAT;
  formatVersion: number;
  /** ISO time the backup started. */
  createdAt: string;
  product: { name: string; version: string };
  database: { kind: 'sqlite' | 'postgres'; file: string; schema?: string; serverVersion?: string };
  /** The applied migrations of the archived data, in order; `level` is the last of them. */
  migrations: { level: string | null; applied: string[] };
  /** included: DATA_DIR/uploads is in the archive; omitted: left out on purpose (pre-migrate backups); s3: files are in the bucket. */
  uploads: 'included' | 'omitted' | 's3';
  files: Array<{ path: string; size: number; sha256: string }>;
}

/** What backup and restore read of the server configuration. */
export type BackupConfig = Pick<ServerConfig, 'dataDir'> & Partial<Pick<ServerConfig, 'databaseUrl' | 'databaseSchema' | 'storage' | 'staticDir'>>;

export interface BackupOptions {
  /** Put DATA_DIR/uploads into the archive (default true; with S3 storage the files are in the bucket, never here). */
  uploads?: boolean;
  /** Stops the backup (server shutting down); the unfinished archive is removed. */
  signal?: AbortSignal;
}

export interface BackupResult {
  file: string;
  bytes: number;
  ms: number;
  manifest: BackupManifest;
}

// ——— names, places, sizes ———

const CHINA_OFFSET = 8 * 60 * 60 * 1000;

/** YYYYMMDD-HHmmss in China time (the product's clock for people): archive names and their order. */
export function backupStamp(ms: number): string {
  const iso = new Date(ms + CHINA_OFFSET).toISOString();
  return `${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}`;
}

/** The scheduled job's and the CLI's archives; retention touches no other file. */
const SCHEDULED_NAME = /^backup-(\d{8}-\d{6})(?:-(\d+))?\.zip$/;

/** `<dir>/<base>.zip`, or `<base>-2.zip`, `-3` … when two backups fall in the same second. */
export function uniqueArchiveName(dir: string, base: string): string {
  for (let n = 1; ; n++) {
    const file = path.join(dir, n === 1 ? `${base}.zip` : `${base}-${n}.zip`);
    if (!fs.existsSync(file) && !fs.existsSync(partFile(file))) return file;
  }
}

/** Default target of `npm run backup`: DATA_DIR/backups/backup-<time>.zip. */
export function defaultBackupFile(dataDir: string, now = Date.now()): string {
  return uniqueArchiveName(path.join(dataDir, 'backups'), `backup-${backupStamp(now)}`);
}

/** The archive is written here and renamed into place once complete: a crash never leaves a half archive named .zip. */
const partFile = (file: string) => path.join(path.dirname(file), `.${path.basename(file)}.part`);

const isInside = (child: string, parent: string) => {
  const rel = path.relative(path.resolve(parent), path.resolve(child));
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/**
 * An archive holds the whole database and the keys. Inside DATA_DIR it goes only under DATA_DIR/backups: anywhere
 * else there it could be served (uploads, at /profile/), be backed up again by the next backup, or be moved aside by a
 * restore. Outside DATA_DIR, never into the console's static folder (served too).
 */
function assertPrivatePlace(config: BackupConfig, target: string, isFolder = false): void {
  const folder = isFolder ? target : path.dirname(target);
  if (isInside(folder, config.dataDir) && !isInside(folder, path.join(config.dataDir, 'backups'))) {
    const served = isInside(folder, uploadRoot(config.dataDir)) ? '（上传目录会通过 /profile/ 对外提供）' : '';
    throw new BackupError(
      `备份在数据目录 ${config.dataDir} 中只能放在 backups 目录下${served}。备份含完整数据库与密钥：请放在 backups 目录（默认）或数据目录之外不对外公开的位置`,
    );
  }
  if (config.staticDir && isInside(folder, config.staticDir)) {
    throw new BackupError(`备份不能放在控制台静态文件目录 ${config.staticDir} 中（会对外提供）。请换一个不对外公开的目录`);
  }
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

let productCache: { name: string; version: string } | null = null;
function product(): { name: string; version: string } {
  if (!productCache) {
    const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { name?: string; version?: string };
    productCache = { name: pkg.name ?? 'zhiyuan-console', version: pkg.version ?? '0.0.0' };
  }
  return productCache;
}

/** The last applied migration in code order: the data's level. */
function levelOf(applied: Iterable<string>): string | null {
  const done = new Set(applied);
  let level: string | null = null;
  for (const m of migrations) if (done.has(m.name)) level = m.name;
  return level;
}

const errorCode = (err: unknown) => (err as NodeJS.ErrnoException | undefined)?.code;

// ——— SQLite ———

/** Runs sqliteSnapshot.worker.mjs: the live database copied to `dest` and checked; answers the applied migrations. */
function snapshotSqlite(source: string, dest: string, signal?: AbortSignal): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./sqliteSnapshot.worker.mjs', import.meta.url), {
      workerData: { source, dest },
      // Plain JavaScript: no TypeScript loader (which the server's own execArgv would pass on).
      execArgv: [],
    });
    let settled = false;
    const finish = (err: Error | null, applied?: string[]) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      if (err) reject(err);
      else resolve(applied ?? []);
    };
    const onAbort = () => finish(new BackupError('备份已取消（服务正在停止）'));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (m: { ok: boolean; check?: string; applied?: string[]; code?: string | null; message?: string }) => {
      if (!m.ok) {
        const busy = m.code === 'SQLITE_BUSY';
        return finish(
          new BackupError(
            busy ? '数据库持续繁忙，10 秒内没能开始读取。请稍后重试' : `读取 SQLite 数据库失败：${m.message}。请检查数据目录的磁盘空间与读写权限`,
          ),
        );
      }
      if (m.check !== 'ok') {
        return finish(new BackupError(`数据库副本的完整性检查未通过（${m.check}），源数据库可能已损坏，本次备份作废。请保留现有备份并检查数据库文件`));
      }
      finish(null, m.applied);
    });
    worker.on('error', (err) => finish(new BackupError(`备份进程出错：${err.message}`)));
    worker.on('exit', () => finish(new BackupError('备份进程意外退出，本次备份作废，请重试')));
  });
}

/** Whether some connection (a server process, another tool) has the SQLite file open: its shared lock blocks ours. */
function sqliteInUse(file: string): boolean {
  if (!fs.existsSync(file)) return false;
  let probe: SQLite.Database | undefined;
  try {
    probe = new SQLite(file, { timeout: 0, fileMustExist: true });
    // In WAL mode every open connection holds a shared lock on the file; an exclusive-mode write lock needs none held.
    probe.pragma('locking_mode = EXCLUSIVE');
    probe.exec('BEGIN EXCLUSIVE');
    probe.exec('COMMIT');
    return false;
  } catch (err) {
    const code = errorCode(err);
    // A damaged file is exactly what a forced restore replaces: only a held lock means "in use".
    return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
  } finally {
    probe?.close();
  }
}

// ——— PostgreSQL ———

/** pg_dump / pg_restore: from PG_BIN_DIR when set (a client matching the server's major version), else from PATH. */
function pgTool(name: 'pg_dump' | 'pg_restore'): string {
  const dir = process.env.PG_BIN_DIR;
  return dir ? path.join(dir, name) : name;
}

/** The connection for the client tools: the password goes in PGPASSWORD, never on a command line others can read. */
function pgTarget(databaseUrl: string): { url: string; env: NodeJS.ProcessEnv } {
  const env: NodeJS.ProcessEnv = { ...process.env };
  let parsed: URL;
  try {
    parsed = new URL(databaseUrl);
  } catch {
    throw new BackupError('DATABASE_URL 不是有效的连接地址（应形如 postgres://用户:密码@主机:5432/数据库）');
  }
  if (parsed.password) {
    env.PGPASSWORD = decodeURIComponent(parsed.password);
    parsed.password = '';
  }
  return { url: parsed.toString(), env };
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

function checkSchemaName(schema: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new BackupError(`DATABASE_SCHEMA 名称不合法：${schema}`);
  return schema;
}

/** Runs a PostgreSQL client tool; a missing tool, a failure and a version mismatch each say what to do. */
function runPgTool(name: 'pg_dump' | 'pg_restore', args: string[], env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(pgTool(name), args, { env, stdio: ['ignore', 'pipe', 'pipe'], signal });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => {
      out = (out + c.toString()).slice(-4096);
    });
    child.stderr.on('data', (c: Buffer) => {
      err = (err + c.toString()).slice(-4096);
    });
    child.on('error', (e) => {
      if (errorCode(e) === 'ENOENT') {
        reject(
          new BackupError(
            `找不到 ${name}（PostgreSQL 客户端工具），PostgreSQL 的备份与恢复需要它。请安装主版本不低于数据库服务器的 PostgreSQL 客户端` +
              '（Debian/Ubuntu：apt-get install postgresql-client），或用环境变量 PG_BIN_DIR 指向它所在的目录',
          ),
        );
      } else if ((e as Error).name === 'AbortError') {
        reject(new BackupError('备份已取消（服务正在停止）'));
      } else reject(new BackupError(`无法运行 ${name}：${(e as Error).message}`));
    });
    child.on('close', (code) => {
      if (code === 0) return resolve(out);
      const detail = err.trim().split('\n').slice(-3).join(' ');
      if (/version mismatch/i.test(err)) {
        return reject(
          new BackupError(`${name} 的版本低于数据库服务器（${detail}）。请安装与服务器主版本相同或更新的 PostgreSQL 客户端，或用 PG_BIN_DIR 指向它`),
        );
      }
      reject(new BackupError(`${name} 执行失败（退出码 ${code}）：${detail || '无输出'}`));
    });
  });
}

async function pgClient(databaseUrl: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => {});
    throw new BackupError(`无法连接 PostgreSQL（${(err as Error).message}）。请检查 DATABASE_URL 与数据库服务是否在运行`);
  }
  return client;
}

async function pgHasData(client: pg.Client, schema: string): Promise<boolean> {
  const res = await client.query<{ t: string | null }>('select to_regclass($1) as t', [`${quoteIdent(schema)}.schema_migrations`]);
  return res.rows[0]?.t != null;
}

async function dumpPostgres(config: BackupConfig, dest: string, signal?: AbortSignal): Promise<{ applied: string[]; schema: string; serverVersion: string }> {
  const schema = checkSchemaName(config.databaseSchema ?? 'public');
  const target = pgTarget(config.databaseUrl as string);
  await runPgTool('pg_dump', ['--version'], target.env); // a missing tool is said before anything else happens
  const client = await pgClient(config.databaseUrl as string);
  try {
    // Migrations take this lock exclusively (server/db/migrate.ts): none starts while the dump runs.
    await client.query('select pg_advisory_lock_shared($1)', [MIGRATION_LOCK]);
    const serverVersion = (await client.query<{ server_version: string }>('show server_version')).rows[0]?.server_version ?? '';
    if (!(await pgHasData(client, schema))) {
      throw new BackupError(`PostgreSQL 中 schema「${schema}」没有本系统的数据（缺少 schema_migrations）。请检查 DATABASE_URL 与 DATABASE_SCHEMA`);
    }
    const applied = (await client.query<{ name: string }>(`select name from ${quoteIdent(schema)}.schema_migrations`)).rows.map((r) => r.name);
    // Process heartbeats (服务监控) are not data: restored, they would show processes that do not exist.
    const args = ['--format=custom', `--schema=${schema}`, `--exclude-table-data=${schema}.sys_monitor_node`, '--file', dest, '--dbname', target.url];
    await runPgTool('pg_dump', args, target.env, signal);
    return { applied, schema, serverVersion };
  } finally {
    await client.query('select pg_advisory_unlock_shared($1)', [MIGRATION_LOCK]).catch(() => {});
    await client.end().catch(() => {});
  }
}

// ——— writing an archive ———

interface Source {
  /** Path inside the archive (posix). */
  name: string;
  file: string;
  /** Already compressed (uploads, a pg dump): stored, not deflated again. */
  store: boolean;
  /** May disappear while the backup runs (an upload deleted meanwhile): skipped, not an error. */
  optional: boolean;
}

/**
 * Regular files under `dir`, sorted; symbolic links are not followed (they could point outside DATA_DIR); `skip`:
 * entries (top level only) and absolute paths (any depth) left out.
 */
async function listFiles(
  dir: string,
  prefix: string,
  skip: { top?: (name: string) => boolean; paths?: Set<string> } = {},
): Promise<Array<{ name: string; file: string }>> {
  let entries: fs.Dirent[];
  try {
    entries = await fsp.readdir(dir, { withFileTypes: true });
  } catch (err) {
    if (errorCode(err) === 'ENOENT') return [];
    throw err;
  }
  const out: Array<{ name: string; file: string }> = [];
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const file = path.join(dir, e.name);
    if (skip.top?.(e.name) || skip.paths?.has(file)) continue;
    if (e.isDirectory()) out.push(...(await listFiles(file, `${prefix}${e.name}/`, { paths: skip.paths })));
    else if (e.isFile()) out.push({ name: `${prefix}${e.name}`, file });
  }
  return out;
}

/** A pass-through stream that takes the SHA-256 and size of the bytes going through it (archive writing and checking). */
function hashing(): Transform & { result(): { sha256: string; size: number } } {
  const hash = crypto.createHash('sha256');
  let size = 0;
  const through = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  return Object.assign(through, { result: () => ({ sha256: hash.digest('hex'), size }) });
}

/** Appends one stream and answers its SHA-256 and size, taken from the very bytes that went into the archive. */
function appendHashed(archive: archiver.Archiver, source: Readable, name: string, store: boolean): Promise<{ sha256: string; size: number }> {
  const through = hashing();
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      archive.off('entry', onEntry);
      archive.off('error', onError);
    };
    const onEntry = (data: archiver.EntryData) => {
      if (data.name !== name) return;
      cleanup();
      resolve(through.result());
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    archive.on('entry', onEntry);
    archive.on('error', onError);
    source.on('error', (err) => through.destroy(err));
    through.on('error', onError);
    source.pipe(through);
    archive.append(through, { name, store });
  });
}

async function writeArchive(
  part: string,
  sources: Source[],
  manifestOf: (files: BackupManifest['files']) => BackupManifest,
  signal?: AbortSignal,
): Promise<BackupManifest> {
  const output = fs.createWriteStream(part, { flags: 'wx', mode: 0o600 });
  const archive = archiver('zip', { zlib: { level: 6 } });
  const written = new Promise<void>((resolve, reject) => {
    output.on('close', resolve);
    output.on('error', reject);
    archive.on('error', reject);
  });
  written.catch(() => {}); // awaited below; a failure meanwhile is also seen by the append in progress
  archive.pipe(output);
  try {
    const files: BackupManifest['files'] = [];
    for (const s of sources) {
      if (signal?.aborted) throw new BackupError('备份已取消（服务正在停止）');
      let handle: fsp.FileHandle;
      try {
        handle = await fsp.open(s.file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
      } catch (err) {
        if (s.optional && errorCode(err) === 'ENOENT') continue;
        throw err;
      }
      const { sha256, size } = await appendHashed(archive, handle.createReadStream(), s.name, s.store);
      files.push({ path: s.name, size, sha256 });
    }
    const manifest = manifestOf(files);
    archive.append(`${JSON.stringify(manifest, null, 2)}\n`, { name: MANIFEST });
    await archive.finalize();
    await written;
    const fh = await fsp.open(part, 'r');
    try {
      await fh.sync(); // on disk before it is renamed into place and counted as a backup
    } finally {
      await fh.close();
    }
    return manifest;
  } catch (err) {
    archive.abort();
    output.destroy();
    throw err;
  }
}

async function syncDir(dir: string): Promise<void> {
  const fh = await fsp.open(dir, 'r').catch(() => null);
  if (!fh) return;
  try {
    await fh.sync();
  } catch {
    // some filesystems refuse fsync on a directory; the rename itself is still atomic
  } finally {
    await fh.close();
  }
}

/**
 * Writes one archive of the database and the files of DATA_DIR (keys, uploads with local storage, invoices …) to
 * `outFile` (.zip; never overwrites). Works while the server runs, from the server or another process.
 */
export async function backupTo(config: BackupConfig, outFile: string, options: BackupOptions = {}): Promise<BackupResult> {
  const started = Date.now();
  const out = path.resolve(outFile);
  if (path.extname(out).toLowerCase() !== '.zip') throw new BackupError(`备份文件名须以 .zip 结尾：${out}`);
  if (fs.existsSync(out)) throw new BackupError(`文件已存在：${out}。备份不会覆盖已有文件，请换一个文件名`);
  assertPrivatePlace(config, out);
  if (!fs.existsSync(config.dataDir)) throw new BackupError(`数据目录 ${config.dataDir} 不存在。请确认 DATA_DIR 指向服务使用的数据目录`);
  const keysDir = path.join(config.dataDir, 'keys');
  if (!fs.existsSync(keysDir)) {
    throw new BackupError(
      `数据目录 ${config.dataDir} 中没有密钥目录 keys。请确认 DATA_DIR 指向服务使用的数据目录（备份必须包含密钥，否则恢复后无法解密已有数据）`,
    );
  }
  const dir = path.dirname(out);
  await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
  const part = partFile(out);
  const dbTemp = path.join(dir, `.${path.basename(out)}.db.tmp`);
  const s3 = config.storage?.driver === 's3';
  const withUploads = !s3 && options.uploads !== false;
  try {
    let database: BackupManifest['database'];
    let applied: string[];
    if (config.databaseUrl) {
      const dumped = await dumpPostgres(config, dbTemp, options.signal);
      applied = dumped.applied;
      database = { kind: 'postgres', file: DB_ENTRY.postgres, schema: dumped.schema, serverVersion: dumped.serverVersion };
    } else {
      const file = path.join(config.dataDir, SQLITE_FILE);
      if (!fs.existsSync(file)) throw new BackupError(`数据目录 ${config.dataDir} 中没有数据库文件 ${SQLITE_FILE}。请确认 DATA_DIR 指向服务使用的数据目录`);
      applied = await snapshotSqlite(file, dbTemp, options.signal);
      database = { kind: 'sqlite', file: DB_ENTRY.sqlite };
    }
    // The archive's own folder and temporary files, when they are inside DATA_DIR, are not data.
    const files = await listFiles(config.dataDir, DATA_PREFIX, {
      top: (name) => NOT_DATA(name) || (name === 'uploads' && !withUploads),
      paths: new Set([dir, part, dbTemp]),
    });
    const keysPrefix = `${DATA_PREFIX}keys/`;
    const sources: Source[] = [
      { name: database.file, file: dbTemp, store: database.kind === 'postgres', optional: false },
      // Keys must all be there; any other file may be deleted meanwhile (an upload removed): then it is left out.
      // Uploads and invoices are images and PDFs, already compressed: stored as they are.
      ...files.map((f) => ({ ...f, store: !f.name.startsWith(keysPrefix), optional: !f.name.startsWith(keysPrefix) })),
    ];
    const manifest = await writeArchive(
      part,
      sources,
      (files) => ({
        format: FORMAT,
        formatVersion: FORMAT_VERSION,
        createdAt: new Date(started).toISOString(),
        product: product(),
        database,
        migrations: { level: levelOf(applied), applied },
        uploads: s3 ? 's3' : withUploads ? 'included' : 'omitted',
        files,
      }),
      options.signal,
    );
    await fsp.rename(part, out);
    await syncDir(dir);
    const bytes = (await fsp.stat(out)).size;
    return { file: out, bytes, ms: Date.now() - started, manifest };
  } catch (err) {
    if (err instanceof BackupError) throw err;
    if (errorCode(err) === 'ENOSPC') throw new BackupError(`磁盘空间不足，备份未完成（${dir}）。请清理空间或换一个目录`);
    if (errorCode(err) === 'EACCES') throw new BackupError(`没有写入权限，备份未完成：${(err as Error).message}`);
    throw new BackupError(`备份失败：${(err as Error).message}`);
  } finally {
    await fsp.rm(dbTemp, { force: true });
    await fsp.rm(part, { force: true });
  }
}

/** A one-line summary for people: what the archive holds. */
export function describeManifest(m: BackupManifest): string {
  const db = m.database.kind === 'sqlite' ? 'SQLite 数据库' : `PostgreSQL 数据库（schema ${m.database.schema}）`;
  const keys = m.files.filter((f) => f.path.startsWith(`${DATA_PREFIX}keys/`)).length;
  const uploads = m.files.filter((f) => f.path.startsWith(`${DATA_PREFIX}uploads/`)).length;
  const other = m.files.filter((f) => f.path.startsWith(DATA_PREFIX)).length - keys - uploads;
  const uploadText = m.uploads === 'included' ? `上传文件 ${uploads} 个` : m.uploads === 's3' ? '上传文件在对象存储中（不在备份内）' : '未含上传文件';
  const total = m.files.reduce((n, f) => n + f.size, 0);
  const created = new Date(Date.parse(m.createdAt) + CHINA_OFFSET).toISOString().slice(0, 19).replace('T', ' ');
  return `${db}、密钥 ${keys} 个、${uploadText}、其他数据文件 ${other} 个；创建于 ${created}（北京时间），产品版本 ${m.product.version}，迁移级别 ${m.migrations.level ?? '无'}（${m.migrations.applied.length} 个），内容共 ${formatBytes(total)}`;
}

// ——— before migrations ———

/**
 * Called by migrate() on SQLite when an existing database has pending migrations: DATA_DIR/backups/
 * pre-migrate-<level>-<time>.zip with the database and the files of DATA_DIR but the uploads (migrations do not touch
 * them; restoring this archive keeps the uploads folder in place), which keeps an upgrade's cost near the database's size.
 */
export async function backupBeforeMigrate(db: Db, applied: Set<string>): Promise<string> {
  const dataDir = path.dirname(db.sqliteFile as string);
  const level = levelOf(applied) ?? 'unknown';
  const out = uniqueArchiveName(path.join(dataDir, 'backups'), `pre-migrate-${level}-${backupStamp(Date.now())}`);
  try {
    const done = await backupTo({ dataDir }, out, { uploads: false });
    console.log(`数据库升级前已备份：${done.file}（${formatBytes(done.bytes)}）`);
    return done.file;
  } catch (err) {
    throw new BackupError(
      `升级数据库前的备份失败，数据库未做任何改动：${(err as Error).message}。请处理后重新启动；如已用其他方式备份，可设置 MIGRATE_BACKUP=0 跳过这一步`,
    );
  }
}

// ——— scheduled job and retention ———

export interface ScheduledParams {
  folder?: string;
  keep?: number;
  keepDays?: number;
}

/** The job's folder: empty → DATA_DIR/backups; relative → under DATA_DIR; never a served or backed-up folder. */
export function resolveBackupFolder(config: BackupConfig, folder?: string): string {
  const dir = folder?.trim() ? path.resolve(config.dataDir, folder.trim()) : path.join(config.dataDir, 'backups');
  assertPrivatePlace(config, dir, true);
  return dir;
}

/**
 * Deletes older `backup-<time>.zip` archives in `folder` (no other file, no subfolder): the newest `keep` always stay;
 * beyond them an archive stays while younger than `keepDays` days (0: no age rule). Also removes a `.part` left by a
 * backup that died more than a day ago. Answers the deleted names.
 */
export async function pruneBackups(folder: string, rule: { keep: number; keepDays: number; now: number }): Promise<string[]> {
  const names = await fsp.readdir(folder).catch(() => [] as string[]);
  const archives = names
    .map((name) => ({ name, m: SCHEDULED_NAME.exec(name) }))
    .filter((a): a is { name: string; m: RegExpExecArray } => a.m !== null)
    .map(({ name, m }) => ({ name, stamp: m[1], n: Number(m[2] ?? 1) }))
    .sort((a, b) => (a.stamp === b.stamp ? b.n - a.n : a.stamp < b.stamp ? 1 : -1));
  const deleted: string[] = [];
  const cutoff = rule.keepDays > 0 ? backupStamp(rule.now - rule.keepDays * 24 * 60 * 60 * 1000) : null;
  for (const a of archives.slice(Math.max(1, rule.keep))) {
    if (cutoff && a.stamp >= cutoff) continue;
    await fsp.rm(path.join(folder, a.name), { force: true });
    deleted.push(a.name);
  }
  for (const name of names) {
    if (!/^\.backup-.*\.zip\.part$/.test(name)) continue;
    const stat = await fsp.stat(path.join(folder, name)).catch(() => null);
    if (stat && rule.now - stat.mtimeMs > 24 * 60 * 60 * 1000) await fsp.rm(path.join(folder, name), { force: true });
  }
  return deleted;
}

/** The 系统备份 job (server/monitor/builtinJobs.ts): one archive, then retention; answers the line for 调度日志. */
export async function runScheduledBackup(config: BackupConfig, params: ScheduledParams, ctx: { now: number; signal?: AbortSignal }): Promise<string> {
  const folder = resolveBackupFolder(config, params.folder);
  const done = await backupTo(config, uniqueArchiveName(folder, `backup-${backupStamp(ctx.now)}`), { signal: ctx.signal });
  const deleted = await pruneBackups(folder, { keep: params.keep ?? 7, keepDays: params.keepDays ?? 0, now: ctx.now });
  const s3 = done.manifest.uploads === 's3' ? '；上传文件在对象存储中，请用对象存储自身的版本或备份功能保护' : '';
  return `已备份到 ${done.file}（${formatBytes(done.bytes)}，用时 ${(done.ms / 1000).toFixed(1)} 秒）；按保留规则删除旧备份 ${deleted.length} 份${s3}`;
}

// ——— reading an archive ———

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: false, strictFileNames: true, validateEntrySizes: true }, (err, zip) => {
      if (err || !zip) reject(new BackupError(`无法读取备份文件 ${file}：它不是完整的 .zip 备份（${err?.message ?? '未知原因'}）`));
      else resolve(zip);
    });
  });
}

function readEntries(zip: yauzl.ZipFile): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    zip.on('entry', (e: yauzl.Entry) => {
      entries.push(e);
      zip.readEntry();
    });
    zip.once('end', () => resolve(entries));
    zip.once('error', (err: Error) => reject(new BackupError(`备份文件已损坏：${err.message}`)));
    zip.readEntry();
  });
}

function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => {
      if (err || !stream) reject(new BackupError(`备份文件已损坏，无法读取 ${entry.fileName}：${err?.message ?? ''}`));
      else resolve(stream);
    });
  });
}

/**
 * A file path the archive may hold: the database entry, or under data/ a path with no empty, '.' or '..' segment whose
 * first segment is not one restore must not write (the database files, backups, folders kept in place).
 */
function safePath(p: unknown): p is string {
  if (typeof p !== 'string' || p.length > 4096 || /[\\\0]/.test(p)) return false;
  if (p === DB_ENTRY.sqlite || p === DB_ENTRY.postgres) return true;
  const parts = p.split('/');
  if (`${parts[0]}/` !== DATA_PREFIX || parts.length < 2 || NOT_DATA(parts[1])) return false;
  return parts.every((s) => s !== '' && s !== '.' && s !== '..');
}

const TAMPERED = '备份文件与其清单不一致（被改动或不完整）';

function parseManifest(raw: string): BackupManifest {
  let m: BackupManifest;
  try {
    m = JSON.parse(raw) as BackupManifest;
  } catch {
    throw new BackupError(`${TAMPERED}：manifest.json 不是有效的 JSON`);
  }
  if (!m || m.format !== FORMAT) throw new BackupError('这不是本系统的备份文件（manifest.json 格式不符）');
  if (typeof m.formatVersion !== 'number' || m.formatVersion > FORMAT_VERSION) {
    throw new BackupError(`备份格式版本 ${m.formatVersion} 高于本程序支持的 ${FORMAT_VERSION}。请先升级程序再恢复`);
  }
  const kind = m.database?.kind;
  if ((kind !== 'sqlite' && kind !== 'postgres') || m.database.file !== DB_ENTRY[kind]) throw new BackupError(`${TAMPERED}：数据库信息无效`);
  if (!Array.isArray(m.files) || !m.files.every((f) => safePath(f?.path) && Number.isSafeInteger(f.size) && /^[0-9a-f]{64}$/.test(f.sha256))) {
    throw new BackupError(`${TAMPERED}：文件清单无效`);
  }
  if (!m.files.some((f) => f.path === m.database.file)) throw new BackupError(`${TAMPERED}：缺少数据库文件`);
  if (!Array.isArray(m.migrations?.applied) || !m.migrations.applied.every((n) => typeof n === 'string')) {
    throw new BackupError(`${TAMPERED}：迁移信息无效`);
  }
  if (!['included', 'omitted', 's3'].includes(m.uploads)) throw new BackupError(`${TAMPERED}：上传文件信息无效`);
  if (kind === 'postgres') checkSchemaName(String(m.database.schema));
  return m;
}

interface OpenArchive {
  zip: yauzl.ZipFile;
  manifest: BackupManifest;
  /** Entry of each manifest file. */
  entries: Map<string, yauzl.Entry>;
}

/** Opens an archive and checks its directory against its manifest: the same files, sizes, nothing else. */
async function openArchive(file: string): Promise<OpenArchive> {
  if (!fs.existsSync(file)) throw new BackupError(`找不到备份文件：${file}`);
  const zip = await openZip(file);
  try {
    const all = await readEntries(zip);
    const byName = new Map<string, yauzl.Entry>();
    for (const e of all) {
      if (byName.has(e.fileName)) throw new BackupError(`${TAMPERED}：${e.fileName} 出现了两次`);
      byName.set(e.fileName, e);
    }
    const manifestEntry = byName.get(MANIFEST);
    if (!manifestEntry) throw new BackupError('这不是本系统的备份文件（缺少 manifest.json）');
    if (manifestEntry.uncompressedSize > MANIFEST_MAX_BYTES) throw new BackupError(`${TAMPERED}：manifest.json 过大`);
    const chunks: Buffer[] = [];
    await pipeline(
      await openEntry(zip, manifestEntry),
      new Writable({
        write(chunk: Buffer, _enc, done) {
          chunks.push(chunk);
          done();
        },
      }),
    );
    const manifest = parseManifest(Buffer.concat(chunks).toString('utf8'));
    const entries = new Map<string, yauzl.Entry>();
    for (const f of manifest.files) {
      const e = byName.get(f.path);
      if (!e) throw new BackupError(`${TAMPERED}：缺少文件 ${f.path}`);
      if (e.uncompressedSize !== f.size) throw new BackupError(`${TAMPERED}：${f.path} 的大小与清单不符`);
      if (entries.has(f.path)) throw new BackupError(`${TAMPERED}：清单中 ${f.path} 出现了两次`);
      entries.set(f.path, e);
    }
    for (const name of byName.keys()) {
      if (name !== MANIFEST && !entries.has(name)) throw new BackupError(`${TAMPERED}：多出了清单之外的文件 ${name}`);
    }
    return { zip, manifest, entries };
  } catch (err) {
    zip.close();
    throw err;
  }
}

/**
 * Streams every file through SHA-256 and compares with the manifest; with `into`, writes each file there too (keys
 * and the database 0600). Throws at the first difference.
 */
async function verifyFiles(a: OpenArchive, into: string | null): Promise<void> {
  for (const f of a.manifest.files) {
    const checked = hashing();
    const entry = a.entries.get(f.path) as yauzl.Entry;
    let sink: Writable;
    let target: string | null = null;
    if (into) {
      target = path.join(into, ...f.path.split('/'));
      const secret = !f.path.startsWith(`${DATA_PREFIX}uploads/`);
      await fsp.mkdir(path.dirname(target), { recursive: true, mode: secret ? 0o700 : 0o755 });
      sink = fs.createWriteStream(target, { flags: 'wx', mode: secret ? 0o600 : 0o644 });
    } else {
      sink = new Writable({ write: (_c, _e, done) => done() });
    }
    try {
      await pipeline(await openEntry(a.zip, entry), checked, sink);
    } catch (err) {
      if (err instanceof BackupError) throw err;
      throw new BackupError(`备份文件已损坏，读取 ${f.path} 时出错（${(err as Error).message}）。未做任何改动；请换一份完好的备份`);
    }
    const { sha256, size } = checked.result();
    if (size !== f.size || sha256 !== f.sha256) {
      throw new BackupError(`备份文件已被改动或损坏：${f.path} 的校验值与清单不符。未做任何改动；请换一份完好的备份`);
    }
    if (target) {
      const fh = await fsp.open(target, 'r');
      try {
        await fh.sync();
      } finally {
        await fh.close();
      }
    }
  }
}

/** Checks an archive without restoring it (`npm run restore -- FILE --check`): manifest, every SHA-256. */
export async function checkArchive(file: string): Promise<BackupManifest> {
  const a = await openArchive(path.resolve(file));
  try {
    await verifyFiles(a, null);
    return a.manifest;
  } finally {
    a.zip.close();
  }
}

// ——— restore ———

export interface RestoreOptions {
  /** Replace a DATA_DIR (and PostgreSQL schema) that already holds data; the old contents are moved aside, not deleted. */
  force?: boolean;
  /** Progress lines for people (the CLI prints them). */
  log?: (line: string) => void;
}

export interface RestoreResult {
  manifest: BackupManifest;
  dataDir: string;
  /** Where the previous contents of DATA_DIR went (force), or null. */
  asideDir: string | null;
  /** PostgreSQL: the previous schema's new name (force), or null. */
  asideSchema: string | null;
  /** Uploads kept from the previous DATA_DIR because the archive has none. */
  keptUploads: boolean;
}

function checkCompatible(m: BackupManifest, config: BackupConfig): void {
  if (m.database.kind === 'sqlite' && config.databaseUrl) {
    throw new BackupError('这份备份是 SQLite 数据库，而当前配置了 DATABASE_URL（PostgreSQL）。请在不设置 DATABASE_URL 的环境中恢复到 SQLite 数据目录');
  }
  if (m.database.kind === 'postgres') {
    if (!config.databaseUrl) throw new BackupError('这份备份来自 PostgreSQL。请设置 DATABASE_URL（以及备份时的 DATABASE_SCHEMA）后再恢复');
    const schema = config.databaseSchema ?? 'public';
    if (schema !== m.database.schema) {
      throw new BackupError(
        `这份备份的数据在 schema「${m.database.schema}」中，而当前 DATABASE_SCHEMA 为「${schema}」。请把 DATABASE_SCHEMA 设为 ${m.database.schema} 后再恢复`,
      );
    }
  }
  const known = new Set(migrations.map((x) => x.name));
  const unknown = m.migrations.applied.filter((n) => !known.has(n));
  if (unknown.length) {
    throw new BackupError(
      `这份备份来自更新的程序版本（产品版本 ${m.product.version}，迁移级别 ${m.migrations.level}），本程序不认识迁移 ${unknown.join('、')}。` +
        `请先把程序升级到 ${m.product.version} 或更新的版本，再恢复`,
    );
  }
}

/** Refuses while a server (or another tool) works on the target. */
async function checkNotRunning(config: BackupConfig, client: pg.Client | null, schema: string): Promise<void> {
  if (!client) {
    if (sqliteInUse(path.join(config.dataDir, SQLITE_FILE))) {
      throw new BackupError(`数据目录 ${config.dataDir} 中的数据库正在被使用（服务或其他程序正在运行）。请先停止使用该数据目录的所有服务进程，再执行恢复`);
    }
    return;
  }
  const table = await client.query<{ t: string | null }>('select to_regclass($1) as t', [`${quoteIdent(schema)}.sys_monitor_node`]);
  if (table.rows[0]?.t == null) return;
  const live = await client.query<{ n: string; last: string | null }>(
    `select count(*) as n, max(update_time) as last from ${quoteIdent(schema)}.sys_monitor_node where update_time > $1`,
    [Date.now() - LIVE_NODE_MS],
  );
  const n = Number(live.rows[0]?.n ?? 0);
  if (n > 0) {
    const ago = Math.max(0, Math.round((Date.now() - Number(live.rows[0]?.last)) / 1000));
    throw new BackupError(
      `数据库中还有 ${n} 个服务进程在运行（最近一次心跳在 ${ago} 秒前）。请先停止所有服务进程再恢复；刚停止的进程请等待 ${LIVE_NODE_MS / 1000} 秒后重试`,
    );
  }
}

/** What in the target already holds data (empty: nothing; the backups folder does not count). */
async function occupiedBy(config: BackupConfig, client: pg.Client | null, schema: string): Promise<string[]> {
  const found: string[] = [];
  const names = await fsp.readdir(config.dataDir).catch(() => [] as string[]);
  const there = names.filter((n) => !KEPT_IN_PLACE(n));
  if (there.length) found.push(`数据目录 ${config.dataDir} 中已有 ${there.slice(0, 5).join('、')}${there.length > 5 ? ' 等' : ''}`);
  if (client && (await pgHasData(client, schema))) found.push(`PostgreSQL schema「${schema}」中已有数据`);
  return found;
}

/** Moves every entry of DATA_DIR but the kept ones into DATA_DIR/before-restore-<time> (inside: DATA_DIR may be a mount point). */
async function moveAside(dataDir: string, stamp: string): Promise<string | null> {
  const names = (await fsp.readdir(dataDir).catch(() => [] as string[])).filter((n) => !KEPT_IN_PLACE(n));
  if (!names.length) return null;
  const aside = uniqueDir(path.join(dataDir, `before-restore-${stamp}`));
  await fsp.mkdir(aside, { mode: 0o700 });
  for (const name of names) await fsp.rename(path.join(dataDir, name), path.join(aside, name));
  return aside;
}

function uniqueDir(base: string): string {
  for (let n = 1; ; n++) {
    const dir = n === 1 ? base : `${base}-${n}`;
    if (!fs.existsSync(dir)) return dir;
  }
}

async function moveBack(aside: string, dataDir: string): Promise<void> {
  for (const name of await fsp.readdir(aside)) {
    if (!fs.existsSync(path.join(dataDir, name))) await fsp.rename(path.join(aside, name), path.join(dataDir, name));
  }
  await fsp.rmdir(aside).catch(() => {});
}

function checkStagedSqlite(file: string): void {
  const db = new SQLite(file, { fileMustExist: true });
  try {
    const check = String(db.pragma('quick_check', { simple: true }));
    if (check !== 'ok') throw new BackupError(`备份中的数据库未通过完整性检查（${check}）。未做任何改动；请换一份备份`);
  } finally {
    db.close();
  }
}

async function restorePostgres(
  config: BackupConfig,
  client: pg.Client,
  dump: string,
  schema: string,
  existing: boolean,
  stamp: string,
): Promise<string | null> {
  const target = pgTarget(config.databaseUrl as string);
  let aside: string | null = null;
  if (existing) {
    // Like the folder: the old schema is renamed, not dropped; the operator drops it once the restore is confirmed.
    aside = `${schema.slice(0, 40)}_before_restore_${stamp.replace('-', '')}`;
    await client.query(`alter schema ${quoteIdent(schema)} rename to ${quoteIdent(aside)}`);
  }
  try {
    await runPgTool(
      'pg_restore',
      ['--clean', '--if-exists', '--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', '--dbname', target.url, dump],
      target.env,
    );
  } catch (err) {
    // --single-transaction: nothing of the failed restore remains; the old schema goes back under its name.
    if (aside) await client.query(`alter schema ${quoteIdent(aside)} rename to ${quoteIdent(schema)}`).catch(() => {});
    throw err;
  }
  return aside;
}

/**
 * Restores an archive into config.dataDir (and, for a PostgreSQL archive, the configured database and schema).
 * Checks first, changes after: manifest and every SHA-256 (the files are unpacked into a hidden folder inside
 * DATA_DIR), migration level, no server running, empty target unless `force`.
 */
export async function restoreFrom(config: BackupConfig, archiveFile: string, options: RestoreOptions = {}): Promise<RestoreResult> {
  const log = options.log ?? (() => {});
  const file = path.resolve(archiveFile);
  const dataDir = path.resolve(config.dataDir);
  const stamp = backupStamp(Date.now());
  log(`正在检查备份文件 ${file} …`);
  const a = await openArchive(file);
  let client: pg.Client | null = null;
  const createdDataDir = !fs.existsSync(dataDir);
  let staging: string | null = null;
  try {
    const m = a.manifest;
    log(`备份内容：${describeManifest(m)}`);
    checkCompatible(m, config);
    const schema = m.database.schema ?? 'public';
    if (m.database.kind === 'postgres') {
      await runPgTool('pg_restore', ['--version'], process.env);
      client = await pgClient(config.databaseUrl as string);
    }
    await checkNotRunning(config, client, schema);
    const occupied = await occupiedBy(config, client, schema);
    if (occupied.length && !options.force) {
      throw new BackupError(
        `恢复目标不是空的：${occupied.join('；')}。恢复会替换这些内容；确认要替换请加 --force（原数据目录的内容会移到其中的 before-restore-<时间> 文件夹${client ? '，原 schema 改名保留' : ''}，不会删除）`,
      );
    }

    await fsp.mkdir(dataDir, { recursive: true, mode: 0o700 });
    staging = path.join(dataDir, `.restore-staging-${stamp}-${process.pid}`);
    await fsp.mkdir(staging, { mode: 0o700 });
    log('正在校验并解出文件 …');
    await verifyFiles(a, staging);
    if (m.database.kind === 'sqlite') checkStagedSqlite(path.join(staging, ...DB_ENTRY.sqlite.split('/')));
    log('校验通过：每个文件的 SHA-256 均与清单一致。');

    await checkNotRunning(config, client, schema); // again: a server may have started while the files were checked
    const aside = options.force ? await moveAside(dataDir, stamp) : null;
    let asideSchema: string | null = null;
    try {
      if (m.database.kind === 'postgres' && client) {
        log('正在用 pg_restore 恢复数据库 …');
        asideSchema = await restorePostgres(
          config,
          client,
          path.join(staging, ...DB_ENTRY.postgres.split('/')),
          schema,
          await pgHasData(client, schema),
          stamp,
        );
      }
    } catch (err) {
      if (aside) await moveBack(aside, dataDir);
      throw err;
    }
    if (m.database.kind === 'sqlite') await fsp.rename(path.join(staging, ...DB_ENTRY.sqlite.split('/')), path.join(dataDir, SQLITE_FILE));
    const stagedData = path.join(staging, DATA_PREFIX);
    for (const top of await fsp.readdir(stagedData).catch(() => [] as string[])) {
      await fsp.rename(path.join(stagedData, top), path.join(dataDir, top));
    }
    // An archive without uploads (pre-migrate, or S3) leaves the current uploads folder where the server finds it.
    let keptUploads = false;
    if (m.uploads !== 'included' && aside && fs.existsSync(path.join(aside, 'uploads')) && !fs.existsSync(path.join(dataDir, 'uploads'))) {
      await fsp.rename(path.join(aside, 'uploads'), path.join(dataDir, 'uploads'));
      keptUploads = true;
    }
    await syncDir(dataDir);
    return { manifest: m, dataDir, asideDir: aside, asideSchema, keptUploads };
  } catch (err) {
    if (err instanceof BackupError) throw err;
    throw new BackupError(`恢复失败：${(err as Error).message}`);
  } finally {
    a.zip.close();
    await client?.end().catch(() => {});
    if (staging) await fsp.rm(staging, { recursive: true, force: true });
    if (createdDataDir && fs.existsSync(dataDir) && (await fsp.readdir(dataDir)).length === 0) await fsp.rmdir(dataDir).catch(() => {});
  }
}
