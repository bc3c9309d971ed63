import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { AuthorityChange, AuthorityMatrix, AuthorityMenu, AuthorityRole } from '../../common/system/authority.js';
import { logged, writeContext } from '../engine/context.js';
import { BusinessType } from '../engine/operlog.js';
import { updateRecord } from '../engine/records.js';
import { fail, ok } from '../http/envelope.js';
import { bodyOf } from '../http/params.js';
import { SUPER_ROLE } from '../security/access.js';
import { idList } from './roleHooks.js';

/**
 * 权限 (component system/authority/index): every menu page and button × every role, a tick where the role holds it.
 *   GET /dev-api/system/authority/matrix   {roles, menus, grants}                         system:authority:list
 *   PUT /dev-api/system/authority          {changes: [{roleId, version, menuIds}]}        system:authority:edit
 * A change is not a second way of writing sys_role_menu: each role's new set goes through the schema engine's update
 * of sys_role with `menuIds`, exactly as 角色管理's form saves it (server/system/roleHooks.ts): the super admin role is
 * refused (不允许操作超级管理员角色), unknown menus are refused, the version must be the one the matrix was read on
 * (数据已被他人修改，请刷新后重试 — no lost update), and the role's version moves on. All roles of one save change in one
 * transaction or none does. The write lands in the operation log; the permission cache follows any write to
 * sys_role_menu by itself (server/cache/auth.ts), so the role's users get the new set at their next request.
 */

export const AUTHORITY_PERMS = { list: 'system:authority:list', edit: 'system:authority:edit' } as const;
/** One save changes at most this many roles (a matrix has one column per role). */
const MAX_CHANGES = 200;

/** The changes of a save; a malformed one is refused with a message naming what is wrong. */
function readChanges(raw: unknown): AuthorityChange[] {
  if (!Array.isArray(raw) || raw.length === 0) throw fail('没有要保存的权限变更', 400);
  if (raw.length > MAX_CHANGES) throw fail(`一次最多保存 ${MAX_CHANGES} 个角色的权限`, 400);
  const seen = new Set<number>();
  return raw.map((item) => {
    const c = item && typeof item === 'object' && !Array.isArray(item) ? (item as Record<string, unknown>) : {};
    const roleId = Number(c.roleId);
    if (!Number.isSafeInteger(roleId) || roleId <= 0) throw fail('角色编号格式不正确', 400);
    if (seen.has(roleId)) throw fail('同一角色只能出现一次', 400);
    seen.add(roleId);
    const version = Number(c.version);
    if (c.version === undefined || c.version === null || !Number.isSafeInteger(version) || version < 0) throw fail('版本号不能为空', 400);
    if (c.menuIds === undefined || c.menuIds === null) throw fail('菜单权限不能为空', 400);
    return { roleId, version, menuIds: idList(c.menuIds, '菜单权限') };
  });
}

export async function authorityRoutes(app: FastifyInstance): Promise<void> {
  const entity = app.schemaEngine?.entities.get('sys_role');
  if (!entity) return;
  const { env } = app.schemaEngine;
  const { k } = env;

  app.get('/dev-api/system/authority/matrix', { config: { permission: AUTHORITY_PERMS.list, write: false } }, async () => {
    const roles = await sql<{ role_id: number; role_name: string; role_key: string; version: number; status: string }>`
      select role_id, role_name, role_key, version, status from sys_role where del_flag = '0' order by role_sort, role_id`.execute(k);
    const menus = await sql<{
      menu_id: number;
      parent_id: number;
      menu_name: string;
      menu_type: string;
      perms: string | null;
      order_num: number;
      status: string;
    }>`
      select menu_id, parent_id, menu_name, menu_type, perms, order_num, status from sys_menu order by parent_id, order_num, menu_id`.execute(k);
    const links = await sql<{ role_id: number; menu_id: number }>`select rm.role_id, rm.menu_id from sys_role_menu rm
      inner join sys_role r on r.role_id = rm.role_id where r.del_flag = '0' order by rm.role_id, rm.menu_id`.execute(k);
    const grants: Record<string, number[]> = {};
    for (const r of roles.rows) grants[String(r.role_id)] = [];
    for (const l of links.rows) grants[String(l.role_id)]?.push(Number(l.menu_id));
    const matrix: AuthorityMatrix = {
      roles: roles.rows.map(
        (r): AuthorityRole => ({
          roleId: Number(r.role_id),
          roleName: r.role_name,
          roleKey: r.role_key,
          version: Number(r.version ?? 0),
          status: r.status,
          admin: r.role_key === SUPER_ROLE,
        }),
      ),
      menus: menus.rows.map(
        (m): AuthorityMenu => ({
          menuId: Number(m.menu_id),
          parentId: Number(m.parent_id),
          menuName: m.menu_name,
          menuType: m.menu_type,
          perms: m.perms ?? null,
          orderNum: Number(m.order_num ?? 0),
          status: m.status,
        }),
      ),
      grants,
    };
    return ok(matrix);
  });

  app.put('/dev-api/system/authority', { config: { permission: AUTHORITY_PERMS.edit, write: true } }, (request) => {
    const body = bodyOf(request);
    return logged(env, request, { title: '权限', businessType: BusinessType.GRANT, method: 'sys_role.authority', param: body }, async () => {
      const changes = readChanges(body.changes);
      const versions = await k.transaction().execute(async (trx) => {
        const out: Array<{ roleId: number; version: number | null }> = [];
        for (const c of changes) {
          // The same write as 角色管理's 修改 with 菜单权限 (patch: only the menus and the version are sent).
          const saved = await updateRecord(writeContext(env, request, trx), entity, { roleId: c.roleId, version: c.version, menuIds: c.menuIds }, 'patch');
          out.push({ roleId: saved.id, version: saved.version });
        }
        return out;
      });
      return ok(versions, '保存成功');
    });
  });
}
