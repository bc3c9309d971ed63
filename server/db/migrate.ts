import { type Kysely, sql } from 'kysely';
import type { Db, Dialect } from './connection.js';
import { MIGRATION_LOCK, migrations } from './migrations/index.js';

async function applyPending(k: Kysely<unknown>, dialect: Dialect): Promise<string[]> {
  const applied: string[] = [];
  await sql`CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)`.execute(k);
  const done = new Set((await sql<{ name: string }>`SELECT name FROM schema_migrations`.execute(k)).rows.map((r) => r.name));
  for (const m of migrations) {
    if (done.has(m.name)) continue;
    // PRAGMA foreign_keys is a no-op inside a transaction: switched off around it (SQLite's table-rebuild procedure).
    const foreignKeysOff = dialect === 'sqlite' && m.sqliteForeignKeysOff === true;
    if (foreignKeysOff) await sql`PRAGMA foreign_keys = OFF`.execute(k);
    try {
      await k.transaction().execute(async (trx) => {
        await m.up(trx, dialect);
        if (foreignKeysOff) {
          const broken = await sql`PRAGMA foreign_key_check`.execute(trx);
          if (broken.rows.length > 0) throw new Error(`${m.name}: foreign key check failed (${JSON.stringify(broken.rows.slice(0, 5))})`);
        }
        await sql`INSERT INTO schema_migrations (name, applied_at) VALUES (${m.name}, ${Date.now()})`.execute(trx);
      });
    } finally {
      if (foreignKeysOff) await sql`PRAGMA foreign_keys = ON`.execute(k);
    }
    applied.push(m.name);
  }
  return applied;
}

/**
 * Applies pending migrations, each in its own transaction, recorded in schema_migrations.
 * Several server processes may start at once on PostgreSQL: an advisory lock serialises them.
 */
export async function migrate(db: Db): Promise<string[]> {
  const k = db.kysely as unknown as Kysely<unknown>;
  if (db.dialect === 'sqlite') {
    await backupBeforeMigrating(db, k);
    return applyPending(k, 'sqlite');
  }
  return k.connection().execute(async (conn) => {
    await sql`SELECT pg_advisory_lock(${sql.lit(MIGRATION_LOCK)})`.execute(conn);
    try {
      return await applyPending(conn, 'postgres');
    } finally {
      await sql`SELECT pg_advisory_unlock(${sql.lit(MIGRATION_LOCK)})`.execute(conn);
    }
  });
}

/**
 * Migrations are forward-only: on SQLite an upgrade first writes DATA_DIR/backups/pre-migrate-<level>-<time>.zip
 * (database and keys; docs/backup.md) so the old version can be put back. Only a database that already holds applied
 * migrations and has pending ones pays for it: a brand-new database (every test's) is one catalogue lookup. A failed
 * backup stops the start-up before anything is changed. MIGRATE_BACKUP=0 skips it (the operator backs up another way).
 */
async function backupBeforeMigrating(db: Db, k: Kysely<unknown>): Promise<void> {
  if (process.env.MIGRATE_BACKUP === '0') return;
  const table = await sql<{ n: number }>`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'`.execute(k);
  if (Number(table.rows[0]?.n ?? 0) === 0) return;
  const done = new Set((await sql<{ name: string }>`SELECT name FROM schema_migrations`.execute(k)).rows.map((r) => r.name));
  if (done.size === 0 || migrations.every((m) => done.has(m.name))) return;
  // Loaded only here: the archive code (archiver, yauzl) is not needed by a start-up without an upgrade.
  const { backupBeforeMigrate } = await import('./backup.js');
  await backupBeforeMigrate(db, done);
}
