import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addHomeMenus } from '../../../server/db/migrations/018_home.js';
import { call } from '../customer/helpers.js';
import { backends, startServer, type TestServer } from '../harness.js';

/**
 * Migration 018 on an install seeded before 平台中心 existed: the menus arrive, granted as the seed grants them.
 * (Raw rows come back camelCased: the server's Kysely has the CamelCasePlugin.)
 */
describe.each(backends)('migration 018 平台中心 menus (%s)', (backend) => {
  let s: TestServer;
  const raw = () => s.app.db.kysely as unknown as Kysely<unknown>;

  beforeAll(async () => {
    s = await startServer(backend);
    // An older install: the seed had no 平台中心 (nor 备忘录, which hangs under it and comes from its schema at start).
    const ids = (
      await sql<{ menuId: number }>`select menu_id from sys_menu where path = 'center' or parent_id in (select menu_id from sys_menu where path = 'center')
      or component in ('system/version/index', 'system/memo/index')
      or parent_id in (select menu_id from sys_menu where component in ('system/version/index', 'system/memo/index'))`.execute(raw())
    ).rows.map((r) => Number(r.menuId));
    // 平台中心; 统计, 帮助中心, 版本管理 and its 4 buttons; 备忘录 and its 4 buttons.
    expect(ids.length).toBe(13);
    for (const id of ids) {
      await sql`delete from sys_role_menu where menu_id = ${id}`.execute(raw());
      await sql`delete from sys_menu where menu_id = ${id}`.execute(raw());
    }
  });
  afterAll(async () => {
    await s?.close();
  });

  const names = async (roleKey: string) =>
    (
      await sql<{
        menuName: string;
      }>`select m.menu_name from sys_menu m join sys_role_menu rm on rm.menu_id = m.menu_id join sys_role r on r.role_id = rm.role_id
        where r.role_key = ${roleKey} and (m.path = 'center' or m.parent_id in (select menu_id from sys_menu where path = 'center')) order by m.menu_id`.execute(
        raw(),
      )
    ).rows.map((r) => r.menuName);

  it('adds 统计, 帮助中心 and 版本管理 once, and grants them like a fresh seed', async () => {
    const leader = await s.login('leader', 'leader123');
    expect((await call(s, leader, 'GET', '/dev-api/api/index/indexv', {})).code).toBe(403);
    await addHomeMenus(raw(), Date.now());
    await addHomeMenus(raw(), Date.now()); // a second run changes nothing
    const rows = (
      await sql<{
        menuName: string;
      }>`select menu_name from sys_menu where component in ('statistics/index', 'helpCenter/index', 'system/version/index')`.execute(raw())
    ).rows;
    expect(rows.map((r) => r.menuName).sort()).toEqual(['帮助中心', '版本管理', '统计'].sort());
    expect(await names('leader')).toEqual(['平台中心', '统计', '帮助中心']);
    expect(await names('expert')).toEqual(['平台中心', '帮助中心']);
    expect(await names('operator')).toEqual(['平台中心', '帮助中心']);
    // Permissions are read per request: the leader may open 统计 at once.
    expect((await call(s, leader, 'GET', '/dev-api/api/index/indexv', {})).code).toBe(200);
    const admin = await s.login('admin', 'admin123');
    expect((await call(s, admin, 'GET', '/dev-api/system/version/list', {})).code).toBe(200);
  });
});
