import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf } from '../../../server/finance/ledger.js';
import { AlipayProvider } from '../../../server/finance/pay/alipay.js';
import { NotificationRefused } from '../../../server/finance/pay/provider.js';
import { WechatProvider } from '../../../server/finance/pay/wechat.js';
import { backends, startServer, type TestServer } from '../harness.js';
import { expectLedgerBalanced } from './ledgerInvariant.js';
import { apiOk, type Created, notify, order } from './payHelpers.js';

/**
 * The real drivers against local fakes that speak the providers' protocols and signatures: Alipay (RSA2 over the
 * sorted parameters; answers signed over the response node) and WeChat Pay v3 (WECHATPAY2-SHA256-RSA2048 requests,
 * platform signatures over "timestamp\nnonce\nbody\n", AES-256-GCM notification resources).
 */

const rsa = () =>
  crypto.generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
const sign = (key: string, text: string) => crypto.sign('RSA-SHA256', Buffer.from(text), key).toString('base64');

interface Fake {
  url: string;
  requests: Array<{ method: string; path: string; headers: http.IncomingHttpHeaders; body: string }>;
  close(): Promise<void>;
}

async function fakeServer(
  handle: (req: { method: string; path: string; headers: http.IncomingHttpHeaders; body: string }) => {
    status: number;
    headers?: Record<string, string>;
    body: string;
  },
): Promise<Fake> {
  const requests: Fake['requests'] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const r = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
      requests.push(r);
      const out = handle(r);
      res.writeHead(out.status, { 'content-type': 'application/json; charset=utf-8', ...(out.headers ?? {}) });
      res.end(out.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((r) => server.close(() => r())) };
}

describe('支付宝 driver (alipay-sdk) against a local fake', () => {
  const app = rsa();
  const ali = rsa();
  let gateway: Fake;
  let provider: AlipayProvider;
  const db = {} as never;

  beforeAll(async () => {
    gateway = await fakeServer((r) => {
      const params = Object.fromEntries(new URLSearchParams(r.path.split('?')[1] ?? ''));
      const form = Object.fromEntries(new URLSearchParams(r.body));
      const all = { ...params, ...form };
      // The request is signed with the application's key over the sorted parameters (sign excluded).
      const content = Object.keys(all)
        .filter((k) => k !== 'sign' && all[k] !== '')
        .sort()
        .map((k) => `${k}=${all[k]}`)
        .join('&');
      const valid = crypto.verify('RSA-SHA256', Buffer.from(content), app.publicKey, Buffer.from(all.sign ?? '', 'base64'));
      const key = `${String(all.method).replace(/\./g, '_')}_response`;
      const node = valid
        ? JSON.stringify({ code: '10000', msg: 'Success', out_trade_no: 'X', refund_fee: '1.00' })
        : JSON.stringify({ code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-signature', sub_msg: '验签出错' });
      return { status: 200, body: `{"${key}":${node},"sign":"${sign(ali.privateKey, node)}"}` };
    });
    provider = new AlipayProvider({
      appId: '2021000000000001',
      privateKey: app.privateKey,
      alipayPublicKey: ali.publicKey,
      gateway: `${gateway.url}/gateway.do`,
    });
  });
  afterAll(async () => {
    await gateway?.close();
  });

  const notice = (fields: Record<string, string>, key = ali.privateKey) => {
    const all: Record<string, string> = {
      app_id: '2021000000000001',
      notify_type: 'trade_status_sync',
      notify_id: 'n1',
      notify_time: '2026-01-02 10:00:00',
      charset: 'utf-8',
      version: '1.0',
      out_trade_no: 'R2026010200000001',
      trade_no: '2026010222001400000000000001',
      total_amount: '123.45',
      trade_status: 'TRADE_SUCCESS',
      gmt_payment: '2026-01-02 09:59:58',
      subject: '门店余额充值',
      ...fields,
    };
    const content = Object.keys(all)
      .sort()
      .map((k) => `${k}=${all[k]}`)
      .join('&');
    const body = new URLSearchParams({ ...all, sign_type: 'RSA2', sign: sign(key, content) }).toString();
    return { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body };
  };

  it('builds a signed cashier address', async () => {
    const start = await provider.createPayment(db, {
      orderNo: 'R1',
      amountFen: 12_345,
      subject: '门店余额充值',
      notifyUrl: 'https://example.com/pay/notify/alipay',
      expireTime: Date.now() + 60_000,
    });
    const url = new URL(start.payUrl as string);
    expect(url.origin + url.pathname).toBe(`${gateway.url}/gateway.do`);
    const params = Object.fromEntries(url.searchParams);
    expect(params.method).toBe('alipay.trade.page.pay');
    expect(JSON.parse(params.biz_content)).toMatchObject({ out_trade_no: 'R1', total_amount: '123.45', product_code: 'FAST_INSTANT_TRADE_PAY' });
    const content = Object.keys(params)
      .filter((k) => k !== 'sign')
      .sort()
      .map((k) => `${k}=${params[k]}`)
      .join('&');
    expect(crypto.verify('RSA-SHA256', Buffer.from(content), app.publicKey, Buffer.from(params.sign, 'base64'))).toBe(true);
  });

  it('verifies an RSA2 notification and refuses a forged or altered one', async () => {
    await expect(provider.verifyNotification(notice({}))).resolves.toMatchObject({
      orderNo: 'R2026010200000001',
      amountFen: 12_345,
      providerTradeNo: '2026010222001400000000000001',
    });
    const altered = notice({});
    await expect(provider.verifyNotification({ ...altered, body: altered.body.replace('total_amount=123.45', 'total_amount=999.99') })).rejects.toBeInstanceOf(
      NotificationRefused,
    );
    await expect(provider.verifyNotification(notice({}, rsa().privateKey))).rejects.toThrow('签名验证失败');
    await expect(provider.verifyNotification(notice({ app_id: '2021999' }))).rejects.toThrow('应用 ID 不符');
    await expect(provider.verifyNotification(notice({ trade_status: 'WAIT_BUYER_PAY' }))).resolves.toBeNull();
  });

  it('refunds through the gateway (signed request, verified answer)', async () => {
    await provider.refund(db, { orderNo: 'R1', providerTradeNo: 'T1', refundNo: 'RFR1', amountFen: 100, totalFen: 100, reason: '测试' });
    const last = gateway.requests.at(-1);
    expect(last?.path).toContain('method=alipay.trade.refund');
  });
});

describe('微信支付 v3 driver against a local fake', () => {
  const merchant = rsa();
  const platform = rsa();
  const apiV3Key = '0123456789abcdef0123456789abcdef';
  let api: Fake;
  let provider: WechatProvider;
  const db = {} as never;

  const platformHeaders = (body: string, ts = Math.floor(Date.now() / 1000)) => {
    const nonce = crypto.randomBytes(8).toString('hex');
    return {
      'wechatpay-timestamp': String(ts),
      'wechatpay-nonce': nonce,
      'wechatpay-serial': 'PLATFORM1',
      'wechatpay-signature': sign(platform.privateKey, `${ts}\n${nonce}\n${body}\n`),
    };
  };

  beforeAll(async () => {
    api = await fakeServer((r) => {
      // The request's Authorization: WECHATPAY2-SHA256-RSA2048 over "METHOD\nPATH\nTS\nNONCE\nBODY\n" with the merchant key.
      const auth = String(r.headers.authorization ?? '');
      const f = Object.fromEntries([...auth.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
      const valid =
        auth.startsWith('WECHATPAY2-SHA256-RSA2048 ') &&
        f.mchid === '1900000001' &&
        crypto.verify(
          'RSA-SHA256',
          Buffer.from(`${r.method}\n${r.path}\n${f.timestamp}\n${f.nonce_str}\n${r.body}\n`),
          merchant.publicKey,
          Buffer.from(f.signature ?? '', 'base64'),
        );
      if (!valid) return { status: 401, body: JSON.stringify({ code: 'SIGN_ERROR', message: '签名错误' }) };
      const body =
        r.path === '/v3/pay/transactions/native' ? JSON.stringify({ code_url: 'weixin://wxpay/bizpayurl?pr=abc' }) : JSON.stringify({ status: 'SUCCESS' });
      return { status: 200, headers: platformHeaders(body), body };
    });
    provider = new WechatProvider({
      appId: 'wx0000000000000001',
      mchId: '1900000001',
      serialNo: 'MERCHANT1',
      privateKey: merchant.privateKey,
      apiV3Key,
      platformPublicKey: platform.publicKey,
      platformSerial: 'PLATFORM1',
      baseUrl: api.url,
    });
  });
  afterAll(async () => {
    await api?.close();
  });

  const resource = (plain: object, key = apiV3Key) => {
    const nonce = crypto.randomBytes(6).toString('hex');
    const c = crypto.createCipheriv('aes-256-gcm', Buffer.from(key), Buffer.from(nonce));
    c.setAAD(Buffer.from('transaction'));
    const enc = Buffer.concat([c.update(JSON.stringify(plain)), c.final(), c.getAuthTag()]);
    return { algorithm: 'AEAD_AES_256_GCM', ciphertext: enc.toString('base64'), nonce, associated_data: 'transaction', original_type: 'transaction' };
  };
  const paid = (orderNo: string, total: number) => ({
    mchid: '1900000001',
    appid: 'wx0000000000000001',
    out_trade_no: orderNo,
    transaction_id: `4200${orderNo}`,
    trade_state: 'SUCCESS',
    success_time: '2026-01-02T10:00:00+08:00',
    amount: { total, payer_total: total, currency: 'CNY' },
  });
  const wxNotice = (plain: object, options: { key?: string; ts?: number } = {}) => {
    const body = JSON.stringify({
      id: 'EV-1',
      create_time: '2026-01-02T10:00:00+08:00',
      event_type: 'TRANSACTION.SUCCESS',
      resource_type: 'encrypt-resource',
      resource: resource(plain, options.key),
    });
    return { headers: { 'content-type': 'application/json', ...platformHeaders(body, options.ts) }, body };
  };

  it('creates a Native payment with a signed request and a verified answer', async () => {
    const start = await provider.createPayment(db, {
      orderNo: 'P1',
      amountFen: 100,
      subject: '客户付款',
      notifyUrl: 'https://example.com/pay/notify/wechat',
      expireTime: Date.now() + 60_000,
    });
    expect(start.qrText).toBe('weixin://wxpay/bizpayurl?pr=abc');
    expect(JSON.parse(api.requests.at(-1)?.body ?? '{}')).toMatchObject({ mchid: '1900000001', out_trade_no: 'P1', amount: { total: 100, currency: 'CNY' } });
  });

  it('verifies the platform signature, decrypts the resource, and refuses forgeries', async () => {
    await expect(provider.verifyNotification(wxNotice(paid('P1', 100)))).resolves.toMatchObject({ orderNo: 'P1', amountFen: 100, providerTradeNo: '4200P1' });
    const good = wxNotice(paid('P1', 100));
    await expect(provider.verifyNotification({ ...good, body: good.body.replace('EV-1', 'EV-2') })).rejects.toThrow('签名验证失败');
    await expect(provider.verifyNotification({ ...good, headers: { ...good.headers, 'wechatpay-signature': sign(rsa().privateKey, 'x') } })).rejects.toThrow(
      '签名验证失败',
    );
    await expect(provider.verifyNotification(wxNotice(paid('P1', 100), { ts: Math.floor(Date.now() / 1000) - 3600 }))).rejects.toThrow('签名验证失败');
    await expect(provider.verifyNotification(wxNotice(paid('P1', 100), { key: 'ffffffffffffffffffffffffffffffff' }))).rejects.toThrow('通知解密失败');
    await expect(provider.verifyNotification(wxNotice({ ...paid('P1', 100), mchid: '1900000002' }))).rejects.toThrow('商户号不符');
  });

  describe.each(backends)('end to end through /pay/notify/wechat (%s)', (backend) => {
    let s: TestServer;
    let admin: string;
    const saved = { ...process.env };

    beforeAll(async () => {
      Object.assign(process.env, {
        WECHAT_APP_ID: 'wx0000000000000001',
        WECHAT_MCH_ID: '1900000001',
        WECHAT_MCH_SERIAL: 'MERCHANT1',
        WECHAT_MCH_PRIVATE_KEY: merchant.privateKey,
        WECHAT_API_V3_KEY: apiV3Key,
        WECHAT_PLATFORM_PUBLIC_KEY: platform.publicKey,
        WECHAT_PLATFORM_SERIAL: 'PLATFORM1',
        WECHAT_API_BASE: api.url,
      });
      s = await startServer(backend);
      admin = await s.login('admin', 'admin123');
    });
    afterAll(async () => {
      process.env = saved;
      await s?.close();
    });

    it('a customer payment by WeChat Pay moves the collection wallet once; a forged notification does nothing', async () => {
      const before = await balanceOf(s.app.db.kysely, 2, 'collection');
      const o = await apiOk<Created>(s, admin, '/appv2/api/AlipayTool/creatAliOrder', { storeId: 2, amountFen: 8_800, provider: 'wechat' });
      expect(o.qrCode).toMatch(/^data:image\/png;base64,/);
      const forged = wxNotice(paid(o.orderNo, 8_800));
      forged.headers['wechatpay-signature'] = sign(rsa().privateKey, 'forged');
      expect((await notify(s, 'wechat', forged)).status).toBe(400);
      expect((await order(s, o.orderNo)).status).toBe('created');
      const real = wxNotice(paid(o.orderNo, 8_800));
      const first = await notify(s, 'wechat', real);
      expect(first).toEqual({ status: 200, body: JSON.stringify({ code: 'SUCCESS', message: '成功' }) });
      expect((await notify(s, 'wechat', real)).status).toBe(200);
      expect((await order(s, o.orderNo)).status).toBe('paid');
      expect(await balanceOf(s.app.db.kysely, 2, 'collection')).toBe(before + 8_800);
      await expectLedgerBalanced(s);
    });
  });
});
