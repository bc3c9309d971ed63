import { spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import archiver from 'archiver';
import SQLite from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { type BackupManifest, backupTo, checkArchive, pruneBackups, restoreFrom, SQLITE_FILE } from '../../../server/db/backup.js';
import { getJobHandler } from '../../../server/monitor/handlers.js';
import { multipartFile, PNG_1PX, startServer, type TestServer } from '../harness.js';

/**
 * Backup and restore (server/db/backup.ts, docs/backup.md): archives taken while the app keeps writing hold every
 * write acknowledged before the backup started; a restore into a fresh DATA_DIR gives back the rows, the keys byte
 * for byte and the uploads; tampered, foreign-version and occupied targets are refused before anything changes; the
 * 系统备份 job and its retention; the backup migrations take on an existing database.
 */

const ROOT = path.resolve(import.meta.dirname, '../../..');
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

const tmpDirs: string[] = [];
async function tmpDir(): Promise<string> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'zy-backup-test-'));
  tmpDirs.push(dir);
  return dir;
}
afterAll(async () => {
  for (const dir of tmpDirs) await fsp.rm(dir, { recursive: true, force: true });
});

async function until(condition: () => boolean, what: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function poll<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Writers that keep inserting until stopped; each id is pushed to `acked` once its insert has returned (acknowledged).
 * `acked` may be shared by several loads on one table.
 */
function writeLoad(insert: (payload: string) => Promise<number>, acked: number[], workers = 4) {
  let stopped = false;
  const payload = 'x'.repeat(2000); // rows of a couple of KB: the copy sees pages change, not one hot page
  const loops = Array.from({ length: workers }, async () => {
    while (!stopped) {
      acked.push(await insert(payload));
      // A request arrives through I/O: the event loop turns between writes, as it does in the server.
      await new Promise((r) => setImmediate(r));
    }
  });
  return {
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

function run(script: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Every entry of a zip, by name. */
async function readZip(file: string): Promise<Map<string, Buffer>> {
  const zip = await yauzl.openPromise(file, { lazyEntries: true });
  const out = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (err, stream) => {
        if (err) return reject(err);
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          out.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      });
    });
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  return out;
}

async function writeZip(file: string, entries: Map<string, Buffer>): Promise<void> {
  const archive = archiver('zip');
  const done = new Promise<void>((resolve, reject) => {
    const out = fs.createWriteStream(file);
    out.on('close', () => resolve());
    out.on('error', reject);
    archive.pipe(out);
  });
  for (const [name, data] of entries) archive.append(data, { name });
  await archive.finalize();
  await done;
}

/** A copy of `file` with its entries changed by `edit`. */
async function repack(file: string, edit: (entries: Map<string, Buffer>) => void): Promise<string> {
  const entries = await readZip(file);
  edit(entries);
  const out = path.join(await tmpDir(), 'edited.zip');
  await writeZip(out, entries);
  return out;
}

const manifestOf = async (file: string) => JSON.parse((await readZip(file)).get('manifest.json')?.toString('utf8') ?? '{}') as BackupManifest;

async function filesUnder(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const walk = async (d: string, prefix: string) => {
    for (const e of await fsp.readdir(d, { withFileTypes: true })) {
      if (e.isDirectory()) await walk(path.join(d, e.name), `${prefix}${e.name}/`);
      else out.set(`${prefix}${e.name}`, await fsp.readFile(path.join(d, e.name)));
    }
  };
  await walk(dir, '');
  return out;
}

function probeIds(dataDir: string): number[] {
  const db = new SQLite(path.join(dataDir, SQLITE_FILE), { readonly: true });
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    return db.prepare('select id from backup_probe order by id').pluck().all() as number[];
  } finally {
    db.close();
  }
}

/** The archive is a snapshot: every write acknowledged before the backup started, and only acknowledged writes. */
function expectSnapshot(restored: number[], before: number[], acked: number[]) {
  const have = new Set(restored);
  expect(before.filter((id) => !have.has(id))).toEqual([]);
  const all = new Set(acked);
  expect(restored.filter((id) => !all.has(id))).toEqual([]);
}

describe('备份与恢复 (sqlite)', () => {
  let s: TestServer;
  let k: Kysely<unknown>;
  let uploadPath: string;
  const INVOICE = '1-0123456789abcdef.pdf';
  /** An archive taken under load, for the refusal tests. */
  let archive: string;
  /** Every acknowledged write to backup_probe, in order. */
  const acked: number[] = [];

  const insert = async (payload: string) =>
    (await sql<{ id: number }>`insert into backup_probe (payload) values (${payload}) returning id`.execute(k)).rows[0].id;

  beforeAll(async () => {
    s = await startServer('sqlite', { jobs: { enabled: false } });
    k = s.app.db.kysely as unknown as Kysely<unknown>;
    await sql`create table backup_probe (id integer primary key autoincrement, payload text not null)`.execute(k);
    const admin = await s.login('admin', 'admin123');
    const file = await multipartFile('file', '证件照.png', 'image/png', PNG_1PX);
    const up = await s.call<never>('POST', '/dev-api/common/upload', { token: admin, body: file.body, headers: file.headers });
    expect(up.body.code).toBe(200);
    uploadPath = String(up.body.url).replace(/^\/profile\//, '');
    expect(fs.existsSync(path.join(s.dataDir, 'uploads', uploadPath))).toBe(true);
    // Data outside uploads (an issued invoice's PDF), and what is not data: an export waiting to be fetched, an
    // unfinished resumable upload.
    await fsp.mkdir(path.join(s.dataDir, 'finance', 'invoices', '1'), { recursive: true });
    await fsp.writeFile(path.join(s.dataDir, 'finance', 'invoices', '1', INVOICE), '%PDF-1.4 invoice');
    await fsp.mkdir(path.join(s.dataDir, 'download'), { recursive: true });
    await fsp.writeFile(path.join(s.dataDir, 'download', 'export.xlsx'), 'temporary');
    await fsp.mkdir(path.join(s.dataDir, 'tus', 'video'), { recursive: true });
    await fsp.writeFile(path.join(s.dataDir, 'tus', 'video', 'part'), 'unfinished');
  });
  afterAll(async () => {
    await s?.close();
  });

  it('a backup taken while the app writes holds every write acknowledged before it started; restored into a fresh DATA_DIR with keys and uploads', async () => {
    const start = acked.length;
    const load = writeLoad(insert, acked);
    await until(() => acked.length >= start + 100, 'the write load to get going');
    const before = [...acked];
    const out = path.join(await tmpDir(), 'under-load.zip');
    const done = await backupTo(s.config, out);
    const during = acked.length - before.length;
    await load.stop();
    expect(during).toBeGreaterThan(0); // the app really was writing while the backup ran
    expect(done.manifest.database.kind).toBe('sqlite');
    expect(done.manifest.uploads).toBe('included');
    const paths = done.manifest.files.map((f) => f.path);
    expect(paths).toEqual(
      expect.arrayContaining(['database/zhiyuan.sqlite', 'data/keys/card.key', `data/uploads/${uploadPath}`, `data/finance/invoices/1/${INVOICE}`]),
    );
    expect(paths.filter((p) => /^data\/(download|tus|backups|zhiyuan)/.test(p))).toEqual([]);
    expect((await fsp.stat(out)).mode & 0o077).toBe(0); // database and keys inside: readable by the owner only
    archive = out;

    // The CLI restores it into a DATA_DIR that does not exist yet.
    const fresh = path.join(await tmpDir(), 'data');
    const cli = await run('server/cli/restore.ts', [out], { DATA_DIR: fresh, DATABASE_URL: '' });
    expect(cli.stderr).toBe('');
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain('校验通过');
    expect(cli.stdout).toContain(`恢复完成：数据目录 ${fresh}`);

    const restored = probeIds(fresh);
    expectSnapshot(restored, before, acked);
    // One writer connection commits in id order: the snapshot is every write up to some point, without holes.
    const last = restored[restored.length - 1];
    expect(acked.filter((id) => id <= last).sort((a, b) => a - b)).toEqual(restored);

    expect(await filesUnder(path.join(fresh, 'keys'))).toEqual(await filesUnder(path.join(s.dataDir, 'keys')));
    expect(await fsp.readFile(path.join(fresh, 'uploads', uploadPath))).toEqual(PNG_1PX);
    expect((await fsp.stat(path.join(fresh, 'keys', 'card.key'))).mode & 0o077).toBe(0);
    expect(await fsp.readFile(path.join(fresh, 'finance', 'invoices', '1', INVOICE), 'utf8')).toBe('%PDF-1.4 invoice');
    expect(fs.readdirSync(fresh).sort()).toEqual(['finance', 'keys', 'uploads', SQLITE_FILE].sort()); // no staging folder left
    // The running process's 服务监控 heartbeat is not carried over: it would show a process that does not exist.
    const live = await sql<{ n: number }>`select count(*) as n from sys_monitor_node`.execute(k);
    expect(Number(live.rows[0].n)).toBeGreaterThan(0);
    const copy = new SQLite(path.join(fresh, SQLITE_FILE), { readonly: true });
    expect(copy.prepare('select count(*) from sys_monitor_node').pluck().get()).toBe(0);
    copy.close();
  });

  it('npm run backup from another process while the server writes: a consistent archive of the acknowledged writes', async () => {
    const start = acked.length;
    const load = writeLoad(insert, acked);
    await until(() => acked.length >= start + 50, 'the write load to get going');
    const before = [...acked];
    const out = path.join(await tmpDir(), 'cli.zip');
    const cli = await run('server/cli/backup.ts', ['--out', out], { DATA_DIR: s.dataDir, DATABASE_URL: '' });
    const during = acked.length - before.length;
    await load.stop();
    expect(cli.stderr).toBe('');
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain(`备份完成：${out}`);
    expect(during).toBeGreaterThan(0);

    const fresh = path.join(await tmpDir(), 'data');
    const done = await restoreFrom({ dataDir: fresh }, out);
    expect(done.asideDir).toBeNull();
    const restored = probeIds(fresh);
    expectSnapshot(restored, before, acked);
    const last = restored[restored.length - 1];
    expect(acked.filter((id) => id <= last).sort((a, b) => a - b)).toEqual(restored);
  });

  it('refuses a tampered, truncated or padded archive before writing anything', async () => {
    const target = path.join(await tmpDir(), 'data');
    const changedKey = await repack(archive, (e) => {
      const key = e.get('data/keys/card.key') as Buffer;
      e.set('data/keys/card.key', Buffer.concat([key.subarray(0, key.length - 1), Buffer.from(key[key.length - 1] === 0x30 ? '1' : '0')]));
    });
    await expect(restoreFrom({ dataDir: target }, changedKey)).rejects.toThrow('备份文件已被改动或损坏：data/keys/card.key 的校验值与清单不符');
    await expect(checkArchive(changedKey)).rejects.toThrow('校验值与清单不符');
    expect(fs.existsSync(target)).toBe(false);

    const extra = await repack(archive, (e) => e.set('data/keys/planted.pem', Buffer.from('not ours')));
    await expect(restoreFrom({ dataDir: target }, extra)).rejects.toThrow('多出了清单之外的文件 data/keys/planted.pem');

    // A manifest naming a path outside DATA_DIR is refused as a whole, before any file is read.
    const outside = await repack(archive, (e) => {
      const m = JSON.parse((e.get('manifest.json') as Buffer).toString('utf8')) as BackupManifest;
      (m.files.find((f) => f.path === 'data/keys/card.key') as BackupManifest['files'][number]).path = 'data/../../evil.key';
      e.set('manifest.json', Buffer.from(JSON.stringify(m)));
    });
    await expect(restoreFrom({ dataDir: target }, outside)).rejects.toThrow('备份文件与其清单不一致（被改动或不完整）：文件清单无效');
    expect(fs.existsSync(path.join(target, '..', 'evil.key'))).toBe(false);

    const bytes = await fsp.readFile(archive);
    const truncated = path.join(await tmpDir(), 'truncated.zip');
    await fsp.writeFile(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
    await expect(restoreFrom({ dataDir: target }, truncated)).rejects.toThrow('不是完整的 .zip 备份');
    expect(fs.existsSync(target)).toBe(false);

    // The operator sees the same through the CLI, with a failing exit code.
    const cli = await run('server/cli/restore.ts', [changedKey], { DATA_DIR: target, DATABASE_URL: '' });
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain('恢复失败：备份文件已被改动或损坏：data/keys/card.key 的校验值与清单不符。未做任何改动');
    expect(fs.existsSync(target)).toBe(false);
  });

  it('refuses an archive from a newer migration level than this code', async () => {
    const newer = await repack(archive, (e) => {
      const m = JSON.parse((e.get('manifest.json') as Buffer).toString('utf8')) as BackupManifest;
      m.migrations.applied.push('999_from_the_future');
      m.migrations.level = '999_from_the_future';
      m.product.version = '9.0.0';
      e.set('manifest.json', Buffer.from(JSON.stringify(m)));
    });
    const target = path.join(await tmpDir(), 'data');
    await expect(restoreFrom({ dataDir: target }, newer)).rejects.toThrow(
      '这份备份来自更新的程序版本（产品版本 9.0.0，迁移级别 999_from_the_future），本程序不认识迁移 999_from_the_future。请先把程序升级到 9.0.0 或更新的版本，再恢复',
    );
    expect(fs.existsSync(target)).toBe(false);
  });

  it('refuses to restore while the server runs on the DATA_DIR, even with --force', async () => {
    await expect(restoreFrom(s.config, archive, { force: true })).rejects.toThrow(
      `数据目录 ${s.dataDir} 中的数据库正在被使用（服务或其他程序正在运行）。请先停止使用该数据目录的所有服务进程，再执行恢复`,
    );
    expect(await s.login('admin', 'admin123')).toEqual(expect.any(String)); // the server was left alone
    expect(fs.readdirSync(s.dataDir).some((n) => n.startsWith('before-restore-'))).toBe(false);
  });

  it('refuses a DATA_DIR that already has data unless --force, which moves the old contents aside', async () => {
    const target = path.join(await tmpDir(), 'data');
    await restoreFrom({ dataDir: target }, archive);
    await fsp.writeFile(path.join(target, 'note.txt'), 'kept aside');
    await fsp.mkdir(path.join(target, 'backups'));
    await fsp.writeFile(path.join(target, 'backups', 'older.zip'), 'an older archive');

    await expect(restoreFrom({ dataDir: target }, archive)).rejects.toThrow(/^恢复目标不是空的：数据目录 .* 中已有 .*确认要替换请加 --force/);
    const cli = await run('server/cli/restore.ts', [archive], { DATA_DIR: target, DATABASE_URL: '' });
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain('确认要替换请加 --force');

    const done = await restoreFrom({ dataDir: target }, archive, { force: true });
    expect(done.asideDir).toMatch(/before-restore-\d{8}-\d{6}$/);
    const aside = done.asideDir as string;
    expect(await fsp.readFile(path.join(aside, 'note.txt'), 'utf8')).toBe('kept aside');
    expect(fs.existsSync(path.join(aside, SQLITE_FILE))).toBe(true);
    expect(fs.existsSync(path.join(target, 'note.txt'))).toBe(false);
    // The backups folder stays where the scheduled job and the operator look for it.
    expect(await fsp.readFile(path.join(target, 'backups', 'older.zip'), 'utf8')).toBe('an older archive');
    expect(probeIds(target).length).toBeGreaterThan(0);
  });

  it('系统备份: shipped in 定时任务, runs by 执行一次, keeps the newest N of its own archives and nothing else', async () => {
    const job = await s.app.db.kysely
      .selectFrom('sysJob')
      .select(['jobId', 'jobName', 'cronExpression', 'status', 'handlerParams'])
      .where('handlerName', '=', 'systemBackup')
      .executeTakeFirstOrThrow();
    expect(job).toMatchObject({ jobName: '系统备份', cronExpression: '0 30 2 * * ?', status: '0', handlerParams: '{"keep":7}' });

    const admin = await s.login('admin', 'admin123');
    const ran = await s.call('PUT', '/dev-api/monitor/job/run', { token: admin, body: { jobId: job.jobId } });
    expect(ran.body.code).toBe(200);
    const log = await poll(
      () =>
        s.app.db.kysely
          .selectFrom('sysJobLog')
          .select(['status', 'jobMessage', 'exceptionInfo'])
          .where('jobId', '=', job.jobId)
          .orderBy('jobLogId', 'desc')
          .executeTakeFirst(),
      (row) => row !== undefined && row.status !== '2',
      'the job run to finish',
    );
    expect(log?.exceptionInfo ?? null).toBeNull();
    expect(log?.status).toBe('0');
    expect(log?.jobMessage).toMatch(/^已备份到 .*backups\/backup-\d{8}-\d{6}\.zip（.*）；按保留规则删除旧备份 0 份$/);
    const made = fs.readdirSync(path.join(s.dataDir, 'backups')).filter((n) => /^backup-\d{8}-\d{6}\.zip$/.test(n));
    expect(made).toHaveLength(1);
    expect((await checkArchive(path.join(s.dataDir, 'backups', made[0]))).database.kind).toBe('sqlite');

    // Retention in a folder of its own: older archives of the job go, anything else stays.
    const folder = await tmpDir();
    const others = ['pre-migrate-023_store_scope-20200101-000000.zip', 'notes.txt', 'backup-20200104-000000.zip.bak', 'my-backup.zip'];
    for (const name of ['backup-20200101-000000.zip', 'backup-20200102-000000.zip', 'backup-20200103-000000.zip', ...others]) {
      await fsp.writeFile(path.join(folder, name), name);
    }
    const handler = getJobHandler('systemBackup');
    if (!handler) throw new Error('systemBackup is not registered');
    const ctx = { db: s.app.db, log: s.app.log, signal: new AbortController().signal, config: s.config };
    const first = await handler.run({ ...ctx, now: Date.now() }, { folder, keep: 2 });
    expect(first).toMatch(/按保留规则删除旧备份 2 份$/);
    const second = await handler.run({ ...ctx, now: Date.now() + 1000 }, { folder, keep: 2 });
    expect(second).toMatch(/按保留规则删除旧备份 1 份$/);
    const left = fs.readdirSync(folder).sort();
    const kept = left.filter((n) => n.startsWith('backup-') && n.endsWith('.zip'));
    expect(kept).toHaveLength(2);
    expect(kept.every((n) => !n.startsWith('backup-2020'))).toBe(true);
    expect(left).toEqual(expect.arrayContaining(others));

    // A folder served to the web is refused: an archive holds the database and the keys.
    await expect(Promise.resolve(handler.run({ ...ctx, now: Date.now() }, { folder: 'uploads/backups', keep: 2 }))).rejects.toThrow(
      `备份在数据目录 ${s.dataDir} 中只能放在 backups 目录下（上传目录会通过 /profile/ 对外提供）。备份含完整数据库与密钥：请放在 backups 目录（默认）或数据目录之外不对外公开的位置`,
    );
  });

  it('retention keeps the newest N, and with keepDays every archive younger than that', async () => {
    const folder = await tmpDir();
    const names = [
      'backup-20250101-020000.zip',
      'backup-20250105-020000.zip',
      'backup-20250109-020000.zip',
      'backup-20250110-020000.zip',
      'backup-20250110-020000-2.zip',
    ];
    for (const name of names) await fsp.writeFile(path.join(folder, name), '');
    const now = Date.parse('2025-01-10T12:00:00+08:00');
    expect((await pruneBackups(folder, { keep: 2, keepDays: 7, now })).sort()).toEqual(['backup-20250101-020000.zip']);
    expect((await pruneBackups(folder, { keep: 2, keepDays: 0, now })).sort()).toEqual(['backup-20250105-020000.zip', 'backup-20250109-020000.zip']);
    expect(fs.readdirSync(folder).sort()).toEqual(['backup-20250110-020000-2.zip', 'backup-20250110-020000.zip']);
  });

  it('an upgrade backs the database up before migrating (a new database does not), and the restored DATA_DIR serves sign-ins with its keys', async () => {
    expect(
      fs.existsSync(path.join(s.dataDir, 'backups')) ? fs.readdirSync(path.join(s.dataDir, 'backups')).filter((n) => n.startsWith('pre-migrate-')) : [],
    ).toEqual([]);

    // A restored copy whose database stands one migration behind this code: the state of an upgrade.
    const dataDir = path.join(await tmpDir(), 'data');
    await restoreFrom({ dataDir }, archive);
    const db = new SQLite(path.join(dataDir, SQLITE_FILE));
    db.prepare("delete from schema_migrations where name = '024_backup_job'").run();
    db.prepare("delete from sys_job where handler_name = 'systemBackup'").run();
    db.close();

    const upgraded = await startServer('sqlite', { dataDir, jobs: { enabled: false } });
    try {
      const pre = fs.readdirSync(path.join(dataDir, 'backups')).filter((n) => n.startsWith('pre-migrate-'));
      expect(pre).toHaveLength(1);
      expect(pre[0]).toMatch(/^pre-migrate-\d{3}_[a-z_]+-\d{8}-\d{6}\.zip$/);
      const m = await manifestOf(path.join(dataDir, 'backups', pre[0]));
      expect(m.migrations.applied).not.toContain('024_backup_job');
      expect(m.uploads).toBe('omitted');
      // The migration ran after the backup.
      const job = await upgraded.app.db.kysely.selectFrom('sysJob').select('jobName').where('handlerName', '=', 'systemBackup').executeTakeFirst();
      expect(job?.jobName).toBe('系统备份');

      // Same keys as the original server, and they work: the console signs in through the encrypted protocol.
      expect(upgraded.app.keys.requestPublicPem).toBe(s.app.keys.requestPublicPem);
      expect(await upgraded.login('admin', 'admin123')).toEqual(expect.any(String));
      const rows = await sql<{ n: number }>`select count(*) as n from backup_probe`.execute(upgraded.app.db.kysely);
      expect(Number(rows.rows[0].n)).toBeGreaterThan(0);
    } finally {
      await upgraded.app.close();
      await fsp.rm(upgraded.dataDir, { recursive: true, force: true }); // the harness's own (unused) folder
    }

    // Putting the pre-upgrade state back: the database as it was; the uploads folder, not in that archive, stays.
    const back = await restoreFrom(
      { dataDir },
      path.join(dataDir, 'backups', fs.readdirSync(path.join(dataDir, 'backups')).find((n) => n.startsWith('pre-migrate-')) as string),
      {
        force: true,
      },
    );
    expect(back.keptUploads).toBe(true);
    expect(await fsp.readFile(path.join(dataDir, 'uploads', uploadPath))).toEqual(PNG_1PX);
    const check = new SQLite(path.join(dataDir, SQLITE_FILE), { readonly: true });
    expect(check.prepare("select count(*) from schema_migrations where name = '024_backup_job'").pluck().get()).toBe(0);
    check.close();
  });

  it('PostgreSQL without pg_dump: says what to install', async () => {
    const saved = process.env.PG_BIN_DIR;
    process.env.PG_BIN_DIR = await tmpDir();
    try {
      await expect(
        backupTo({ dataDir: s.dataDir, databaseUrl: 'postgres://nobody:secret@127.0.0.1:1/none' }, path.join(await tmpDir(), 'pg.zip')),
      ).rejects.toThrow(/^找不到 pg_dump（PostgreSQL 客户端工具）.*apt-get install postgresql-client.*PG_BIN_DIR/);
    } finally {
      if (saved === undefined) delete process.env.PG_BIN_DIR;
      else process.env.PG_BIN_DIR = saved;
    }
  });
});

describe.skipIf(!TEST_DATABASE_URL)('备份与恢复 (postgres: pg_dump / pg_restore)', () => {
  let s: TestServer;
  let k: Kysely<unknown>;
  let admin: pg.Client;
  const schemas: string[] = [];

  beforeAll(async () => {
    s = await startServer('postgres', { jobs: { enabled: false } });
    await s.app.ready(); // the process's heartbeat row (服务监控) is written when the app is ready
    k = s.app.db.kysely as unknown as Kysely<unknown>;
    await sql`create table backup_probe (id serial primary key, payload text not null)`.execute(k);
    admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    schemas.push(s.schema as string);
  });
  afterAll(async () => {
    for (const schema of schemas) await admin?.query(`drop schema if exists ${schema} cascade`);
    await admin?.end();
    await s?.close().catch(() => {}); // its app was closed by the test; this removes its DATA_DIR
  });

  it('backs up under concurrent writes, restores into a fresh database schema and DATA_DIR, refuses a running or occupied target', async () => {
    const insert = async (payload: string) =>
      (await sql<{ id: number }>`insert into backup_probe (payload) values (${payload}) returning id`.execute(k)).rows[0].id;
    const acked: number[] = [];
    const start = acked.length;
    const load = writeLoad(insert, acked, 6);
    await until(() => acked.length >= start + 100, 'the write load to get going');
    const before = [...acked];
    const out = path.join(await tmpDir(), 'pg.zip');
    const done = await backupTo(s.config, out);
    const during = acked.length - before.length;
    await load.stop();
    expect(during).toBeGreaterThan(0);
    expect(done.manifest.database).toMatchObject({ kind: 'postgres', schema: s.schema });

    await expect(restoreFrom(s.config, out, { force: true })).rejects.toThrow(/^数据库中还有 1 个服务进程在运行/);

    const schema = s.schema as string;
    const keysBefore = await filesUnder(path.join(s.dataDir, 'keys'));
    await s.app.close(); // stops the heartbeat (its row is removed on close)
    await admin.query(`drop schema ${schema} cascade`); // a fresh database

    const fresh = path.join(await tmpDir(), 'data');
    const config = { dataDir: fresh, databaseUrl: TEST_DATABASE_URL, databaseSchema: schema };
    const restored = await restoreFrom(config, out);
    expect(restored.asideSchema).toBeNull();
    const ids = (await admin.query<{ id: number }>(`select id from ${schema}.backup_probe`)).rows.map((r) => r.id);
    expectSnapshot(ids, before, acked);
    expect(await filesUnder(path.join(fresh, 'keys'))).toEqual(keysBefore);
    expect(fs.existsSync(path.join(fresh, 'database'))).toBe(false); // the dump is not left in DATA_DIR

    await expect(restoreFrom(config, out)).rejects.toThrow(`PostgreSQL schema「${schema}」中已有数据`);
    const again = await restoreFrom(config, out, { force: true });
    expect(again.asideSchema).toMatch(new RegExp(`^${schema}_before_restore_\\d{14}$`));
    schemas.push(again.asideSchema as string);
    const aside = await admin.query<{ n: string }>(`select count(*) as n from ${again.asideSchema}.backup_probe`);
    expect(Number(aside.rows[0].n)).toBe(ids.length);
    const now = await admin.query<{ n: string }>(`select count(*) as n from ${schema}.backup_probe`);
    expect(Number(now.rows[0].n)).toBe(ids.length);

    // A different schema than the archive's is refused with what to set.
    await expect(restoreFrom({ ...config, databaseSchema: 'some_other' }, out)).rejects.toThrow(`请把 DATABASE_SCHEMA 设为 ${schema} 后再恢复`);
  });
});
