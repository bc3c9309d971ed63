import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { RoleChoice } from '../../common/system/roles.js';
import type { TreeNode } from '../../common/system/treeSelect.js';
import { logged } from '../engine/context.js';
import { rowToRecord } from '../engine/model.js';
import { BusinessType } from '../engine/operlog.js';
import { findRow, type Q, type Row } from '../engine/store.js';
import { fail, ok } from '../http/envelope.js';
import { bodyOf, oneId, queryOf } from '../http/params.js';
import { SUPER_ROLE } from '../security/access.js';
import { hashPassword } from '../security/password.js';
import { assertUsersInScope, dataScopeCondition } from './dataScope.js';
import { entityExtras } from './entityExtras.js';
import {
  assertNotSuperUser,
  assertPasswordCharacters,
  checkRoleIds,
  holdsStoreRole,
  idList,
  isSuperUser,
  replaceUserLinks,
  revokeSessionsOf,
} from './userHooks.js';
import { checkNewPassword } from './users.js';

/**
 * 用户管理 calls beyond the schema engine's CRUD of sys_user (RuoYi SysUserController):
 *   GET  /dev-api/system/user/                  {roles, posts, stores}: the choices of the user form system:user:query
 *   GET  /dev-api/system/user/deptTree          departments as {id, label, children}               system:user:list
 *   PUT  /dev-api/system/user/resetPwd          {userId, password}: §5 rules, signs the user out  system:user:resetPwd
 *   PUT  /dev-api/system/user/changeStatus      {userId, status}: disabling signs the user out     system:user:edit
 *   GET  /dev-api/system/user/authRole/{userId} {user, roles (all, flag = assigned)}              system:user:query
 *   PUT  /dev-api/system/user/authRole          userId, roleIds "1,2" (query or body)             system:user:edit
 * The super admin (user 1 or a holder of the admin role) is refused everywhere (不允许操作超级管理员用户). Every write goes
 * to the operation log, refusals included. Registered after the engine (it needs app.schemaEngine).
 */

function toTree(rows: Array<{ id: number; parentId: number; label: string }>): TreeNode[] {
  const nodes = new Map<number, TreeNode>(rows.map((r) => [r.id, { id: r.id, label: r.label }]));
  const roots: TreeNode[] = [];
  for (const r of rows) {
    const node = nodes.get(r.id) as TreeNode;
    const parent = r.parentId !== r.id ? nodes.get(r.parentId) : undefined;
    if (!parent) roots.push(node);
    else if (parent.children) parent.children.push(node);
    else parent.children = [node];
  }
  return roots;
}

export async function userRoutes(app: FastifyInstance): Promise<void> {
  const extras = entityExtras(app, 'sys_user', 'system:user', ['password']);
  if (!extras) return;
  const { entity, env, base, perms, entry } = extras;
  const { k } = env;

  /** A user that exists (not deleted), else 用户不存在或已被删除. */
  async function userRow(q: Q, userId: number): Promise<Row> {
    const row = await findRow(q, entity, userId);
    if (!row) throw fail('用户不存在或已被删除');
    return row;
  }
  const touch = (request: FastifyRequest) => sql`version = version + 1, update_time = ${Date.now()}, update_by = ${request.auth?.userName ?? ''}`;

  /** Every role (not deleted), in role_sort order; the admin role only when the user already holds it (RuoYi). */
  async function roleChoices(q: Q, includeAdmin: boolean): Promise<RoleChoice[]> {
    const res = await sql<Row>`select role_id, role_name, role_key, role_sort, status, create_time from sys_role
      where del_flag = '0' order by role_sort, role_id`.execute(q);
    return res.rows
      .map((r) => ({
        roleId: Number(r.role_id),
        roleName: String(r.role_name),
        roleKey: String(r.role_key),
        roleSort: Number(r.role_sort),
        status: String(r.status),
        createTime: Number(r.create_time),
      }))
      .filter((r) => includeAdmin || r.roleKey !== SUPER_ROLE);
  }

  // The choices of the user form (RuoYi GET /system/user/ without an id).
  app.get(`${base}/`, { config: { permission: perms.query, write: false } }, async () => {
    const roles = await roleChoices(k, false);
    const posts = (await sql<Row>`select post_id, post_code, post_name, post_sort, status from sys_post order by post_sort, post_id`.execute(k)).rows.map(
      (r) => ({ postId: Number(r.post_id), postCode: r.post_code, postName: r.post_name, postSort: Number(r.post_sort), status: r.status }),
    );
    // 所属门店: every store with its state (a disabled one is shown but not offered; the list names it too).
    const stores = (await sql<Row>`select store_id, store_name, kind, status from cus_store order by store_id`.execute(k)).rows.map((r) => ({
      storeId: Number(r.store_id),
      storeName: String(r.store_name),
      headquarters: r.kind === 'hq',
      status: String(r.status),
    }));
    return ok({ roles, posts, stores }, '操作成功', { roles, posts, stores });
  });

  // The department tree of the list's left side and of the form's 归属部门 (enabled, not deleted).
  // 数据权限: only the departments of the caller's data scope.
  app.get(`${base}/deptTree`, { config: { permission: perms.list, write: false } }, async (request) => {
    const scope = (await dataScopeCondition(k, request.auth ?? undefined, { dept: sql.ref('d.dept_id') })) ?? sql`1 = 1`;
    const res = await sql<{ dept_id: number; parent_id: number; dept_name: string }>`select dept_id, parent_id, dept_name from sys_dept d
      where del_flag = '0' and status = '0' and ${scope} order by parent_id, order_num, dept_id`.execute(k);
    return ok(toTree(res.rows.map((r) => ({ id: Number(r.dept_id), parentId: Number(r.parent_id), label: r.dept_name }))));
  });

  app.put(`${base}/resetPwd`, { config: { permission: 'system:user:resetPwd', write: true } }, (request) => {
    const body = bodyOf(request);
    return logged(env, request, entry('resetPwd', BusinessType.UPDATE, body), async () => {
      const userId = oneId(body.userId, '用户编号');
      const password = typeof body.password === 'string' ? body.password : body.password === undefined || body.password === null ? undefined : '';
      // Spec §5 (as 修改密码): required, 6 to 20 characters; and RuoYi's refused characters.
      const bad = checkNewPassword(password, password);
      if (bad) throw fail(bad, 400);
      assertPasswordCharacters(password as string);
      const hash = await hashPassword(password as string);
      await k.transaction().execute(async (trx) => {
        await userRow(trx, userId);
        await assertUsersInScope(trx, request.auth ?? undefined, [userId]);
        await assertNotSuperUser(trx, userId);
        await sql`update sys_user set password = ${hash}, pwd_fail_count = 0, lock_until = null, ${touch(request)} where user_id = ${userId}`.execute(trx);
        await revokeSessionsOf(trx, [userId]);
      });
      return ok(undefined, '修改成功');
    });
  });

  app.put(`${base}/changeStatus`, { config: { permission: perms.edit, write: true } }, (request) => {
    const body = bodyOf(request);
    return logged(env, request, entry('changeStatus', BusinessType.UPDATE, body), async () => {
      const userId = oneId(body.userId, '用户编号');
      const status = body.status;
      if (status === undefined || status === null || status === '') throw fail('状态不能为空', 400);
      if (status !== '0' && status !== '1') throw fail('状态取值不在允许范围内（0 正常，1 停用）', 400);
      await k.transaction().execute(async (trx) => {
        await userRow(trx, userId);
        await assertUsersInScope(trx, request.auth ?? undefined, [userId]);
        await assertNotSuperUser(trx, userId);
        await sql`update sys_user set status = ${status}, ${touch(request)} where user_id = ${userId}`.execute(trx);
        if (status === '1') await revokeSessionsOf(trx, [userId]);
      });
      return ok(undefined, status === '0' ? '启用成功' : '停用成功');
    });
  });

  app.get<{ Params: { userId: string } }>(`${base}/authRole/:userId`, { config: { permission: perms.query, write: false } }, async (request) => {
    const userId = oneId(request.params.userId, '用户编号');
    const row = await findRow(k, entity, userId, env.entities);
    if (!row) throw fail('用户不存在或已被删除');
    await assertUsersInScope(k, request.auth ?? undefined, [userId]);
    const user = rowToRecord(entity, row);
    const held = new Set(
      (await sql<{ role_id: number }>`select role_id from sys_user_role where user_id = ${userId}`.execute(k)).rows.map((r) => Number(r.role_id)),
    );
    const superUser = await isSuperUser(k, userId);
    const roles = (await roleChoices(k, superUser)).map((r) => ({ ...r, flag: held.has(r.roleId) }));
    return ok({ user, roles }, '操作成功', { user, roles });
  });

  app.put(`${base}/authRole`, { config: { permission: perms.edit, write: true } }, (request) => {
    // RuoYi sends these as query parameters; a JSON body works too.
    const params = { ...queryOf(request), ...bodyOf(request) };
    return logged(env, request, entry('authRole', BusinessType.GRANT, params), async () => {
      const userId = oneId(params.userId, '用户编号');
      const roleIds = idList(params.roleIds ?? '', '角色');
      await k.transaction().execute(async (trx) => {
        await userRow(trx, userId);
        await assertUsersInScope(trx, request.auth ?? undefined, [userId]);
        await assertNotSuperUser(trx, userId);
        await checkRoleIds(trx, roleIds, request.auth?.userName ?? '');
        // A store role needs a store (issue 22): an account without one would act for no store at all.
        const store = await sql<{ store_id: number | null }>`select store_id from sys_user where user_id = ${userId}`.execute(trx);
        if (store.rows[0]?.store_id == null && (await holdsStoreRole(trx, roleIds))) throw fail('该用户未分配所属门店，请先在修改用户中选择所属门店');
        await replaceUserLinks(trx, 'sys_user_role', 'role_id', userId, roleIds);
        await sql`update sys_user set ${touch(request)} where user_id = ${userId}`.execute(trx);
      });
      return ok(undefined, '授权成功');
    });
  });
}
