import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { payConfigFromEnv } from '../../../server/finance/pay/index.js';

/** The sandbox lets anyone who opens its page "pay": it is on by default only where no money can be at stake. */
describe('which payment providers are offered', () => {
  const pem = (k: { export(o: { type: 'spki' | 'pkcs8'; format: 'pem' }): string | Buffer }, type: 'spki' | 'pkcs8') =>
    String(k.export({ type, format: 'pem' }));
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const alipay = { ALIPAY_APP_ID: '2021000000000000', ALIPAY_PRIVATE_KEY: pem(privateKey, 'pkcs8'), ALIPAY_PUBLIC_KEY: pem(publicKey, 'spki') };

  it('a development or demo server without real providers has the sandbox', () => {
    expect(payConfigFromEnv({ NODE_ENV: 'development' }).sandbox).toBe(true);
    expect(payConfigFromEnv({}).sandbox).toBe(true);
  });
  it('production, or a configured real provider, turns it off unless forced on', () => {
    expect(payConfigFromEnv({ NODE_ENV: 'production' }).sandbox).toBe(false);
    const withAlipay = payConfigFromEnv({ ...alipay });
    expect(withAlipay.alipay).toBeDefined();
    expect(withAlipay.sandbox).toBe(false);
    expect(payConfigFromEnv({ NODE_ENV: 'production', PAY_SANDBOX: '1' }).sandbox).toBe(true);
    expect(payConfigFromEnv({ PAY_SANDBOX: '0' }).sandbox).toBe(false);
  });
});
