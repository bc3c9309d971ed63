import type { TreeNode } from '@common/system/treeSelect';
import { request } from '../request';
import type { TablePage } from '../types';

/**
 * 角色管理 calls beyond the schema engine's CRUD of sys_role (server/system/roleRoutes.ts, RuoYi api/system/role.js
 * and api/system/menu.js). The list, create, update (with menuIds), delete and export go through the engine data
 * provider.
 */

const BASE = '/dev-api/system/role';

export interface RoleUser {
  userId: number;
  deptId: number | null;
  deptName: string | null;
  userName: string;
  nickName: string;
  email: string | null;
  mobile: string | null;
  status: string;
  createTime: number;
}

export interface RoleUserQuery {
  roleId: number;
  pageNum: number;
  pageSize: number;
  userName?: string;
  mobile?: string;
}

/** The whole menu as a tree (菜单权限 of the role form). */
export async function menuTreeselect(): Promise<TreeNode[]> {
  const env = await request<TreeNode[]>({ url: '/dev-api/system/menu/treeselect', method: 'get' });
  return env.data ?? [];
}

/** The menu tree and the keys checked for one role. */
export async function roleMenuTreeselect(roleId: number): Promise<{ menus: TreeNode[]; checkedKeys: number[] }> {
  const env = await request({ url: `/dev-api/system/menu/roleMenuTreeselect/${roleId}`, method: 'get' });
  return { menus: (env.menus as TreeNode[] | undefined) ?? [], checkedKeys: (env.checkedKeys as number[] | undefined) ?? [] };
}

/** The department tree and the departments of the role's custom data scope. */
export async function roleDeptTree(roleId: number): Promise<{ depts: TreeNode[]; checkedKeys: number[] }> {
  const env = await request({ url: `${BASE}/deptTree/${roleId}`, method: 'get' });
  return { depts: (env.depts as TreeNode[] | undefined) ?? [], checkedKeys: (env.checkedKeys as number[] | undefined) ?? [] };
}

/** 启用 / 停用 a role. */
export async function changeRoleStatus(roleId: number, status: string): Promise<string> {
  return (await request({ url: `${BASE}/changeStatus`, method: 'put', data: { roleId, status } })).msg;
}

/** 数据权限: the scope ('1'..'5') and, for 自定数据权限 ('2'), the departments. */
export async function saveDataScope(body: { roleId: number; dataScope: string; deptIds: number[]; deptCheckStrictly: boolean }): Promise<string> {
  return (await request({ url: `${BASE}/dataScope`, method: 'put', data: body })).msg;
}

async function userPage(kind: 'allocatedList' | 'unallocatedList', query: RoleUserQuery): Promise<TablePage<RoleUser>> {
  const env = await request({ url: `${BASE}/authUser/${kind}`, method: 'get', params: { ...query } });
  return { rows: (env.rows ?? []) as RoleUser[], total: env.total ?? 0 };
}

/** Users holding the role. */
export const allocatedUserList = (query: RoleUserQuery) => userPage('allocatedList', query);
/** Users not holding the role (添加用户). */
export const unallocatedUserList = (query: RoleUserQuery) => userPage('unallocatedList', query);

/** 取消授权 of one user. */
export async function authUserCancel(roleId: number, userId: number): Promise<string> {
  return (await request({ url: `${BASE}/authUser/cancel`, method: 'put', data: { roleId, userId } })).msg;
}

/** 批量取消授权 (RuoYi sends these as query parameters; the body keeps the repeat guard per selection). */
export async function authUserCancelAll(roleId: number, userIds: number[]): Promise<string> {
  return (await request({ url: `${BASE}/authUser/cancelAll`, method: 'put', data: { roleId, userIds: userIds.join(',') } })).msg;
}

/** 添加用户: gives the role to the selected users. */
export async function authUserSelectAll(roleId: number, userIds: number[]): Promise<string> {
  return (await request({ url: `${BASE}/authUser/selectAll`, method: 'put', data: { roleId, userIds: userIds.join(',') } })).msg;
}
