import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../../server/config.js';
import { signTimer } from '../../../server/security/protocol.js';
import { smsConfigFromEnv } from '../../../server/sms/settings.js';
import { type ApiBody, backends, startServer, type TestServer } from '../harness.js';
import { aliyunFake, type FakeProvider, tencentFake } from './fakes.js';

/**
 * 获取验证码 through the real route with a real driver talking to a local fake provider: the code the user types is the
 * one the provider was asked to deliver, the per-number and per-address limits stop requests before they reach the
 * provider (each one costs money), and a provider refusal is the user's Chinese error and holds no resend gap.
 */

const SEND_CODE = '/dev-api/api/index/sendCodev3';
const LOGIN = '/dev-api/api/login/login';
const LIMITS = { smsPerNumberHour: 2, smsPerAddressHour: 3 };

/** One request from a given client address, signed like the console's. */
async function from(s: TestServer, address: string, url: string, body: unknown): Promise<ApiBody> {
  const res = await s.app.inject({
    method: 'POST',
    url,
    headers: { ...signTimer(s.app.keys.requestPublicPem), 'content-type': 'application/json' },
    payload: JSON.stringify(body),
    remoteAddress: address,
  });
  return JSON.parse(res.body) as ApiBody;
}

/** Moves a number's codes two minutes into the past: past the 60 s resend gap, still inside the hourly limits. */
async function pastResendGap(s: TestServer, mobile: string) {
  await s.app.db.kysely
    .updateTable('sysSmsCode')
    .set((eb) => ({ createTime: eb('createTime', '-', 120_000) }))
    .where('mobile', '=', mobile)
    .execute();
}

describe.each(backends)('SMS codes through the route (%s)', (backend) => {
  describe('阿里云短信', () => {
    let fake: FakeProvider;
    let s: TestServer;
    beforeAll(async () => {
      fake = await aliyunFake({ accessKeyId: 'LTAI5tRouteKey', accessKeySecret: 'route-secret', signName: '智远教育', templates: { SMS_100: ['code'] } });
      const sms = smsConfigFromEnv({
        SMS_DRIVER: 'aliyun',
        SMS_ALIYUN_ACCESS_KEY_ID: 'LTAI5tRouteKey',
        SMS_ALIYUN_ACCESS_KEY_SECRET: 'route-secret',
        SMS_ALIYUN_SIGN_NAME: '智远教育',
        SMS_ALIYUN_TEMPLATE_CODE: 'SMS_100',
        SMS_ALIYUN_ENDPOINT: fake.url,
      });
      s = await startServer(backend, { sms, rateLimits: LIMITS } as Partial<ServerConfig>);
    });
    afterAll(async () => {
      await s?.close();
      await fake?.close();
    });

    it('the code the provider delivers signs the account in', async () => {
      const mobile = '13800000000'; // admin's number (seed)
      const sent = await from(s, '10.8.0.1', SEND_CODE, { mobile, type: 'login' });
      expect(sent).toEqual({ code: 200, msg: '验证码已发送', data: { driver: 'aliyun' } });
      const delivered = fake.sent.filter((m) => m.phone === mobile);
      expect(delivered).toHaveLength(1);
      const code = (delivered[0].params as Record<string, string>).code;
      expect(code).toMatch(/^\d{6}$/);
      const login = await from(s, '10.8.0.1', LOGIN, { mobile, code, loginType: 'sms' });
      expect(login.code).toBe(200);
      expect(typeof (login.data as { token?: unknown }).token).toBe('string');
    });

    it('per number: the third code within the hour is refused from any address and never reaches the provider', async () => {
      const mobile = '13911110001';
      for (const address of ['10.8.1.1', '10.8.1.2']) {
        await pastResendGap(s, mobile);
        expect((await from(s, address, SEND_CODE, { mobile, type: 'register' })).code).toBe(200);
      }
      await pastResendGap(s, mobile);
      const refused = await from(s, '10.8.1.3', SEND_CODE, { mobile, type: 'register' });
      expect(refused.code).toBe(429);
      expect(refused.msg).toMatch(/^该手机号获取验证码过于频繁，请 \d+ 分钟后再试$/);
      expect(fake.sent.filter((m) => m.phone === mobile)).toHaveLength(2);
    });

    it('per address: the fourth number asked from one address is refused and never reaches the provider', async () => {
      const numbers = ['13911120000', '13911120001', '13911120002', '13911120003'];
      const answers = [];
      for (const mobile of numbers) answers.push(await from(s, '10.8.2.1', SEND_CODE, { mobile, type: 'register' }));
      expect(answers.map((a) => a.code)).toEqual([200, 200, 200, 429]);
      expect(answers[3].msg).toMatch(/^获取验证码过于频繁，请 \d+ 分钟后再试$/);
      expect(fake.sent.filter((m) => numbers.includes(m.phone)).map((m) => m.phone)).toEqual(numbers.slice(0, 3));
      // Another address is not held back by this one.
      expect((await from(s, '10.8.2.2', SEND_CODE, { mobile: numbers[3], type: 'register' })).code).toBe(200);
    });

    it('a provider refusal is the user’s Chinese error; the undelivered code holds no resend gap', async () => {
      const mobile = '13911130000';
      fake.secret = 'revoked-in-the-console';
      try {
        const refused = await from(s, '10.8.3.1', SEND_CODE, { mobile, type: 'register' });
        expect(refused).toEqual({ code: 500, msg: '短信发送失败：短信服务账号校验未通过，请稍后重试或联系管理员' });
        expect(fake.refused.at(-1)).toBe('SignatureDoesNotMatch');
        const rows = await s.app.db.kysely.selectFrom('sysSmsCode').select('id').where('mobile', '=', mobile).execute();
        expect(rows).toEqual([]);
      } finally {
        fake.secret = 'route-secret';
      }
      // Once the key is right again, the user asks again at once (no "60 秒后再试") and the code arrives.
      expect((await from(s, '10.8.3.2', SEND_CODE, { mobile, type: 'register' })).code).toBe(200);
      expect(fake.sent.filter((m) => m.phone === mobile)).toHaveLength(1);
    });
  });

  describe('腾讯云短信', () => {
    let fake: FakeProvider;
    let s: TestServer;
    beforeAll(async () => {
      fake = await tencentFake({ secretId: 'AKIDroute', secretKey: 'route-secret', sdkAppId: '1400000009', signName: '智远教育', templates: { '2001': 1 } });
      const sms = smsConfigFromEnv({
        SMS_DRIVER: 'tencent',
        SMS_TENCENT_SECRET_ID: 'AKIDroute',
        SMS_TENCENT_SECRET_KEY: 'route-secret',
        SMS_TENCENT_SDK_APP_ID: '1400000009',
        SMS_TENCENT_SIGN_NAME: '智远教育',
        SMS_TENCENT_TEMPLATE_ID: '2001',
        SMS_TENCENT_ENDPOINT: fake.url,
      });
      s = await startServer(backend, { sms, rateLimits: LIMITS } as Partial<ServerConfig>);
    });
    afterAll(async () => {
      await s?.close();
      await fake?.close();
    });

    it('the code the provider delivers signs the account in; the per-number limit holds', async () => {
      const mobile = '13800000001';
      expect(await from(s, '10.9.0.1', SEND_CODE, { mobile, type: 'login' })).toEqual({ code: 200, msg: '验证码已发送', data: { driver: 'tencent' } });
      const [code] = fake.sent.filter((m) => m.phone === `+86${mobile}`).map((m) => (m.params as string[])[0]);
      expect(code).toMatch(/^\d{6}$/);
      const login = await from(s, '10.9.0.1', LOGIN, { mobile, code, loginType: 'sms' });
      expect(login.code).toBe(200);

      await pastResendGap(s, mobile);
      expect((await from(s, '10.9.0.2', SEND_CODE, { mobile, type: 'login' })).code).toBe(200);
      await pastResendGap(s, mobile);
      expect((await from(s, '10.9.0.3', SEND_CODE, { mobile, type: 'login' })).code).toBe(429);
      expect(fake.sent.filter((m) => m.phone === `+86${mobile}`)).toHaveLength(2);
    });
  });
});
