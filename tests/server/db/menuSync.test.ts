import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncSeededMenus } from '../../../server/db/seed/menuSync.js';
import type { MenuSeed } from '../../../server/db/seed/menus.js';
import { seededMenus } from '../../../server/db/seed/schemaMenus.js';
import { backends, startServer, type TestServer } from '../harness.js';

/**
 * Start-up menu sync: an install seeded before a module existed receives its menus, granted as the seed grants
 * them; an entry an administrator deleted stays deleted; a page taken away from a role does not come back through
 * a new button under it. (Raw rows come back camelCased: the server's Kysely has the CamelCasePlugin.)
 */
describe.each(backends)('seeded menu sync (%s)', (backend) => {
  let s: TestServer;
  const raw = () => s.app.db.kysely as unknown as Kysely<unknown>;
  const count = (items: MenuSeed[]): number => items.reduce((n, m) => n + 1 + count(m.children ?? []), 0);
  const idOf = async (where: string, value: string) =>
    (await sql<{ menuId: number }>`select menu_id from sys_menu where ${sql.raw(where)} = ${value}`.execute(raw())).rows.map((r) => Number(r.menuId));
  const held = async (roleKey: string, component: string) =>
    Number(
      (
        await sql<{ n: number }>`select count(*) as n from sys_role_menu rm join sys_role r on r.role_id = rm.role_id join sys_menu m on m.menu_id = rm.menu_id
          where r.role_key = ${roleKey} and m.component = ${component}`.execute(raw())
      ).rows[0]?.n,
    );
  const removePage = async (component: string, forgetSeedLog: boolean) => {
    const [page] = await idOf('component', component);
    const ids = [
      page,
      ...(await sql<{ menuId: number }>`select menu_id from sys_menu where parent_id = ${page}`.execute(raw())).rows.map((r) => Number(r.menuId)),
    ];
    for (const id of ids) {
      await sql`delete from sys_role_menu where menu_id = ${id}`.execute(raw());
      await sql`delete from sys_menu where menu_id = ${id}`.execute(raw());
    }
    if (forgetSeedLog) await sql`delete from sys_menu_seed where seed_key = ${`C:${component}`} or seed_key like ${`F:${component}:%`}`.execute(raw());
    return ids.length;
  };

  beforeAll(async () => {
    s = await startServer(backend);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('a freshly seeded install has every seeded entry and adds nothing', async () => {
    expect((await syncSeededMenus(s.app.db)).added).toEqual([]);
    const logged = Number((await sql<{ n: number }>`select count(*) as n from sys_menu_seed`.execute(raw())).rows[0]?.n);
    expect(logged).toBe(count(seededMenus()));
  });

  it('an install that never had a page receives it with its buttons and the seeded grants', async () => {
    const removed = await removePage('finance/withdraw/index', true); // as if seeded before finance existed
    expect(await held('leader', 'finance/withdraw/index')).toBe(0);
    const { added } = await syncSeededMenus(s.app.db);
    expect(added).toContain('C:finance/withdraw/index');
    expect(added.length).toBe(removed);
    expect(await idOf('component', 'finance/withdraw/index')).toHaveLength(1);
    expect(await held('leader', 'finance/withdraw/index')).toBe(1);
    expect(await held('expert', 'finance/withdraw/index')).toBe(0);
    expect((await syncSeededMenus(s.app.db)).added).toEqual([]); // once only
  });

  it('a page an administrator deleted stays deleted', async () => {
    await removePage('finance/invoice/index', false);
    expect((await syncSeededMenus(s.app.db)).added).toEqual([]);
    expect(await idOf('component', 'finance/invoice/index')).toHaveLength(0);
  });

  it('a new button under a page the role lost is not granted', async () => {
    const [page] = await idOf('component', 'card/two/index');
    const buttons = (await sql<{ menuId: number; perms: string }>`select menu_id, perms from sys_menu where parent_id = ${page}`.execute(raw())).rows;
    expect(buttons.length).toBeGreaterThan(0);
    await sql`delete from sys_role_menu where menu_id = ${page} and role_id = (select role_id from sys_role where role_key = 'leader')`.execute(raw());
    const [first] = buttons;
    await sql`delete from sys_role_menu where menu_id = ${Number(first.menuId)}`.execute(raw());
    await sql`delete from sys_menu where menu_id = ${Number(first.menuId)}`.execute(raw());
    await sql`delete from sys_menu_seed where seed_key = ${`F:card/two/index:${first.perms}`}`.execute(raw());
    const { added } = await syncSeededMenus(s.app.db);
    expect(added).toEqual([`F:card/two/index:${first.perms}`]);
    const grantedToLeader = Number(
      (
        await sql<{ n: number }>`select count(*) as n from sys_role_menu rm join sys_role r on r.role_id = rm.role_id join sys_menu m on m.menu_id = rm.menu_id
          where r.role_key = 'leader' and m.parent_id = ${page} and m.perms = ${first.perms}`.execute(raw())
      ).rows[0]?.n,
    );
    expect(grantedToLeader).toBe(0);
    expect(await held('leader', 'card/two/index')).toBe(0);
  });
});
