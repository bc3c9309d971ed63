import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';
import { epoch, type Migration, notNull, text } from './helpers.js';

/**
 * The home module (server/home/, docs/home.md):
 * - `home_daily`: precomputed figures per China-time day and store (store 0 = the row that marks the day as computed),
 *   filled by the `homeDailyFigures` job; the home page reads them instead of scanning a year of activity.
 * - `home_page_view`: page views per day, written in batches by the server's counter (never one write per request).
 * - `home_fast_path`: each user's 快捷菜单 (menus picked from their own menu).
 * - `sys_version_log.version` becomes `release_tag`: the table is now the schema-engine screen 版本管理, whose hidden
 *   optimistic-lock column is called `version` (the engine adds it).
 * - indexes on the creation times the daily figures group by;
 * - the 平台中心 menus (统计, 帮助中心, 版本管理) for installs seeded before them, and the daily job.
 */
export const migration018: Migration = {
  name: '018_home',
  async up(db: Kysely<unknown>, _dialect: Dialect) {
    const count = 'bigint' as const;
    const zero = (c: import('kysely').ColumnDefinitionBuilder) => c.notNull().defaultTo(0);
    await db.schema
      .createTable('home_daily')
      .addColumn('day', text, notNull) // YYYY-MM-DD, China time
      .addColumn('store_id', 'integer', notNull)
      .addColumn('new_customers', count, zero)
      .addColumn('activated_cards', count, zero)
      .addColumn('submitted_plans', count, zero)
      .addColumn('approved_plans', count, zero)
      .addColumn('revenue', count, zero) // fen
      .addColumn('registrations', count, zero)
      .addColumn('computed_at', epoch, notNull)
      .addPrimaryKeyConstraint('home_daily_pk', ['day', 'store_id'])
      .execute();
    await db.schema
      .createTable('home_page_view')
      .addColumn('day', text, (c) => c.primaryKey())
      .addColumn('views', count, zero)
      .execute();
    await db.schema
      .createTable('home_fast_path')
      .addColumn('user_id', 'integer', notNull)
      .addColumn('menu_id', 'integer', notNull)
      .addColumn('sort', 'integer', notNull)
      .addColumn('create_time', epoch, notNull)
      .addPrimaryKeyConstraint('home_fast_path_pk', ['user_id', 'menu_id'])
      .execute();

    await db.schema.alterTable('sys_version_log').renameColumn('version', 'release_tag').execute();

    await db.schema.createIndex('vol_student_create_time').on('vol_student').column('create_time').execute();
    await db.schema.createIndex('vol_plan_action_time').on('vol_plan_action').column('create_time').execute();
    await db.schema.createIndex('sys_user_create_time').on('sys_user').column('create_time').execute();
    await db.schema.createIndex('cus_balance_log_time').on('cus_balance_log').column('create_time').execute();
    await db.schema.createIndex('vol_appointment_time').on('vol_appointment').column('appoint_time').execute();

    const now = Date.now();
    await sql`insert into sys_job (job_name, job_group, handler_name, handler_params, cron_expression, misfire_policy, concurrent, status, remark, create_by, create_time, version)
      values ('首页每日统计', 'DEFAULT', 'homeDailyFigures', ${'{"days":3}'}, '0 5 * * * ?', '3', '1', '0', '每小时汇总前几天的首页统计（新增客户、激活卡、方案、收入、注册）；首次运行补齐全部历史', 'admin', ${now}, 1)`.execute(
      db,
    );

    await addHomeMenus(db, now);
  },
};

/**
 * The 平台中心 menus (统计, 帮助中心, 版本管理 with its buttons) for an install seeded before them, granted like the
 * seed grants them (server/db/seed/menus.ts). Nothing on a fresh database (the seed writes them) nor when present.
 */
export async function addHomeMenus(db: Kysely<unknown>, now: number): Promise<void> {
  // A fresh database has no menus yet: the seed (server/db/seed/menus.ts) writes these with the rest.
  const seeded = await sql<{ n: number | string }>`select count(*) as n from sys_menu`.execute(db);
  if (Number(seeded.rows[0]?.n ?? 0) === 0) return;
  const exists = await sql<{ n: number | string }>`select count(*) as n from sys_menu where component = 'statistics/index'`.execute(db);
  if (Number(exists.rows[0]?.n ?? 0) > 0) return;
  const insert = async (
    name: string,
    parentId: number,
    order: number,
    path: string,
    component: string | null,
    type: string,
    perms: string | null,
    icon: string,
  ) => {
    const r = await sql<
      Record<string, unknown>
    >`insert into sys_menu (menu_name, parent_id, order_num, path, component, query, route_name, is_frame, is_cache, menu_type, visible, status, perms, icon, active_menu, affix, create_time, remark)
      values (${name}, ${parentId}, ${order}, ${path}, ${component}, null, null, 1, 0, ${type}, '0', '0', ${perms}, ${icon}, null, 0, ${now}, null) returning menu_id`.execute(
      db,
    );
    return Number(col(r.rows[0], 'menu_id'));
  };
  const top = await sql<{ n: number | string | null }>`select max(order_num) as n from sys_menu where parent_id = 0`.execute(db);
  const dir = await insert('平台中心', 0, Number(top.rows[0]?.n ?? 0) + 1, 'center', null, 'M', null, 'chart');
  const stats = await insert('统计', dir, 1, 'statistics', 'statistics/index', 'C', 'home:statistics:list', 'chart');
  const help = await insert('帮助中心', dir, 2, 'helpCenter', 'helpCenter/index', 'C', 'home:help:list', 'question');
  const version = await insert('版本管理', dir, 3, 'version', 'system/version/index', 'C', 'system:version:list', 'log');
  const buttons = [
    ['查询', 'system:version:query'],
    ['新增', 'system:version:add'],
    ['修改', 'system:version:edit'],
    ['删除', 'system:version:remove'],
  ];
  for (const [i, [name, perms]] of buttons.entries()) await insert(name, version, i + 1, '', null, 'F', perms, '#');
  const grant = async (roleKey: string, menuIds: number[]) => {
    const role = await sql<Record<string, unknown>>`select role_id from sys_role where role_key = ${roleKey} and del_flag = '0'`.execute(db);
    for (const r of role.rows)
      for (const id of menuIds) await sql`insert into sys_role_menu (role_id, menu_id) values (${Number(col(r, 'role_id'))}, ${id})`.execute(db);
  };
  await grant('leader', [dir, stats, help]);
  await grant('expert', [dir, help]);
  await grant('operator', [dir, help]);
}

/** A column of a raw row: the server's Kysely maps result names to camelCase (CamelCasePlugin), a bare one does not. */
function col(row: Record<string, unknown> | undefined, snake: string): unknown {
  const camel = snake.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
  return row?.[camel] ?? row?.[snake];
}
