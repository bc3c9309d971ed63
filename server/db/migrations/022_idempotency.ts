import type { Kysely } from 'kysely';
import { epoch, type Migration, notNull, text } from './helpers.js';

/**
 * sys_idempotency (issue 22, server/security/idempotency.ts): one row per money-moving request, keyed by its
 * Idempotency-Key (or a key derived from the request), so two copies of one request have one effect. state 'pending'
 * while the first copy runs, 'done' with its answer after; a refused first copy deletes its row. A logged table on
 * PostgreSQL (not UNLOGGED like sys_request_nonce): forgetting a finished payment after a crash would let it run again.
 */
export const migration022: Migration = {
  name: '022_idempotency',
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('sys_idempotency')
      .addColumn('idem_key', text, (c) => c.primaryKey())
      .addColumn('user_id', 'integer', notNull)
      .addColumn('state', text, notNull)
      .addColumn('fingerprint', text, notNull)
      .addColumn('answer', text)
      .addColumn('kind', text)
      .addColumn('expires', epoch, notNull)
      .addColumn('create_time', epoch, notNull)
      .execute();
    await db.schema.createIndex('sys_idempotency_expires').on('sys_idempotency').column('expires').execute();
  },
};
