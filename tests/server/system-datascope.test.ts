import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/security/password.js';
import { newUserRow } from '../../server/system/newUserRow.js';
import { backends, startServer, type TestServer } from './harness.js';

/**
 * 数据权限 (角色管理 → 数据权限) applied to 用户管理: the list, export, single read, the department tree and every write
 * follow the data scope of the caller's roles. Seeded departments: 100 志愿填报咨询中心 ⊃ 101 专家部, 102 运营部;
 * seeded users: admin, leader (100), expert (101), operator (102).
 */
const BASE = '/dev-api/system/user';
const PERMS = [
  'system:user:list',
  'system:user:query',
  'system:user:edit',
  'system:user:remove',
  'system:user:export',
  'system:user:resetPwd',
  'system:dept:list',
  'system:dept:query',
  'system:dept:add',
  'system:dept:edit',
  'system:dept:remove',
];

describe.each(backends)('数据权限 on 用户管理 (%s)', (backend) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(backend);
  });
  afterAll(async () => {
    await s?.close();
  });

  /** A signed-in user in `deptId` whose one role has the user permissions and `dataScope` (custom departments for 2). */
  async function scopedUser(dataScope: string, deptId: number, customDepts: number[] = []): Promise<{ token: string; userName: string; userId: number }> {
    const db = s.app.db.kysely;
    const tag = crypto.randomBytes(4).toString('hex');
    const role = await db
      .insertInto('sysRole')
      .values({
        roleName: `范围${tag}`,
        roleKey: `scope_${tag}`,
        roleSort: 50,
        dataScope,
        status: '0',
        delFlag: '0',
        createTime: Date.now(),
        remark: null,
        version: 1,
      })
      .returning('roleId')
      .executeTakeFirstOrThrow();
    for (const m of await db.selectFrom('sysMenu').select('menuId').where('perms', 'in', PERMS).execute()) {
      await db.insertInto('sysRoleMenu').values({ roleId: role.roleId, menuId: m.menuId }).execute();
    }
    for (const d of customDepts) await sql`insert into sys_role_dept (role_id, dept_id) values (${role.roleId}, ${d})`.execute(db);
    const userName = `scope_${tag}`;
    const user = await db
      .insertInto('sysUser')
      .values(newUserRow({ deptId, userName, nickName: userName, password: await hashPassword('secret123'), createTime: Date.now() }))
      .returning('userId')
      .executeTakeFirstOrThrow();
    await db.insertInto('sysUserRole').values({ userId: user.userId, roleId: role.roleId }).execute();
    return { token: await s.login(userName, 'secret123'), userName, userId: user.userId };
  }

  const listed = async (token: string, query: Record<string, string | number> = {}) => {
    const res = await s.call('GET', `${BASE}/list`, { token, query: { pageSize: 500, ...query } });
    expect(res.body.code, res.body.msg).toBe(200);
    return (res.body.rows as Array<{ userName: string; deptId: number | null }>).map((r) => r.userName);
  };
  const idOf = async (userName: string) =>
    (await s.app.db.kysely.selectFrom('sysUser').select('userId').where('userName', '=', userName).executeTakeFirstOrThrow()).userId;

  it('本部门: only the own department in list, tree and reads; users elsewhere cannot be read or changed', async () => {
    const me = await scopedUser('3', 101);
    const names = await listed(me.token);
    expect(names).toContain('expert');
    expect(names).toContain(me.userName);
    expect(names).not.toContain('operator');
    expect(names).not.toContain('leader');
    expect(names).not.toContain('admin');

    const tree = await s.call('GET', `${BASE}/deptTree`, { token: me.token });
    expect(tree.body.data).toEqual([{ id: 101, label: '专家部' }]);

    const operator = await idOf('operator');
    const before = await s.app.db.kysely.selectFrom('sysUser').selectAll().where('userId', '=', operator).executeTakeFirstOrThrow();
    expect((await s.call('GET', `${BASE}/${operator}`, { token: me.token })).body).toMatchObject({ code: 500, msg: '没有权限访问用户数据！' });
    expect((await s.call('PUT', `${BASE}/changeStatus`, { token: me.token, body: { userId: operator, status: '1' } })).body.msg).toBe('没有权限访问用户数据！');
    expect((await s.call('PUT', `${BASE}/resetPwd`, { token: me.token, body: { userId: operator, password: 'newpass123' } })).body.msg).toBe(
      '没有权限访问用户数据！',
    );
    expect((await s.call('GET', `${BASE}/authRole/${operator}`, { token: me.token })).body.msg).toBe('没有权限访问用户数据！');
    expect((await s.call('DELETE', `${BASE}/${operator}`, { token: me.token })).body.msg).toBe('没有权限访问用户数据！');
    const admin = await s.login('admin', 'admin123');
    const full = (await s.call<Record<string, unknown>>('GET', `${BASE}/${operator}`, { token: admin })).body.data as Record<string, unknown>;
    const edit = await s.call('PUT', BASE, { token: me.token, body: { ...full, nickName: '改名' } });
    expect(edit.body.msg).toBe('没有权限访问用户数据！');
    expect(await s.app.db.kysely.selectFrom('sysUser').selectAll().where('userId', '=', operator).executeTakeFirstOrThrow()).toEqual(before);

    // Moving a user of the own department into another department is refused too.
    const expert = await idOf('expert');
    const info = await s.call<Record<string, unknown>>('GET', `${BASE}/${expert}`, { token: me.token });
    expect(info.body.code).toBe(200);
    const move = await s.call('PUT', BASE, { token: me.token, body: { ...(info.body.data as Record<string, unknown>), deptId: 102 } });
    expect(move.body.msg).toBe('没有权限访问部门数据！');
  });

  it('部门管理 follows the scope too: list, read, change, add under and delete', async () => {
    const DEPT = '/dev-api/system/dept';
    const me = await scopedUser('3', 101);
    const depts = await s.call('GET', `${DEPT}/list`, { token: me.token });
    expect((depts.body.rows as Array<{ deptId: number }>).map((d) => d.deptId)).toEqual([101]);
    const admin = await s.login('admin', 'admin123');
    const ops = (await s.call<Record<string, unknown>>('GET', `${DEPT}/102`, { token: admin })).body.data as Record<string, unknown>;
    expect((await s.call('GET', `${DEPT}/102`, { token: me.token })).body.msg).toBe('没有权限访问部门数据！');
    expect((await s.call('PUT', DEPT, { token: me.token, body: { ...ops, deptName: '改名部' } })).body.msg).toBe('没有权限访问部门数据！');
    expect((await s.call('POST', DEPT, { token: me.token, body: { parentId: 102, deptName: '越权部', orderNum: 1 } })).body.msg).toBe('没有权限访问部门数据！');
    expect((await s.call('DELETE', `${DEPT}/102`, { token: me.token })).body.msg).toBe('没有权限访问部门数据！');
    expect((await s.call('GET', `${DEPT}/102`, { token: admin })).body.data).toEqual(ops);
    // Inside the scope the same calls work: a child under the own department, changed, then deleted.
    const added = await s.call<{ deptId: number }>('POST', DEPT, { token: me.token, body: { parentId: 101, deptName: '专家一组', orderNum: 1 } });
    expect(added.body.code, added.body.msg).toBe(200);
    const own = (await s.call<Record<string, unknown>>('GET', `${DEPT}/101`, { token: me.token })).body.data as Record<string, unknown>;
    expect((await s.call('PUT', DEPT, { token: me.token, body: { ...own, phone: '400-000-0001' } })).body.code).toBe(200);
    // 本部门 only: the new child department is outside (it is not the user's own department).
    expect((await s.call('DELETE', `${DEPT}/${added.body.data?.deptId}`, { token: me.token })).body.msg).toBe('没有权限访问部门数据！');
    const below = await scopedUser('4', 101);
    expect((await s.call('DELETE', `${DEPT}/${added.body.data?.deptId}`, { token: below.token })).body.code).toBe(200);
  });

  it('本部门及以下, 自定 and 仅本人', async () => {
    const below = await scopedUser('4', 100);
    expect(await listed(below.token)).toEqual(expect.arrayContaining(['leader', 'expert', 'operator', below.userName]));
    expect((await s.call('GET', `${BASE}/deptTree`, { token: below.token })).body.data).toMatchObject([{ id: 100, children: [{ id: 101 }, { id: 102 }] }]);

    const custom = await scopedUser('2', 101, [102]);
    const customNames = await listed(custom.token);
    expect(customNames).toContain('operator');
    expect(customNames).not.toContain('expert');

    const self = await scopedUser('5', 101);
    expect(await listed(self.token)).toEqual([self.userName]);
  });

  it('the export holds only the rows of the scope; 全部 and admin see everyone', async () => {
    const me = await scopedUser('3', 102);
    const res = await s.call('POST', `${BASE}/export`, { token: me.token, body: {} });
    expect(res.status).toBe(200);
    const ExcelJS = (await import('exceljs')).default;
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawBuffer as unknown as ArrayBuffer);
    const names: string[] = [];
    wb.worksheets[0].eachRow((row, i) => {
      if (i > 1) names.push(String(row.getCell(2).value));
    });
    expect(names.sort()).toEqual((await listed(me.token)).sort());
    expect(names).toContain('operator');
    expect(names).not.toContain('expert');

    const all = await scopedUser('1', 102);
    expect(await listed(all.token)).toEqual(expect.arrayContaining(['admin', 'leader', 'expert', 'operator']));
    const admin = await s.login('admin', 'admin123');
    expect(await listed(admin)).toEqual(expect.arrayContaining(['admin', 'leader', 'expert', 'operator', me.userName]));
  });
});
