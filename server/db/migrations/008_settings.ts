import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import { epoch, type Migration, notNull, text } from './helpers.js';

/**
 * Key-value settings of the system screens 注册设置 / 测评设置 / 审核配置 (server/system/settings.ts): one row per
 * (group, key), the value as JSON text. Every row of a group carries the group's version (optimistic check on save).
 */
export const migration008: Migration = {
  name: '008_settings',
  async up(db: Kysely<unknown>, _dialect: Dialect) {
    await db.schema
      .createTable('sys_setting')
      .addColumn('setting_group', text, notNull)
      .addColumn('setting_key', text, notNull)
      .addColumn('setting_value', text, notNull) // JSON
      .addColumn('update_by', text)
      .addColumn('update_time', epoch, notNull)
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .addPrimaryKeyConstraint('sys_setting_pk', ['setting_group', 'setting_key'])
      .execute();
  },
};
