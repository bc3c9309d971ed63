import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../../server/config.js';
import { signTimer } from '../../../server/security/protocol.js';
import { RATE_LIMIT_DEFAULTS } from '../../../server/security/rateLimitSettings.js';
import { type ApiBody, backends, startServer, type TestServer } from '../harness.js';

/**
 * Issue 22, limits: attempts counted before they are checked (SMS codes, the old password of 修改密码), request limits
 * of the public endpoints per address and per number, one spelling per request signature, and capped JSON bodies.
 */

const LOGIN = '/dev-api/api/login/login';
const SEND_CODE = '/dev-api/api/index/sendCodev3';
const REGISTER = '/dev-api/register';
const SAVE_PASS = '/dev-api/api/account/savePass';
const STUDENT_ADD = '/dev-api/api/Subscriber/add';

interface Sent {
  status: number;
  body: ApiBody;
  raw: string;
}

/** One request from a given client address (app.inject's remoteAddress), signed unless headers say otherwise. */
async function from(
  s: TestServer,
  address: string,
  method: string,
  url: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string>; raw?: string } = {},
): Promise<Sent> {
  const headers: Record<string, string> = { ...signTimer(s.app.keys.requestPublicPem) };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let payload: string | undefined;
  if (options.raw !== undefined || options.body !== undefined) {
    payload = options.raw ?? JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  Object.assign(headers, options.headers ?? {});
  const res = await s.app.inject({ method: method as 'POST', url, headers, payload, remoteAddress: address });
  let body: ApiBody;
  try {
    body = JSON.parse(res.body) as ApiBody;
  } catch {
    body = { code: Number.NaN, msg: res.body.slice(0, 200) };
  }
  return { status: res.statusCode, body, raw: res.body };
}

const count = (answers: Sent[], msg: string | RegExp) => answers.filter((a) => (typeof msg === 'string' ? a.body.msg === msg : msg.test(a.body.msg))).length;

describe.each(backends)('limits (%s)', (backend) => {
  // One server for the tests that need no particular limits (a start-up is most of this file's time).
  let shared: TestServer;
  beforeAll(async () => {
    shared = await startServer(backend);
  });
  afterAll(async () => {
    await shared?.close();
  });

  describe('counted before checked', () => {
    let s: TestServer;
    beforeAll(() => {
      s = shared;
    });

    const smsLogin = (mobile: string, code: string) => s.call('POST', LOGIN, { body: { mobile, code, loginType: 'sms' } });
    const wrongCode = (code: string, i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');

    it('60 parallel wrong SMS codes: exactly 5 are checked, then the code is spent, the right one included', async () => {
      const mobile = '13800000001';
      expect((await s.call('POST', SEND_CODE, { body: { mobile } })).body.code).toBe(200);
      const code = s.smsCodes(mobile).at(-1) as string;
      const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => smsLogin(mobile, wrongCode(code, i))));
      expect(answers.every((a) => a.body.code === 500)).toBe(true);
      // Four say "wrong"; the fifth checked one spends the code; the 55 others were never compared.
      expect(count(answers, '验证码错误')).toBe(4);
      expect(count(answers, '验证码错误次数过多，请重新获取')).toBe(56);
      const row = await s.app.db.kysely
        .selectFrom('sysSmsCode')
        .select(['attempts', 'used'])
        .where('mobile', '=', mobile)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(Number(row.attempts)).toBe(5);
      expect((await smsLogin(mobile, code)).body).toEqual({ code: 500, msg: '验证码错误次数过多，请重新获取' });
    });

    it('the right SMS code still signs in after 4 wrong ones', async () => {
      const mobile = '13800000002';
      expect((await s.call('POST', SEND_CODE, { body: { mobile } })).body.code).toBe(200);
      const code = s.smsCodes(mobile).at(-1) as string;
      for (let i = 0; i < 4; i++) expect((await smsLogin(mobile, wrongCode(code, i))).body).toEqual({ code: 500, msg: '验证码错误' });
      const right = await smsLogin(mobile, code);
      expect(right.body.code).toBe(200);
      expect(typeof right.body.data).toBe('object');
    });

    it('60 parallel wrong register codes: exactly 5 are checked, and no account is created', async () => {
      const admin = await s.login('admin', 'admin123');
      // 注册设置 → 需要短信验证码.
      const cur = await s.call<{ values: Record<string, unknown>; version: number }>('GET', '/dev-api/system/settings/register', { token: admin });
      const values = cur.body.data?.values ?? {};
      const saved = await s.call('PUT', '/dev-api/system/settings/register', {
        token: admin,
        body: { ...values, smsRequired: true, version: cur.body.data?.version ?? 0 },
      });
      expect(saved.body.code).toBe(200);
      const mobile = '13900007777';
      expect((await s.call('POST', SEND_CODE, { body: { mobile, type: 'register' } })).body.code).toBe(200);
      const code = s.smsCodes(mobile).at(-1) as string;
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          s.call('POST', REGISTER, { body: { username: `reg_${i}`, password: 'secret12', confirmPassword: 'secret12', mobile, code: wrongCode(code, i) } }),
        ),
      );
      expect(count(answers, '验证码错误')).toBe(4);
      expect(count(answers, '验证码错误次数过多，请重新获取')).toBe(56);
      const right = await s.call('POST', REGISTER, { body: { username: 'reg_right', password: 'secret12', confirmPassword: 'secret12', mobile, code } });
      expect(right.body).toEqual({ code: 500, msg: '验证码错误次数过多，请重新获取' });
      const created = await s.app.db.kysely.selectFrom('sysUser').select('userId').where('mobile', '=', mobile).execute();
      expect(created).toHaveLength(0);
    });

    it('60 parallel wrong old passwords on 修改密码: at most 5 are checked, then the change is locked, the right one included', async () => {
      const token = await s.login('operator', 'operator123');
      const answers = await Promise.all(
        // Different guesses, so the duplicate-submit window (same body within 1 s) refuses none of them.
        Array.from({ length: 60 }, (_, i) => s.call('POST', SAVE_PASS, { token, body: { oldpass: `wrong-${i}`, qrPass: 'newpass99', pass: 'newpass99' } })),
      );
      expect(answers.every((a) => a.body.code === 500)).toBe(true);
      const checked = count(answers, '旧密码错误') + count(answers, /^旧密码输入错误次数过多/);
      expect(count(answers, '旧密码错误')).toBeLessThanOrEqual(5);
      expect(checked).toBe(60);
      const right = await s.call('POST', SAVE_PASS, { token, body: { oldpass: 'operator123', qrPass: 'newpass99', pass: 'newpass99' } });
      expect(right.body.code).toBe(500);
      expect(right.body.msg).toMatch(/^旧密码输入错误次数过多，修改密码已暂停，请 (10|9) 分钟后再试$/);
      // Nothing changed: the old password still signs in.
      expect(typeof (await s.login('operator', 'operator123'))).toBe('string');
    });

    it('the right old password still works after 4 wrong ones', async () => {
      const token = await s.login('expert', 'expert123');
      for (let i = 0; i < 4; i++) {
        const res = await s.call('POST', SAVE_PASS, { token, body: { oldpass: `wrong-${i}`, qrPass: 'newpass99', pass: 'newpass99' } });
        expect(res.body).toEqual({ code: 500, msg: '旧密码错误' });
      }
      const right = await s.call('POST', SAVE_PASS, { token, body: { oldpass: 'expert123', qrPass: 'expert456', pass: 'expert456' } });
      expect(right.body).toEqual({ code: 200, msg: '修改成功' });
      expect(typeof (await s.login('expert', 'expert456'))).toBe('string');
    });
  });

  describe('request limits of the public endpoints (defaults)', () => {
    let s: TestServer;
    beforeAll(async () => {
      // The production defaults, not the harness's generous ones.
      s = await startServer(backend, { rateLimits: {} } as Partial<ServerConfig>);
    });
    afterAll(async () => {
      await s?.close();
    });

    it('password spraying: 30 accounts from one address are cut off; another address signs in', async () => {
      const answers: Sent[] = [];
      for (let i = 0; i < 30; i++) answers.push(await from(s, '10.1.0.1', 'POST', LOGIN, { body: { username: `user${i}`, password: 'Passw0rd!' } }));
      const limited = answers.filter((a) => a.body.code === 429);
      expect(answers.length - limited.length).toBe(RATE_LIMIT_DEFAULTS.loginPerMinute);
      expect(limited[0].body.msg).toMatch(/^登录尝试过于频繁，请 \d+ 秒后再试$/);
      // The admin's right password from that address is refused too; from another address it signs in.
      expect((await from(s, '10.1.0.1', 'POST', LOGIN, { body: { username: 'admin', password: 'admin123' } })).body.code).toBe(429);
      expect((await from(s, '10.1.0.2', 'POST', LOGIN, { body: { username: 'admin', password: 'admin123' } })).body.code).toBe(200);
    });

    it('SMS codes: the 6th code for one number within the hour is refused, from any address', async () => {
      const mobile = '13911112222';
      for (let i = 0; i < RATE_LIMIT_DEFAULTS.smsPerNumberHour; i++) {
        // Past the 60 s resend gap: the previous code was sent two minutes ago.
        await s.app.db.kysely
          .updateTable('sysSmsCode')
          .set((eb) => ({ createTime: eb('createTime', '-', 120_000) }))
          .where('mobile', '=', mobile)
          .execute();
        expect((await from(s, `10.2.0.${i + 1}`, 'POST', SEND_CODE, { body: { mobile, type: 'register' } })).body.code).toBe(200);
      }
      await s.app.db.kysely
        .updateTable('sysSmsCode')
        .set((eb) => ({ createTime: eb('createTime', '-', 120_000) }))
        .where('mobile', '=', mobile)
        .execute();
      const refused = await from(s, '10.2.0.99', 'POST', SEND_CODE, { body: { mobile, type: 'register' } });
      expect(refused.body.code).toBe(429);
      expect(refused.body.msg).toMatch(/^该手机号获取验证码过于频繁，请 \d+ 分钟后再试$/);
      expect(s.smsCodes(mobile)).toHaveLength(RATE_LIMIT_DEFAULTS.smsPerNumberHour);
    });

    it('SMS codes: one address asking for many numbers is cut off; another address is not', async () => {
      const answers: Sent[] = [];
      for (let i = 0; i < 25; i++) {
        answers.push(await from(s, '10.3.0.1', 'POST', SEND_CODE, { body: { mobile: `1370000${String(i).padStart(4, '0')}`, type: 'register' } }));
      }
      expect(answers.filter((a) => a.body.code === 200)).toHaveLength(RATE_LIMIT_DEFAULTS.smsPerAddressHour);
      const refused = answers.filter((a) => a.body.code === 429);
      expect(refused).toHaveLength(25 - RATE_LIMIT_DEFAULTS.smsPerAddressHour);
      expect(refused[0].body.msg).toMatch(/^获取验证码过于频繁，请 \d+ 分钟后再试$/);
      expect((await from(s, '10.3.0.2', 'POST', SEND_CODE, { body: { mobile: '13700009999', type: 'register' } })).body.code).toBe(200);
    });

    it('self-registration: one address is cut off after the hourly limit; another address is not', async () => {
      const answers: Sent[] = [];
      for (let i = 0; i < 12; i++) {
        answers.push(await from(s, '10.4.0.1', 'POST', REGISTER, { body: { username: `bulk_${i}`, password: 'secret12', confirmPassword: 'secret12' } }));
      }
      expect(answers.filter((a) => a.body.code === 200)).toHaveLength(RATE_LIMIT_DEFAULTS.registerPerHour);
      const refused = answers.filter((a) => a.body.code === 429);
      expect(refused).toHaveLength(12 - RATE_LIMIT_DEFAULTS.registerPerHour);
      expect(refused[0].body.msg).toMatch(/^注册过于频繁，请 \d+ 分钟后再试$/);
      const users = await s.app.db.kysely.selectFrom('sysUser').select('userName').where('userName', 'like', 'bulk%').execute();
      expect(users).toHaveLength(RATE_LIMIT_DEFAULTS.registerPerHour);
      expect(
        (await from(s, '10.4.0.2', 'POST', REGISTER, { body: { username: 'other_addr', password: 'secret12', confirmPassword: 'secret12' } })).body.code,
      ).toBe(200);
    });
  });

  describe('hourly sign-in limit and public pages (configured)', () => {
    let s: TestServer;
    beforeAll(async () => {
      s = await startServer(backend, { rateLimits: { loginPerMinute: 1000, loginPerHour: 8, pagesPerMinute: 5 } } as Partial<ServerConfig>);
    });
    afterAll(async () => {
      await s?.close();
    });

    it('a slow spray still meets the hourly limit per address', async () => {
      const answers: Sent[] = [];
      for (let i = 0; i < 10; i++) answers.push(await from(s, '10.5.0.1', 'POST', LOGIN, { body: { username: `slow${i}`, password: 'x1234567' } }));
      expect(answers.filter((a) => a.body.code === 429)).toHaveLength(2);
      expect(answers[9].body.msg).toMatch(/^登录尝试过于频繁，请 \d+ 分钟后再试$/);
    });

    it('the public site answers a 429 page after the limit per address; another address still reads it', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) statuses.push((await s.app.inject({ method: 'GET', url: '/site/', remoteAddress: '10.6.0.1' })).statusCode);
      expect(statuses.slice(0, 5).every((st) => st !== 429)).toBe(true);
      const limited = await s.app.inject({ method: 'GET', url: '/site/', remoteAddress: '10.6.0.1' });
      expect(limited.statusCode).toBe(429);
      expect(limited.body).toContain('访问过于频繁，请');
      expect((await s.app.inject({ method: 'GET', url: '/site/', remoteAddress: '10.6.0.2' })).statusCode).not.toBe(429);
    });
  });

  describe('one spelling per signature, capped JSON bodies', () => {
    let s: TestServer;
    let leader: string;
    let admin: string;
    beforeAll(async () => {
      s = shared;
      leader = await s.login('leader', 'leader123');
      admin = await s.login('admin', 'admin123');
    });

    const students = async (prefix: string) =>
      (await s.app.db.kysely.selectFrom('volStudent').select('name').where('name', 'like', `${prefix}%`).execute()).length;

    it('8 re-spellings of one signed student add are refused; the signature itself passes once', async () => {
      let signed = signTimer(s.app.keys.requestPublicPem);
      while (!/[+/]/.test(signed.Authentication)) signed = signTimer(s.app.keys.requestPublicPem);
      const sig = signed.Authentication;
      const last = sig.replace(/=+$/, '');
      // The last base64 digit before the padding carries unused bits: set them, the decoded bytes stay the same.
      const table = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
      const padBits = `${last.slice(0, -1)}${table[table.indexOf(last.at(-1) as string) | (sig.endsWith('==') ? 0b1111 : 0b11)]}${sig.slice(last.length)}`;
      const respellings = [
        last, // padding dropped
        `${sig}=`, // padding added
        sig.replace(/\+/g, '-').replace(/\//g, '_'), // URL-safe alphabet
        last.replace(/\+/g, '-').replace(/\//g, '_'), // base64url
        `${sig.slice(0, 100)} ${sig.slice(100)}`, // a space inside
        `${sig.slice(0, 200)}\t${sig.slice(200)}`, // a tab inside
        `${sig}!!`, // trailing garbage
        padBits,
      ];
      // Each decodes to the very same bytes, so before the fix each was the same signature under another key.
      for (const r of respellings) expect(Buffer.from(r, 'base64').equals(Buffer.from(sig, 'base64'))).toBe(true);
      expect(new Set(respellings).size).toBe(8);

      const add = (name: string, authentication: string) =>
        from(s, '127.0.0.1', 'POST', STUDENT_ADD, {
          token: leader,
          body: { name, score: 600, subjects: [1, 2, 3] },
          headers: { Authentication: authentication, Timer: signed.Timer },
        });
      // Each with its own body, so the duplicate-submit window is not what refuses them.
      const answers = await Promise.all(respellings.map((r, i) => add(`重签学生${i}`, r)));
      for (const a of answers) expect(a.body).toEqual({ code: 40002, msg: '请求签名无效，请刷新页面后重试' });
      expect((await add('重签学生原样', sig)).body.code).toBe(200);
      expect(await students('重签学生')).toBe(1);
      // And afterwards: the signature is spent, in every spelling.
      expect((await add('重签学生再次', sig)).body.code).toBe(40004);
      expect((await add('重签学生再次2', `${sig}=`)).body.code).toBe(40002);
      expect(await students('重签学生')).toBe(1);
    });

    it('a JSON body 5,000 levels deep gets a clear 400 on every route tried, and nothing is written', async () => {
      const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
      const bodyWith = (fields: string) => `{${fields},"extra":${deep}}`;
      const tries: [string, string][] = [
        [STUDENT_ADD, bodyWith('"name":"深层学生","score":600,"subjects":[1,2,3]')],
        ['/dev-api/system/config', bodyWith('"configName":"深层","configKey":"deep.key","configValue":"1","configType":"N"')],
        [SAVE_PASS, bodyWith('"oldpass":"admin123","qrPass":"newpass99","pass":"newpass99"')],
        [LOGIN, bodyWith('"username":"admin","password":"admin123"')],
        [REGISTER, bodyWith('"username":"deep_user","password":"secret12","confirmPassword":"secret12"')],
      ];
      for (const [url, raw] of tries) {
        // Signed in as admin, so the gate (which runs before the body is read) lets every one of them reach its body.
        const res = await from(s, '127.0.0.1', 'POST', url, { token: admin, raw });
        expect(res.body, url).toEqual({ code: 400, msg: '请求数据层级过深（最多 64 层），请检查后重试' });
      }
      expect(await students('深层学生')).toBe(0);
      const users = await s.app.db.kysely.selectFrom('sysUser').select('userId').where('userName', '=', 'deep_user').execute();
      expect(users).toHaveLength(0);
      const config = await s.app.db.kysely
        .selectFrom('sysConfig' as never)
        .select('configKey' as never)
        .where('configKey' as never, '=', 'deep.key' as never)
        .execute();
      expect(config).toHaveLength(0);
      // Brackets inside strings are text, not depth; a normal body at 10 levels still works.
      const nested = `${'['.repeat(10)}1${']'.repeat(10)}`;
      const fine = await from(s, '127.0.0.1', 'POST', STUDENT_ADD, {
        token: leader,
        raw: `{"name":"正常学生[[[[","score":600,"subjects":[1,2,3],"remark":"${'{'.repeat(100)}","extra":${nested}}`,
      });
      expect(fine.body.code).toBe(200);
      expect(await students('正常学生')).toBe(1);
    });

    it('a JSON body with more than 10,000 keys gets a clear 400', async () => {
      const wide = `{${Array.from({ length: 10_001 }, (_, i) => `"k${i}":1`).join(',')}}`;
      const res = await from(s, '127.0.0.1', 'POST', STUDENT_ADD, { token: leader, raw: wide });
      expect(res.body).toEqual({ code: 400, msg: '请求数据字段过多（最多 10000 个），请检查后重试' });
    });
  });
});
