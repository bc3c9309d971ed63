import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startServer, type TestServer } from './harness.js';

const SAVE_PASS = '/dev-api/api/account/savePass';
const LOGIN = '/dev-api/api/login/login';
const REVOKED = { code: 401, msg: '登录状态已失效（已退出或被强制下线），请重新登录' };

describe.each(backends)('account: change password (%s)', (backend) => {
  let s: TestServer;

  const canSignIn = async (username: string, pw: string) => (await s.call('POST', LOGIN, { body: { username, password: pw } })).body.code === 200;
  const whoAmI = (token: string) => s.call('POST', '/appv2/api/apply/userInfo', { token });

  // One server for the file (starting one per test cost a minute per backend). Each test that changes a password
  // changes only its own user's: store2leader (then restarts the server), store2expert, operator, leader, sms_user;
  // the refusal cases and the over-long fields use expert and assert that nothing changed, so the order of the tests
  // does not matter.
  beforeAll(async () => {
    s = await startServer(backend);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('changes the password with 修改成功, revokes the other sessions and keeps this one', async () => {
    const token = await s.login('store2leader', 'store2leader123');
    const other = await s.login('store2leader', 'store2leader123');
    const admin = await s.login('admin', 'admin123');
    const res = await s.call('POST', SAVE_PASS, { token, body: { mobile: '13800000021', oldpass: 'store2leader123', qrPass: 'newpass99', pass: 'newpass99' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ code: 200, msg: '修改成功' });

    expect((await whoAmI(token)).body.code).toBe(200);
    expect((await whoAmI(other)).body).toEqual(REVOKED);
    // Another user's session is untouched.
    expect((await whoAmI(admin)).body.code).toBe(200);

    const oldPw = await s.call('POST', LOGIN, { body: { username: 'store2leader', password: 'store2leader123' } });
    expect(oldPw.body.code).toBe(500);
    expect(oldPw.body.msg).toMatch(/^账号或密码错误/);
    expect(await canSignIn('store2leader', 'newpass99')).toBe(true);

    // Persisted: after a restart on the same database the new password works, the old one doesn't,
    // the revoked session stays revoked and the current one stays valid.
    await s.restart();
    expect(await canSignIn('store2leader', 'newpass99')).toBe(true);
    expect(await canSignIn('store2leader', 'store2leader123')).toBe(false);
    expect((await whoAmI(other)).body).toEqual(REVOKED);
    expect((await whoAmI(token)).body.code).toBe(200);
  });

  it('stores a salted hash, never the password', async () => {
    const token = await s.login('store2expert', 'store2expert123');
    const res = await s.call('POST', SAVE_PASS, { token, body: { oldpass: 'store2expert123', qrPass: 'Another77', pass: 'Another77' } });
    expect(res.body).toEqual({ code: 200, msg: '修改成功' });
    const row = await s.app.db.kysely.selectFrom('sysUser').select('password').where('userName', '=', 'store2expert').executeTakeFirstOrThrow();
    expect(row.password).toMatch(/^scrypt\$/);
    expect(row.password).not.toContain('Another77');
  });

  interface SavePassBody {
    mobile?: string;
    oldpass?: string;
    qrPass?: string;
    pass?: string;
  }
  it.each<[SavePassBody, string]>([
    [{ oldpass: 'expert123', qrPass: '', pass: '' }, '新密码不能为空'],
    [{ oldpass: 'expert123', qrPass: 'abc' }, '新密码不能为空'],
    [{ oldpass: 'expert123', qrPass: '12345', pass: '12345' }, '长度在 6 到 20 个字符'],
    [{ oldpass: 'expert123', qrPass: 'a'.repeat(21), pass: 'a'.repeat(21) }, '长度在 6 到 20 个字符'],
    [{ oldpass: 'expert123', pass: 'newpass99' }, '确认密码不能为空'],
    [{ oldpass: 'expert123', qrPass: '', pass: 'newpass99' }, '确认密码不能为空'],
    [{ oldpass: 'expert123', qrPass: 'newpass98', pass: 'newpass99' }, '两次输入的密码不一致'],
    [{ oldpass: 'wrong-old', qrPass: 'newpass99', pass: 'newpass99' }, '旧密码错误'],
    [{ qrPass: 'newpass99', pass: 'newpass99' }, '请输入旧密码'],
    [{ oldpass: 'expert123', qrPass: 'expert123', pass: 'expert123' }, '新密码不能与旧密码相同'],
    [{ mobile: '13800000000', oldpass: 'expert123', qrPass: 'newpass99', pass: 'newpass99' }, '手机号与当前账号不一致'],
  ])('refuses %j with its message and changes nothing', async (body, msg) => {
    const token = await s.login('expert', 'expert123');
    const other = await s.login('expert', 'expert123');
    const res = await s.call('POST', SAVE_PASS, { token, body });
    expect(res.body).toEqual({ code: 500, msg });
    expect(await canSignIn('expert', 'expert123')).toBe(true);
    if (body.pass) expect(await canSignIn('expert', body.pass)).toBe(body.pass === 'expert123');
    expect((await whoAmI(other)).body.code).toBe(200);
  });

  it('accepts exactly 6 and exactly 20 characters', async () => {
    let token = await s.login('operator', 'operator123');
    const six = 'abc123';
    expect((await s.call('POST', SAVE_PASS, { token, body: { oldpass: 'operator123', qrPass: six, pass: six } })).body).toEqual({
      code: 200,
      msg: '修改成功',
    });
    expect(await canSignIn('operator', six)).toBe(true);
    token = await s.login('operator', six);
    const twenty = `${'x'.repeat(18)}20`;
    expect((await s.call('POST', SAVE_PASS, { token, body: { oldpass: six, qrPass: twenty, pass: twenty } })).body).toEqual({ code: 200, msg: '修改成功' });
    expect(await canSignIn('operator', twenty)).toBe(true);
    expect(await canSignIn('operator', six)).toBe(false);
  });

  it('refuses over-long fields before hashing and needs a signed-in user', async () => {
    const token = await s.login('expert', 'expert123');
    const long = 'p'.repeat(65);
    expect((await s.call('POST', SAVE_PASS, { token, body: { oldpass: 'expert123', qrPass: 'newpass99', pass: long } })).body).toEqual({
      code: 400,
      msg: '新密码长度不能超过 64 个字符',
    });
    const anonymous = await s.call('POST', SAVE_PASS, { body: { oldpass: 'expert123', qrPass: 'newpass99', pass: 'newpass99' } });
    expect(anonymous.body).toEqual({ code: 401, msg: '未登录或登录已过期，请先登录' });
    expect(await canSignIn('expert', 'expert123')).toBe(true);
  });

  it('does not need the old password from a user who never set one (spec §5: not needed for new users)', async () => {
    const register = await s.call('POST', '/dev-api/register', {
      body: { username: 'sms_user', password: 'initial1', confirmPassword: 'initial1', mobile: '13911112222' },
    });
    expect(register.body.code).toBe(200);
    // As if signed up by SMS: no password stored.
    await s.app.db.kysely.updateTable('sysUser').set({ password: null }).where('userName', '=', 'sms_user').execute();
    await s.call('POST', '/dev-api/api/index/sendCodev3', { body: { mobile: '13911112222' } });
    const signIn = await s.call<{ token: string }>('POST', LOGIN, { body: { mobile: '13911112222', code: s.smsCodes('13911112222')[0], loginType: 'sms' } });
    const token = signIn.body.data?.token as string;
    expect(signIn.body.code).toBe(200);
    expect(await canSignIn('sms_user', 'initial1')).toBe(false);
    const res = await s.call('POST', SAVE_PASS, { token, body: { mobile: '13911112222', qrPass: 'firstpw1', pass: 'firstpw1' } });
    expect(res.body).toEqual({ code: 200, msg: '修改成功' });
    expect(await canSignIn('sms_user', 'firstpw1')).toBe(true);
  });

  it('bumps the account version, so an open profile form with the old version is refused afterwards', async () => {
    const token = await s.login('leader', 'leader123');
    const before = await s.call<{ version: number }>('GET', '/dev-api/system/user/profile', { token });
    const version = before.body.data?.version as number;
    await s.call('POST', SAVE_PASS, { token, body: { oldpass: 'leader123', qrPass: 'leader456', pass: 'leader456' } });
    const after = await s.call<{ version: number }>('GET', '/dev-api/system/user/profile', { token });
    expect(after.body.data?.version).toBe(version + 1);
    const stale = await s.call('PUT', '/dev-api/system/user/profile', { token, body: { nickName: '新名字', version } });
    expect(stale.body).toEqual({ code: 500, msg: '资料已在别处被修改，请刷新后再保存（未保存本次修改）' });
  });
});
