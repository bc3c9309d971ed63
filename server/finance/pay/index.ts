import fs from 'node:fs';
import { fail } from '../../http/envelope.js';
import { type AlipayConfig, AlipayProvider } from './alipay.js';
import { type PayProvider, PROVIDER_TITLES, type ProviderName } from './provider.js';
import { SandboxProvider } from './sandbox.js';
import { type WechatConfig, WechatProvider } from './wechat.js';

/**
 * Which providers this server offers, from the environment (docs/finance-payments.md):
 *  - PAY_SANDBOX: the built-in sandbox, which lets anyone who opens its page "pay". It is on by default only where
 *    no money can be at stake: NODE_ENV is not production AND no real provider is configured; PAY_SANDBOX=1 forces
 *    it on (a staging server), PAY_SANDBOX=0 off.
 *  - PAY_NOTIFY_BASE: the public address of this server (https://example.com) the real providers post to.
 *  - PAY_ORDER_TIMEOUT_MIN (default 30): an unpaid order closes after this many minutes.
 *  - ALIPAY_APP_ID, ALIPAY_PRIVATE_KEY, ALIPAY_PUBLIC_KEY [, ALIPAY_GATEWAY]: Alipay is offered when all are set.
 *  - WECHAT_APP_ID, WECHAT_MCH_ID, WECHAT_MCH_SERIAL, WECHAT_MCH_PRIVATE_KEY, WECHAT_API_V3_KEY, WECHAT_PLATFORM_PUBLIC_KEY
 *    [, WECHAT_PLATFORM_SERIAL, WECHAT_API_BASE]: WeChat Pay is offered when all required are set.
 * A key may be the PEM text itself (\n escapes allowed) or the path of a PEM file.
 */

export interface PayConfig {
  sandbox: boolean;
  notifyBase: string;
  orderTimeoutMs: number;
  alipay?: AlipayConfig;
  wechat?: WechatConfig;
}

function pem(v: string | undefined): string | undefined {
  if (!v) return undefined;
  if (v.includes('-----BEGIN')) return v.replace(/\\n/g, '\n');
  return fs.existsSync(v) ? fs.readFileSync(v, 'utf8') : undefined;
}

export function payConfigFromEnv(env: NodeJS.ProcessEnv = process.env): PayConfig {
  const minutes = Number(env.PAY_ORDER_TIMEOUT_MIN ?? 30);
  const config: PayConfig = {
    sandbox: false,
    notifyBase: (env.PAY_NOTIFY_BASE ?? '').replace(/\/$/, ''),
    orderTimeoutMs: (Number.isFinite(minutes) && minutes > 0 ? minutes : 30) * 60_000,
  };
  const aliKey = pem(env.ALIPAY_PRIVATE_KEY);
  const aliPub = pem(env.ALIPAY_PUBLIC_KEY);
  if (env.ALIPAY_APP_ID && aliKey && aliPub)
    config.alipay = { appId: env.ALIPAY_APP_ID, privateKey: aliKey, alipayPublicKey: aliPub, gateway: env.ALIPAY_GATEWAY };
  const wxKey = pem(env.WECHAT_MCH_PRIVATE_KEY);
  const wxPlatform = pem(env.WECHAT_PLATFORM_PUBLIC_KEY);
  if (env.WECHAT_APP_ID && env.WECHAT_MCH_ID && env.WECHAT_MCH_SERIAL && wxKey && env.WECHAT_API_V3_KEY && wxPlatform) {
    config.wechat = {
      appId: env.WECHAT_APP_ID,
      mchId: env.WECHAT_MCH_ID,
      serialNo: env.WECHAT_MCH_SERIAL,
      privateKey: wxKey,
      apiV3Key: env.WECHAT_API_V3_KEY,
      platformPublicKey: wxPlatform,
      platformSerial: env.WECHAT_PLATFORM_SERIAL,
      baseUrl: env.WECHAT_API_BASE,
    };
  }
  const real = Boolean(config.alipay || config.wechat);
  config.sandbox = env.PAY_SANDBOX === '1' || (env.PAY_SANDBOX !== '0' && env.NODE_ENV !== 'production' && !real);
  return config;
}

/**
 * A production server (NODE_ENV=production) refuses to start with the sandbox forced on (PAY_SANDBOX=1): the sandbox
 * page lets anyone "pay", so on a server holding real customers it would mark orders paid that nobody paid. A staging
 * server that wants it runs without NODE_ENV=production. Checked by server/main.ts before anything is opened.
 */
export function payStartRefusal(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.NODE_ENV !== 'production' || env.PAY_SANDBOX !== '1') return null;
  return (
    '生产模式（NODE_ENV=production）不能开启模拟支付：PAY_SANDBOX=1 会让任何人不付款就把订单标记为已支付。' +
    '请去掉 PAY_SANDBOX 或设为 0，并配置支付宝或微信支付（见 docs/finance-payments.md）；需要模拟支付的测试环境请不要设置 NODE_ENV=production。'
  );
}

export class PayProviders {
  readonly sandbox?: SandboxProvider;
  private readonly drivers = new Map<ProviderName, PayProvider>();

  constructor(
    readonly config: PayConfig,
    sandboxKey: Buffer,
  ) {
    if (config.sandbox) {
      this.sandbox = new SandboxProvider(sandboxKey);
      this.drivers.set('sandbox', this.sandbox);
    }
    if (config.alipay) this.drivers.set('alipay', new AlipayProvider(config.alipay));
    if (config.wechat) this.drivers.set('wechat', new WechatProvider(config.wechat));
  }

  /** The enabled online providers, the default (first) first: a real one before the sandbox. */
  enabled(): ProviderName[] {
    return (['alipay', 'wechat', 'sandbox'] as const).filter((n) => this.drivers.has(n));
  }

  has(name: string): boolean {
    return this.drivers.has(name as ProviderName);
  }

  get(name: string): PayProvider {
    const d = this.drivers.get(name as ProviderName);
    if (!d) throw fail(`未启用的支付方式：${PROVIDER_TITLES[name] ?? name}`);
    return d;
  }

  /** Where a provider posts its notification. */
  notifyUrl(name: ProviderName): string {
    return `${this.config.notifyBase}/pay/notify/${name}`;
  }
}

/**
 * The providers of the running server, for callers that only hold a database handle (another module's refund).
 * Set once by the finance payment routes at start.
 */
let active: PayProviders | undefined;

export function setActiveProviders(p: PayProviders): void {
  active = p;
}

export function activeProviders(): PayProviders {
  if (!active) throw new Error('finance payments are not started (payRoutes not registered)');
  return active;
}
