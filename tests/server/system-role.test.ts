import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/security/password.js';
import { newUserRow } from '../../server/system/newUserRow.js';
import { backends, type RouteNode, startServer, type TestServer, walkRoutes } from './harness.js';

/**
 * 角色管理: sys_role through the schema engine plus the role hooks (menuIds, super admin, assigned roles) and the
 * extra RuoYi calls (changeStatus, dataScope, menu / dept trees, 分配用户).
 */

const ROLE = '/dev-api/system/role';
const RULES = '/dev-api/api/auth/getRuleList';
const forbidden = (permission: string) => ({ code: 403, msg: `没有权限，请联系管理员授权（需要 ${permission}）` });

interface TreeNode {
  id: number;
  label: string;
  children?: TreeNode[];
}

describe.each(backends)('角色管理 (%s)', (backend) => {
  let s: TestServer;
  let admin: string;
  let operator: string;
  let seq = 0;

  /** A new user without roles; answers its id and a signed-in token. */
  async function newUser(prefix: string, mobile: string | null = null): Promise<{ userId: number; userName: string; token: () => Promise<string> }> {
    const db = s.app.db.kysely;
    const userName = `${prefix}${++seq}`;
    const row = await db
      .insertInto('sysUser')
      .values(newUserRow({ deptId: 101, userName, nickName: `用户${seq}`, mobile, password: await hashPassword('secret123'), createTime: Date.now() }))
      .returning('userId')
      .executeTakeFirstOrThrow();
    return { userId: row.userId, userName, token: () => s.login(userName, 'secret123') };
  }

  const menuIdsOf = async (perms: string[]) =>
    (await s.app.db.kysely.selectFrom('sysMenu').select(['menuId', 'perms']).where('perms', 'in', perms).execute()).map((m) => m.menuId);
  const menuIdByName = async (name: string) =>
    (await s.app.db.kysely.selectFrom('sysMenu').select('menuId').where('menuName', '=', name).where('menuType', '=', 'M').executeTakeFirstOrThrow()).menuId;

  async function createRole(body: Record<string, unknown>): Promise<number> {
    const res = await s.call<{ roleId: number }>('POST', ROLE, { token: admin, body });
    expect(res.body.code, res.body.msg).toBe(200);
    return Number(res.body.data?.roleId);
  }
  const getRole = async (id: number) => (await s.call<Record<string, unknown>>('GET', `${ROLE}/${id}`, { token: admin })).body;
  const selectAll = (roleId: number, userIds: number[], token = admin) =>
    s.call('PUT', `${ROLE}/authUser/selectAll`, { token, query: { roleId, userIds: userIds.join(',') } });
  const lastLog = async (method: string) =>
    s.app.db.kysely.selectFrom('sysOperLog').selectAll().where('method', '=', method).orderBy('operId', 'desc').executeTakeFirst();

  beforeAll(async () => {
    s = await startServer(backend);
    admin = await s.login('admin', 'admin123');
    operator = await s.login('operator', 'operator123');
  });
  afterAll(async () => {
    await s?.close();
  });

  it('a role created with menuIds gives its users exactly those permissions and menus; a change applies at the next getRuleList', async () => {
    const system = await menuIdByName('系统管理');
    const configMenus = await menuIdsOf(['system:config:list', 'system:config:query']);
    const roleId = await createRole({ roleName: '参数管理员', roleKey: 'config_admin', roleSort: 6, status: '0', menuIds: [system, ...configMenus] });
    const info = await getRole(roleId);
    expect(info.data).toMatchObject({ roleName: '参数管理员', roleKey: 'config_admin', dataScope: '1', status: '0', version: 1 });
    expect((info.data as { menuIds: number[] }).menuIds).toEqual([system, ...configMenus].sort((a, b) => a - b));

    const user = await newUser('cfg');
    expect((await selectAll(roleId, [user.userId])).body).toEqual({ code: 200, msg: '授权成功' });
    const token = await user.token();
    const rules = await s.call<RouteNode[]>('POST', RULES, { token });
    expect(rules.body.permissions?.sort()).toEqual(['system:config:list', 'system:config:query']);
    expect(rules.body.roles).toEqual(['config_admin']);
    const titles: string[] = [];
    walkRoutes(rules.body.data as RouteNode[], (n) => titles.push(n.meta?.title ?? ''));
    expect(titles).toEqual(['系统管理', '参数设置']);
    expect((await s.call('GET', '/dev-api/system/config/list', { token })).body.code).toBe(200);
    expect((await s.call('GET', '/dev-api/system/post/list', { token })).body).toEqual(forbidden('system:post:list'));

    // The tree of the role: linked (父子联动) → only the keys that are not parents of other chosen keys.
    const tree = await s.call('GET', `/dev-api/system/menu/roleMenuTreeselect/${roleId}`, { token: admin });
    expect(tree.body.code).toBe(200);
    const listId = (await menuIdsOf(['system:config:list']))[0];
    const queryId = (await menuIdsOf(['system:config:query']))[0];
    expect(tree.body.checkedKeys).toEqual([queryId]);
    expect(JSON.stringify(tree.body.menus)).toContain('"label":"参数设置"');

    // Edit: replace the menus (notices instead of configs) with the record's version; the user sees it at once.
    const noticeMenus = await menuIdsOf(['system:notice:list']);
    const upd = await s.call('PUT', ROLE, {
      token: admin,
      body: { ...(info.data as object), menuIds: [system, ...noticeMenus], menuCheckStrictly: false },
    });
    expect(upd.body).toMatchObject({ code: 200, msg: '修改成功', data: { roleId, version: 2 } });
    const after = await s.call('POST', RULES, { token });
    expect(after.body.permissions).toEqual(['system:notice:list']);
    expect((await s.call('GET', '/dev-api/system/config/list', { token })).body).toEqual(forbidden('system:config:list'));
    // Not linked any more: every stored key is checked.
    const strict = await s.call('GET', `/dev-api/system/menu/roleMenuTreeselect/${roleId}`, { token: admin });
    expect((strict.body.checkedKeys as number[]).sort((a, b) => a - b)).toEqual([system, ...noticeMenus].sort((a, b) => a - b));
    expect(listId).not.toBe(queryId);

    // A stale version is refused and the menus stay as they were.
    const stale = await s.call('PUT', ROLE, { token: admin, body: { ...(info.data as object), menuIds: [] } });
    expect(stale.body).toEqual({ code: 500, msg: '数据已被他人修改，请刷新后重试' });
    expect((await s.call('POST', RULES, { token })).body.permissions).toEqual(['system:notice:list']);
  });

  it('refuses menuIds that are malformed or unknown, and writes nothing', async () => {
    const before = await s.call('GET', `${ROLE}/list`, { token: admin, query: { roleKey: 'bad_menus' } });
    expect(before.body.total).toBe(0);
    const unknown = await s.call('POST', ROLE, { token: admin, body: { roleName: '坏菜单', roleKey: 'bad_menus', roleSort: 1, menuIds: [999999] } });
    expect(unknown.body).toEqual({ code: 500, msg: "菜单'999999'不存在" });
    const malformed = await s.call('POST', ROLE, { token: admin, body: { roleName: '坏菜单', roleKey: 'bad_menus', roleSort: 1, menuIds: ['x'] } });
    expect(malformed.body).toEqual({ code: 400, msg: '菜单权限格式不正确' });
    expect((await s.call('GET', `${ROLE}/list`, { token: admin, query: { roleKey: 'bad_menus' } })).body.total).toBe(0);
    const log = await lastLog('sys_role.add');
    expect(log).toMatchObject({ status: 1, errorMsg: '菜单权限格式不正确' });
  });

  it('the super admin role can be neither changed nor deleted', async () => {
    const adminRole = (await getRole(1)).data as Record<string, unknown>;
    expect(adminRole.roleKey).toBe('admin');
    const refused = { code: 500, msg: '不允许操作超级管理员角色' };
    expect((await s.call('PUT', ROLE, { token: admin, body: { ...adminRole, roleName: '改名' } })).body).toEqual(refused);
    expect((await s.call('DELETE', `${ROLE}/1`, { token: admin })).body).toEqual(refused);
    expect((await s.call('PUT', `${ROLE}/changeStatus`, { token: admin, body: { roleId: 1, status: '1' } })).body).toEqual(refused);
    expect((await s.call('PUT', `${ROLE}/dataScope`, { token: admin, body: { roleId: 1, dataScope: '5' } })).body).toEqual(refused);
    expect((await getRole(1)).data).toMatchObject({ roleName: '超级管理员', status: '0', dataScope: '1', version: adminRole.version });
    // Its users cannot all be taken away.
    expect((await s.call('PUT', `${ROLE}/authUser/cancel`, { token: admin, body: { roleId: 1, userId: 1 } })).body).toEqual({
      code: 500,
      msg: '至少保留一个拥有超级管理员角色的正常用户',
    });
    expect((await s.call('POST', RULES, { token: admin })).body.permissions).toEqual(['*:*:*']);
  });

  it('a role still assigned to users cannot be deleted; once free it is deleted with its links and its key may be used again', async () => {
    const roleId = await createRole({ roleName: '临时角色', roleKey: 'temp_role', roleSort: 7, menuIds: await menuIdsOf(['system:post:list']) });
    const user = await newUser('tmp');
    await selectAll(roleId, [user.userId]);
    expect((await s.call('DELETE', `${ROLE}/${roleId}`, { token: admin })).body).toEqual({ code: 500, msg: "'临时角色'已分配,不能删除" });
    expect((await lastLog('sys_role.remove'))?.status).toBe(1);
    expect((await s.call('PUT', `${ROLE}/authUser/cancel`, { token: admin, body: { roleId, userId: user.userId } })).body).toEqual({
      code: 200,
      msg: '取消授权成功',
    });
    expect((await s.call('DELETE', `${ROLE}/${roleId}`, { token: admin })).body.code).toBe(200);
    expect((await getRole(roleId)).code).toBe(404);
    const db = s.app.db.kysely;
    expect(await db.selectFrom('sysRoleMenu').select('menuId').where('roleId', '=', roleId).execute()).toEqual([]);
    expect((await db.selectFrom('sysRole').select('delFlag').where('roleId', '=', roleId).executeTakeFirstOrThrow()).delFlag).toBe('2');
    // The key of a deleted role is free again.
    const again = await createRole({ roleName: '临时角色', roleKey: 'temp_role', roleSort: 7 });
    expect(again).not.toBe(roleId);
  });

  it('changeStatus: a disabled role grants nothing; bad values are refused', async () => {
    const roleId = await createRole({ roleName: '岗位查看', roleKey: 'post_viewer', roleSort: 8, menuIds: await menuIdsOf(['system:post:list']) });
    const user = await newUser('pv');
    await selectAll(roleId, [user.userId]);
    const token = await user.token();
    expect((await s.call('POST', RULES, { token })).body.permissions).toEqual(['system:post:list']);
    expect((await s.call('PUT', `${ROLE}/changeStatus`, { token: admin, body: { roleId, status: '1' } })).body).toEqual({ code: 200, msg: '修改成功' });
    expect((await getRole(roleId)).data).toMatchObject({ status: '1', version: 2 });
    expect((await s.call('POST', RULES, { token })).body.permissions).toEqual([]);
    expect((await s.call('GET', '/dev-api/system/post/list', { token })).body.code).toBe(403);
    expect((await s.call('PUT', `${ROLE}/changeStatus`, { token: admin, body: { roleId, status: '9' } })).body).toEqual({
      code: 400,
      msg: '状态取值不在允许范围内（0 正常，1 停用）',
    });
    expect((await s.call('PUT', `${ROLE}/changeStatus`, { token: admin, body: { roleId, status: '0', version: 1 } })).body).toEqual({
      code: 500,
      msg: '数据已被他人修改，请刷新后重试',
    });
    expect((await s.call('PUT', `${ROLE}/changeStatus`, { token: admin, body: { status: '0' } })).body).toEqual({ code: 400, msg: '角色编号不能为空' });
    expect((await s.call('PUT', `${ROLE}/changeStatus`, { token: admin, body: { roleId: 999999, status: '0' } })).body).toEqual({
      code: 500,
      msg: '角色不存在或已被删除',
    });
    expect((await s.call('PUT', `${ROLE}/changeStatus`, { token: admin, body: { roleId, status: '0', version: 2 } })).body.code).toBe(200);
    expect((await s.call('POST', RULES, { token })).body.permissions).toEqual(['system:post:list']);
    const log = await lastLog('sys_role.changeStatus');
    expect(log).toMatchObject({ status: 0, operName: 'admin', requestMethod: 'PUT' });
  });

  it('dataScope: custom departments are stored and answered by deptTree; other scopes clear them; bad input is refused', async () => {
    const roleId = await createRole({ roleName: '数据角色', roleKey: 'scope_role', roleSort: 9 });
    expect((await s.call('PUT', `${ROLE}/dataScope`, { token: admin, body: { roleId, dataScope: '2', deptIds: [101, 102] } })).body).toEqual({
      code: 200,
      msg: '修改成功',
    });
    expect((await getRole(roleId)).data).toMatchObject({ dataScope: '2', version: 2 });
    const tree = await s.call('GET', `${ROLE}/deptTree/${roleId}`, { token: admin });
    expect(tree.body.code).toBe(200);
    expect((tree.body.checkedKeys as number[]).sort()).toEqual([101, 102]);
    const depts = tree.body.depts as TreeNode[];
    expect(depts[0]).toMatchObject({ id: 100, label: '志愿填报咨询中心' });
    expect(depts[0].children?.map((c) => c.id).sort()).toEqual([101, 102]);

    expect((await s.call('PUT', `${ROLE}/dataScope`, { token: admin, body: { roleId, dataScope: '2', deptIds: [424242] } })).body).toEqual({
      code: 500,
      msg: "部门'424242'不存在",
    });
    expect((await s.call('PUT', `${ROLE}/dataScope`, { token: admin, body: { roleId, dataScope: '2', deptIds: [] } })).body).toEqual({
      code: 500,
      msg: '自定数据权限请至少选择一个部门',
    });
    expect((await s.call('PUT', `${ROLE}/dataScope`, { token: admin, body: { roleId, dataScope: '7' } })).body).toEqual({
      code: 400,
      msg: '数据范围取值不在允许范围内（1 到 5）',
    });
    // Nothing changed by the refusals.
    expect(((await s.call('GET', `${ROLE}/deptTree/${roleId}`, { token: admin })).body.checkedKeys as number[]).sort()).toEqual([101, 102]);

    expect((await s.call('PUT', `${ROLE}/dataScope`, { token: admin, body: { roleId, dataScope: '3', deptIds: [101] } })).body.code).toBe(200);
    expect((await getRole(roleId)).data).toMatchObject({ dataScope: '3' });
    expect((await s.call('GET', `${ROLE}/deptTree/${roleId}`, { token: admin })).body.checkedKeys).toEqual([]);
  });

  it('分配用户: allocated / unallocated lists with filters and paging, selectAll, cancel, cancelAll', async () => {
    const roleId = await createRole({ roleName: '分配测试', roleKey: 'auth_role', roleSort: 10 });
    const a = await newUser('alloc', '13911110001');
    const b = await newUser('alloc', '13911110002');
    const c = await newUser('other', '13911110003');
    const list = (kind: string, query: Record<string, string | number> = {}) =>
      s.call<unknown>('GET', `${ROLE}/authUser/${kind}`, { token: admin, query: { roleId, pageNum: 1, pageSize: 10, ...query } });

    expect((await list('allocatedList')).body).toMatchObject({ code: 200, rows: [], total: 0 });
    const free = await list('unallocatedList', { userName: 'alloc' });
    expect((free.body.rows as Array<{ userName: string }>).map((r) => r.userName)).toEqual([a.userName, b.userName]);

    expect((await selectAll(roleId, [a.userId, b.userId, c.userId])).body.code).toBe(200);
    expect((await selectAll(roleId, [a.userId])).body.code).toBe(200); // already held: no duplicate
    const held = await list('allocatedList');
    expect(held.body.total).toBe(3);
    expect(held.body.rows?.[0]).toMatchObject({ userId: a.userId, userName: a.userName, mobile: '13911110001', status: '0', deptName: '专家部' });
    expect((await list('allocatedList', { mobile: '0002' })).body.rows?.map((r) => (r as { userId: number }).userId)).toEqual([b.userId]);
    expect((await list('allocatedList', { pageNum: 2, pageSize: 2 })).body).toMatchObject({ total: 3, rows: [{ userId: c.userId }] });
    expect((await list('unallocatedList', { userName: 'alloc' })).body.total).toBe(0);

    expect((await s.call('PUT', `${ROLE}/authUser/cancelAll`, { token: admin, query: { roleId, userIds: `${a.userId},${b.userId}` } })).body).toEqual({
      code: 200,
      msg: '取消授权成功',
    });
    expect((await list('allocatedList')).body.rows?.map((r) => (r as { userId: number }).userId)).toEqual([c.userId]);
    expect((await s.call('PUT', `${ROLE}/authUser/cancel`, { token: admin, body: { roleId, userId: a.userId } })).body).toEqual({
      code: 500,
      msg: '该用户未分配此角色',
    });
    expect((await selectAll(roleId, [987654])).body).toEqual({ code: 500, msg: "用户'987654'不存在" });
    expect((await s.call('PUT', `${ROLE}/authUser/selectAll`, { token: admin, query: { roleId, userIds: '1,x' } })).body).toEqual({
      code: 400,
      msg: '用户编号格式不正确',
    });
    expect((await s.call('GET', `${ROLE}/authUser/allocatedList`, { token: admin })).body).toEqual({ code: 400, msg: '角色编号不能为空' });
    expect((await list('allocatedList', { pageSize: 501 })).body.code).toBe(400);
    expect((await lastLog('sys_role.authUser.selectAll'))?.status).toBe(1);
    expect((await lastLog('sys_role.authUser.cancelAll'))?.status).toBe(0);
  });

  it('GET /system/menu/treeselect answers the whole menu for any signed-in user', async () => {
    const res = await s.call<TreeNode[]>('GET', '/dev-api/system/menu/treeselect', { token: operator });
    expect(res.body.code).toBe(200);
    const labels = (res.body.data ?? []).map((n) => n.label);
    expect(labels).toContain('系统管理');
    const system = (res.body.data ?? []).find((n) => n.label === '系统管理') as TreeNode;
    const role = system.children?.find((n) => n.label === '角色管理') as TreeNode;
    expect(role.children?.map((n) => n.label)).toEqual(['查询', '新增', '修改', '删除', '导出']);
    expect((await s.call('GET', '/dev-api/system/menu/treeselect')).body.code).toBe(401);
  });

  it('refuses every role call with 403 to a user without the permission, and changes nothing', async () => {
    const roleId = await createRole({ roleName: '权限测试', roleKey: 'perm_role', roleSort: 11 });
    const calls: Array<[string, string, Record<string, unknown> | undefined, Record<string, string | number> | undefined, string]> = [
      ['GET', `${ROLE}/list`, undefined, undefined, 'system:role:list'],
      ['GET', `${ROLE}/${roleId}`, undefined, undefined, 'system:role:query'],
      ['POST', ROLE, { roleName: 'x', roleKey: 'x', roleSort: 1 }, undefined, 'system:role:add'],
      ['DELETE', `${ROLE}/${roleId}`, undefined, undefined, 'system:role:remove'],
      ['PUT', `${ROLE}/changeStatus`, { roleId, status: '1' }, undefined, 'system:role:edit'],
      ['PUT', `${ROLE}/dataScope`, { roleId, dataScope: '5' }, undefined, 'system:role:edit'],
      ['GET', `/dev-api/system/menu/roleMenuTreeselect/${roleId}`, undefined, undefined, 'system:role:query'],
      ['GET', `${ROLE}/deptTree/${roleId}`, undefined, undefined, 'system:role:query'],
      ['GET', `${ROLE}/authUser/allocatedList`, undefined, { roleId }, 'system:role:list'],
      ['GET', `${ROLE}/authUser/unallocatedList`, undefined, { roleId }, 'system:role:list'],
      ['PUT', `${ROLE}/authUser/cancel`, { roleId, userId: 1 }, undefined, 'system:role:edit'],
      ['PUT', `${ROLE}/authUser/cancelAll`, undefined, { roleId, userIds: '1' }, 'system:role:edit'],
      ['PUT', `${ROLE}/authUser/selectAll`, undefined, { roleId, userIds: '1' }, 'system:role:edit'],
    ];
    for (const [method, url, body, query, perm] of calls) {
      const res = await s.call(method, url, { token: operator, body: body ?? (method === 'PUT' || method === 'POST' ? {} : undefined), query });
      expect(res.body, `${method} ${url}`).toEqual(forbidden(perm));
    }
    expect((await getRole(roleId)).data).toMatchObject({ status: '0', dataScope: '1', version: 1 });
    expect((await s.call('GET', `${ROLE}/authUser/allocatedList`, { token: admin, query: { roleId } })).body.total).toBe(0);
  });
});
