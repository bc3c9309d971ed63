import type { ProviderName } from '../../../common/finance/orders.js';
import type { Db } from '../../db/types.js';

/**
 * The payment provider interface (docs/finance-payments.md). A driver starts a payment (a page address and/or the
 * text of a QR code), verifies the provider's asynchronous notification (signature first, then the fields), refunds
 * and queries. Drivers never touch orders or the ledger: server/finance/orders.ts does, once a notification verified.
 */

export type { ProviderName };
export const PROVIDER_NAMES: readonly ProviderName[] = ['sandbox', 'alipay', 'wechat'];
export const PROVIDER_TITLES: Record<string, string> = { sandbox: '模拟支付', alipay: '支付宝', wechat: '微信支付', balance: '账户余额', offline: '线下转账' };

export interface PaymentRequest {
  orderNo: string;
  amountFen: number;
  subject: string;
  /** Absolute or server-relative address the provider posts its notification to. */
  notifyUrl: string;
  /** When the order stops accepting payment (epoch ms). */
  expireTime: number;
}

export interface PaymentStart {
  /** A page the payer opens (sandbox page, Alipay cashier). */
  payUrl?: string;
  /** Text to draw as a QR code for a phone to scan (WeChat Native code_url, the sandbox page). */
  qrText?: string;
}

/** The notification exactly as received: the raw body is what signatures cover. */
export interface RawNotification {
  headers: Record<string, string | undefined>;
  body: string;
}

/** A verified payment: the order it names, what was paid, the provider's trade number and when. */
export interface VerifiedPayment {
  orderNo: string;
  amountFen: number;
  providerTradeNo: string;
  paidAt: number;
}

/** What to answer the provider (each has its own success text). */
export interface NotifyAnswer {
  status: number;
  contentType: string;
  body: string;
}

export interface RefundRequest {
  orderNo: string;
  providerTradeNo: string;
  refundNo: string;
  amountFen: number;
  totalFen: number;
  reason: string;
}

export type TradeState = 'WAIT' | 'PAID' | 'CLOSED' | 'REFUNDED' | 'UNKNOWN';

export interface TradeQuery {
  state: TradeState;
  providerTradeNo?: string;
  amountFen?: number;
  paidAt?: number;
}

/** A notification whose signature or content does not hold: refused, nothing changes. */
export class NotificationRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotificationRefused';
  }
}

export interface PayProvider {
  readonly name: ProviderName;
  createPayment(db: Db, request: PaymentRequest): Promise<PaymentStart>;
  /** Throws NotificationRefused on a bad signature or malformed body; null for an event that is not a payment. */
  verifyNotification(raw: RawNotification): Promise<VerifiedPayment | null>;
  answer(accepted: boolean, message?: string): NotifyAnswer;
  refund(db: Db, request: RefundRequest): Promise<void>;
  query(db: Db, orderNo: string): Promise<TradeQuery>;
  /** Stops the provider from accepting payment for the order (before we close it on our side). */
  close(db: Db, orderNo: string): Promise<void>;
}

/** Fen ↔ the providers' yuan strings ("12.34"); integer arithmetic only. */
export function fenToYuanText(fen: number): string {
  const sign = fen < 0 ? '-' : '';
  const a = Math.abs(fen);
  return `${sign}${Math.floor(a / 100)}.${String(a % 100).padStart(2, '0')}`;
}

export function yuanTextToFen(text: unknown): number | null {
  const s = typeof text === 'string' ? text.trim() : typeof text === 'number' ? String(text) : '';
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(s);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}
