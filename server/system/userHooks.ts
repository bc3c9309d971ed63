import { sql } from 'kysely';
import type { EntityHooks } from '../engine/hooks.js';
import type { WriteContext } from '../engine/records.js';
import type { Q, Row } from '../engine/store.js';
import { fail } from '../http/envelope.js';
import { SUPER_ROLE } from '../security/access.js';
import { hashPassword } from '../security/password.js';
import { STORE_ROLE_KEYS } from '../security/storeScope.js';
import { assertDeptInScope, assertUsersInScope, dataScopeCondition } from './dataScope.js';

/**
 * 用户管理 (schemas/system/sys_user.json) rules beyond the schema, RuoYi style:
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
 * - 所属门店 (storeId, issue 22): an enabled store or none. An account holding a store role (机构负责人, 志愿专家) must
 *   have one (请选择所属门店); only a caller who sees every store may put an account into a store other than their
 *   own. Each change of an account's store writes an operation-log entry in the same transaction (server/security/
 *   storeScope.ts reads the store on every request, so the change applies from the next request on).
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

export const STORE_REQUIRED_MESSAGE = '请选择所属门店';

/** Does any of these roles confine its holder to a store (STORE_ROLE_KEYS)? */
export async function holdsStoreRole(k: Q, roleIds: number[]): Promise<boolean> {
  if (!roleIds.length) return false;
  const res = await sql<{ n: number | string }>`select count(*) as n from sys_role
    where role_id in (${sql.join(roleIds)}) and role_key in (${sql.join([...STORE_ROLE_KEYS])}) and del_flag = '0'`.execute(k);
  return Number(res.rows[0]?.n ?? 0) > 0;
}

async function roleIdsOf(k: Q, userId: number): Promise<number[]> {
  const res = await sql<{ role_id: number }>`select role_id from sys_user_role where user_id = ${userId}`.execute(k);
  return res.rows.map((r) => Number(r.role_id));
}

/** The caller's own store and whether it is headquarters (the same rule as server/security/storeScope.ts). */
async function callerStore(k: Q, ctx: WriteContext): Promise<{ storeId: number | null; allStores: boolean }> {
  if (!ctx.auth) return { storeId: null, allStores: true }; // seeds and tools
  const res = await sql<{ store_id: number | null; kind: string | null }>`select u.store_id, s.kind from sys_user u
    left join cus_store s on s.store_id = u.store_id where u.user_id = ${ctx.auth.userId}`.execute(k);
  const row = res.rows[0];
  const storeId = row?.store_id != null && row.kind != null ? Number(row.store_id) : null;
  return { storeId, allStores: ctx.auth.roles.includes(SUPER_ROLE) || row?.kind === 'hq' };
}

/** 所属门店 of a save: an enabled store within the caller's reach; required with a store role. */
async function checkStore(ctx: WriteContext, values: Record<string, unknown>, body: Record<string, unknown>, existing: Row | undefined): Promise<void> {
  const given = values.storeId === undefined ? undefined : (values.storeId as number | null);
  const before = existing ? (existing.store_id == null ? null : Number(existing.store_id)) : null;
  const after = given === undefined ? before : given;
  if (given != null && given !== before) {
    const res = await sql<{ status: string }>`select status from cus_store where store_id = ${given}`.execute(ctx.k);
    if (res.rows[0]?.status !== '0') throw fail('所属门店不存在或已停用');
    const caller = await callerStore(ctx.k, ctx);
    if (!caller.allStores && caller.storeId !== given) throw fail('只能把账号分配到本门店');
  }
  const roleIds = has(body, 'roleIds') ? idList(body.roleIds, '角色') : existing ? await roleIdsOf(ctx.k, Number(existing.user_id)) : [];
  if (after == null && (await holdsStoreRole(ctx.k, roleIds))) throw fail(STORE_REQUIRED_MESSAGE);
}

/** One operation-log row per change of an account's store, written in the save's own transaction. */
async function auditStoreChange(ctx: WriteContext, userId: number, userName: unknown, from: number | null, to: number | null): Promise<void> {
  const names = await sql<{ store_id: number; store_name: string }>`select store_id, store_name from cus_store
    where store_id in (${sql.join([from ?? -1, to ?? -1])})`.execute(ctx.k);
  const nameOf = (id: number | null) => (id == null ? '未分配' : (names.rows.find((r) => Number(r.store_id) === id)?.store_name ?? String(id)));
  const param = JSON.stringify({ userId, userName, fromStoreId: from, toStoreId: to, from: nameOf(from), to: nameOf(to) });
  await sql`insert into sys_oper_log (title, business_type, method, request_method, oper_name, oper_url, oper_ip, oper_param, json_result,
      status, error_msg, oper_time, cost_time)
    values (${'用户管理'}, ${2}, ${'sys_user.store'}, ${''}, ${ctx.userName}, ${'/dev-api/system/user'}, ${''}, ${param}, ${null},
      ${0}, ${null}, ${ctx.now}, ${0})`.execute(ctx.k);
}

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
    await checkStore(ctx, values, body, existing);
    if (has(body, 'postIds')) await checkPostIds(ctx.k, idList(body.postIds, '岗位'));
  },

  async afterWrite({ ctx, values, body, existing, id }) {
    if (has(body, 'roleIds')) await replaceUserLinks(ctx.k, 'sys_user_role', 'role_id', id, idList(body.roleIds, '角色'));
    if (has(body, 'postIds')) await replaceUserLinks(ctx.k, 'sys_user_post', 'post_id', id, idList(body.postIds, '岗位'));
    if (existing && values.status === '1' && existing.status !== '1') await revokeSessionsOf(ctx.k, [id]);
    const from = existing?.store_id == null ? null : Number(existing.store_id);
    const to = values.storeId === undefined ? from : (values.storeId as number | null);
    if (to !== from) await auditStoreChange(ctx, id, values.userName ?? existing?.user_name, from, to);
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
