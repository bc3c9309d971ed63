import { AlipaySdk } from 'alipay-sdk';
import type { Db } from '../../db/types.js';
import {
  fenToYuanText,
  NotificationRefused,
  type NotifyAnswer,
  type PaymentRequest,
  type PaymentStart,
  type PayProvider,
  type RawNotification,
  type RefundRequest,
  type TradeQuery,
  type VerifiedPayment,
  yuanTextToFen,
} from './provider.js';

/**
 * Alipay (支付宝) through the official Node SDK `alipay-sdk` (v4, Node ≥ 18): the 电脑网站支付 cashier page
 * (alipay.trade.page.pay) for a payment, RSA2 verification of every asynchronous notification with the Alipay public
 * key, refunds, queries and closing through the gateway (response signatures verified too). Keys come from
 * configuration (docs/finance-payments.md: ALIPAY_APP_ID, ALIPAY_PRIVATE_KEY, ALIPAY_PUBLIC_KEY, ALIPAY_GATEWAY).
 */

export interface AlipayConfig {
  appId: string;
  /** The application's private key (PEM, PKCS#1 or PKCS#8). */
  privateKey: string;
  /** Alipay's public key (PEM) — verifies notifications and answers. */
  alipayPublicKey: string;
  /** Default https://openapi.alipay.com/gateway.do (sandbox: https://openapi-sandbox.dl.alipaydev.com/gateway.do). */
  gateway?: string;
}

const PAID = new Set(['TRADE_SUCCESS', 'TRADE_FINISHED']);

/** 'YYYY-MM-DD HH:mm:ss' in Beijing time (Alipay's clock) → epoch ms. */
function beijingTime(s: unknown): number {
  const m = typeof s === 'string' ? /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(s) : null;
  if (!m) return Date.now();
  return Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4] - 8, +m[5], +m[6]);
}

function beijingText(ms: number): string {
  const d = new Date(ms + 8 * 3600_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
}

export class AlipayProvider implements PayProvider {
  readonly name = 'alipay' as const;
  private readonly sdk: AlipaySdk;

  constructor(private readonly config: AlipayConfig) {
    this.sdk = new AlipaySdk({
      appId: config.appId,
      privateKey: config.privateKey,
      alipayPublicKey: config.alipayPublicKey,
      gateway: config.gateway ?? 'https://openapi.alipay.com/gateway.do',
      signType: 'RSA2',
      keyType: config.privateKey.includes('BEGIN RSA PRIVATE KEY') ? 'PKCS1' : 'PKCS8',
      timeout: 10_000,
    });
  }

  async createPayment(_db: Db, r: PaymentRequest): Promise<PaymentStart> {
    const url = this.sdk.pageExecute('alipay.trade.page.pay', 'GET', {
      bizContent: {
        out_trade_no: r.orderNo,
        total_amount: fenToYuanText(r.amountFen),
        subject: r.subject.slice(0, 128),
        product_code: 'FAST_INSTANT_TRADE_PAY',
        time_expire: beijingText(r.expireTime),
      },
      notifyUrl: r.notifyUrl,
    });
    return { payUrl: url, qrText: url };
  }

  async verifyNotification(raw: RawNotification): Promise<VerifiedPayment | null> {
    const data = Object.fromEntries(new URLSearchParams(raw.body));
    if (!data.sign) throw new NotificationRefused('缺少签名');
    let valid = false;
    try {
      valid = this.sdk.checkNotifySignV2(data);
    } catch {
      valid = false;
    }
    if (!valid) throw new NotificationRefused('签名验证失败');
    if (data.app_id !== this.config.appId) throw new NotificationRefused('应用 ID 不符');
    if (!PAID.has(data.trade_status)) return null;
    const amountFen = yuanTextToFen(data.total_amount);
    if (amountFen === null || !data.out_trade_no || !data.trade_no) throw new NotificationRefused('通知字段不完整');
    return { orderNo: data.out_trade_no, amountFen, providerTradeNo: data.trade_no, paidAt: beijingTime(data.gmt_payment) };
  }

  answer(accepted: boolean): NotifyAnswer {
    return { status: 200, contentType: 'text/plain; charset=utf-8', body: accepted ? 'success' : 'failure' };
  }

  private async exec(method: string, bizContent: Record<string, unknown>) {
    return this.sdk.exec(method, { bizContent }, { validateSign: true });
  }

  async refund(_db: Db, r: RefundRequest): Promise<void> {
    const res = await this.exec('alipay.trade.refund', {
      out_trade_no: r.orderNo,
      refund_amount: fenToYuanText(r.amountFen),
      out_request_no: r.refundNo,
      refund_reason: r.reason.slice(0, 256),
    });
    if (res.code !== '10000') throw new Error(`支付宝退款失败：${res.subMsg ?? res.msg ?? res.code}`);
  }

  async query(_db: Db, orderNo: string): Promise<TradeQuery> {
    const res = await this.exec('alipay.trade.query', { out_trade_no: orderNo });
    if (res.code !== '10000') return { state: 'UNKNOWN' };
    const status = String(res.tradeStatus ?? '');
    const state = PAID.has(status) ? 'PAID' : status === 'WAIT_BUYER_PAY' ? 'WAIT' : status === 'TRADE_CLOSED' ? 'CLOSED' : 'UNKNOWN';
    return {
      state,
      providerTradeNo: res.tradeNo,
      amountFen: yuanTextToFen(res.totalAmount) ?? undefined,
      paidAt: res.sendPayDate ? beijingTime(res.sendPayDate) : undefined,
    };
  }

  async close(_db: Db, orderNo: string): Promise<void> {
    const res = await this.exec('alipay.trade.close', { out_trade_no: orderNo });
    // A trade the payer never opened does not exist at Alipay: nothing to close.
    if (res.code !== '10000' && res.subCode !== 'ACQ.TRADE_NOT_EXIST') throw new Error(`支付宝关单失败：${res.subMsg ?? res.msg ?? res.code}`);
  }
}
