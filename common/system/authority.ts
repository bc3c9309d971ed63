/**
 * 权限 (server/system/authority.ts, src/modules/system/authority/): which roles hold which menu pages and buttons,
 * and the pure rule of ticking one cell of the matrix. Both sides use these.
 */

export interface AuthorityRole {
  roleId: number;
  roleName: string;
  roleKey: string;
  /** sys_role.version: a change names the version it was made on, so a lost update is refused. */
  version: number;
  status: string;
  /** The super admin role holds every permission (*:*:*) and cannot be changed. */
  admin: boolean;
}

export interface AuthorityMenu {
  menuId: number;
  parentId: number;
  menuName: string;
  /** M 目录, C 菜单, F 按钮. */
  menuType: string;
  perms: string | null;
  orderNum: number;
  status: string;
}

export interface AuthorityMatrix {
  roles: AuthorityRole[];
  menus: AuthorityMenu[];
  /** Role id → the menu ids it holds (sys_role_menu). */
  grants: Record<string, number[]>;
}

/** One role's new menu set, made on `version` of the role. */
export interface AuthorityChange {
  roleId: number;
  version: number;
  menuIds: number[];
}

type Link = Pick<AuthorityMenu, 'menuId' | 'parentId' | 'menuType'>;

/**
 * Ticks or unticks one row for one role, as 角色管理's linked (父子联动) menu tree does: ticking takes the row's
 * whole subtree and its parents (a button is useless without its page, a page without its directory); unticking
 * drops the subtree, and a directory left with nothing ticked under it goes too (a page stays: it is a permission of
 * its own). Answers a new set.
 */
export function toggleGrant(menus: readonly Link[], held: ReadonlySet<number>, menuId: number, on: boolean): Set<number> {
  const byId = new Map(menus.map((m) => [m.menuId, m]));
  const children = new Map<number, number[]>();
  for (const m of menus) children.set(m.parentId, [...(children.get(m.parentId) ?? []), m.menuId]);
  const subtree = (id: number, seen = new Set<number>()): number[] => {
    if (seen.has(id)) return []; // a damaged tree (a node under itself) must not loop
    seen.add(id);
    return [id, ...(children.get(id) ?? []).flatMap((c) => subtree(c, seen))];
  };
  const ancestors: number[] = [];
  for (let p = byId.get(menuId)?.parentId; p !== undefined && byId.has(p) && !ancestors.includes(p) && p !== menuId; p = byId.get(p)?.parentId) {
    ancestors.push(p);
  }
  const next = new Set(held);
  if (on) {
    for (const id of subtree(menuId)) next.add(id);
    for (const p of ancestors) next.add(p);
    return next;
  }
  for (const id of subtree(menuId)) next.delete(id);
  for (const p of ancestors) {
    const dir = byId.get(p);
    if (dir?.menuType !== 'M' || (children.get(p) ?? []).some((c) => next.has(c))) break;
    next.delete(p);
  }
  return next;
}
