import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { signTimer } from '../../server/security/protocol.js';
import { backends, MINUTE, startServer, type TestServer } from './harness.js';

const MISSING = { code: 40001, msg: '请求缺少签名（Authentication/Timer），请刷新页面后重试' };
const TAMPERED = { code: 40002, msg: '请求签名无效，请刷新页面后重试' };
const STALE = { code: 40003, msg: '请求已过期，请校准本机时间后重试' };
const BAD_JSON = { code: 400, msg: '请求数据格式错误（不是合法的 JSON），请检查后重试' };

const NOTE = '/dev-api/api/Systerm/getNoteDesc';
/** A write route (permission system:config:add): its signatures are always single-use. */
const WRITE = '/dev-api/system/config';
const PLATFORM_INFO = '/appv2/api/index/platformInfo';

describe.each(backends)('protocol (%s)', (backend) => {
  let s: TestServer;
  let admin: string;

  beforeAll(async () => {
    s = await startServer(backend);
    admin = await s.login('admin', 'admin123');
  });
  afterAll(async () => {
    await s?.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  describe('request signature', () => {
    it('accepts a correctly signed request', async () => {
      const res = await s.call('POST', NOTE, { token: admin });
      expect(res.status).toBe(200);
      expect(res.body.code).toBe(200);
    });

    it.each<[string, 'Timer' | 'Authentication' | undefined]>([
      ['both headers', undefined],
      ['Authentication', 'Timer'],
      ['Timer', 'Authentication'],
    ])('refuses a request missing %s with 40001', async (_what, only) => {
      const signed = signTimer(s.app.keys.requestPublicPem);
      const headers: Record<string, string> = only ? { [only]: signed[only] } : {};
      for (const url of [NOTE, PLATFORM_INFO, '/dev-api/api/login/login']) {
        const res = await s.call('POST', url, { sign: false, headers, token: admin, body: { username: 'admin', password: 'admin123' } });
        expect(res.status).toBe(200);
        expect(res.body).toEqual(MISSING);
      }
    });

    it('refuses an empty Authentication header as missing', async () => {
      const signed = signTimer(s.app.keys.requestPublicPem);
      const res = await s.call('POST', PLATFORM_INFO, { sign: false, headers: { Timer: signed.Timer, Authentication: '' } });
      expect(res.body).toEqual(MISSING);
    });

    it('refuses a signature of another timer (tampered Timer) with 40002', async () => {
      const signed = signTimer(s.app.keys.requestPublicPem);
      const res = await s.call('POST', PLATFORM_INFO, {
        sign: false,
        headers: { Authentication: signed.Authentication, Timer: String(Number(signed.Timer) + 1) },
      });
      expect(res.body).toEqual(TAMPERED);
    });

    it('refuses garbage, a flipped byte, a non-numeric Timer and another key with 40002', async () => {
      const signed = signTimer(s.app.keys.requestPublicPem);
      const flipped = Buffer.from(signed.Authentication, 'base64');
      flipped[flipped.length - 1] ^= 0x01;
      const other = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
      const cases: Array<Record<string, string>> = [
        { Timer: signed.Timer, Authentication: 'bm90IGEgc2lnbmF0dXJl' },
        { Timer: signed.Timer, Authentication: flipped.toString('base64') },
        { Timer: `${signed.Timer}x`, Authentication: signed.Authentication },
        { Timer: 'now', Authentication: signed.Authentication },
        signTimer(other),
      ];
      for (const headers of cases) {
        const res = await s.call('POST', NOTE, { sign: false, headers, token: admin });
        expect(res.body, JSON.stringify(headers)).toEqual(TAMPERED);
      }
    });

    it('refuses a Timer outside the window (past, or future beyond the small skew) with 40003 and accepts one inside it', async () => {
      const pem = s.app.keys.requestPublicPem;
      const now = Date.now();
      for (const t of [now - 6 * MINUTE, now + 6 * MINUTE, now + 2 * MINUTE, now - 24 * 60 * MINUTE]) {
        const res = await s.call('POST', NOTE, { sign: false, headers: signTimer(pem, t), token: admin });
        expect(res.body).toEqual(STALE);
      }
      for (const t of [now - 4 * MINUTE, now + 30_000]) {
        const res = await s.call('POST', NOTE, { sign: false, headers: signTimer(pem, t), token: admin });
        expect(res.body.code).toBe(200);
      }
    });

    it('judges staleness by the server clock, so a signature that was fresh goes stale', async () => {
      const headers = signTimer(s.app.keys.requestPublicPem);
      const first = await s.call('POST', NOTE, { sign: false, headers, token: admin });
      expect(first.body.code).toBe(200);
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 5 * MINUTE + 5000);
      // Same header pair, now outside the window: stale is said before replay.
      const later = await s.call('POST', NOTE, { sign: false, headers, token: admin });
      expect(later.body).toEqual(STALE);
    });

    it('a write accepts its signature once: the same pair sent again is refused, with or without a token', async () => {
      const headers = signTimer(s.app.keys.requestPublicPem);
      // An empty body is refused by validation, but the signature was used: sending it again is a replay.
      expect((await s.call('POST', WRITE, { sign: false, headers, token: admin, body: {} })).body.code).not.toBe(40004);
      const replay = await s.call('POST', WRITE, { sign: false, headers, token: admin, body: {} });
      expect(replay.body).toEqual({ code: 40004, msg: '请求已被处理过（重复的签名），请刷新页面后重试' });
      const anonymous = await s.call('POST', WRITE, { sign: false, headers, body: {} });
      expect(anonymous.body.code).toBe(40004);
      // Concurrent copies of one fresh pair: exactly one gets through.
      const fresh = signTimer(s.app.keys.requestPublicPem);
      const answers = await Promise.all(Array.from({ length: 10 }, () => s.call('POST', WRITE, { sign: false, headers: fresh, token: admin, body: {} })));
      expect(answers.filter((a) => a.body.code !== 40004)).toHaveLength(1);
    });

    it('a read may repeat its signature for 30 s after its Timer, then it is a replay; a write never takes it', async () => {
      const headers = signTimer(s.app.keys.requestPublicPem);
      const answers = await Promise.all(Array.from({ length: 5 }, () => s.call('POST', NOTE, { sign: false, headers, token: admin })));
      expect(answers.map((a) => a.body.code)).toEqual([200, 200, 200, 200, 200]);
      expect((await s.call('POST', WRITE, { sign: false, headers, token: admin, body: {} })).body.code).toBe(40004);
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Number(headers.Timer) + 31_000);
      expect((await s.call('POST', NOTE, { sign: false, headers, token: admin })).body.code).toBe(40004);
    });

    it('with AUTH_READ_REUSE_MS=0 every signature is single-use, reads too', async () => {
      const strict = await startServer(backend, { authReadReuseMs: 0 });
      try {
        const token = await strict.login('admin', 'admin123');
        const headers = signTimer(strict.app.keys.requestPublicPem);
        expect((await strict.call('POST', NOTE, { sign: false, headers, token })).body.code).toBe(200);
        expect((await strict.call('POST', NOTE, { sign: false, headers, token })).body.code).toBe(40004);
      } finally {
        await strict.close();
      }
    });

    it('checks the signature before the token and before the body', async () => {
      const res = await s.call('POST', '/dev-api/api/login/login', {
        sign: false,
        body: '{not json',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.body).toEqual(MISSING);
      const noToken = await s.call('POST', NOTE, { sign: false });
      expect(noToken.body).toEqual(MISSING);
    });

    it('does not require a signature outside the API prefixes', async () => {
      const res = await s.call('GET', '/app-config.js', { sign: false });
      expect(res.status).toBe(200);
      expect(res.raw).toContain('window.__APP_CONFIG__');
      expect(res.raw).toContain(JSON.stringify(s.app.keys.requestPublicPem));
      expect(res.raw).toContain(JSON.stringify(s.app.keys.responsePrivatePem));
      // The request private key never leaves the server.
      const requestPrivatePem = s.app.keys.requestPrivate.export({ type: 'pkcs1', format: 'pem' }).toString();
      expect(res.raw).not.toContain(JSON.stringify(requestPrivatePem));
      expect(res.headers['cache-control']).toBe('no-store');
    });

    it('keeps the keys across a restart, so a client signing with the published key keeps working', async () => {
      const before = s.app.keys.requestPublicPem;
      const fingerprint = s.app.keys.fingerprint;
      await s.restart();
      expect(s.app.keys.requestPublicPem).toBe(before);
      expect(s.app.keys.fingerprint).toBe(fingerprint);
      const res = await s.call('POST', NOTE, { sign: false, headers: signTimer(before), token: admin });
      expect(res.body.code).toBe(200);
    });
  });

  describe('request bodies', () => {
    it('answers malformed JSON with code 400 and a Chinese message', async () => {
      for (const body of ['{not json', '{"username": "admin",', '[1,2', '"unterminated']) {
        const res = await s.call('POST', '/dev-api/api/login/login', { body, headers: { 'content-type': 'application/json' } });
        expect(res.status).toBe(200);
        expect(res.body, body).toEqual(BAD_JSON);
      }
    });

    it('treats an empty JSON body as {}', async () => {
      for (const body of ['', '   ']) {
        const res = await s.call('POST', NOTE, { token: admin, body, headers: { 'content-type': 'application/json' } });
        expect(res.body.code).toBe(200);
        expect(res.body.data).toHaveProperty('tips_title');
      }
      // An empty body where fields are needed reaches the handler (not a JSON error) and is refused by it.
      const login = await s.call('POST', '/dev-api/api/login/login', { body: '', headers: { 'content-type': 'application/json' } });
      expect(login.body).toEqual({ code: 500, msg: '请输入账号' });
    });

    it('accepts a POST with no body and no content type', async () => {
      const res = await s.call('POST', NOTE, { token: admin });
      expect(res.body.code).toBe(200);
    });

    it('names the field in schema errors (missing, too long, wrong type)', async () => {
      const missing = await s.call('POST', '/dev-api/api/index/sendCodev3', { body: {} });
      expect(missing.body).toEqual({ code: 400, msg: '手机号不能为空' });
      const tooLong = await s.call('POST', '/dev-api/api/login/login', { body: { username: 'a'.repeat(65), password: 'x' } });
      expect(tooLong.body).toEqual({ code: 400, msg: '账号长度不能超过 64 个字符' });
      const wrongType = await s.call('POST', '/dev-api/api/auth/menuDel', { token: admin, body: { menuId: 'abc' } });
      expect(wrongType.body).toEqual({ code: 400, msg: '菜单ID格式不正确，应为整数' });
    });
  });

  describe('encrypted answers (authEncode=1)', () => {
    it('encrypts data on request in the body and round-trips to the plain answer', async () => {
      const plain = await s.call('POST', NOTE, { token: admin });
      expect(plain.body.code).toBe(200);
      const enc = await s.call('POST', NOTE, { token: admin, body: { authEncode: 1 } });
      expect(enc.body.code).toBe(20000);
      expect(enc.body.msg).toBe(plain.body.msg);
      expect(typeof enc.body.data).toBe('string');
      const data = enc.body.data as string;
      expect(data).toMatch(/^[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+$/);
      // Nothing readable in transit.
      expect(data).not.toContain('tips');
      expect(s.decrypt(data)).toEqual(plain.body.data);
    });

    it('encrypts on request in the query string too (text "1")', async () => {
      // platformInfo's 访问量 is live and each open counts (once answered): every answer has one view more.
      const plain = await s.call<{ pv: number }>('GET', PLATFORM_INFO);
      const views = Number(plain.body.data?.pv);
      const enc = await s.call('GET', PLATFORM_INFO, { query: { authEncode: 1 } });
      expect(enc.body.code).toBe(20000);
      expect(s.decrypt(enc.body.data)).toEqual({ ...plain.body.data, pv: views + 1 });
      const bodyString = await s.call('POST', PLATFORM_INFO, { body: { authEncode: '1' } });
      expect(bodyString.body.code).toBe(20000);
      expect(s.decrypt(bodyString.body.data)).toEqual({ ...plain.body.data, pv: views + 2 });
    });

    it('leaves the answer plain unless authEncode is exactly 1', async () => {
      for (const authEncode of [0, '0', 2, 'true']) {
        const res = await s.call('POST', PLATFORM_INFO, { body: { authEncode } });
        expect(res.body.code, String(authEncode)).toBe(200);
        expect(typeof res.body.data).toBe('object');
      }
    });

    it('uses the documented format: RSA-wrapped key+iv, AES-128-CBC of deflated JSON', async () => {
      const enc = await s.call('POST', NOTE, { token: admin, body: { authEncode: 1 } });
      const [wrapped, cipher] = (enc.body.data as string).split('.');
      // Unwrap with plain RSA (no padding) and strip the PKCS#1 v1.5 type-2 padding by hand.
      const block = crypto.privateDecrypt({ key: s.app.keys.responsePrivatePem, padding: crypto.constants.RSA_NO_PADDING }, Buffer.from(wrapped, 'base64'));
      expect(block[0]).toBe(0);
      expect(block[1]).toBe(2);
      const keyIv = block.subarray(block.indexOf(0, 2) + 1).toString('utf8');
      expect(keyIv).toHaveLength(32);
      const decipher = crypto.createDecipheriv('aes-128-cbc', Buffer.from(keyIv.slice(0, 16)), Buffer.from(keyIv.slice(16)));
      const deflated = Buffer.concat([decipher.update(Buffer.from(cipher, 'base64')), decipher.final()]);
      const json = JSON.parse(zlib.inflateSync(deflated).toString('utf8'));
      expect(json).toEqual((await s.call('POST', NOTE, { token: admin })).body.data);
    });

    it('uses a fresh key for each answer', async () => {
      const a = await s.call('POST', NOTE, { token: admin, body: { authEncode: 1 } });
      const b = await s.call('POST', NOTE, { token: admin, body: { authEncode: 1 } });
      expect(a.body.data).not.toBe(b.body.data);
      expect(s.decrypt(a.body.data)).toEqual(s.decrypt(b.body.data));
    });

    it('encrypts a RuoYi list as {rows,total} and drops the plain rows', async () => {
      const plain = await s.call('GET', '/dev-api/monitor/online/list', { token: admin });
      expect(plain.body.code).toBe(200);
      expect(plain.body.total).toBeGreaterThan(0);
      const enc = await s.call('GET', '/dev-api/monitor/online/list', { token: admin, query: { authEncode: 1 } });
      expect(enc.body.code).toBe(20000);
      expect(enc.body.msg).toBe('查询成功');
      expect(enc.body).not.toHaveProperty('rows');
      expect(enc.body).not.toHaveProperty('total');
      const list = s.decrypt<{ rows: unknown[]; total: number }>(enc.body.data);
      expect(Object.keys(list).sort()).toEqual(['rows', 'total']);
      expect(list.total).toBe(plain.body.total);
      expect(list.rows).toEqual(plain.body.rows);
    });

    it('never encrypts a failure, so its message stays readable', async () => {
      const res = await s.call('POST', '/dev-api/api/login/login', { body: { username: 'admin', password: 'wrong-password', authEncode: 1 } });
      expect(res.body.code).toBe(500);
      expect(res.body.msg).toMatch(/^账号或密码错误/);
      const anonymous = await s.call('POST', NOTE, { body: { authEncode: 1 } });
      expect(anonymous.body).toEqual({ code: 401, msg: '未登录或登录已过期，请先登录' });
      // Reset the failure counter for the other tests.
      await s.login('admin', 'admin123');
    });

    it('round-trips Chinese text and an empty answer', async () => {
      const enc = await s.call('GET', PLATFORM_INFO, { query: { authEncode: 1 } });
      const info = s.decrypt<{ title: string }>(enc.body.data);
      expect(info.title).toBe('志愿填报管理系统');
      const out = await s.login('expert', 'expert123');
      const logout = await s.call('POST', '/dev-api/api/login/logout', { token: out, body: { authEncode: 1 } });
      expect(logout.body.code).toBe(20000);
      expect(logout.body.msg).toBe('退出成功');
      expect(s.decrypt(logout.body.data)).toBeNull();
    });
  });

  describe('unknown paths', () => {
    it.each(['GET', 'POST', 'DELETE'])('answers an unknown %s API path with a 404 envelope (no signature needed)', async (method) => {
      for (const url of ['/dev-api/api/nope', '/appv2/api/index/nothing', '/dev-api/system/platform/extra']) {
        const res = await s.call(method, `${url}?x=1`, { sign: false });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ code: 404, msg: `接口不存在：${method} ${url}` });
      }
    });

    it('answers a known path with the wrong method as 404, not as a handler', async () => {
      const res = await s.call('DELETE', '/dev-api/api/login/login');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 404, msg: '接口不存在：DELETE /dev-api/api/login/login' });
    });

    it('answers an unknown non-API path with 404 资源不存在 when the console is not served', async () => {
      const res = await s.call('GET', '/some/page', { sign: false });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 404, msg: '资源不存在' });
    });
  });
});
