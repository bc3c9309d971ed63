import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';
import { epoch, type Migration, notNull, text, withId } from './helpers.js';

/**
 * Console release history (spec §4 version dialog, §7.8 systermUpdateList): one row per published console build,
 * with who published it, the signing tool, the release tag, the domain and the change log. Rows for the releases
 * shipped so far are part of the migration, since they describe the software itself, not demo data.
 */
export const migration003: Migration = {
  name: '003_version_log',
  async up(db: Kysely<unknown>, dialect: Dialect) {
    await withId(db.schema.createTable('sys_version_log'), 'log_id', dialect)
      .addColumn('app_id', text, notNull)
      .addColumn('version', text, notNull) // release tag, e.g. v2.0.4
      .addColumn('user_name', text, notNull) // who published
      .addColumn('sign_tool', text, notNull)
      .addColumn('publish_time', epoch, notNull)
      .addColumn('domain', text, notNull)
      .addColumn('changed_files', 'integer', notNull)
      .addColumn('log', text, notNull)
      .execute();
    await db.schema.createIndex('sys_version_log_time').on('sys_version_log').column('publish_time').execute();
    const rows = [
      ['v2.0.2', '2026-09-01 10:00', 31, '首页改版；工具箱新增同分去向'],
      ['v2.0.3', '2026-10-15 18:30', 12, '修复标签页刷新后丢失；侧边栏记住折叠状态'],
      ['v2.0.4', '2026-11-22 09:00', 164, '自带参考服务端与加密接口协议；服务端菜单与权限；标签页缓存、主题设置、工具箱'],
    ] as const;
    for (const [version, time, files, log] of rows) {
      await sql`insert into sys_version_log (app_id, version, user_name, sign_tool, publish_time, domain, changed_files, log)
        values ('zy-console', ${version}, 'admin', 'vite build', ${new Date(`${time}:00+08:00`).getTime()}, 'localhost', ${files}, ${log})`.execute(db);
    }
  },
};
