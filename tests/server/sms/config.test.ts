import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, startupSummary } from '../../../server/config.js';

/** SMS_DRIVER and the providers' settings: read at start, refused with a Chinese message naming the variable. */

const root = path.resolve(import.meta.dirname, '../../..');

const ALIYUN = {
  SMS_DRIVER: 'aliyun',
  SMS_ALIYUN_ACCESS_KEY_ID: 'LTAI5tTestKeyId',
  SMS_ALIYUN_ACCESS_KEY_SECRET: 'aliyun-secret-3f9c',
  SMS_ALIYUN_SIGN_NAME: '智远教育',
  SMS_ALIYUN_TEMPLATE_CODE: 'SMS_100',
};
const TENCENT = {
  SMS_DRIVER: 'tencent',
  SMS_TENCENT_SECRET_ID: 'AKIDtestSecretId',
  SMS_TENCENT_SECRET_KEY: 'tencent-secret-8d2e',
  SMS_TENCENT_SDK_APP_ID: '1400000001',
  SMS_TENCENT_SIGN_NAME: '智远教育',
  SMS_TENCENT_TEMPLATE_ID: '2001',
};

const refusal = (env: Record<string, string>): string => {
  try {
    loadConfig(env);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('loadConfig was expected to refuse');
};

describe('SMS configuration', () => {
  it('defaults to the log driver', () => {
    expect(loadConfig({}).sms).toEqual({ driver: 'log' });
    expect(loadConfig({ SMS_DRIVER: 'LOG' }).sms).toEqual({ driver: 'log' });
  });

  it('reads the Aliyun settings with their defaults', () => {
    expect(loadConfig(ALIYUN).sms).toEqual({
      driver: 'aliyun',
      accessKeyId: 'LTAI5tTestKeyId',
      accessKeySecret: 'aliyun-secret-3f9c',
      signName: '智远教育',
      templateCode: 'SMS_100',
      codeParam: 'code',
      endpoint: undefined,
    });
    expect(loadConfig({ ...ALIYUN, SMS_ALIYUN_ENDPOINT: 'http://127.0.0.1:9000' }).sms).toMatchObject({
      endpoint: { protocol: 'http', host: '127.0.0.1:9000' },
    });
  });

  it('reads the Tencent settings with their defaults', () => {
    expect(loadConfig(TENCENT).sms).toEqual({
      driver: 'tencent',
      secretId: 'AKIDtestSecretId',
      secretKey: 'tencent-secret-8d2e',
      sdkAppId: '1400000001',
      signName: '智远教育',
      templateId: '2001',
      templateParams: ['{code}'],
      region: 'ap-guangzhou',
      endpoint: undefined,
    });
    expect(loadConfig({ ...TENCENT, SMS_TENCENT_TEMPLATE_PARAMS: '{code},5', SMS_TENCENT_REGION: 'ap-beijing' }).sms).toMatchObject({
      templateParams: ['{code}', '5'],
      region: 'ap-beijing',
    });
  });

  it('refuses a bad value or a missing setting, naming the variable', () => {
    expect(refusal({ SMS_DRIVER: 'aliyn' })).toBe('SMS_DRIVER 取值无效：aliyn（可选 log、aliyun、tencent）');
    expect(refusal({ SMS_DRIVER: 'aliyun', SMS_ALIYUN_ACCESS_KEY_ID: 'id', SMS_ALIYUN_SIGN_NAME: ' ' })).toBe(
      'SMS_DRIVER=aliyun（阿里云短信）需要设置 SMS_ALIYUN_ACCESS_KEY_SECRET、SMS_ALIYUN_SIGN_NAME、SMS_ALIYUN_TEMPLATE_CODE（见 docs/configuration.md 的“短信”一节）',
    );
    expect(refusal({ SMS_DRIVER: 'tencent' })).toBe(
      'SMS_DRIVER=tencent（腾讯云短信）需要设置 SMS_TENCENT_SECRET_ID、SMS_TENCENT_SECRET_KEY、SMS_TENCENT_SDK_APP_ID、SMS_TENCENT_SIGN_NAME、SMS_TENCENT_TEMPLATE_ID（见 docs/configuration.md 的“短信”一节）',
    );
    expect(refusal({ ...ALIYUN, SMS_ALIYUN_CODE_PARAM: 'verify-code' })).toMatch(/^SMS_ALIYUN_CODE_PARAM 取值无效：verify-code/);
    expect(refusal({ ...ALIYUN, SMS_ALIYUN_ENDPOINT: 'ftp://dysmsapi.aliyuncs.com' })).toBe(
      'SMS_ALIYUN_ENDPOINT 取值无效：ftp://dysmsapi.aliyuncs.com（应为服务地址，如 https://dysmsapi.aliyuncs.com，不带路径）',
    );
    expect(refusal({ ...TENCENT, SMS_TENCENT_SDK_APP_ID: 'app-1' })).toMatch(/^SMS_TENCENT_SDK_APP_ID 取值无效：app-1/);
    expect(refusal({ ...TENCENT, SMS_TENCENT_TEMPLATE_ID: 'SMS_100' })).toMatch(/^SMS_TENCENT_TEMPLATE_ID 取值无效：SMS_100/);
    expect(refusal({ ...TENCENT, SMS_TENCENT_TEMPLATE_PARAMS: '5,6' })).toMatch(/^SMS_TENCENT_TEMPLATE_PARAMS 取值无效：5,6（.*\{code\}/);
    expect(refusal({ ...TENCENT, SMS_TENCENT_REGION: 'guangzhou' })).toMatch(/^SMS_TENCENT_REGION 取值无效：guangzhou/);
  });

  it('the start-up summary names the driver and the sign name, never a key or secret', () => {
    const facts = { payProviders: [], users: 1, consoleBuild: '' };
    const smsLine = (env: Record<string, string>) => startupSummary(loadConfig(env), facts).find((l) => l.startsWith('短信：'));
    expect(smsLine({})).toBe('短信：日志驱动（不真正发送短信，验证码写入服务器日志）');
    expect(smsLine(ALIYUN)).toBe('短信：阿里云短信（签名“智远教育”）');
    expect(smsLine(TENCENT)).toBe('短信：腾讯云短信（签名“智远教育”）');
    const all = [...startupSummary(loadConfig(ALIYUN), facts), ...startupSummary(loadConfig(TENCENT), facts)].join('\n');
    for (const secret of [
      ALIYUN.SMS_ALIYUN_ACCESS_KEY_ID,
      ALIYUN.SMS_ALIYUN_ACCESS_KEY_SECRET,
      TENCENT.SMS_TENCENT_SECRET_ID,
      TENCENT.SMS_TENCENT_SECRET_KEY,
    ]) {
      expect(all).not.toContain(secret);
    }
  });

  it('the server refuses to start with a missing setting, before opening anything', async () => {
    const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'zy-sms-')), 'data');
    const env = { ...process.env, NODE_ENV: '', SMS_DRIVER: 'tencent', SMS_TENCENT_SECRET_ID: 'AKIDtestSecretId', DATA_DIR: dataDir, PORT: '1' };
    const res = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d) => {
        stderr += d;
      });
      child.on('error', reject);
      child.on('exit', (code) => resolve({ code, stderr }));
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('无法启动：SMS_DRIVER=tencent（腾讯云短信）需要设置 SMS_TENCENT_SECRET_KEY、SMS_TENCENT_SDK_APP_ID');
    expect(res.stderr).not.toContain('    at ');
    expect(fs.existsSync(dataDir)).toBe(false);
    fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
  });
});
