import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrgNode, OrgStaff, OrgTree } from '../../../common/system/organization.js';
import { hashPassword } from '../../../server/security/password.js';
import { newUserRow } from '../../../server/system/newUserRow.js';
import { backends, startServer, type TestServer } from '../harness.js';

/**
 * 组织机构 (server/system/organization.ts): 总部 and each store with the departments their staff are in, staff counts
 * in the node and below, role mix, store scope; a node's staff; the permission and the caller's store scope.
 * Demo data: 总部 has admin, leader (志愿填报咨询中心), expert (专家部), operator (运营部); 济南门店 has store2leader
 * (志愿填报咨询中心) and store2expert (专家部); 青岛门店 has nobody.
 */

const TREE = '/dev-api/system/organization/tree';
const STAFF = '/dev-api/system/organization/staff';

const find = (nodes: OrgNode[] | undefined, key: string): OrgNode | undefined => {
  for (const n of nodes ?? []) {
    if (n.key === key) return n;
    const inner = find(n.children, key);
    if (inner) return inner;
  }
  return undefined;
};
const mix = (n: OrgNode | undefined) => Object.fromEntries((n?.roles ?? []).map((r) => [r.roleName, r.count]));

describe.each(backends)('组织机构 (%s)', (backend) => {
  let s: TestServer;
  let admin: string;

  async function newUser(userName: string, storeId: number | null, deptId: number | null, roleId?: number): Promise<number> {
    const db = s.app.db.kysely;
    const row = await db
      .insertInto('sysUser')
      .values(newUserRow({ deptId, storeId, userName, nickName: userName, password: await hashPassword('secret123'), createTime: Date.now() }))
      .returning('userId')
      .executeTakeFirstOrThrow();
    if (roleId) await db.insertInto('sysUserRole').values({ userId: row.userId, roleId }).execute();
    return row.userId;
  }
  const tree = async (token = admin) => (await s.call<OrgTree>('GET', TREE, { token })).body;

  beforeAll(async () => {
    s = await startServer(backend);
    admin = await s.login('admin', 'admin123');
  });
  afterAll(async () => {
    await s?.close();
  });

  it('shows 总部 and each store with their departments, staff counted in the node and below, role mix and store scope', async () => {
    const body = await tree();
    expect(body.code).toBe(200);
    const nodes = body.data?.nodes ?? [];
    expect(nodes.map((n) => [n.name, n.kind, n.staff])).toEqual([
      ['总部', 'hq', 4],
      ['济南门店', 'store', 2],
      ['青岛门店', 'store', 0],
    ]);
    expect(body.data?.total).toBe(6);
    const hq = nodes[0];
    expect(hq.scope).toBe('总部员工可查看所有门店的数据');
    // 总部 shows the whole department tree; the root counts itself and below.
    expect(find(nodes, 'dept:1:100')).toMatchObject({ name: '志愿填报咨询中心', staff: 4 });
    expect(find(nodes, 'dept:1:100')?.children?.map((c) => [c.name, c.staff])).toEqual([
      ['专家部', 1],
      ['运营部', 1],
    ]);
    expect(mix(hq)).toEqual({ 超级管理员: 1, 机构负责人: 1, 志愿专家: 1, 运营人员: 1 });
    // A store shows only the departments its staff are in.
    const jinan = nodes[1];
    expect(jinan.scope).toBe('本门店员工只能查看本门店的数据');
    expect(mix(jinan)).toEqual({ 机构负责人: 1, 志愿专家: 1 });
    expect(find([jinan], 'dept:2:100')?.children?.map((c) => [c.name, c.staff])).toEqual([['专家部', 1]]);
    expect(find([jinan], 'dept:2:100')?.roles.find((r) => r.roleName === '志愿专家')).toMatchObject({ count: 1, dataScope: '1' });
    expect(nodes[2].children).toBeUndefined();
  });

  it('counts a new account where it belongs, and accounts without a store under 未分配门店', async () => {
    await newUser('qdexpert', 3, 101, 3);
    await newUser('nostore', null, null);
    const nodes = (await tree()).data?.nodes ?? [];
    expect(find(nodes, 'store:3')).toMatchObject({ staff: 1 });
    expect(find(nodes, 'dept:3:101')).toMatchObject({ name: '专家部', staff: 1 });
    const none = find(nodes, 'store:none');
    expect(none).toMatchObject({ name: '未分配门店', kind: 'unassigned', staff: 1 });
    expect(none?.scope).toContain('看不到任何门店的数据');
    expect(none?.children?.map((c) => [c.name, c.staff])).toEqual([['未分配部门', 1]]);
  });

  it("lists a node's staff: a store, a department of it (and below), accounts without a store", async () => {
    const staff = async (query: Record<string, string | number>) => (await s.call<never>('GET', STAFF, { token: admin, query })).body;
    const jinan = await staff({ storeId: 2, pageNum: 1, pageSize: 10 });
    expect(jinan.total).toBe(2);
    expect((jinan.rows as OrgStaff[]).map((r) => [r.userName, r.storeName, r.deptName, r.roleNames])).toEqual([
      ['store2leader', '济南门店', '志愿填报咨询中心', ['机构负责人']],
      ['store2expert', '济南门店', '专家部', ['志愿专家']],
    ]);
    const experts = await staff({ storeId: 2, deptId: 101 });
    expect((experts.rows as OrgStaff[]).map((r) => r.userName)).toEqual(['store2expert']);
    // A department includes the ones below it.
    expect((await staff({ storeId: 1, deptId: 100 })).total).toBe(4);
    expect(((await staff({ storeId: 'none' })).rows as OrgStaff[]).map((r) => r.userName)).toEqual(['nostore']);
    expect(await staff({ storeId: 'x' })).toEqual({ code: 400, msg: '门店编号格式不正确' });
  });

  it('needs system:organization:list; a store with it sees its own store only', async () => {
    const operator = await s.login('operator', 'operator123');
    for (const url of [TREE, STAFF]) {
      expect((await s.call('GET', url, { token: operator })).body).toEqual({
        code: 403,
        msg: '没有权限，请联系管理员授权（需要 system:organization:list）',
      });
    }
    // A role holding the page, given to 济南门店's leader.
    const menus = await s.app.db.kysely
      .selectFrom('sysMenu')
      .select('menuId')
      .where((eb) => eb.or([eb('perms', '=', 'system:organization:list'), eb.and([eb('menuName', '=', '系统管理'), eb('menuType', '=', 'M')])]))
      .execute();
    const created = await s.call<{ roleId: number }>('POST', '/dev-api/system/role', {
      token: admin,
      body: { roleName: '组织查看', roleKey: 'org_viewer', roleSort: 9, status: '0', menuIds: menus.map((m) => m.menuId) },
    });
    expect(created.body.code).toBe(200);
    await s.app.db.kysely
      .insertInto('sysUserRole')
      .values({ userId: 5, roleId: Number(created.body.data?.roleId) })
      .execute();
    const leader = await s.login('store2leader', 'store2leader123');
    const nodes = (await tree(leader)).data?.nodes ?? [];
    expect(nodes.map((n) => [n.name, n.staff])).toEqual([['济南门店', 2]]);
    const other = await s.call<never>('GET', STAFF, { token: leader, query: { storeId: 1 } });
    expect(other.body.total).toBe(0);
  });

  it('counts only the accounts inside the caller’s data scope (本部门: 专家部 alone)', async () => {
    const menus = await s.app.db.kysely.selectFrom('sysMenu').select('menuId').where('perms', '=', 'system:organization:list').execute();
    const created = await s.call<{ roleId: number }>('POST', '/dev-api/system/role', {
      token: admin,
      body: { roleName: '专家部查看', roleKey: 'org_dept_viewer', roleSort: 10, status: '0', menuIds: menus.map((m) => m.menuId) },
    });
    const roleId = Number(created.body.data?.roleId);
    expect((await s.call('PUT', '/dev-api/system/role/dataScope', { token: admin, body: { roleId, dataScope: '3' } })).body.code).toBe(200);
    await newUser('hqviewer', 1, 101, roleId);
    const viewer = await s.login('hqviewer', 'secret123');
    const nodes = (await tree(viewer)).data?.nodes ?? [];
    // Headquarters staff see every store, but only the accounts of their own department: 专家部.
    expect(nodes.map((n) => [n.name, n.staff])).toEqual([
      ['总部', 2],
      ['济南门店', 1],
      ['青岛门店', 1],
    ]);
    expect(find(nodes, 'dept:1:102')).toMatchObject({ staff: 0 });
    const staff = await s.call<never>('GET', STAFF, { token: viewer, query: { storeId: 1 } });
    expect((staff.body.rows as OrgStaff[]).map((r) => r.userName)).toEqual(['expert', 'hqviewer']);
  });
});
