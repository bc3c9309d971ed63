import { sql } from 'kysely';
import type { EntityHooks } from '../engine/hooks.js';
import type { WriteContext } from '../engine/records.js';
import type { Q, Row } from '../engine/store.js';
import { fail } from '../http/envelope.js';
import { SUPER_ROLE } from '../security/access.js';
import { hashPassword } from '../security/password.js';
import { assertDeptInScope, assertUsersInScope, dataScopeCondition } from './dataScope.js';

/**
 * 用户管理 (schemas/sys_user.json) rules beyond the schema, RuoYi style:
 * - The password is stored hashed (scrypt). A new user (form or import) without one gets the initial password of
 *   参数设置 `sys.user.initPassword` (else 123456). Updates never touch it: passwords change only through resetPwd
 *   (server/system/userRoutes.ts) or the user's own 修改密码.
 * - The super admin (user 1, or any user holding the role `admin`) can be neither changed nor deleted
 *   (不允许操作超级管理员用户); nobody deletes themselves (当前用户不能删除).
 * - 用户名称 stays unique also against deleted users (the column is unique in the database); 手机号码 and 邮箱 are unique
 *   among the living users (sign-in accepts the mobile number).
 * - `roleIds` / `postIds` arrays in the body of a save replace the user's sys_user_role / sys_user_post rows (each id
 *   must exist; only a super admin may hand out the admin role); a save without the key leaves them alone.
 * - A user disabled or deleted is signed out everywhere (sessions revoked).
 * - GET /system/user/{id} also answers roleIds and postIds.
 * - 数据权限 (角色管理): lists, exports and reads show only the users of the caller's data scope; changing or deleting a
 *   user outside it, or putting a user into a department outside it, is refused (没有权限访问用户数据！).
 */

export const SUPER_USER_MESSAGE = '不允许操作超级管理员用户';
export const DEFAULT_INIT_PASSWORD = '123456';
/** RuoYi's refused password characters. */
export const ILLEGAL_PASSWORD = /[<>"'|\\]/;
export const ILLEGAL_PASSWORD_MESSAGE = '不能包含非法字符：< > " \' \\ |';

/** Positive integer ids from an array (or a comma list "1,2"); anything else is refused with `<title>格式不正确`. */
export function idList(raw: unknown, title: string): number[] {
  const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? (raw.trim() ? raw.split(',') : []) : typeof raw === 'number' ? [raw] : null;
  if (items === null) throw fail(`${title}格式不正确`, 400);
  const ids = items.map((v) => (typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d{1,15}\s*$/.test(v) ? Number(v) : Number.NaN));
  if (ids.some((id) => !Number.isSafeInteger(id) || id <= 0)) throw fail(`${title}格式不正确`, 400);
  if (ids.length > 1000) throw fail(`${title}数量不能超过 1000 个`, 400);
  return [...new Set(ids)];
}

/** Is this user the super admin: user 1, or holding the (enabled, not deleted) role `admin`? */
export async function isSuperUser(k: Q, userId: number): Promise<boolean> {
  if (userId === 1) return true;
  const res = await sql<{ n: number | string }>`select count(*) as n from sys_user_role ur inner join sys_role r on r.role_id = ur.role_id
    where ur.user_id = ${userId} and r.role_key = ${SUPER_ROLE} and r.del_flag = '0'`.execute(k);
  return Number(res.rows[0]?.n ?? 0) > 0;
}

/** Refuses any change to the super admin. */
export async function assertNotSuperUser(k: Q, userId: number): Promise<void> {
  if (await isSuperUser(k, userId)) throw fail(SUPER_USER_MESSAGE);
}

/** Does the signed-in user (by name) hold the admin role? */
async function callerIsSuper(k: Q, userName: string): Promise<boolean> {
  const res = await sql<{ user_id: number }>`select user_id from sys_user where user_name = ${userName} and del_flag = '0'`.execute(k);
  const id = res.rows[0]?.user_id;
  return id !== undefined && (await isSuperUser(k, Number(id)));
}

/** The initial password for new users: 参数设置 sys.user.initPassword when it is set, else 123456. */
export async function initPassword(ctx: Pick<WriteContext, 'k' | 'entities'>): Promise<string> {
  if (![...ctx.entities.values()].some((e) => e.table === 'sys_config')) return DEFAULT_INIT_PASSWORD;
  const res = await sql<{ config_value: string | null }>`select config_value from sys_config where config_key = 'sys.user.initPassword'`.execute(ctx.k);
  const value = res.rows[0]?.config_value?.trim();
  return value || DEFAULT_INIT_PASSWORD;
}

/** Checks role ids for a user: each role exists (not deleted); the admin role only from a super admin. */
export async function checkRoleIds(k: Q, roleIds: number[], callerName: string): Promise<void> {
  if (!roleIds.length) return;
  const res = await sql<{ role_id: number; role_key: string }>`select role_id, role_key from sys_role
    where role_id in (${sql.join(roleIds)}) and del_flag = '0'`.execute(k);
  const found = new Map(res.rows.map((r) => [Number(r.role_id), r.role_key]));
  const missing = roleIds.find((id) => !found.has(id));
  if (missing !== undefined) throw fail(`角色'${missing}'不存在`);
  if ([...found.values()].includes(SUPER_ROLE) && !(await callerIsSuper(k, callerName))) throw fail('只有超级管理员可以分配超级管理员角色');
}

async function checkPostIds(k: Q, postIds: number[]): Promise<void> {
  if (!postIds.length) return;
  const res = await sql<{ post_id: number }>`select post_id from sys_post where post_id in (${sql.join(postIds)})`.execute(k);
  const found = new Set(res.rows.map((r) => Number(r.post_id)));
  const missing = postIds.find((id) => !found.has(id));
  if (missing !== undefined) throw fail(`岗位'${missing}'不存在`);
}

/** Replaces the link rows (user_id, <column>) of one user in `table`. */
export async function replaceUserLinks(k: Q, table: 'sys_user_role' | 'sys_user_post', column: 'role_id' | 'post_id', userId: number, ids: number[]) {
  await sql`delete from ${sql.table(table)} where user_id = ${userId}`.execute(k);
  if (!ids.length) return;
  const tuples = ids.map((id) => sql`(${userId}, ${id})`);
  await sql`insert into ${sql.table(table)} (user_id, ${sql.ref(column)}) values ${sql.join(tuples)}`.execute(k);
}

/** Signs a user out everywhere (their sessions are refused from the next request on). */
export async function revokeSessionsOf(k: Q, userIds: number[]): Promise<void> {
  if (!userIds.length) return;
  await sql`update sys_session set revoked = 1 where user_id in (${sql.join(userIds)}) and revoked = 0`.execute(k);
}

/** A new password's own rules beyond length: RuoYi refuses a few characters. */
export function assertPasswordCharacters(password: string): void {
  if (ILLEGAL_PASSWORD.test(password)) throw fail(`用户密码${ILLEGAL_PASSWORD_MESSAGE}`, 400);
}

const has = (body: Record<string, unknown>, key: string) => key in body && body[key] !== undefined && body[key] !== null;

/** 用户名称 / 手机号码 / 邮箱 taken by another user (名称: any user, deleted ones included). */
async function assertUnique(ctx: WriteContext, values: Record<string, unknown>, existing: Row | undefined): Promise<void> {
  const id = existing ? Number(existing.user_id) : 0;
  const action = existing ? '修改' : '新增';
  const name = String(values.userName ?? existing?.user_name ?? '');
  const taken = async (column: 'user_name' | 'mobile' | 'email', value: unknown, aliveOnly: boolean) => {
    if (value === undefined || value === null || value === '') return false;
    const alive = aliveOnly ? sql` and del_flag = '0'` : sql``;
    const res = await sql<{ user_id: number }>`select user_id from sys_user where ${sql.ref(column)} = ${value} and user_id <> ${id}${alive}`.execute(ctx.k);
    return res.rows.length > 0;
  };
  if (await taken('user_name', values.userName, false)) throw fail(`${action}'${name}'失败，用户名称已存在`);
  if (await taken('mobile', values.mobile, true)) throw fail(`${action}用户'${name}'失败，手机号码已存在`);
  if (await taken('email', values.email, true)) throw fail(`${action}用户'${name}'失败，邮箱账号已存在`);
}

export const userHooks: EntityHooks = {
  // 数据权限: lists, exports and GET /{id} show only the users of the caller's data scope (server/system/dataScope.ts).
  listScope: ({ k, auth }) => dataScopeCondition(k, auth, { dept: sql.ref('t.dept_id'), user: sql.ref('t.user_id') }),

  async beforeWrite({ ctx, values, body, existing }) {
    if (existing) await assertUsersInScope(ctx.k, ctx.auth, [Number(existing.user_id)]);
    if (typeof values.deptId === 'number') await assertDeptInScope(ctx.k, ctx.auth, values.deptId);
    if (existing) {
      await assertNotSuperUser(ctx.k, Number(existing.user_id));
      // Passwords change only through 重置密码 (or the user's own 修改密码).
      delete values.password;
    } else {
      const password = typeof values.password === 'string' && values.password !== '' ? values.password : await initPassword(ctx);
      assertPasswordCharacters(password);
      values.password = await hashPassword(password);
    }
    await assertUnique(ctx, values, existing);
    if (has(body, 'roleIds')) await checkRoleIds(ctx.k, idList(body.roleIds, '角色'), ctx.userName);
    if (has(body, 'postIds')) await checkPostIds(ctx.k, idList(body.postIds, '岗位'));
  },

  async afterWrite({ ctx, values, body, existing, id }) {
    if (has(body, 'roleIds')) await replaceUserLinks(ctx.k, 'sys_user_role', 'role_id', id, idList(body.roleIds, '角色'));
    if (has(body, 'postIds')) await replaceUserLinks(ctx.k, 'sys_user_post', 'post_id', id, idList(body.postIds, '岗位'));
    if (existing && values.status === '1' && existing.status !== '1') await revokeSessionsOf(ctx.k, [id]);
  },

  async beforeDelete(ctx, rows) {
    await assertUsersInScope(
      ctx.k,
      ctx.auth,
      rows.map((r) => Number(r.user_id)),
    );
    for (const row of rows) {
      if (await isSuperUser(ctx.k, Number(row.user_id))) throw fail(SUPER_USER_MESSAGE);
      if (row.user_name === ctx.userName) throw fail('当前用户不能删除');
    }
  },

  async afterDelete(ctx, ids) {
    if (!ids.length) return;
    await sql`delete from sys_user_role where user_id in (${sql.join(ids)})`.execute(ctx.k);
    await sql`delete from sys_user_post where user_id in (${sql.join(ids)})`.execute(ctx.k);
    await revokeSessionsOf(ctx.k, ids);
  },

  async decorate({ k }, record) {
    const userId = Number(record.userId);
    const roles = await sql<{ role_id: number }>`select role_id from sys_user_role where user_id = ${userId} order by role_id`.execute(k);
    const posts = await sql<{ post_id: number }>`select post_id from sys_user_post where user_id = ${userId} order by post_id`.execute(k);
    return { roleIds: roles.rows.map((r) => Number(r.role_id)), postIds: posts.rows.map((r) => Number(r.post_id)) };
  },
};
