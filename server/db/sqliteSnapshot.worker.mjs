import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

/**
 * Copies the live SQLite database into `dest` with SQLite's online backup API (server/db/backup.ts starts this).
 *
 * Own connection, whole database in one backup step: the step reads under one read transaction, so the copy is the
 * database as of one instant, while WAL lets the server go on writing. Copying in small steps instead would restart
 * the copy on every write the server makes through its own connection (a different connection from this one), and
 * stepping on the server's own connection fails whenever one of its transactions is open. A worker keeps a large copy
 * from stalling the server's requests.
 *
 * Then, on the copy: journal_mode DELETE (the archived file stands alone, no -wal beside it), the process heartbeats
 * emptied, `quick_check`, and the applied migrations (the archive's level is that of the data it holds).
 */
const { source, dest } = workerData;
try {
  const db = new Database(source, { fileMustExist: true, timeout: 10_000 });
  let pages = 0;
  try {
    const done = await db.backup(dest, { progress: () => 0x7fffffff });
    pages = done.totalPages;
  } finally {
    db.close();
  }
  const copy = new Database(dest, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
    // The heartbeats of the processes running now (服务监控) are not data: restored, they would show processes that
    // do not exist and make a restore think a server still runs on the target.
    const hasNodes = copy.prepare("select count(*) from sqlite_master where type = 'table' and name = 'sys_monitor_node'").pluck().get() > 0;
    if (hasNodes) copy.exec('delete from sys_monitor_node');
    const check = String(copy.pragma('quick_check', { simple: true }));
    const hasLevel = copy.prepare("select count(*) from sqlite_master where type = 'table' and name = 'schema_migrations'").pluck().get() > 0;
    const applied = hasLevel ? copy.prepare('select name from schema_migrations').pluck().all() : [];
    parentPort.postMessage({ ok: true, pages, check, applied });
  } finally {
    copy.close();
  }
} catch (err) {
  parentPort.postMessage({ ok: false, code: err?.code ?? null, message: String(err?.message ?? err) });
}
