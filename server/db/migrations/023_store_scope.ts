import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Migration } from './helpers.js';

/**
 * Store scope for every account (issue 22, server/security/storeScope.ts).
 *  - sys_user.store_id becomes nullable with no default: migration 012 gave every new account store 1, and store 1
 *    was read as headquarters (all stores), so each account made through 用户管理 or self-registration saw every
 *    store. Now an account has the store an administrator assigned, or none (sees no store's rows).
 *  - Headquarters is cus_store.kind = 'hq' (set by migration 012 for store 1), no longer the id.
 *  - Self-registered accounts (remark 自助注册, the only mark registration leaves) lose the store they got by
 *    default; an administrator assigns one in 用户管理 where an account is staff. Accounts made through 用户管理
 *    keep their store: whether headquarters was meant cannot be told from the data (docs: review 所属门店 after upgrade).
 *
 * SQLite cannot drop NOT NULL in place, so the table is rebuilt from its own definition (the documented 12-step
 * procedure, with foreign keys off: `sqliteForeignKeysOff`, or dropping the old table would cascade into
 * sys_user_role, sys_user_post and sys_session).
 */
export const migration023: Migration = {
  name: '023_store_scope',
  sqliteForeignKeysOff: true,
  async up(db: Kysely<unknown>, dialect: Dialect) {
    if (dialect === 'postgres') {
      await sql`ALTER TABLE sys_user ALTER COLUMN store_id DROP NOT NULL, ALTER COLUMN store_id DROP DEFAULT`.execute(db);
    } else {
      await rebuildSqliteUserTable(db);
    }
    await sql`UPDATE sys_user SET store_id = NULL WHERE remark = ${'自助注册'}`.execute(db);
  },
};

async function rebuildSqliteUserTable(db: Kysely<unknown>): Promise<void> {
  const table = await sql<{ sql: string }>`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'sys_user'`.execute(db);
  const definition = table.rows[0]?.sql ?? '';
  const column = '"store_id" integer default 1 not null';
  if (!definition.includes(column) || !definition.startsWith('CREATE TABLE "sys_user" (')) {
    throw new Error('023_store_scope: sys_user 的表结构与预期不符，无法迁移 store_id');
  }
  const indexes = await sql<{ sql: string }>`SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'sys_user' AND sql IS NOT NULL`.execute(db);
  // AUTOINCREMENT: ids of deleted users are never handed out again, so the sequence survives the rebuild.
  const sequence = await sql<{ seq: number }>`SELECT seq FROM sqlite_sequence WHERE name = 'sys_user'`.execute(db);
  const rebuilt = definition.replace('CREATE TABLE "sys_user" (', 'CREATE TABLE "sys_user_023" (').replace(column, '"store_id" integer');
  await sql.raw(rebuilt).execute(db);
  await sql`INSERT INTO sys_user_023 SELECT * FROM sys_user`.execute(db);
  await sql`DROP TABLE sys_user`.execute(db);
  await sql`ALTER TABLE sys_user_023 RENAME TO sys_user`.execute(db);
  for (const index of indexes.rows) await sql.raw(index.sql).execute(db);
  const seq = sequence.rows[0]?.seq;
  if (seq != null) {
    await sql`DELETE FROM sqlite_sequence WHERE name = 'sys_user'`.execute(db);
    await sql`INSERT INTO sqlite_sequence (name, seq) VALUES ('sys_user', ${seq})`.execute(db);
  }
}
