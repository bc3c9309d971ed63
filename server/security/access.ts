import type { Kysely } from 'kysely';
import type { Database } from '../db/types.js';

export const ALL_PERMISSION = '*:*:*';
export const SUPER_ROLE = 'admin';

/** What a signed-in user may do: role keys and permission strings (admin gets the wildcard). */
export interface Access {
  roles: string[];
  roleIds: number[];
  roleNames: string[];
  permissions: string[];
}

export async function loadAccess(db: Kysely<Database>, userId: number): Promise<Access> {
  const roles = await db
    .selectFrom('sysUserRole as ur')
    .innerJoin('sysRole as r', 'r.roleId', 'ur.roleId')
    .select(['r.roleId', 'r.roleKey', 'r.roleName'])
    .where('ur.userId', '=', userId)
    .where('r.status', '=', '0')
    .where('r.delFlag', '=', '0')
    .orderBy('r.roleSort')
    .execute();
  const roleKeys = roles.map((r) => r.roleKey);
  const roleIds = roles.map((r) => r.roleId);
  let permissions: string[];
  if (roleKeys.includes(SUPER_ROLE)) {
    permissions = [ALL_PERMISSION];
  } else if (roleIds.length === 0) {
    permissions = [];
  } else {
    const rows = await db
      .selectFrom('sysRoleMenu as rm')
      .innerJoin('sysMenu as m', 'm.menuId', 'rm.menuId')
      .select('m.perms')
      .distinct()
      .where('rm.roleId', 'in', roleIds)
      .where('m.status', '=', '0')
      .where('m.perms', 'is not', null)
      .execute();
    permissions = [...new Set(rows.flatMap((r) => (r.perms ?? '').split(',').map((p) => p.trim())).filter(Boolean))];
  }
  return { roles: roleKeys.length ? roleKeys : ['ROLE_DEFAULT'], roleIds, roleNames: roles.map((r) => r.roleName), permissions };
}

/** Spec §6: passes with the wildcard or the exact string; the admin role passes everything. */
export function allows(access: Access, permission: string): boolean {
  return access.roles.includes(SUPER_ROLE) || access.permissions.includes(ALL_PERMISSION) || access.permissions.includes(permission);
}
