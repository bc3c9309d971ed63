import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { signTimer } from '../../server/security/protocol.js';
import { backends, MINUTE, startServer, type TestServer } from './harness.js';

const LOGIN = '/dev-api/api/login/login';
const SEND_CODE = '/dev-api/api/index/sendCodev3';
const REGISTER = '/dev-api/register';
const LOGOUT = '/dev-api/api/login/logout';
const RULES = '/dev-api/api/auth/getRuleList';
const LOCKED = '密码输入错误5次，帐户锁定10分钟';
const NOT_SIGNED_IN = { code: 401, msg: '未登录或登录已过期，请先登录' };
const REVOKED = { code: 401, msg: '登录状态已失效（已退出或被强制下线），请重新登录' };
const EXPIRED = { code: 401, msg: '登录状态已过期，请重新登录' };
const SENT_MSG = '验证码已发送（演示环境未接入短信服务，验证码已写入服务器日志）';

/** Moves the clock (server and request signer alike) forward. */
function advanceClock(ms: number) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + ms);
}

describe.each(backends)('auth (%s)', (backend) => {
  let s: TestServer;
  const password = (username: string, pw: string) => s.call<{ token: string }>('POST', LOGIN, { body: { username, password: pw } });
  const sms = (mobile: string, code: string) => s.call<{ token: string }>('POST', LOGIN, { body: { mobile, code, loginType: 'sms' } });
  const sendCode = (mobile: string, type?: 'login' | 'register') =>
    s.call<{ driver: string }>('POST', SEND_CODE, { body: type ? { mobile, type } : { mobile } });
  const whoAmI = async (token: string) => (await s.call<{ userName: string }>('POST', '/appv2/api/apply/userInfo', { token })).body;
  /**
   * A registered account of the test's own (mobile 135…, used by no other test), so a test that locks an account,
   * spends codes or moves the clock on it can share the file's server without touching the seeded users.
   */
  const ownAccount = async (username: string, mobile: string) => {
    const res = await s.call('POST', REGISTER, { body: { username, password: 'own-pass1', confirmPassword: 'own-pass1', mobile } });
    expect(res.body.code).toBe(200);
    return { username, mobile, password: 'own-pass1' };
  };

  beforeAll(async () => {
    s = await startServer(backend);
  });
  afterAll(async () => {
    await s?.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  describe('password sign-in', () => {
    it('returns a token in data.token that opens signed-in calls', async () => {
      const res = await password('admin', 'admin123');
      expect(res.body.code).toBe(200);
      expect(res.body.msg).toBe('登录成功');
      const token = res.body.data?.token as string;
      expect(token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
      const rules = await s.call('POST', RULES, { token });
      expect(rules.body.code).toBe(200);
      expect(rules.body.permissions).toEqual(['*:*:*']);
      const info = await whoAmI(token);
      expect(info.code).toBe(200);
      expect((info.data as { userName: string }).userName).toBe('admin');
    });

    it('gives each sign-in its own token', async () => {
      const a = await s.login('leader', 'leader123');
      const b = await s.login('leader', 'leader123');
      expect(a).not.toBe(b);
      expect((await whoAmI(a)).code).toBe(200);
      expect((await whoAmI(b)).code).toBe(200);
    });

    it('accepts the mobile number in place of the user name', async () => {
      const res = await password('13800000002', 'expert123');
      expect(res.body.code).toBe(200);
      expect(((await whoAmI(res.body.data?.token as string)).data as { userName: string }).userName).toBe('expert');
    });

    it('refuses a wrong password, counting down to the lock, without a token', async () => {
      const res = await password('expert', 'not-the-password');
      expect(res.body).toEqual({ code: 500, msg: '账号或密码错误，再错 4 次将锁定10分钟' });
      expect(res.body.data).toBeUndefined();
      // A successful sign-in resets the count.
      expect((await password('expert', 'expert123')).body.code).toBe(200);
      expect((await password('expert', 'nope-again')).body.msg).toBe('账号或密码错误，再错 4 次将锁定10分钟');
      expect((await password('expert', 'expert123')).body.code).toBe(200);
    });

    it('refuses an unknown account exactly like a known one (same countdown and lock), so it does not reveal it', async () => {
      const res = await password('nobody', 'whatever1');
      expect(res.body).toEqual({ code: 500, msg: '账号或密码错误，再错 4 次将锁定10分钟' });
      for (let i = 0; i < 3; i++) await password('nobody', 'whatever1');
      expect((await password('nobody', 'whatever1')).body).toEqual({ code: 500, msg: LOCKED });
      expect((await password('nobody', 'whatever1')).body.msg).toMatch(/^密码输入错误5次，帐户锁定10分钟，请10分钟后再试/);
    });

    it('asks for the account and the password', async () => {
      expect((await s.call('POST', LOGIN, { body: { password: 'admin123' } })).body).toEqual({ code: 500, msg: '请输入账号' });
      expect((await s.call('POST', LOGIN, { body: { username: '   ', password: 'admin123' } })).body).toEqual({ code: 500, msg: '请输入账号' });
      expect((await s.call('POST', LOGIN, { body: { username: 'admin' } })).body).toEqual({ code: 500, msg: '请输入密码' });
      expect((await s.call('POST', LOGIN, { body: { username: 'admin', password: 'x', loginType: 'qr' } })).body).toEqual({
        code: 400,
        msg: '登录方式取值不在允许范围内',
      });
    });

    it('records sign-ins in the login log', async () => {
      await password('leader', 'wrong-pass');
      await password('leader', 'leader123');
      const rows = await s.app.db.kysely.selectFrom('sysLogininfor').selectAll().where('userName', '=', 'leader').orderBy('infoId', 'desc').limit(2).execute();
      expect(rows.map((r) => [r.status, r.msg])).toEqual([
        ['0', '登录成功'],
        ['1', '账号或密码错误，再错 4 次将锁定10分钟'],
      ]);
    });
  });

  describe('lockout after 5 wrong passwords', () => {
    it('locks the account, refuses even the right password while locked, and unlocks after 10 minutes', async () => {
      const expected = [4, 3, 2, 1].map((n) => `账号或密码错误，再错 ${n} 次将锁定10分钟`);
      for (const msg of expected) expect((await password('operator', 'wrong-pass')).body).toEqual({ code: 500, msg });
      const fifth = await password('operator', 'wrong-pass');
      expect(fifth.body.code).toBe(500);
      expect(fifth.body.msg).toBe(LOCKED);

      const right = await password('operator', 'operator123');
      expect(right.body.code).toBe(500);
      expect(right.body.msg).toContain(LOCKED);
      expect(right.body.msg).toMatch(/请10分钟后再试/);
      expect(right.body.data).toBeUndefined();
      // The mobile number leads to the same locked account.
      expect((await password('13800000003', 'operator123')).body.msg).toContain(LOCKED);
      // Other accounts are not affected.
      expect((await password('leader', 'leader123')).body.code).toBe(200);

      // Still locked after 9 minutes, open after 10.
      advanceClock(9 * MINUTE);
      const later = await password('operator', 'operator123');
      expect(later.body.msg).toContain(LOCKED);
      expect(later.body.msg).toMatch(/请1分钟后再试/);
      vi.setSystemTime(Date.now() + MINUTE + 1000);
      const open = await password('operator', 'operator123');
      expect(open.body.code).toBe(200);
      // The counter starts again from zero after the lock.
      expect((await password('operator', 'wrong-pass')).body.msg).toBe('账号或密码错误，再错 4 次将锁定10分钟');
      expect((await password('operator', 'operator123')).body.code).toBe(200);
    });

    it('checks at most 5 passwords when 60 wrong guesses arrive at once', async () => {
      const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => s.call('POST', LOGIN, { body: { username: 'expert', password: `guess-${i}` } })));
      const msgs = answers.map((a) => a.body.msg);
      // A checked password answers with the countdown or the lock itself; the rest are refused before any check.
      const checked = msgs.filter((m) => m.startsWith('账号或密码错误') || m === LOCKED);
      expect(checked.length).toBeLessThanOrEqual(5);
      expect(msgs.filter((m) => m.startsWith(`${LOCKED}，请`))).toHaveLength(60 - checked.length);
      expect(answers.every((a) => a.body.code === 500 && a.body.data === undefined)).toBe(true);
      await s.app.db.kysely.deleteFrom('sysLoginAttempt').execute();
    });

    it('locks per account and client address: an outsider cannot lock the account for others, nor out of SMS sign-in', async () => {
      const from = (ip: string, body: Record<string, string>) =>
        s.app.inject({
          method: 'POST',
          url: LOGIN,
          remoteAddress: ip,
          headers: { ...signTimer(s.app.keys.requestPublicPem), 'content-type': 'application/json' },
          payload: JSON.stringify(body),
        });
      for (let i = 0; i < 5; i++) await from('203.0.113.9', { username: 'operator', password: 'attacker-guess' });
      const attacker = JSON.parse((await from('203.0.113.9', { username: 'operator', password: 'operator123' })).body);
      expect(attacker.msg).toContain(LOCKED);
      // The owner, from their own address, signs in as usual.
      expect(JSON.parse((await from('198.51.100.7', { username: 'operator', password: 'operator123' })).body).code).toBe(200);
      // And from the attacker's address too, with an SMS code.
      await sendCode('13800000003');
      const code = s.smsCodes('13800000003').at(-1) as string;
      expect(JSON.parse((await from('203.0.113.9', { mobile: '13800000003', code, loginType: 'sms' })).body).code).toBe(200);
      await s.app.db.kysely.deleteFrom('sysLoginAttempt').execute();
    });

    it('keeps the lock across a restart', async () => {
      // Locks an account of its own, then restarts the file's server (the other tests keep nothing in its memory).
      const own = await ownAccount('lock_keeper', '13500000001');
      for (let i = 0; i < 5; i++) await password(own.username, 'bad-pass');
      await s.restart();
      const res = await password(own.username, own.password);
      expect(res.body.code).toBe(500);
      expect(res.body.msg).toContain(LOCKED);
    });
  });

  describe('SMS code', () => {
    it('sends a 6-digit code through the log driver and signs in with it', async () => {
      const warn = vi.spyOn(s.app.log, 'warn');
      try {
        const res = await sendCode('13800000001', 'login');
        expect(res.body).toEqual({ code: 200, msg: SENT_MSG, data: { driver: 'log' } });
        const codes = s.smsCodes('13800000001');
        expect(codes).toHaveLength(1);
        expect(codes[0]).toMatch(/^\d{6}$/);
        // The log driver writes the code into the server log.
        const logged = warn.mock.calls.map((c) => c.map((x) => JSON.stringify(x)).join(' ')).join('\n');
        expect(logged).toContain(codes[0]);
        expect(logged).toContain('13800000001');
      } finally {
        warn.mockRestore();
      }
      // The code is not stored in clear text.
      const row = await s.app.db.kysely.selectFrom('sysSmsCode').selectAll().where('mobile', '=', '13800000001').executeTakeFirstOrThrow();
      expect(row.codeHash).not.toContain(s.smsCodes('13800000001')[0]);

      const signIn = await sms('13800000001', s.smsCodes('13800000001')[0]);
      expect(signIn.body.code).toBe(200);
      expect(((await whoAmI(signIn.body.data?.token as string)).data as { userName: string }).userName).toBe('leader');
      // Used once only.
      expect((await sms('13800000001', s.smsCodes('13800000001')[0])).body).toEqual({ code: 500, msg: '验证码已失效，请重新获取' });
    });

    it('refuses a resend within 60 seconds and allows it after', async () => {
      const mobile = '13800000002';
      expect((await sendCode(mobile)).body.code).toBe(200);
      const again = await sendCode(mobile);
      expect(again.body.code).toBe(500);
      expect(again.body.msg).toMatch(/^验证码发送过于频繁，请 (\d+) 秒后再试$/);
      const seconds = Number(/请 (\d+) 秒/.exec(again.body.msg)?.[1]);
      expect(seconds).toBeGreaterThan(50);
      expect(seconds).toBeLessThanOrEqual(60);
      expect(s.smsCodes(mobile)).toHaveLength(1);

      advanceClock(50 * 1000);
      const stillTooSoon = await sendCode(mobile);
      expect(stillTooSoon.body.msg).toMatch(/^验证码发送过于频繁，请 1?\d 秒后再试$/);
      vi.setSystemTime(Date.now() + 11 * 1000);
      expect((await sendCode(mobile)).body.code).toBe(200);
      expect(s.smsCodes(mobile)).toHaveLength(2);
      // Only the newest code counts.
      const [older, newer] = s.smsCodes(mobile);
      if (older !== newer) expect((await sms(mobile, older)).body).toEqual({ code: 500, msg: '验证码错误' });
      expect((await sms(mobile, newer)).body.code).toBe(200);
    });

    it('refuses a wrong code, and after 5 wrong tries even the right one', async () => {
      const { mobile } = await ownAccount('wrong_codes', '13500000002');
      await sendCode(mobile);
      const code = s.smsCodes(mobile)[0];
      const wrong = code === '000000' ? '111111' : '000000';
      for (let i = 0; i < 5; i++) {
        const res = await sms(mobile, wrong);
        // The fifth wrong try spends the code (issue 22: counted before it is checked).
        expect(res.body).toEqual({ code: 500, msg: i < 4 ? '验证码错误' : '验证码错误次数过多，请重新获取' });
      }
      const right = await sms(mobile, code);
      expect(right.body).toEqual({ code: 500, msg: '验证码错误次数过多，请重新获取' });
    });

    it('expires a code after 5 minutes', async () => {
      const { mobile } = await ownAccount('late_code', '13500000003');
      expect((await sendCode(mobile, 'login')).body.code).toBe(200);
      const code = s.smsCodes(mobile)[0];
      advanceClock(5 * MINUTE + 1000);
      const res = await sms(mobile, code);
      expect(res.body).toEqual({ code: 500, msg: '验证码已失效，请重新获取' });
    });

    it('is still valid just under 5 minutes', async () => {
      const { mobile } = await ownAccount('timely_code', '13500000004');
      await sendCode(mobile);
      advanceClock(4 * MINUTE + 50 * 1000);
      const res = await sms(mobile, s.smsCodes(mobile)[0]);
      expect(res.body.code).toBe(200);
      expect(typeof res.body.data?.token).toBe('string');
    });

    it('checks the mobile number and its binding', async () => {
      expect((await sendCode('12345')).body).toEqual({ code: 500, msg: '手机号格式不正确' });
      expect((await sendCode('12800000000')).body).toEqual({ code: 500, msg: '手机号格式不正确' });
      expect((await sendCode('13912345678', 'login')).body).toEqual({ code: 500, msg: '该手机号未绑定账号' });
      expect((await sendCode('13800000000', 'register')).body).toEqual({ code: 500, msg: '该手机号已注册，请直接登录' });
      expect((await s.call('POST', SEND_CODE, { body: { mobile: '13912345678', type: 'reset' } })).body).toEqual({
        code: 400,
        msg: '用途取值不在允许范围内',
      });
      expect(s.smsCodes('13912345678')).toHaveLength(0);
    });

    it('asks for the mobile and the code, and refuses a mobile with no code sent', async () => {
      expect((await s.call('POST', LOGIN, { body: { code: '123456', loginType: 'sms' } })).body).toEqual({ code: 500, msg: '请输入手机号' });
      expect((await s.call('POST', LOGIN, { body: { mobile: '13800000000', loginType: 'sms' } })).body).toEqual({ code: 500, msg: '请输入验证码' });
      expect((await sms('13912345678', '123456')).body).toEqual({ code: 500, msg: '该手机号未绑定账号' });
      // A bound mobile no code was ever sent to.
      const { mobile } = await ownAccount('never_sent', '13500000005');
      expect((await sms(mobile, '123456')).body).toEqual({ code: 500, msg: '验证码已失效，请重新获取' });
    });

    it('signs in the owner of the mobile number, never an account whose user name is that number', async () => {
      // Someone registers the user name 13700000000 (no mobile); later the owner of that phone registers with it.
      const first = await s.call('POST', REGISTER, { body: { username: '13700000000', password: 'first123', confirmPassword: 'first123' } });
      expect(first.body.code).toBe(200);
      const owner = await s.call('POST', REGISTER, {
        body: { username: 'phoneowner', password: 'owner123', confirmPassword: 'owner123', mobile: '13700000000' },
      });
      expect(owner.body.code).toBe(200);
      expect((await sendCode('13700000000', 'login')).body.code).toBe(200);
      const res = await sms('13700000000', s.smsCodes('13700000000').at(-1) as string);
      expect(res.body.code).toBe(200);
      const me = await whoAmI(res.body.data?.token as string);
      expect((me.data as { userName: string }).userName).toBe('phoneowner');
      // The user name still signs in its own account with its own password.
      const byName = await password('13700000000', 'first123');
      expect(byName.body.code).toBe(200);
      expect(((await whoAmI(byName.body.data?.token as string)).data as { userName: string }).userName).toBe('13700000000');
    });

    it('lets a user name that equals an earlier account’s mobile sign in with its own password', async () => {
      // The phone owner exists first (lower id); a later account takes the number as its user name.
      const phone = await s.call('POST', REGISTER, {
        body: { username: 'early_owner', password: 'owner123', confirmPassword: 'owner123', mobile: '13600000000' },
      });
      expect(phone.body.code).toBe(200);
      const named = await s.call('POST', REGISTER, { body: { username: '13600000000', password: 'later123', confirmPassword: 'later123' } });
      expect(named.body.code).toBe(200);
      const res = await password('13600000000', 'later123');
      expect(res.body.code).toBe(200);
      expect(((await whoAmI(res.body.data?.token as string)).data as { userName: string }).userName).toBe('13600000000');
    });
  });

  describe('register', () => {
    it('creates an account with the common role that can sign in', async () => {
      const before = (await s.call<{ registerNum: number }>('GET', '/appv2/api/index/platformInfo')).body.data?.registerNum as number;
      const res = await s.call('POST', REGISTER, {
        body: { username: 'student_01', password: 'secret12', confirmPassword: 'secret12', mobile: '13900000001', realName: '张同学' },
      });
      expect(res.body).toEqual({ code: 200, msg: '恭喜你，您的账号 student_01 注册成功！' });
      const token = await s.login('student_01', 'secret12');
      const info = await s.call<{ realName: string; roles: string[]; mobile: string }>('POST', '/appv2/api/apply/userInfo', { token });
      expect(info.body.data).toMatchObject({ realName: '张同学', roles: ['common'], mobile: '13900000001' });
      const ruleList = await s.call('POST', RULES, { token });
      expect(ruleList.body.roles).toEqual(['common']);
      expect(ruleList.body.permissions).toEqual([]);
      const after = (await s.call<{ registerNum: number }>('GET', '/appv2/api/index/platformInfo')).body.data?.registerNum;
      expect(after).toBe(before + 1);
      // Signs in by mobile with a code too.
      await sendCode('13900000001');
      expect((await sms('13900000001', s.smsCodes('13900000001')[0])).body.code).toBe(200);
    });

    it('refuses a taken user name or mobile', async () => {
      const body = { username: 'dup_user', password: 'secret12', confirmPassword: 'secret12' };
      expect((await s.call('POST', REGISTER, { body })).body.code).toBe(200);
      expect((await s.call('POST', REGISTER, { body })).body).toEqual({ code: 500, msg: "保存用户'dup_user'失败，注册账号已存在" });
      expect((await s.call('POST', REGISTER, { body: { ...body, username: 'admin' } })).body).toEqual({
        code: 500,
        msg: "保存用户'admin'失败，注册账号已存在",
      });
      expect((await s.call('POST', REGISTER, { body: { ...body, username: 'other_user', mobile: '13800000000' } })).body).toEqual({
        code: 500,
        msg: '该手机号已注册，请直接登录',
      });
    });

    it.each([
      [
        { username: 'a', password: 'secret12', confirmPassword: 'secret12' },
        { code: 500, msg: '账户长度必须在2到20个字符之间' },
      ],
      [
        { username: 'a'.repeat(21), password: 'secret12', confirmPassword: 'secret12' },
        { code: 400, msg: '账号长度不能超过 20 个字符' },
      ],
      [
        { username: 'bad name!', password: 'secret12', confirmPassword: 'secret12' },
        { code: 500, msg: '账号只能包含字母、数字和下划线' },
      ],
      [
        { username: 'newbie1', password: '', confirmPassword: '' },
        { code: 500, msg: '密码不能为空' },
      ],
      [
        { username: 'newbie2', password: '12345', confirmPassword: '12345' },
        { code: 500, msg: '长度在 6 到 20 个字符' },
      ],
      [
        { username: 'newbie3', password: 'a'.repeat(21), confirmPassword: 'a'.repeat(21) },
        { code: 500, msg: '长度在 6 到 20 个字符' },
      ],
      [
        { username: 'newbie4', password: 'secret12', confirmPassword: 'secret13' },
        { code: 500, msg: '两次输入的密码不一致' },
      ],
      [
        { username: 'newbie5', password: 'secret12', confirmPassword: '' },
        { code: 500, msg: '确认密码不能为空' },
      ],
      [
        { username: 'newbie6', password: 'secret12' },
        { code: 400, msg: '确认密码不能为空' },
      ],
      [
        { password: 'secret12', confirmPassword: 'secret12' },
        { code: 400, msg: '账号不能为空' },
      ],
      [
        { username: 'newbie7', password: 'secret12', confirmPassword: 'secret12', mobile: '1234' },
        { code: 500, msg: '手机号格式不正确' },
      ],
    ])('refuses %j', async (body, expected) => {
      const res = await s.call('POST', REGISTER, { body });
      expect(res.body).toEqual(expected);
      if ('username' in body && body.username) {
        expect((await s.call('POST', LOGIN, { body: { username: body.username, password: body.password || 'x' } })).body.msg).toMatch(/^账号或密码错误/);
      }
    });

    it('refuses registration while it is switched off', async () => {
      const admin = await s.login('admin', 'admin123');
      const platform = (await s.call<{ title: string; expiredate: string }>('GET', '/dev-api/system/platform', { token: admin })).body.data;
      const off = await s.call('PUT', '/dev-api/system/platform', {
        token: admin,
        body: { title: platform?.title, expiredate: platform?.expiredate, registerEnabled: 0 },
      });
      expect(off.body.code).toBe(200);
      try {
        expect((await s.call<{ registerEnabled: boolean }>('GET', '/appv2/api/index/platformInfo')).body.data?.registerEnabled).toBe(false);
        const res = await s.call('POST', REGISTER, { body: { username: 'while_off', password: 'secret12', confirmPassword: 'secret12' } });
        expect(res.body).toEqual({ code: 500, msg: '当前系统没有开启注册功能！' });
        expect((await password('while_off', 'secret12')).body.msg).toMatch(/^账号或密码错误/);
      } finally {
        await s.call('PUT', '/dev-api/system/platform', {
          token: admin,
          body: { title: platform?.title, expiredate: platform?.expiredate, registerEnabled: 1 },
        });
      }
    });
  });

  describe('logout and sessions', () => {
    it('revokes the token: it then gets 401 with the revoked message, other sessions stay', async () => {
      const token = await s.login('leader', 'leader123');
      const other = await s.login('leader', 'leader123');
      expect((await whoAmI(token)).code).toBe(200);
      const out = await s.call('POST', LOGOUT, { token });
      expect(out.body).toEqual({ code: 200, msg: '退出成功' });
      expect(await whoAmI(token)).toEqual(REVOKED);
      expect((await s.call('POST', RULES, { token })).body).toEqual(REVOKED);
      expect((await s.call('POST', LOGOUT, { token })).body).toEqual(REVOKED);
      expect((await whoAmI(other)).code).toBe(200);
      // The revocation survives a restart.
      await s.restart();
      expect(await whoAmI(token)).toEqual(REVOKED);
      expect((await whoAmI(other)).code).toBe(200);
    });

    it('answers 401 without a token, with an unknown token and with a malformed header', async () => {
      expect((await s.call('POST', LOGOUT)).body).toEqual(NOT_SIGNED_IN);
      expect((await s.call('POST', RULES, { headers: { authorization: 'Bearer ' } })).body).toEqual(NOT_SIGNED_IN);
      expect((await s.call('POST', RULES, { token: 'made-up-token' })).body).toEqual(EXPIRED);
      const res = await s.call('POST', RULES, { token: 'x'.repeat(43) });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(EXPIRED);
    });

    it('accepts the token without the Bearer prefix too', async () => {
      const token = await s.login('expert', 'expert123');
      const res = await s.call('POST', '/appv2/api/apply/userInfo', { headers: { authorization: token } });
      expect(res.body.code).toBe(200);
    });

    it('expires a session after 15 days', async () => {
      const token = await s.login('expert', 'expert123');
      advanceClock(14 * 24 * 60 * MINUTE);
      expect((await whoAmI(token)).code).toBe(200);
      vi.setSystemTime(Date.now() + 24 * 60 * MINUTE + 1000);
      expect(await whoAmI(token)).toEqual(EXPIRED);
    });

    it('lets public routes ignore a bad token instead of refusing them', async () => {
      const res = await s.call('POST', '/appv2/api/index/platformInfo', { token: 'revoked-or-unknown' });
      expect(res.body.code).toBe(200);
      const loginWithStaleToken = await s.call('POST', LOGIN, { token: 'junk', body: { username: 'expert', password: 'expert123' } });
      expect(loginWithStaleToken.body.code).toBe(200);
    });
  });
});
