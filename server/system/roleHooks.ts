import { sql } from 'kysely';
import type { EntityHooks } from '../engine/hooks.js';
import type { WriteContext } from '../engine/records.js';
import type { Q, Row } from '../engine/store.js';
import { fail } from '../http/envelope.js';
import { SUPER_ROLE } from '../security/access.js';

/**
 * 角色管理 (schemas/system/sys_role.json) rules beyond the schema, RuoYi style:
 * - `menuIds` in the body of a save (array of menu ids, each must exist) replaces the role's sys_role_menu rows;
 *   a save without the key leaves them alone (imports, status changes).
 * - The super admin role (role_key 'admin') can be neither changed nor deleted: 不允许操作超级管理员角色.
 * - A role still assigned to users cannot be deleted: '<name>'已分配,不能删除. Deleting drops its link rows.
 * - GET /system/role/{id} answers the role's menuIds too.
 * Permissions are read from the database on every request (server/security/access.ts), so a changed role applies to
 * its users at once (their menus at the next getRuleList / sign-in).
 */

export const ADMIN_ROLE_MESSAGE = '不允许操作超级管理员角色';

/** Positive integer ids from an array (or a comma list); anything else is refused with `<title>格式不正确`. */
export function idList(raw: unknown, title: string): number[] {
  const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? (raw.trim() ? raw.split(',') : []) : null;
  if (items === null) throw fail(`${title}格式不正确`, 400);
  const ids = items.map((v) => (typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d{1,15}\s*$/.test(v) ? Number(v) : Number.NaN));
  if (ids.some((id) => !Number.isSafeInteger(id) || id <= 0)) throw fail(`${title}格式不正确`, 400);
  if (ids.length > 5000) throw fail(`${title}数量不能超过 5000 个`, 400);
  return [...new Set(ids)];
}

/** Refuses ids missing from `table` (`<what>'<id>'不存在`). */
export async function assertExisting(k: Q, table: 'sys_menu' | 'sys_dept' | 'sys_user', column: string, ids: number[], what: string): Promise<void> {
  if (!ids.length) return;
  const alive = table === 'sys_menu' ? sql`` : sql` and del_flag = '0'`;
  const found = new Set<number>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const res = await sql<{
      id: number;
    }>`select ${sql.ref(column)} as id from ${sql.table(table)} where ${sql.ref(column)} in (${sql.join(chunk)})${alive}`.execute(k);
    for (const r of res.rows) found.add(Number(r.id));
  }
  const missing = ids.find((id) => !found.has(id));
  if (missing !== undefined) throw fail(`${what}'${missing}'不存在`);
}

/** Replaces the link rows (role_id, <column>) of one role in `table`. */
export async function replaceLinks(k: Q, table: 'sys_role_menu' | 'sys_role_dept', column: 'menu_id' | 'dept_id', roleId: number, ids: number[]) {
  await sql`delete from ${sql.table(table)} where role_id = ${roleId}`.execute(k);
  for (let i = 0; i < ids.length; i += 200) {
    const tuples = ids.slice(i, i + 200).map((id) => sql`(${roleId}, ${id})`);
    await sql`insert into ${sql.table(table)} (role_id, ${sql.ref(column)}) values ${sql.join(tuples)}`.execute(k);
  }
}

export const isSuperRole = (row: Row | undefined) => row?.role_key === SUPER_ROLE;

/** Users (not deleted) holding a role. */
export async function assignedUsers(k: Q, roleId: number): Promise<number> {
  const res = await sql<{ n: number | string }>`select count(*) as n from sys_user_role ur inner join sys_user u on u.user_id = ur.user_id
    where ur.role_id = ${roleId} and u.del_flag = '0'`.execute(k);
  return Number(res.rows[0]?.n ?? 0);
}

/** A deleted role keeps its row (del_flag 2); its key is freed so a new role may take it (the column is unique). */
async function freeDeletedKey(ctx: WriteContext, key: unknown): Promise<void> {
  if (typeof key !== 'string' || !key) return;
  await sql`update sys_role set role_key = ${sql`role_key || '#' || cast(role_id as text)`} where role_key = ${key} and del_flag <> '0'`.execute(ctx.k);
}

export const roleHooks: EntityHooks = {
  async beforeWrite({ ctx, values, body, existing }) {
    if (existing && isSuperRole(existing)) throw fail(ADMIN_ROLE_MESSAGE);
    if ('menuIds' in body && body.menuIds !== undefined && body.menuIds !== null) {
      await assertExisting(ctx.k, 'sys_menu', 'menu_id', idList(body.menuIds, '菜单权限'), '菜单');
    }
    await freeDeletedKey(ctx, values.roleKey);
  },

  async afterWrite({ ctx, body, id }) {
    if (!('menuIds' in body) || body.menuIds === undefined || body.menuIds === null) return;
    await replaceLinks(ctx.k, 'sys_role_menu', 'menu_id', id, idList(body.menuIds, '菜单权限'));
  },

  async beforeDelete(ctx, rows) {
    for (const row of rows) {
      if (isSuperRole(row)) throw fail(ADMIN_ROLE_MESSAGE);
      if ((await assignedUsers(ctx.k, Number(row.role_id))) > 0) throw fail(`'${String(row.role_name)}'已分配,不能删除`);
    }
  },

  async afterDelete(ctx, ids) {
    if (!ids.length) return;
    for (const table of ['sys_role_menu', 'sys_role_dept', 'sys_user_role']) {
      await sql`delete from ${sql.table(table)} where role_id in (${sql.join(ids)})`.execute(ctx.k);
    }
  },

  async decorate({ k }, record) {
    const res = await sql<{ menu_id: number }>`select menu_id from sys_role_menu where role_id = ${Number(record.roleId)} order by menu_id`.execute(k);
    return { menuIds: res.rows.map((r) => Number(r.menu_id)) };
  },
};
