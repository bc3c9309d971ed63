import type { StoreBrief } from '@common/customer/stores';
import type { RoleChoice } from '@common/system/roles';
import type { TreeNode } from '@common/system/treeSelect';
import { request } from '../request';

/**
 * 用户管理 calls beyond the schema engine's CRUD of sys_user (server/system/userRoutes.ts, RuoYi api/system/user.js).
 * The list, create, update, delete, export and import go through the engine data provider.
 */

const BASE = '/dev-api/system/user';

export interface PostChoice {
  postId: number;
  postCode: string;
  postName: string;
  postSort: number;
  status: string;
}

export interface UserBrief {
  userId: number;
  userName: string;
  nickName: string;
  deptName?: string | null;
  status?: string;
}

/** 部门树 of the list's left side (enabled departments). */
export async function deptTreeSelect(): Promise<TreeNode[]> {
  const env = await request<TreeNode[]>({ url: `${BASE}/deptTree`, method: 'get' });
  return env.data ?? [];
}

/** The roles, posts and stores (所属门店: headquarters' staff see every store) the user form offers (RuoYi GET /system/user/). */
export async function getUserFormChoices(): Promise<{ roles: RoleChoice[]; posts: PostChoice[]; stores: StoreBrief[] }> {
  const env = await request<{ roles: RoleChoice[]; posts: PostChoice[]; stores?: StoreBrief[] }>({ url: `${BASE}/`, method: 'get' });
  return { roles: env.data?.roles ?? [], posts: env.data?.posts ?? [], stores: env.data?.stores ?? [] };
}

/** 重置密码 (system:user:resetPwd); answers the server's message. */
export async function resetUserPwd(userId: number, password: string): Promise<string> {
  const env = await request({ url: `${BASE}/resetPwd`, method: 'put', data: { userId, password } });
  return env.msg;
}

/** 启用 / 停用 (system:user:edit); disabling signs the user out. */
export async function changeUserStatus(userId: number, status: string): Promise<string> {
  const env = await request({ url: `${BASE}/changeStatus`, method: 'put', data: { userId, status } });
  return env.msg;
}

/** 分配角色: the user and every role, `flag` on those held. */
export async function getAuthRole(userId: number | string): Promise<{ user: UserBrief; roles: RoleChoice[] }> {
  const env = await request<{ user: UserBrief; roles: RoleChoice[] }>({ url: `${BASE}/authRole/${encodeURIComponent(String(userId))}`, method: 'get' });
  return { user: env.data?.user as UserBrief, roles: env.data?.roles ?? [] };
}

/** Saves the roles of a user (roleIds "1,2", RuoYi sends them as query parameters). */
export async function updateAuthRole(userId: number, roleIds: number[]): Promise<string> {
  const env = await request({ url: `${BASE}/authRole`, method: 'put', params: { userId, roleIds: roleIds.join(',') } });
  return env.msg;
}

/** The initial password for new users (参数设置 sys.user.initPassword). */
export async function getInitPassword(): Promise<string> {
  try {
    const env = await request<string>({ url: '/dev-api/system/config/configKey/sys.user.initPassword', method: 'get', options: { silent: true } });
    return typeof env.data === 'string' ? env.data : '';
  } catch {
    return '';
  }
}
