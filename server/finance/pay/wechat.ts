import crypto from 'node:crypto';
import type { Db } from '../../db/types.js';
import {
  NotificationRefused,
  type NotifyAnswer,
  type PaymentRequest,
  type PaymentStart,
  type PayProvider,
  type RawNotification,
  type RefundRequest,
  type TradeQuery,
  type VerifiedPayment,
} from './provider.js';

/**
 * WeChat Pay API v3 (微信支付), implemented on node:crypto after the published scheme: the most-used Node package
 * (wechatpay-node-v3) declares no Node engine and fixes the API host, so it can be neither pinned for Node 20 nor
 * pointed at a local fake. Requests are signed WECHATPAY2-SHA256-RSA2048 with the merchant key; answers and
 * notifications are verified with the platform public key over "timestamp\nnonce\nbody\n"; a notification's resource
 * is decrypted with the APIv3 key (AEAD_AES_256_GCM). Native payment (a code_url the payer scans).
 */

export interface WechatConfig {
  appId: string;
  mchId: string;
  /** Serial number of the merchant API certificate. */
  serialNo: string;
  /** Merchant API private key (PEM). */
  privateKey: string;
  /** APIv3 key: 32 characters. */
  apiV3Key: string;
  /** WeChat Pay platform certificate or public key (PEM). */
  platformPublicKey: string;
  /** Its serial (Wechatpay-Serial); checked when given. */
  platformSerial?: string;
  /** Default https://api.mch.weixin.qq.com */
  baseUrl?: string;
}

/** A notification older than this is refused (replay window). */
const MAX_SKEW_S = 300;

function rfc3339(ms: number): string {
  const d = new Date(ms + 8 * 3600_000);
  return `${d.toISOString().slice(0, 19)}+08:00`;
}

export function decryptResource(apiV3Key: string, resource: { ciphertext: string; nonce: string; associated_data?: string }): string {
  const data = Buffer.from(resource.ciphertext, 'base64');
  if (data.length < 17) throw new NotificationRefused('通知密文无效');
  const decipher = crypto.createDecipheriv('aes-256-gcm', Buffer.from(apiV3Key, 'utf8'), Buffer.from(resource.nonce, 'utf8'));
  decipher.setAuthTag(data.subarray(data.length - 16));
  decipher.setAAD(Buffer.from(resource.associated_data ?? '', 'utf8'));
  try {
    return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString('utf8');
  } catch {
    throw new NotificationRefused('通知解密失败');
  }
}

export class WechatProvider implements PayProvider {
  readonly name = 'wechat' as const;
  private readonly base: string;

  constructor(private readonly config: WechatConfig) {
    if (Buffer.byteLength(config.apiV3Key, 'utf8') !== 32) throw new Error('微信支付 APIv3 密钥应为 32 个字符');
    this.base = (config.baseUrl ?? 'https://api.mch.weixin.qq.com').replace(/\/$/, '');
  }

  private verifySignature(headers: Record<string, string | undefined>, body: string, now = Date.now()): boolean {
    const ts = headers['wechatpay-timestamp'];
    const nonce = headers['wechatpay-nonce'];
    const signature = headers['wechatpay-signature'];
    if (!ts || !nonce || !signature) return false;
    if (!/^\d+$/.test(ts) || Math.abs(now / 1000 - Number(ts)) > MAX_SKEW_S) return false;
    const serial = headers['wechatpay-serial'];
    if (this.config.platformSerial && serial && serial !== this.config.platformSerial) return false;
    try {
      return crypto.verify('RSA-SHA256', Buffer.from(`${ts}\n${nonce}\n${body}\n`), this.config.platformPublicKey, Buffer.from(signature, 'base64'));
    } catch {
      return false;
    }
  }

  /** One signed API call; the answer's signature is verified before it is believed. */
  private async call(method: 'GET' | 'POST', path: string, payload?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
    const body = payload === undefined ? '' : JSON.stringify(payload);
    const ts = String(Math.floor(Date.now() / 1000));
    const nonce = crypto.randomBytes(16).toString('hex');
    const signature = crypto.sign('RSA-SHA256', Buffer.from(`${method}\n${path}\n${ts}\n${nonce}\n${body}\n`), this.config.privateKey).toString('base64');
    const auth = `WECHATPAY2-SHA256-RSA2048 mchid="${this.config.mchId}",nonce_str="${nonce}",signature="${signature}",timestamp="${ts}",serial_no="${this.config.serialNo}"`;
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: { authorization: auth, accept: 'application/json', 'content-type': 'application/json', 'user-agent': 'zhiyuan-console' },
      body: method === 'POST' ? body : undefined,
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    const headers = Object.fromEntries([...res.headers.entries()].map(([k, v]) => [k.toLowerCase(), v]));
    if (res.status < 300 && !this.verifySignature(headers, text)) throw new Error('微信支付应答签名验证失败');
    let json: Record<string, unknown> = {};
    if (text) {
      try {
        json = JSON.parse(text) as Record<string, unknown>;
      } catch {
        json = {};
      }
    }
    return { status: res.status, json };
  }

  async createPayment(_db: Db, r: PaymentRequest): Promise<PaymentStart> {
    const { status, json } = await this.call('POST', '/v3/pay/transactions/native', {
      appid: this.config.appId,
      mchid: this.config.mchId,
      description: r.subject.slice(0, 127),
      out_trade_no: r.orderNo,
      time_expire: rfc3339(r.expireTime),
      notify_url: r.notifyUrl,
      amount: { total: r.amountFen, currency: 'CNY' },
    });
    if (status >= 300 || typeof json.code_url !== 'string') throw new Error(`微信支付下单失败：${String(json.message ?? status)}`);
    return { qrText: json.code_url };
  }

  async verifyNotification(raw: RawNotification): Promise<VerifiedPayment | null> {
    if (!this.verifySignature(raw.headers, raw.body)) throw new NotificationRefused('签名验证失败');
    let n: { event_type?: string; resource?: { algorithm?: string; ciphertext: string; nonce: string; associated_data?: string } };
    try {
      n = JSON.parse(raw.body);
    } catch {
      throw new NotificationRefused('通知内容不是合法的 JSON');
    }
    if (n.event_type !== 'TRANSACTION.SUCCESS') return null;
    if (n.resource?.algorithm !== 'AEAD_AES_256_GCM') throw new NotificationRefused('通知加密方式不支持');
    let t: { mchid?: string; out_trade_no?: string; transaction_id?: string; trade_state?: string; success_time?: string; amount?: { total?: number } };
    try {
      t = JSON.parse(decryptResource(this.config.apiV3Key, n.resource));
    } catch (error) {
      if (error instanceof NotificationRefused) throw error;
      throw new NotificationRefused('通知资源不是合法的 JSON');
    }
    if (t.mchid !== this.config.mchId) throw new NotificationRefused('商户号不符');
    if (t.trade_state !== 'SUCCESS') return null;
    const amountFen = t.amount?.total;
    if (!t.out_trade_no || !t.transaction_id || !Number.isSafeInteger(amountFen)) throw new NotificationRefused('通知字段不完整');
    const paidAt = t.success_time ? Date.parse(t.success_time) : Date.now();
    return { orderNo: t.out_trade_no, amountFen: amountFen as number, providerTradeNo: t.transaction_id, paidAt: Number.isNaN(paidAt) ? Date.now() : paidAt };
  }

  answer(accepted: boolean, message?: string): NotifyAnswer {
    return accepted
      ? { status: 200, contentType: 'application/json', body: JSON.stringify({ code: 'SUCCESS', message: '成功' }) }
      : { status: 400, contentType: 'application/json', body: JSON.stringify({ code: 'FAIL', message: message ?? '失败' }) };
  }

  async refund(_db: Db, r: RefundRequest): Promise<void> {
    const { status, json } = await this.call('POST', '/v3/refund/domestic/refunds', {
      out_trade_no: r.orderNo,
      out_refund_no: r.refundNo,
      reason: r.reason.slice(0, 80),
      amount: { refund: r.amountFen, total: r.totalFen, currency: 'CNY' },
    });
    if (status >= 300) throw new Error(`微信支付退款失败：${String(json.message ?? status)}`);
  }

  async query(_db: Db, orderNo: string): Promise<TradeQuery> {
    const { status, json } = await this.call(
      'GET',
      `/v3/pay/transactions/out-trade-no/${encodeURIComponent(orderNo)}?mchid=${encodeURIComponent(this.config.mchId)}`,
    );
    if (status >= 300) return { state: 'UNKNOWN' };
    const s = String(json.trade_state ?? '');
    const state = s === 'SUCCESS' ? 'PAID' : s === 'NOTPAY' || s === 'USERPAYING' ? 'WAIT' : s === 'REFUND' ? 'REFUNDED' : s ? 'CLOSED' : 'UNKNOWN';
    const amount = json.amount as { total?: number } | undefined;
    return { state, providerTradeNo: json.transaction_id as string | undefined, amountFen: amount?.total };
  }

  async close(_db: Db, orderNo: string): Promise<void> {
    const { status, json } = await this.call('POST', `/v3/pay/transactions/out-trade-no/${encodeURIComponent(orderNo)}/close`, { mchid: this.config.mchId });
    if (status >= 300 && json.code !== 'ORDER_NOT_EXIST') throw new Error(`微信支付关单失败：${String(json.message ?? status)}`);
  }
}
