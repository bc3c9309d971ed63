import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readXlsx, userWithPermissions } from './engine/engineClient.js';
import { backends, startServer, type TestServer } from './harness.js';

/**
 * 用户管理 (schemas/system/sys_user.json + server/system/userHooks.ts + server/system/userRoutes.ts): what an administrator
 * sees through the API — new users sign in with the password they were given, passwords never come back, 重置密码,
 * 停用, 分配角色, the super admin and oneself protected, and 403 for users without the permission.
 */

const BASE = '/dev-api/system/user';
const LOGIN = '/dev-api/api/login/login';
const SUPER = { code: 500, msg: '不允许操作超级管理员用户' };
const REVOKED = { code: 401, msg: '登录状态已失效（已退出或被强制下线），请重新登录' };
const forbidden = (permission: string) => ({ code: 403, msg: `没有权限，请联系管理员授权（需要 ${permission}）` });

describe.each(backends)('用户管理 (%s)', (backend) => {
  let s: TestServer;
  let admin: string;
  let seq = 0;

  beforeAll(async () => {
    s = await startServer(backend);
    admin = await s.login('admin', 'admin123');
  });
  afterAll(async () => {
    await s?.close();
  });

  const signIn = (username: string, password: string) => s.call<{ token: string }>('POST', LOGIN, { body: { username, password } });
  const whoAmI = (token: string) => s.call('POST', '/appv2/api/apply/userInfo', { token });
  const get = async (id: number) => (await s.call<Record<string, unknown>>('GET', `${BASE}/${id}`, { token: admin })).body;
  /** Creates a user through the API; returns its id and name. */
  async function newUser(extra: Record<string, unknown> = {}): Promise<{ id: number; name: string }> {
    const name = `user_${backend}_${++seq}`;
    const res = await s.call<{ userId: number }>('POST', BASE, {
      token: admin,
      body: { userName: name, nickName: `昵称${seq}`, password: 'start123', storeId: 1, ...extra },
    });
    expect(res.body.code, res.body.msg).toBe(200);
    return { id: Number(res.body.data?.userId), name };
  }
  const oplog = (method: string) => s.app.db.kysely.selectFrom('sysOperLog').selectAll().where('method', '=', method).execute();

  it('新增：带角色与岗位创建，新用户可用该密码登录并拥有角色的权限；密码以 scrypt 保存', async () => {
    const res = await s.call<{ userId: number }>('POST', BASE, {
      token: admin,
      body: { userName: 'zhang_san', nickName: '张三', password: 'hello123', deptId: 101, mobile: '13912345678', roleIds: [3], postIds: [2], storeId: 1 },
    });
    expect(res.body).toMatchObject({ code: 200, msg: '新增成功' });
    const id = Number(res.body.data?.userId);
    const stored = await s.app.db.kysely.selectFrom('sysUser').select('password').where('userId', '=', id).executeTakeFirstOrThrow();
    expect(stored.password).toMatch(/^scrypt\$/);
    expect(stored.password).not.toContain('hello123');

    const token = await s.login('zhang_san', 'hello123');
    const rules = await s.call('POST', '/dev-api/api/auth/getRuleList', { token });
    expect(rules.body.roles).toEqual(['expert']);
    expect(rules.body.permissions).toContain('volunteer:filling:list');
    // Sign-in by the mobile number works too.
    expect((await signIn('13912345678', 'hello123')).body.code).toBe(200);

    const info = await get(id);
    expect(info.data).toMatchObject({ userName: 'zhang_san', nickName: '张三', deptId: 101, deptName: '专家部', roleIds: [3], postIds: [2], status: '0' });
    expect(info.data).not.toHaveProperty('password');
  });

  it('新增：不填密码时使用参数 sys.user.initPassword 的初始密码', async () => {
    const cfg = await s.call<Array<{ configId: number; configKey: string; version: number }>>('GET', '/dev-api/system/config/list', {
      token: admin,
      query: { configKey: 'sys.user.initPassword' },
    });
    const row = (cfg.body.rows as Array<Record<string, unknown>>)[0];
    const upd = await s.call('PUT', '/dev-api/system/config', { token: admin, body: { ...row, configValue: 'init9999' } });
    expect(upd.body.code, upd.body.msg).toBe(200);
    const res = await s.call('POST', BASE, { token: admin, body: { userName: 'no_pass', nickName: '无密码' } });
    expect(res.body.code).toBe(200);
    expect((await signIn('no_pass', 'init9999')).body.code).toBe(200);
  });

  it('新增：中文提示拒绝错误输入，且不写入', async () => {
    const count = async () => (await s.call('GET', `${BASE}/list`, { token: admin, query: { pageSize: 500 } })).body.total;
    const before = await count();
    const cases: Array<[Record<string, unknown>, { code: number; msg: string }]> = [
      [
        { nickName: '甲', password: 'abc12345' },
        { code: 400, msg: '用户名称不能为空' },
      ],
      [
        { userName: '中文名', nickName: '甲' },
        { code: 400, msg: '用户名称格式不正确' },
      ],
      [
        { userName: 'short_pw', nickName: '甲', password: 'abc' },
        { code: 400, msg: '用户密码长度不能少于 5 个字符' },
      ],
      [
        { userName: 'bad_pw', nickName: '甲', password: 'ab<c>12' },
        { code: 400, msg: '用户密码不能包含非法字符：< > " \' \\ |' },
      ],
      [
        { userName: 'admin', nickName: '甲' },
        { code: 500, msg: "新增'admin'失败，用户名称已存在" },
      ],
      [
        { userName: 'dup_mobile', nickName: '甲', mobile: '13800000001' },
        { code: 500, msg: "新增用户'dup_mobile'失败，手机号码已存在" },
      ],
      [
        { userName: 'bad_mobile', nickName: '甲', mobile: '12345' },
        { code: 400, msg: '手机号码格式不正确' },
      ],
      [
        { userName: 'bad_role', nickName: '甲', roleIds: [999] },
        { code: 500, msg: "角色'999'不存在" },
      ],
      [
        { userName: 'bad_role2', nickName: '甲', roleIds: ['x'] },
        { code: 400, msg: '角色格式不正确' },
      ],
      [
        { userName: 'bad_post', nickName: '甲', postIds: [999] },
        { code: 500, msg: "岗位'999'不存在" },
      ],
      [
        { userName: 'bad_dept', nickName: '甲', deptId: 999 },
        { code: 500, msg: "部门'999'不存在" },
      ],
    ];
    for (const [body, expected] of cases) expect((await s.call('POST', BASE, { token: admin, body })).body, JSON.stringify(body)).toEqual(expected);
    expect(await count()).toBe(before);
    // A deleted user's name stays taken (the column is unique in the database).
    const gone = await newUser();
    expect((await s.call('DELETE', `${BASE}/${gone.id}`, { token: admin })).body.code).toBe(200);
    expect((await s.call('POST', BASE, { token: admin, body: { userName: gone.name, nickName: '重名' } })).body).toEqual({
      code: 500,
      msg: `新增'${gone.name}'失败，用户名称已存在`,
    });
  });

  it('密码从不返回：列表、详情、导出、分配角色的用户信息都没有密码；操作日志里被遮盖', async () => {
    const list = await s.call('GET', `${BASE}/list`, { token: admin, query: { pageSize: 500 } });
    expect(list.body.code).toBe(200);
    for (const r of list.body.rows as Array<Record<string, unknown>>) expect(r).not.toHaveProperty('password');
    expect(list.raw).not.toContain('scrypt$');
    expect((await s.call('GET', `${BASE}/1`, { token: admin })).raw).not.toContain('scrypt$');
    expect((await s.call('GET', `${BASE}/authRole/2`, { token: admin })).raw).not.toContain('scrypt$');
    const exported = await s.call('POST', `${BASE}/export`, { token: admin, body: '', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(exported.status).toBe(200);
    const table = await readXlsx(exported.rawBuffer);
    expect(table[0]).toEqual(['用户编号', '用户名称', '用户昵称', '部门', '所属门店', '手机号码', '状态', '创建时间']);
    expect(JSON.stringify(table)).not.toContain('scrypt');
    const log = await oplog('sys_user.add');
    expect(log.length).toBeGreaterThan(0);
    for (const r of log) {
      expect(r.operParam ?? '').not.toContain('hello123');
      expect(r.operParam ?? '').not.toContain('start123');
    }
  });

  it('修改：忽略密码字段；角色与岗位随 roleIds / postIds 同步，不带时保持不变', async () => {
    const u = await newUser({ roleIds: [3, 4], postIds: [1] });
    const current = (await get(u.id)).data as Record<string, unknown>;
    expect(current).toMatchObject({ roleIds: [3, 4], postIds: [1] });
    const res = await s.call('PUT', BASE, { token: admin, body: { ...current, nickName: '改名', password: 'changed99', roleIds: [4], postIds: [] } });
    expect(res.body).toMatchObject({ code: 200, msg: '修改成功' });
    expect((await signIn(u.name, 'changed99')).body.code).toBe(500);
    expect((await signIn(u.name, 'start123')).body.code).toBe(200);
    const after = (await get(u.id)).data as Record<string, unknown>;
    expect(after).toMatchObject({ nickName: '改名', roleIds: [4], postIds: [] });
    const res2 = await s.call('PUT', BASE, { token: admin, body: { ...after, nickName: '再改' } });
    expect(res2.body.code).toBe(200);
    expect((await get(u.id)).data).toMatchObject({ nickName: '再改', roleIds: [4], postIds: [] });
  });

  it('重置密码：§5 规则（6 到 20 个字符），成功后旧密码失效、该用户被强制下线，记入操作日志', async () => {
    const u = await newUser();
    const token = await s.login(u.name, 'start123');
    const reset = (body: Record<string, unknown>, tok = admin) => s.call('PUT', `${BASE}/resetPwd`, { token: tok, body });
    expect((await reset({ userId: u.id })).body).toEqual({ code: 400, msg: '新密码不能为空' });
    expect((await reset({ userId: u.id, password: '12345' })).body).toEqual({ code: 400, msg: '长度在 6 到 20 个字符' });
    expect((await reset({ userId: u.id, password: 'x'.repeat(21) })).body).toEqual({ code: 400, msg: '长度在 6 到 20 个字符' });
    expect((await reset({ userId: u.id, password: 'abc|123' })).body).toEqual({ code: 400, msg: '用户密码不能包含非法字符：< > " \' \\ |' });
    expect((await reset({ userId: 'x', password: 'abcdef' })).body).toEqual({ code: 400, msg: '用户编号格式不正确' });
    expect((await reset({ userId: 999999, password: 'abcdef' })).body).toEqual({ code: 500, msg: '用户不存在或已被删除' });
    expect((await whoAmI(token)).body.code).toBe(200); // refusals changed nothing
    expect((await reset({ userId: u.id, password: 'newpass1' })).body).toEqual({ code: 200, msg: '修改成功' });
    expect((await whoAmI(token)).body).toEqual(REVOKED);
    expect((await signIn(u.name, 'start123')).body.code).toBe(500);
    expect((await signIn(u.name, 'newpass1')).body.code).toBe(200);
    const log = await oplog('sys_user.resetPwd');
    expect(log.map((r) => r.status).sort()).toEqual([0, 1, 1, 1, 1, 1, 1]);
    for (const r of log) expect(r.operParam ?? '').not.toContain('newpass1');
  });

  it('状态修改：停用的用户被强制下线且不能登录，启用后可以', async () => {
    const u = await newUser();
    const token = await s.login(u.name, 'start123');
    const change = (body: Record<string, unknown>) => s.call('PUT', `${BASE}/changeStatus`, { token: admin, body });
    expect((await change({ userId: u.id, status: '9' })).body).toEqual({ code: 400, msg: '状态取值不在允许范围内（0 正常，1 停用）' });
    expect((await change({ userId: u.id })).body).toEqual({ code: 400, msg: '状态不能为空' });
    expect((await change({ userId: u.id, status: '1' })).body).toEqual({ code: 200, msg: '停用成功' });
    expect((await whoAmI(token)).body).toEqual(REVOKED);
    expect((await signIn(u.name, 'start123')).body).toEqual({ code: 500, msg: '账号已停用，请联系管理员' });
    expect((await get(u.id)).data).toMatchObject({ status: '1' });
    expect((await change({ userId: u.id, status: '0' })).body).toEqual({ code: 200, msg: '启用成功' });
    expect((await signIn(u.name, 'start123')).body.code).toBe(200);
    // Disabling through the edit form signs out too.
    const t2 = await s.login(u.name, 'start123');
    const current = (await get(u.id)).data as Record<string, unknown>;
    expect((await s.call('PUT', BASE, { token: admin, body: { ...current, status: '1' } })).body.code).toBe(200);
    expect((await whoAmI(t2)).body).toEqual(REVOKED);
    expect((await oplog('sys_user.changeStatus')).length).toBe(4);
  });

  it('分配角色：列出全部角色并标记已分配的，保存后新角色生效；不存在的角色被拒绝', async () => {
    const u = await newUser({ roleIds: [3] });
    const res = await s.call('GET', `${BASE}/authRole/${u.id}`, { token: admin });
    expect(res.body.code).toBe(200);
    const user = res.body.user as Record<string, unknown>;
    expect(user).toMatchObject({ userId: u.id, userName: u.name });
    const roles = (res.body.data as { roles: Array<{ roleId: number; roleKey: string; flag: boolean }> }).roles;
    expect(res.body.roles).toEqual(roles); // also at the top level, as RuoYi answers
    expect(roles.map((r) => r.roleKey)).toEqual(expect.arrayContaining(['leader', 'expert', 'operator', 'common']));
    expect(roles.map((r) => r.roleKey)).not.toContain('admin');
    expect(roles.filter((r) => r.flag).map((r) => r.roleId)).toEqual([3]);

    const save = (query: Record<string, string | number>, token = admin) => s.call('PUT', `${BASE}/authRole`, { token, query });
    expect((await save({ userId: u.id, roleIds: '3,999' })).body).toEqual({ code: 500, msg: "角色'999'不存在" });
    expect((await save({ userId: u.id, roleIds: '3,abc' })).body).toEqual({ code: 400, msg: '角色格式不正确' });
    expect((await save({ userId: u.id, roleIds: '2,4' })).body).toEqual({ code: 200, msg: '授权成功' });
    const again = await s.call('GET', `${BASE}/authRole/${u.id}`, { token: admin });
    expect((again.body.data as { roles: Array<{ roleId: number; flag: boolean }> }).roles.filter((r) => r.flag).map((r) => r.roleId)).toEqual([2, 4]);
    const token = await s.login(u.name, 'start123');
    expect((await s.call('POST', '/dev-api/api/auth/getRuleList', { token })).body.roles).toEqual(['leader', 'operator']);
    // A JSON body works too; no roles at all is allowed.
    expect((await s.call('PUT', `${BASE}/authRole`, { token: admin, body: { userId: u.id, roleIds: '' } })).body.code).toBe(200);
    expect((await get(u.id)).data).toMatchObject({ roleIds: [] });
    expect((await oplog('sys_user.authRole')).some((r) => r.businessType === 4 && r.status === 0)).toBe(true);
  });

  it('只有超级管理员可以分配超级管理员角色', async () => {
    const u = await newUser();
    const editor = await userWithPermissions(s, ['system:user:edit', 'system:user:add']);
    expect((await s.call('PUT', `${BASE}/authRole`, { token: editor, query: { userId: u.id, roleIds: '1' } })).body).toEqual({
      code: 500,
      msg: '只有超级管理员可以分配超级管理员角色',
    });
    expect((await s.call('POST', BASE, { token: editor, body: { userName: 'sneaky', nickName: '甲', roleIds: [1] } })).body).toEqual({
      code: 500,
      msg: '只有超级管理员可以分配超级管理员角色',
    });
  });

  it('超级管理员与当前用户受保护：不允许操作超级管理员用户 / 当前用户不能删除', async () => {
    const current = (await get(1)).data as Record<string, unknown>;
    expect((await s.call('PUT', BASE, { token: admin, body: { ...current, nickName: '改' } })).body).toEqual(SUPER);
    expect((await s.call('DELETE', `${BASE}/1`, { token: admin })).body).toEqual(SUPER);
    expect((await s.call('PUT', `${BASE}/resetPwd`, { token: admin, body: { userId: 1, password: 'hacked12' } })).body).toEqual(SUPER);
    expect((await s.call('PUT', `${BASE}/changeStatus`, { token: admin, body: { userId: 1, status: '1' } })).body).toEqual(SUPER);
    expect((await s.call('PUT', `${BASE}/authRole`, { token: admin, query: { userId: 1, roleIds: '2' } })).body).toEqual(SUPER);
    expect(await s.login('admin', 'admin123')).toBeTruthy();
    expect((await get(1)).data).toMatchObject({ nickName: current.nickName, status: '0', roleIds: [1] });

    // A second holder of the admin role is protected as well.
    const boss = await newUser();
    expect((await s.call('PUT', `${BASE}/authRole`, { token: admin, query: { userId: boss.id, roleIds: '1' } })).body.code).toBe(200);
    expect((await s.call('DELETE', `${BASE}/${boss.id}`, { token: admin })).body).toEqual(SUPER);

    // Nobody deletes themselves; a batch with oneself deletes nothing.
    const remover = await userWithPermissions(s, ['system:user:remove', 'system:user:list']);
    const me = await s.app.db.kysely.selectFrom('sysUser').select('userId').orderBy('userId', 'desc').limit(1).executeTakeFirstOrThrow();
    const other = await newUser();
    expect((await s.call('DELETE', `${BASE}/${other.id},${me.userId}`, { token: remover })).body).toEqual({ code: 500, msg: '当前用户不能删除' });
    expect((await get(other.id)).code).toBe(200);
    expect((await s.call('DELETE', `${BASE}/${other.id}`, { token: remover })).body).toMatchObject({ code: 200, msg: '删除成功' });
    expect((await get(other.id)).code).toBe(404);
  });

  it('删除：逻辑删除，删除的用户被强制下线、不能再登录，角色关联被清除', async () => {
    const u = await newUser({ roleIds: [3], postIds: [2] });
    const token = await s.login(u.name, 'start123');
    expect((await s.call('DELETE', `${BASE}/${u.id}`, { token: admin })).body).toMatchObject({ code: 200 });
    expect((await whoAmI(token)).body).toEqual(REVOKED);
    expect((await signIn(u.name, 'start123')).body.code).toBe(500);
    const row = await s.app.db.kysely.selectFrom('sysUser').select('delFlag').where('userId', '=', u.id).executeTakeFirstOrThrow();
    expect(row.delFlag).toBe('2');
    expect(await s.app.db.kysely.selectFrom('sysUserRole').selectAll().where('userId', '=', u.id).execute()).toEqual([]);
  });

  it('表单选项、部门树与列表筛选', async () => {
    const opts = await s.call('GET', `${BASE}/`, { token: admin });
    expect(opts.body.code).toBe(200);
    expect((opts.body.data as { roles: Array<{ roleKey: string }> }).roles.map((r) => r.roleKey)).not.toContain('admin');
    expect((opts.body.data as { posts: Array<{ postName: string }> }).posts.map((p) => p.postName)).toEqual(['负责人', '志愿专家', '运营专员']);
    const tree = await s.call('GET', `${BASE}/deptTree`, { token: admin });
    expect(tree.body.data).toEqual([
      {
        id: 100,
        label: '志愿填报咨询中心',
        children: [
          { id: 101, label: '专家部' },
          { id: 102, label: '运营部' },
        ],
      },
    ]);
    const byDept = await s.call('GET', `${BASE}/list`, { token: admin, query: { deptId: 102, pageSize: 500 } });
    expect((byDept.body.rows as Array<{ userName: string; deptName: string }>).map((r) => [r.userName, r.deptName])).toEqual([['operator', '运营部']]);
    // A department lists its own users and those of every department below it (RuoYi).
    const names = async (deptId: number) => {
      const res = await s.call('GET', `${BASE}/list`, { token: admin, query: { deptId, pageSize: 500, userName: 'e' } });
      return (res.body.rows as Array<{ userName: string }>).map((r) => r.userName).sort();
    };
    const root = await names(100);
    expect(root).toEqual(expect.arrayContaining(['expert', 'leader', 'operator']));
    const experts = await names(101);
    expect(experts).toContain('expert');
    expect(experts).not.toContain('leader');
    expect(await names(102)).toEqual(['operator']);
    expect(root).toEqual(expect.arrayContaining([...experts, 'operator']));
  });

  it('权限：没有权限的用户对每个额外接口都得到 403，数据不变', async () => {
    const nobody = await userWithPermissions(s, ['system:user:list']);
    const u = await newUser();
    const calls: Array<[string, string, Record<string, unknown> | undefined, string]> = [
      ['GET', `${BASE}/`, undefined, 'system:user:query'],
      ['PUT', `${BASE}/resetPwd`, { userId: u.id, password: 'abcdef1' }, 'system:user:resetPwd'],
      ['PUT', `${BASE}/changeStatus`, { userId: u.id, status: '1' }, 'system:user:edit'],
      ['GET', `${BASE}/authRole/${u.id}`, undefined, 'system:user:query'],
      ['PUT', `${BASE}/authRole`, { userId: u.id, roleIds: '2' }, 'system:user:edit'],
      ['POST', BASE, { userName: 'x_forbidden', nickName: '甲' }, 'system:user:add'],
    ];
    for (const [method, url, body, perm] of calls)
      expect((await s.call(method, url, { token: nobody, body })).body, `${method} ${url}`).toEqual(forbidden(perm));
    const operator = await s.login('operator', 'operator123');
    expect((await s.call('GET', `${BASE}/deptTree`, { token: operator })).body).toEqual(forbidden('system:user:list'));
    expect((await s.call('GET', `${BASE}/deptTree`, { token: nobody })).body.code).toBe(200);
    expect((await signIn(u.name, 'start123')).body.code).toBe(200);
    expect((await get(u.id)).data).toMatchObject({ status: '0' });
  });
});
