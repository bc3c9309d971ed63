import { sql } from 'kysely';
import type { Db } from '../connection.js';
import { type MenuSeed, ROLE_GRANTS, seededMenuRow } from './menus.js';
import { seededMenus } from './schemaMenus.js';

/**
 * Brings an installed database's menus up to the seeded tree (schemaMenus.ts: menus.ts plus every schema's
 * `x-menu`) at every start, so a schema file added to an install brings its page and buttons with it.
 *
 * The seed writes the whole tree once, on a fresh database; a module added later (finance, 服务中心, new content
 * screens…) would otherwise never reach an install seeded before it. Each seeded entry has a stable key; an entry
 * the database lacks is added (with the seeded roles' grants) unless its key is in `sys_menu_seed`, which records
 * every entry the install has ever had — so an entry an administrator deleted in 菜单管理 stays deleted.
 * Entries are matched as an administrator may have edited them: a page by its component wherever it was moved,
 * a directory by its path under its parent, a button by its permission under its page. Names, order, icons and
 * visibility an administrator changed are never touched.
 */

interface DbMenu {
  menuId: number;
  parentId: number;
  menuType: string;
  path: string;
  component: string | null;
  perms: string | null;
}

export interface MenuSyncResult {
  added: string[];
}

export interface MenuSyncOptions {
  /** The seeded tree (schemaMenus.ts); default: that of schemas/. */
  menus?: MenuSeed[];
  now?: number;
}

export async function syncSeededMenus(db: Db, { menus, now = Date.now() }: MenuSyncOptions = {}): Promise<MenuSyncResult> {
  const k = db.kysely;
  // The menus are system essentials (seed/index.ts), written at start with or without demo data and users.
  const seeded = await k.selectFrom('sysMenu').select('menuId').limit(1).executeTakeFirst();
  if (!seeded) return { added: [] }; // nothing installed yet: the seed writes the menus

  return k.transaction().execute(async (trx) => {
    // Several processes may start together on one PostgreSQL database: one of them syncs at a time.
    if (db.dialect === 'postgres') await sql`select pg_advisory_xact_lock(727020)`.execute(trx);

    const rows: DbMenu[] = (await trx.selectFrom('sysMenu').select(['menuId', 'parentId', 'menuType', 'path', 'component', 'perms']).execute()).map((r) => ({
      ...r,
      menuId: Number(r.menuId),
      parentId: Number(r.parentId),
    }));
    const logged = new Set((await trx.selectFrom('sysMenuSeed').select('seedKey').execute()).map((r) => r.seedKey));
    const roles = await trx.selectFrom('sysRole').select(['roleId', 'roleKey']).where('roleKey', 'in', Object.keys(ROLE_GRANTS)).execute();
    const roleMenus = new Set(
      roles.length === 0
        ? []
        : (
            await trx
              .selectFrom('sysRoleMenu')
              .select(['roleId', 'menuId'])
              .where(
                'roleId',
                'in',
                roles.map((r) => r.roleId),
              )
              .execute()
          ).map((r) => `${r.roleId}:${r.menuId}`),
    );

    const added: string[] = [];
    const seen: string[] = [];
    const parentOf = new Map(rows.map((r) => [r.menuId, r.parentId]));

    const find = (m: MenuSeed, parentId: number): DbMenu | undefined => {
      if (m.type === 'C') return rows.find((r) => r.menuType === 'C' && r.component === m.component);
      if (m.type === 'M') return rows.find((r) => r.menuType === 'M' && r.parentId === parentId && r.path === (m.path ?? ''));
      return rows.find((r) => r.menuType === 'F' && r.parentId === parentId && r.perms === (m.perms ?? null));
    };

    const newIds = new Set<number>();
    /**
     * Grants a new entry to every seeded role whose rule grants its permission — only where the role holds the
     * entry's parent, or the parent is new too (then the new directories above it are granted with it): a page an
     * administrator took away from a role does not come back through a button added under it.
     */
    const grant = async (menuId: number, perms: string | undefined) => {
      if (!perms) return;
      for (const role of roles) {
        if (!ROLE_GRANTS[role.roleKey]?.(perms)) continue;
        const parentId = parentOf.get(menuId) ?? 0;
        if (parentId > 0 && !newIds.has(parentId) && !roleMenus.has(`${role.roleId}:${parentId}`)) continue;
        for (let id: number | undefined = menuId; id && id > 0 && (id === menuId || newIds.has(id)); id = parentOf.get(id)) {
          const key = `${role.roleId}:${id}`;
          if (roleMenus.has(key)) continue;
          await trx.insertInto('sysRoleMenu').values({ roleId: role.roleId, menuId: id }).execute();
          roleMenus.add(key);
        }
      }
    };

    const walk = async (items: MenuSeed[], parentId: number, parentKey: string): Promise<void> => {
      for (const [index, m] of items.entries()) {
        const key = m.type === 'C' ? `C:${m.component}` : m.type === 'M' ? `M:${parentKey}/${m.path}` : `F:${parentKey}:${m.perms}`;
        let row = find(m, parentId);
        if (!row) {
          if (logged.has(key)) continue; // deleted by an administrator: leave it, and everything under it, gone
          const made = await trx
            .insertInto('sysMenu')
            .values(seededMenuRow(m, parentId, m.order ?? index + 1, now))
            .returning('menuId')
            .executeTakeFirstOrThrow();
          row = { menuId: Number(made.menuId), parentId, menuType: m.type, path: m.path ?? '', component: m.component ?? null, perms: m.perms ?? null };
          rows.push(row);
          parentOf.set(row.menuId, parentId);
          newIds.add(row.menuId);
          await grant(row.menuId, m.perms);
          added.push(key);
        }
        if (!logged.has(key)) seen.push(key);
        if (m.children?.length) await walk(m.children, row.menuId, m.type === 'C' ? (m.component ?? '') : `${parentKey}/${m.path}`);
      }
    };
    await walk(menus ?? seededMenus(), 0, '');

    for (let i = 0; i < seen.length; i += 200) {
      await trx
        .insertInto('sysMenuSeed')
        .values(seen.slice(i, i + 200).map((seedKey) => ({ seedKey, createTime: now })))
        .onConflict((oc) => oc.column('seedKey').doNothing())
        .execute();
    }
    return { added };
  });
}
