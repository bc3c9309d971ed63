import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';
import { epoch, type Migration, notNull, text } from './helpers.js';

/**
 * Security hardening (docs/security.md):
 *  - sys_request_nonce: single-use request signatures and the server's duplicate-submit window. One row per seen key
 *    (`sig:<hash>` / `dup:<hash>`), kept until it expires; several server processes agree because they share the table.
 *    UNLOGGED on PostgreSQL: a crash may forget the last seconds of nonces, which only reopens a window already closed
 *    by the timestamp check, and it keeps this per-request write off the WAL.
 *  - sys_login_attempt: password attempts per (account, client address) and per account, reserved atomically before a
 *    password is checked, so parallel guesses cannot outrun the lock.
 *  - sys_session.client_key: the console's per-session public key (session-bound response encryption).
 */
export const migration009: Migration = {
  name: '009_security',
  async up(db: Kysely<unknown>, dialect: Dialect) {
    if (dialect === 'postgres') {
      await sql`CREATE UNLOGGED TABLE sys_request_nonce (nonce TEXT PRIMARY KEY, expires_at BIGINT NOT NULL)`.execute(db);
    } else {
      await db.schema
        .createTable('sys_request_nonce')
        .addColumn('nonce', text, (c) => c.primaryKey())
        .addColumn('expires_at', epoch, notNull)
        .execute();
    }
    await db.schema.createIndex('sys_request_nonce_expires').on('sys_request_nonce').column('expires_at').execute();

    await db.schema
      .createTable('sys_login_attempt')
      .addColumn('attempt_key', text, (c) => c.primaryKey())
      .addColumn('fail_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('lock_until', epoch)
      .addColumn('update_time', epoch, notNull)
      .execute();

    await db.schema.alterTable('sys_session').addColumn('client_key', text).execute();
  },
};
