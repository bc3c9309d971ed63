import { type Kysely, sql } from 'kysely';
import { ApiError, Code } from '../http/envelope.js';

/**
 * RuoYi's menu rules (SysMenuController / SysMenuServiceImpl), shared by the 菜单管理 engine hooks (menuHooks.ts) and
 * the hand-written 菜单配置 routes (server/system/menuRoutes.ts). Queries use plain column names with one-word aliases, so they
 * read the same through the engine's connection (no name mapping) and the app's (camelCase plugin).
 */

/** A connection or transaction of either kind. */
export type MenuDb = Kysely<unknown>;

export type MenuAction = '新增' | '修改';

/** The fields the rules look at, as the record will be stored. */
export interface MenuShape {
  menuId?: number;
  menuName: string;
  parentId: number;
  menuType: string;
  path?: string | null;
  isFrame?: number | null;
}

export const MENU_MESSAGES = {
  pathRequired: '路由地址不能为空',
  notHttp: (action: MenuAction, name: string) => `${action}菜单'${name}'失败，地址必须以http(s)://开头`,
  nameTaken: (action: MenuAction, name: string) => `${action}菜单'${name}'失败，菜单名称已存在`,
  selfParent: (name: string) => `修改菜单'${name}'失败，上级菜单不能选择自己`,
  parentMissing: '上级菜单不存在',
  parentButton: '按钮下不能再添加菜单',
  hasChildren: '存在子菜单,不允许删除',
  assigned: '菜单已分配,不允许删除',
} as const;

/** RuoYi's StringUtils.ishttp. */
export const isHttp = (path: string | null | undefined): boolean => /^https?:\/\//i.test(path ?? '');

/** Rules on the record alone: a directory or page needs a path; an external link (isFrame 0) an http(s) address. */
export function menuShapeProblem(m: MenuShape, action: MenuAction): string | null {
  const path = (m.path ?? '').trim();
  if (m.menuType !== 'F' && !path) return MENU_MESSAGES.pathRequired;
  if (m.menuType !== 'F' && Number(m.isFrame) === 0 && !isHttp(path)) return MENU_MESSAGES.notHttp(action, m.menuName);
  return null;
}

/** Rules against the stored tree: the parent exists, is not a button, is not the menu itself; the name is free among its siblings. */
export async function menuTreeProblem(k: MenuDb, m: MenuShape, action: MenuAction): Promise<string | null> {
  if (m.menuId !== undefined && m.parentId === m.menuId) return MENU_MESSAGES.selfParent(m.menuName);
  if (m.parentId !== 0) {
    const parent = await sql<{ kind: string }>`select menu_type as kind from sys_menu where menu_id = ${m.parentId}`.execute(k);
    if (!parent.rows.length) return MENU_MESSAGES.parentMissing;
    if (parent.rows[0].kind === 'F') return MENU_MESSAGES.parentButton;
  }
  const others = await sql<{ id: number }>`select menu_id as id from sys_menu where menu_name = ${m.menuName} and parent_id = ${m.parentId}`.execute(k);
  if (others.rows.some((r) => Number(r.id) !== m.menuId)) return MENU_MESSAGES.nameTaken(action, m.menuName);
  return null;
}

/** Throws the first problem of a menu about to be written (code 500, RuoYi's error()). */
export async function assertMenuWritable(k: MenuDb, m: MenuShape, action: MenuAction): Promise<void> {
  const problem = menuShapeProblem(m, action) ?? (await menuTreeProblem(k, m, action));
  if (problem) throw new ApiError(Code.ERROR, problem);
}

/**
 * Why menus may not be deleted: a child outside the deleted set (存在子菜单,不允许删除) or a role holding one
 * (菜单已分配,不允许删除); null when they may. RuoYi refuses instead of dropping the role links.
 */
export async function menuDeleteProblem(k: MenuDb, ids: number[]): Promise<string | null> {
  if (!ids.length) return null;
  const children = await sql<{ id: number }>`select menu_id as id from sys_menu
    where parent_id in (${sql.join(ids)}) and menu_id not in (${sql.join(ids)}) limit 1`.execute(k);
  if (children.rows.length) return MENU_MESSAGES.hasChildren;
  const assigned = await sql<{ id: number }>`select menu_id as id from sys_role_menu where menu_id in (${sql.join(ids)}) limit 1`.execute(k);
  if (assigned.rows.length) return MENU_MESSAGES.assigned;
  return null;
}
