import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserDataDetail, UserDataHit } from '../../../common/system/userData.js';
import { backends, startServer, type TestServer } from '../harness.js';

/**
 * 用户资料 (GET /dev-api/system/userData/list, /{userId}): find an account by account, name or phone and read its
 * details; the password is reset with 用户管理's resetPwd, after which the user signs in with the new one only.
 */
describe.each(backends)('用户资料 (%s)', (backend) => {
  let s: TestServer;
  let admin: string;
  beforeAll(async () => {
    s = await startServer(backend);
    admin = await s.login('admin', 'admin123');
  });
  afterAll(async () => {
    await s?.close();
  });

  const find = async (keyword: string, token = admin) => {
    const res = await s.call('GET', '/dev-api/system/userData/list', { token, query: { keyword } });
    expect(res.body.code, res.body.msg).toBe(200);
    return res.body.rows as UserDataHit[];
  };

  it('finds accounts by account, name or phone; % is matched literally', async () => {
    const k = s.app.db.kysely;
    await k.updateTable('sysUser').set({ mobile: '13912345678' }).where('userName', '=', 'expert').execute();
    expect((await find('expe')).map((u) => u.userName)).toEqual(['expert', 'store2expert']);
    expect((await find('4567')).map((u) => u.userName)).toEqual(['expert']);
    const nick = (await k.selectFrom('sysUser').select('nickName').where('userName', '=', 'operator').executeTakeFirstOrThrow()).nickName;
    expect((await find(nick)).map((u) => u.userName)).toContain('operator');
    expect(await find('%')).toEqual([]);
  });

  it('details: account, dept, roles, store, sign-in; a reset password works for signing in, the old one no more', async () => {
    const k = s.app.db.kysely;
    const expert = await k.selectFrom('sysUser').select('userId').where('userName', '=', 'expert').executeTakeFirstOrThrow();
    await s.login('expert', 'expert123');
    const res = await s.call<UserDataDetail>('GET', `/dev-api/system/userData/${expert.userId}`, { token: admin });
    expect(res.body.code, res.body.msg).toBe(200);
    const d = res.body.data as UserDataDetail;
    expect(d).toMatchObject({ userName: 'expert', deptName: '专家部', status: '0', superAdmin: false, self: false, storeName: '总部' });
    expect(d.roles.length).toBeGreaterThan(0);
    expect(d.createTime).toBeGreaterThan(0);
    expect(d.loginDate).toBeGreaterThan(0);
    expect(d.loginIp).toBeTruthy();
    const me = await s.call<UserDataDetail>('GET', '/dev-api/system/userData/1', { token: admin });
    expect(me.body.data).toMatchObject({ userName: 'admin', superAdmin: true, self: true });

    const reset = await s.call('PUT', '/dev-api/system/user/resetPwd', { token: admin, body: { userId: expert.userId, password: 'fresh-pass1' } });
    expect(reset.body.code, reset.body.msg).toBe(200);
    await s.login('expert', 'fresh-pass1');
    const old = await s.call('POST', '/dev-api/login', { body: { username: 'expert', password: 'expert123' } });
    expect(old.body.code).not.toBe(200);
  });

  it('bad id, missing user, and without the permission', async () => {
    expect((await s.call('GET', '/dev-api/system/userData/abc', { token: admin })).body.msg).toBe('用户编号格式不正确');
    expect((await s.call('GET', '/dev-api/system/userData/999999', { token: admin })).body.msg).toBe('用户不存在或已被删除');
    const operator = await s.login('operator', 'operator123');
    expect((await s.call('GET', '/dev-api/system/userData/list', { token: operator })).body.code).toBe(403);
  });
});
