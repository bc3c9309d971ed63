import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Migration } from './helpers.js';

/**
 * `sys_menu_seed`: which seeded menu entries (server/db/seed/menus.ts) an install has ever received. Start-up adds
 * seeded entries an upgraded install lacks (server/db/seed/menuSync.ts) and this log keeps it from bringing back an
 * entry an administrator deleted in 菜单管理.
 */
export const migration020: Migration = {
  name: '020_menu_seed_log',
  async up(db: Kysely<unknown>, _dialect: Dialect) {
    await db.schema
      .createTable('sys_menu_seed')
      .addColumn('seed_key', 'text', (c) => c.primaryKey())
      .addColumn('create_time', 'bigint', (c) => c.notNull())
      .execute();
  },
};
