import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startServer, type TestServer } from '../harness.js';

/**
 * Sessions and permission sets are cached for a few seconds on the request path (server/security/writeWatch.ts);
 * a revocation must still take effect on the very next request: sign-out, role removal, password reset.
 */
const USERS = '/dev-api/system/user';
const CONFIGS = '/dev-api/system/config/list';

describe.each(backends)('鉴权缓存：撤销立即生效 (%s)', (backend) => {
  let s: TestServer;
  let admin: string;
  beforeAll(async () => {
    s = await startServer(backend);
    admin = await s.login('admin', 'admin123');
  });
  afterAll(async () => s?.close());

  async function newOperator(name: string): Promise<number> {
    const res = await s.call<{ userId: number }>('POST', USERS, {
      token: admin,
      body: { userName: name, nickName: name, password: 'hello123', deptId: 101, roleIds: [4] },
    });
    expect(res.body.code, res.body.msg).toBe(200);
    return Number(res.body.data?.userId);
  }

  it('退出登录后，同一令牌的下一次请求即被拒绝', async () => {
    const token = await s.login('admin', 'admin123');
    for (let i = 0; i < 2; i++) expect((await s.call('GET', CONFIGS, { token })).body.code).toBe(200);
    expect((await s.call('POST', '/dev-api/api/login/logout', { token })).body.code).toBe(200);
    expect((await s.call('GET', CONFIGS, { token })).body).toMatchObject({ code: 401 });
  });

  it('取消用户的角色后，其已登录会话的下一次请求即无权限', async () => {
    const id = await newOperator('cache_role');
    const token = await s.login('cache_role', 'hello123');
    for (let i = 0; i < 2; i++) expect((await s.call('GET', CONFIGS, { token })).body.code).toBe(200);
    const save = await s.call('PUT', `${USERS}/authRole`, { token: admin, query: { userId: id, roleIds: '' } });
    expect(save.body.code, save.body.msg).toBe(200);
    expect((await s.call('GET', CONFIGS, { token })).body).toEqual({ code: 403, msg: '没有权限，请联系管理员授权（需要 system:config:list）' });
  });

  it('重置密码后，该用户原有会话的下一次请求即被拒绝', async () => {
    const id = await newOperator('cache_pwd');
    const token = await s.login('cache_pwd', 'hello123');
    for (let i = 0; i < 2; i++) expect((await s.call('GET', CONFIGS, { token })).body.code).toBe(200);
    const reset = await s.call('PUT', `${USERS}/resetPwd`, { token: admin, body: { userId: id, password: 'newpass1' } });
    expect(reset.body.code, reset.body.msg).toBe(200);
    expect((await s.call('GET', CONFIGS, { token })).body).toMatchObject({ code: 401 });
  });
});
