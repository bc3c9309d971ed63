import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type RawBuilder, sql } from 'kysely';
import type { TreeNode } from '../../common/system/treeSelect.js';
import { logged } from '../engine/context.js';
import { BusinessType } from '../engine/operlog.js';
import { flattenParams, paging } from '../engine/query.js';
import type { Q, Row } from '../engine/store.js';
import { fail, ok, page } from '../http/envelope.js';
import { bodyOf, oneId, queryOf } from '../http/params.js';
import { SUPER_ROLE } from '../security/access.js';
import { entityExtras } from './entityExtras.js';
import { ADMIN_ROLE_MESSAGE, assertExisting, idList, replaceLinks } from './roleHooks.js';

/**
 * 角色管理 calls beyond the schema engine's CRUD of sys_role (RuoYi SysRoleController / SysMenuController):
 *   PUT  /dev-api/system/role/changeStatus                {roleId, status, version?}          system:role:edit
 *   PUT  /dev-api/system/role/dataScope                   {roleId, dataScope, deptIds, …}     system:role:edit
 *   GET  /dev-api/system/menu/treeselect                  the whole menu as {id, label, children}   login
 *   GET  /dev-api/system/menu/roleMenuTreeselect/{roleId} {menus, checkedKeys}                system:role:query
 *   GET  /dev-api/system/role/deptTree/{roleId}           {depts, checkedKeys}                system:role:query
 *   GET  /dev-api/system/role/authUser/allocatedList      users holding the role (rows/total) system:role:list
 *   GET  /dev-api/system/role/authUser/unallocatedList    users not holding it               system:role:list
 *   PUT  /dev-api/system/role/authUser/cancel             {userId, roleId}                   system:role:edit
 *   PUT  /dev-api/system/role/authUser/cancelAll          ?roleId=&userIds=1,2               system:role:edit
 *   PUT  /dev-api/system/role/authUser/selectAll          ?roleId=&userIds=1,2               system:role:edit
 * Every write goes to the operation log, refusals included. Registered after the engine (it needs app.schemaEngine).
 */

export const DATA_SCOPES = ['1', '2', '3', '4', '5'] as const;

/** Flat rows (id, parent, label) → RuoYi TreeSelect nodes; children only where there are some. */
export function toTree(rows: Array<{ id: number; parentId: number; label: string }>): TreeNode[] {
  const nodes = new Map<number, TreeNode>();
  for (const r of rows) nodes.set(r.id, { id: r.id, label: r.label });
  const roots: TreeNode[] = [];
  for (const r of rows) {
    const node = nodes.get(r.id) as TreeNode;
    const parent = r.parentId !== r.id ? nodes.get(r.parentId) : undefined;
    if (!parent) {
      roots.push(node);
      continue;
    }
    parent.children = parent.children ?? [];
    parent.children.push(node);
  }
  return roots;
}

/** Checked keys for a linked (父子联动) tree: the selected ids that are not the parent of another selected id. */
export function linkedCheckedKeys(rows: Array<{ id: number; parentId: number }>, selected: number[]): number[] {
  const chosen = new Set(selected);
  const parentsOfChosen = new Set(rows.filter((r) => chosen.has(r.id)).map((r) => r.parentId));
  return selected.filter((id) => !parentsOfChosen.has(id));
}

const flag = (v: unknown) => v === true || v === 1 || v === '1' || v === 'true';

export async function roleRoutes(app: FastifyInstance): Promise<void> {
  const extras = entityExtras(app, 'sys_role', 'system:role');
  if (!extras) return;
  const { env, base, perms, entry } = extras;
  const { k } = env;
  const like = (column: RawBuilder<unknown>, value: string) => {
    const pattern = `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return env.dialect === 'postgres' ? sql`${column} ilike ${pattern} escape '\\'` : sql`${column} like ${pattern} escape '\\'`;
  };

  /** A role that exists (not deleted), else 角色不存在. */
  async function roleRow(q: Q, roleId: number): Promise<Row> {
    const res = await sql<Row>`select role_id, role_name, role_key, version, menu_check_strictly, dept_check_strictly from sys_role
      where role_id = ${roleId} and del_flag = '0'`.execute(q);
    const row = res.rows[0];
    if (!row) throw fail('角色不存在或已被删除');
    return row;
  }
  const editable = async (q: Q, roleId: number) => {
    const row = await roleRow(q, roleId);
    if (row.role_key === SUPER_ROLE) throw fail(ADMIN_ROLE_MESSAGE);
    return row;
  };
  const touch = (request: FastifyRequest) => sql`version = version + 1, update_time = ${Date.now()}, update_by = ${request.auth?.userName ?? ''}`;

  /** Refuses a change that would leave no active user holding the super admin role. */
  async function keepOneAdmin(q: Q, role: Row): Promise<void> {
    if (role.role_key !== SUPER_ROLE) return;
    const res = await sql<{ n: number | string }>`select count(*) as n from sys_user_role ur inner join sys_user u on u.user_id = ur.user_id
      where ur.role_id = ${Number(role.role_id)} and u.del_flag = '0' and u.status = '0'`.execute(q);
    if (Number(res.rows[0]?.n ?? 0) === 0) throw fail('至少保留一个拥有超级管理员角色的正常用户');
  }

  // ---- status and data scope ----

  app.put(`${base}/changeStatus`, { config: { permission: perms.edit, write: true } }, (request) => {
    const body = bodyOf(request);
    return logged(env, request, entry('changeStatus', BusinessType.UPDATE, body), async () => {
      const roleId = oneId(body.roleId, '角色编号');
      const status = body.status;
      if (status === undefined || status === null || status === '') throw fail('状态不能为空', 400);
      if (status !== '0' && status !== '1') throw fail('状态取值不在允许范围内（0 正常，1 停用）', 400);
      const version = body.version === undefined || body.version === null ? undefined : oneId(body.version, '版本号');
      await k.transaction().execute(async (trx) => {
        const role = await editable(trx, roleId);
        if (version !== undefined && Number(role.version) !== version) throw fail('数据已被他人修改，请刷新后重试');
        await sql`update sys_role set status = ${status}, ${touch(request)} where role_id = ${roleId}`.execute(trx);
      });
      return ok(undefined, '修改成功');
    });
  });

  app.put(`${base}/dataScope`, { config: { permission: perms.edit, write: true } }, (request) => {
    const body = bodyOf(request);
    return logged(env, request, entry('dataScope', BusinessType.UPDATE, body), async () => {
      const roleId = oneId(body.roleId, '角色编号');
      const scope = body.dataScope === undefined || body.dataScope === null ? '' : String(body.dataScope);
      if (!scope) throw fail('数据范围不能为空', 400);
      if (!(DATA_SCOPES as readonly string[]).includes(scope)) throw fail('数据范围取值不在允许范围内（1 到 5）', 400);
      const deptIds = scope === '2' ? idList(body.deptIds ?? [], '数据权限部门') : [];
      if (scope === '2' && deptIds.length === 0) throw fail('自定数据权限请至少选择一个部门');
      const strict = body.deptCheckStrictly === undefined || body.deptCheckStrictly === null ? null : flag(body.deptCheckStrictly) ? 1 : 0;
      await k.transaction().execute(async (trx) => {
        await editable(trx, roleId);
        await assertExisting(trx, 'sys_dept', 'dept_id', deptIds, '部门');
        const strictSet = strict === null ? sql`` : sql`, dept_check_strictly = ${strict}`;
        await sql`update sys_role set data_scope = ${scope}${strictSet}, ${touch(request)} where role_id = ${roleId}`.execute(trx);
        await replaceLinks(trx, 'sys_role_dept', 'dept_id', roleId, deptIds);
      });
      return ok(undefined, '修改成功');
    });
  });

  // ---- trees ----

  const menuRows = async () =>
    (
      await sql<{ menu_id: number; parent_id: number; menu_name: string }>`select menu_id, parent_id, menu_name from sys_menu
        order by parent_id, order_num, menu_id`.execute(k)
    ).rows.map((r) => ({ id: Number(r.menu_id), parentId: Number(r.parent_id), label: r.menu_name }));
  const deptRows = async () =>
    (
      await sql<{ dept_id: number; parent_id: number; dept_name: string }>`select dept_id, parent_id, dept_name from sys_dept
        where del_flag = '0' order by parent_id, order_num, dept_id`.execute(k)
    ).rows.map((r) => ({ id: Number(r.dept_id), parentId: Number(r.parent_id), label: r.dept_name }));

  app.get('/dev-api/system/menu/treeselect', { config: { permission: 'login', write: false } }, async () => ok(toTree(await menuRows())));

  app.get<{ Params: { roleId: string } }>(
    '/dev-api/system/menu/roleMenuTreeselect/:roleId',
    { config: { permission: perms.query, write: false } },
    async (request) => {
      const role = await roleRow(k, oneId(request.params.roleId, '角色编号'));
      const rows = await menuRows();
      const selected = (await sql<{ menu_id: number }>`select menu_id from sys_role_menu where role_id = ${Number(role.role_id)}`.execute(k)).rows.map((r) =>
        Number(r.menu_id),
      );
      const linked = role.menu_check_strictly === null || role.menu_check_strictly === undefined || flag(role.menu_check_strictly);
      return { ...ok(), menus: toTree(rows), checkedKeys: linked ? linkedCheckedKeys(rows, selected) : selected };
    },
  );

  app.get<{ Params: { roleId: string } }>(`${base}/deptTree/:roleId`, { config: { permission: perms.query, write: false } }, async (request) => {
    const role = await roleRow(k, oneId(request.params.roleId, '角色编号'));
    const rows = await deptRows();
    const selected = (await sql<{ dept_id: number }>`select dept_id from sys_role_dept where role_id = ${Number(role.role_id)}`.execute(k)).rows.map((r) =>
      Number(r.dept_id),
    );
    const linked = role.dept_check_strictly === null || role.dept_check_strictly === undefined || flag(role.dept_check_strictly);
    return { ...ok(), depts: toTree(rows), checkedKeys: linked ? linkedCheckedKeys(rows, selected) : selected };
  });

  // ---- users of a role ----

  async function userPage(request: FastifyRequest, allocated: boolean) {
    const params = flattenParams(request.query);
    const roleId = oneId(params.roleId, '角色编号');
    const { pageNum, pageSize } = paging(params);
    await roleRow(k, roleId);
    const holds = sql`exists (select 1 from sys_user_role ur where ur.user_id = u.user_id and ur.role_id = ${roleId})`;
    const conditions: RawBuilder<unknown>[] = [sql`u.del_flag = '0'`, allocated ? holds : sql`not ${holds}`];
    const userName = typeof params.userName === 'string' ? params.userName.trim() : '';
    const mobile = String(params.mobile ?? params.phonenumber ?? '').trim();
    if (userName) conditions.push(like(sql.ref('u.user_name'), userName));
    if (mobile) conditions.push(like(sql.ref('u.mobile'), mobile));
    const where = sql.join(conditions, sql` and `);
    const total = Number((await sql<{ n: number | string }>`select count(*) as n from sys_user u where ${where}`.execute(k)).rows[0]?.n ?? 0);
    const rows = await sql<Row>`select u.user_id, u.dept_id, u.user_name, u.nick_name, u.email, u.mobile, u.status, u.create_time, d.dept_name
      from sys_user u left join sys_dept d on d.dept_id = u.dept_id where ${where}
      order by u.user_id limit ${pageSize} offset ${(pageNum - 1) * pageSize}`.execute(k);
    return page(
      rows.rows.map((r) => ({
        userId: Number(r.user_id),
        deptId: r.dept_id === null ? null : Number(r.dept_id),
        deptName: r.dept_name ?? null,
        userName: r.user_name,
        nickName: r.nick_name,
        email: r.email ?? null,
        mobile: r.mobile ?? null,
        status: r.status,
        createTime: Number(r.create_time),
      })),
      total,
    );
  }

  app.get(`${base}/authUser/allocatedList`, { config: { permission: perms.list, write: false } }, (request) => userPage(request, true));
  app.get(`${base}/authUser/unallocatedList`, { config: { permission: perms.list, write: false } }, (request) => userPage(request, false));

  app.put(`${base}/authUser/cancel`, { config: { permission: perms.edit, write: true } }, (request) => {
    const body = bodyOf(request);
    return logged(env, request, entry('authUser.cancel', BusinessType.GRANT, body), async () => {
      const roleId = oneId(body.roleId, '角色编号');
      const userId = oneId(body.userId, '用户编号');
      await k.transaction().execute(async (trx) => {
        const role = await roleRow(trx, roleId);
        const res = await sql`delete from sys_user_role where role_id = ${roleId} and user_id = ${userId}`.execute(trx);
        if (!Number(res.numAffectedRows ?? 0)) throw fail('该用户未分配此角色');
        await keepOneAdmin(trx, role);
      });
      return ok(undefined, '取消授权成功');
    });
  });

  /** roleId and userIds from the query (RuoYi) or the body. */
  const batchOf = (request: FastifyRequest) => {
    const q = { ...queryOf(request), ...bodyOf(request) };
    return { roleId: oneId(q.roleId, '角色编号'), userIds: idList(q.userIds ?? '', '用户编号'), param: q };
  };

  app.put(`${base}/authUser/cancelAll`, { config: { permission: perms.edit, write: true } }, (request) =>
    logged(env, request, entry('authUser.cancelAll', BusinessType.GRANT, { ...queryOf(request), ...bodyOf(request) }), async () => {
      const { roleId, userIds } = batchOf(request);
      if (!userIds.length) throw fail('请选择要取消授权的用户', 400);
      await k.transaction().execute(async (trx) => {
        const role = await roleRow(trx, roleId);
        await sql`delete from sys_user_role where role_id = ${roleId} and user_id in (${sql.join(userIds)})`.execute(trx);
        await keepOneAdmin(trx, role);
      });
      return ok(undefined, '取消授权成功');
    }),
  );

  app.put(`${base}/authUser/selectAll`, { config: { permission: perms.edit, write: true } }, (request) =>
    logged(env, request, entry('authUser.selectAll', BusinessType.GRANT, { ...queryOf(request), ...bodyOf(request) }), async () => {
      const { roleId, userIds } = batchOf(request);
      if (!userIds.length) throw fail('请选择要分配的用户', 400);
      await k.transaction().execute(async (trx) => {
        await roleRow(trx, roleId);
        await assertExisting(trx, 'sys_user', 'user_id', userIds, '用户');
        const held = new Set(
          (
            await sql<{ user_id: number }>`select user_id from sys_user_role where role_id = ${roleId} and user_id in (${sql.join(userIds)})`.execute(trx)
          ).rows.map((r) => Number(r.user_id)),
        );
        const fresh = userIds.filter((id) => !held.has(id));
        if (fresh.length) await sql`insert into sys_user_role (user_id, role_id) values ${sql.join(fresh.map((id) => sql`(${id}, ${roleId})`))}`.execute(trx);
      });
      return ok(undefined, '授权成功');
    }),
  );
}
