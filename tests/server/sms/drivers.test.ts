import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmsSender } from '../../../server/sms/index.js';
import { type SmsConfig, smsConfigFromEnv } from '../../../server/sms/settings.js';
import { aliyunFake, type FakeProvider, tencentFake } from './fakes.js';

/**
 * The real SMS drivers (the providers' official SDKs) against local fakes that check the SDKs' signatures with the
 * configured secret: what reaches the provider, and what the user and the log see when the provider refuses.
 */

const ALIYUN = {
  accessKeyId: 'LTAI5tTestKeyId',
  accessKeySecret: 'aliyun-secret-3f9c',
  signName: '智远教育',
  templates: { SMS_100: ['code'], SMS_200: ['number'] },
};
const TENCENT = {
  secretId: 'AKIDtestSecretId',
  secretKey: 'tencent-secret-8d2e',
  sdkAppId: '1400000001',
  signName: '智远教育',
  templates: { '2001': 1, '2002': 2 },
};

/** A logger that keeps what it was given, to check what a refusal logs (and that no secret is among it). */
function capturingLog() {
  const lines: Array<{ level: string; obj: unknown; msg: string }> = [];
  const at =
    (level: string) =>
    (obj: unknown, msg = '') =>
      lines.push({ level, obj, msg });
  const log = {
    level: 'info',
    fatal: at('fatal'),
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    trace: at('trace'),
    silent: () => {},
  } as Record<string, unknown>;
  log.child = () => log;
  return { log: log as unknown as FastifyBaseLogger, lines, text: () => JSON.stringify(lines) };
}

const failure = (reason: string) => `短信发送失败：${reason}，请稍后重试或联系管理员`;

async function refusal(promise: Promise<void>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('the send was expected to fail');
}

describe('阿里云短信 driver (@alicloud/dysmsapi20170525) against a local fake', () => {
  let fake: FakeProvider;
  const env = (extra: Record<string, string> = {}): SmsConfig =>
    smsConfigFromEnv({
      SMS_DRIVER: 'aliyun',
      SMS_ALIYUN_ACCESS_KEY_ID: ALIYUN.accessKeyId,
      SMS_ALIYUN_ACCESS_KEY_SECRET: ALIYUN.accessKeySecret,
      SMS_ALIYUN_SIGN_NAME: ALIYUN.signName,
      SMS_ALIYUN_TEMPLATE_CODE: 'SMS_100',
      SMS_ALIYUN_ENDPOINT: fake.url,
      ...extra,
    });
  beforeAll(async () => {
    fake = await aliyunFake(ALIYUN);
  });
  afterAll(async () => {
    await fake?.close();
  });

  it('sends the code as the template parameter, signed with the AccessKey secret', async () => {
    const { log } = capturingLog();
    const sender = createSmsSender(env(), log);
    expect(sender.driver).toBe('aliyun');
    await sender.send('13800001234', '482913');
    expect(fake.sent.at(-1)).toEqual({ phone: '13800001234', signName: '智远教育', template: 'SMS_100', params: { code: '482913' } });
    expect(fake.refused).toEqual([]);
  });

  it('puts the code under the configured variable name (SMS_ALIYUN_CODE_PARAM)', async () => {
    const sender = createSmsSender(env({ SMS_ALIYUN_TEMPLATE_CODE: 'SMS_200', SMS_ALIYUN_CODE_PARAM: 'number' }), capturingLog().log);
    await sender.send('13800001235', '000731');
    expect(fake.sent.at(-1)).toEqual({ phone: '13800001235', signName: '智远教育', template: 'SMS_200', params: { number: '000731' } });
  });

  it('a wrong secret is refused by the provider: the user gets the Chinese error, the log the code, never the secret', async () => {
    const { log, lines, text } = capturingLog();
    const sender = createSmsSender(env({ SMS_ALIYUN_ACCESS_KEY_SECRET: 'not-the-secret' }), log);
    const sentBefore = fake.sent.length;
    expect(await refusal(sender.send('13800001236', '111222'))).toBe(failure('短信服务账号校验未通过'));
    expect(fake.refused.at(-1)).toBe('SignatureDoesNotMatch');
    expect(fake.sent).toHaveLength(sentBefore);
    expect(lines.filter((l) => l.level === 'error')).toHaveLength(1);
    expect(lines[0].obj).toMatchObject({ sms: 'aliyun', providerCode: 'SignatureDoesNotMatch', mobile: '138****1236' });
    expect(text()).not.toContain('not-the-secret');
    expect(text()).not.toContain(ALIYUN.accessKeySecret);
    expect(text()).not.toContain('111222');
  });

  it('a template the account does not have becomes the template error', async () => {
    const { log, lines } = capturingLog();
    const sender = createSmsSender(env({ SMS_ALIYUN_TEMPLATE_CODE: 'SMS_404' }), log);
    expect(await refusal(sender.send('13800001237', '333444'))).toBe(failure('短信签名或模板配置有误'));
    expect(lines[0].obj).toMatchObject({ providerCode: 'isv.SMS_TEMPLATE_ILLEGAL' });
  });

  it('the provider’s flow control of one number becomes "too frequent"', async () => {
    fake.perNumberLimit = 1;
    try {
      const sender = createSmsSender(env(), capturingLog().log);
      await sender.send('13800001238', '555666');
      expect(await refusal(sender.send('13800001238', '777888'))).toBe(failure('该手机号接收短信过于频繁'));
      expect(fake.refused.at(-1)).toBe('isv.BUSINESS_LIMIT_CONTROL');
    } finally {
      fake.perNumberLimit = undefined;
    }
  });

  it('a provider that cannot be reached becomes "unavailable"', async () => {
    const { log, lines } = capturingLog();
    const sender = createSmsSender(env({ SMS_ALIYUN_ENDPOINT: 'http://127.0.0.1:1' }), log);
    expect(await refusal(sender.send('13800001239', '999000'))).toBe(failure('短信服务暂时不可用'));
    expect(lines[0].level).toBe('error');
  });
});

describe('腾讯云短信 driver (tencentcloud-sdk-nodejs-sms) against a local fake', () => {
  let fake: FakeProvider;
  const env = (extra: Record<string, string> = {}): SmsConfig =>
    smsConfigFromEnv({
      SMS_DRIVER: 'tencent',
      SMS_TENCENT_SECRET_ID: TENCENT.secretId,
      SMS_TENCENT_SECRET_KEY: TENCENT.secretKey,
      SMS_TENCENT_SDK_APP_ID: TENCENT.sdkAppId,
      SMS_TENCENT_SIGN_NAME: TENCENT.signName,
      SMS_TENCENT_TEMPLATE_ID: '2001',
      SMS_TENCENT_ENDPOINT: fake.url,
      ...extra,
    });
  beforeAll(async () => {
    fake = await tencentFake(TENCENT);
  });
  afterAll(async () => {
    await fake?.close();
  });

  it('sends the code as the template’s parameter to the +86 number, signed with the SecretKey', async () => {
    const sender = createSmsSender(env(), capturingLog().log);
    expect(sender.driver).toBe('tencent');
    await sender.send('13900001234', '482913');
    expect(fake.sent.at(-1)).toEqual({ phone: '+8613900001234', signName: '智远教育', template: '2001', params: ['482913'] });
    expect(fake.refused).toEqual([]);
  });

  it('fills the positional parameters in the configured order (SMS_TENCENT_TEMPLATE_PARAMS)', async () => {
    const sender = createSmsSender(env({ SMS_TENCENT_TEMPLATE_ID: '2002', SMS_TENCENT_TEMPLATE_PARAMS: '{code}, 5' }), capturingLog().log);
    await sender.send('13900001235', '000731');
    expect(fake.sent.at(-1)).toEqual({ phone: '+8613900001235', signName: '智远教育', template: '2002', params: ['000731', '5'] });
  });

  it('a wrong secret is refused by the provider: the user gets the Chinese error, the log the code, never the secret', async () => {
    const { log, lines, text } = capturingLog();
    const sender = createSmsSender(env({ SMS_TENCENT_SECRET_KEY: 'not-the-secret' }), log);
    const sentBefore = fake.sent.length;
    expect(await refusal(sender.send('13900001236', '111222'))).toBe(failure('短信服务账号校验未通过'));
    expect(fake.refused.at(-1)).toBe('AuthFailure.SignatureFailure');
    expect(fake.sent).toHaveLength(sentBefore);
    expect(lines[0].obj).toMatchObject({ sms: 'tencent', providerCode: 'AuthFailure.SignatureFailure', mobile: '139****1236' });
    expect(text()).not.toContain('not-the-secret');
    expect(text()).not.toContain(TENCENT.secretKey);
    expect(text()).not.toContain('111222');
  });

  it('parameters that do not fit the template become the template error', async () => {
    const { log, lines } = capturingLog();
    // Template 2002 has two variables; only the code is given.
    const sender = createSmsSender(env({ SMS_TENCENT_TEMPLATE_ID: '2002' }), log);
    expect(await refusal(sender.send('13900001237', '333444'))).toBe(failure('短信签名或模板配置有误'));
    expect(lines[0].obj).toMatchObject({ providerCode: 'FailedOperation.TemplateParamSetNotMatchApprovedTemplate' });
  });

  it('the provider’s limit of one number (its status in SendStatusSet) becomes "too frequent"', async () => {
    fake.perNumberLimit = 1;
    try {
      const sender = createSmsSender(env(), capturingLog().log);
      await sender.send('13900001238', '555666');
      expect(await refusal(sender.send('13900001238', '777888'))).toBe(failure('该手机号接收短信过于频繁'));
      expect(fake.refused.at(-1)).toBe('LimitExceeded.PhoneNumberThirtySecondLimit');
    } finally {
      fake.perNumberLimit = undefined;
    }
  });

  it('a provider that cannot be reached becomes "unavailable"', async () => {
    const sender = createSmsSender(env({ SMS_TENCENT_ENDPOINT: 'http://127.0.0.1:1' }), capturingLog().log);
    expect(await refusal(sender.send('13900001239', '999000'))).toBe(failure('短信服务暂时不可用'));
  });
});
