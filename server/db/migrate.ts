import { type Kysely, sql } from 'kysely';
import type { Db, Dialect } from './connection.js';
import { migration001 } from './migrations/001_platform_core.js';
import { migration002 } from './migrations/002_admission_data.js';
import { migration003 } from './migrations/003_version_log.js';
import { migration004 } from './migrations/004_oper_log.js';
import { migration005 } from './migrations/005_volunteer.js';
import { migration006 } from './migrations/006_role_dept.js';
import { migration007 } from './migrations/007_gen_table.js';
import { migration008 } from './migrations/008_settings.js';
import { migration009 } from './migrations/009_security.js';
import { migration010 } from './migrations/010_jobs.js';
import { migration012 } from './migrations/012_customer.js';
import { migration013 } from './migrations/013_admission_years.js';
import { migration014 } from './migrations/014_customer_menu_name.js';
import { migration015 } from './migrations/015_customer_jobs.js';
import { migration016 } from './migrations/016_finance_ledger.js';
import { migration017 } from './migrations/017_finance_payments.js';
import { migration018 } from './migrations/018_home.js';
import { migration019 } from './migrations/019_service.js';
import { migration020 } from './migrations/020_menu_seed_log.js';
import { migration021 } from './migrations/021_volunteer_special.js';
import { migration022 } from './migrations/022_idempotency.js';
import { migration023 } from './migrations/023_store_scope.js';
import { migration024 } from './migrations/024_backup_job.js';
import type { Migration } from './migrations/helpers.js';

/** Ordered, append-only list. A released migration never changes; add a new one instead. */
export const migrations: Migration[] = [
  migration001,
  migration002,
  migration003,
  migration004,
  migration005,
  migration006,
  migration007,
  migration008,
  migration009,
  migration010,
  migration012,
  migration013,
  migration014,
  migration015,
  migration016,
  migration017,
  migration018,
  migration019,
  migration020,
  migration021,
  migration022,
  migration023,
  migration024,
];

/** The advisory lock that serialises migrations on PostgreSQL; a backup holds it shared so none runs mid-dump. */
export const MIGRATION_LOCK = 727274;

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
