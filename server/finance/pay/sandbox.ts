import crypto from 'node:crypto';
import type { Db } from '../../db/types.js';
import { loadOrCreateSecret } from '../../security/secretFiles.js';
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
 * The sandbox provider (the default; works offline). It behaves like a real one: it keeps its own trades
 * (fin_sandbox_trade — the "provider side"), shows a payment page of ours (/pay/sandbox/<tradeNo>, see
 * sandboxPage.ts), and once paid posts an HMAC-SHA256-signed asynchronous notification to /pay/notify/sandbox. The
 * key is generated into DATA_DIR/keys/pay-sandbox.key (several processes sharing DATA_DIR share it).
 */

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';

/** The current key only: a notice is signed and checked within one process's run, nothing signed outlives a rotation. */
export function loadOrCreateSandboxKey(dataDir: string): Buffer {
  return loadOrCreateSecret(dataDir, 'pay-sandbox');
}

export interface SandboxNotice {
  notifyId: string;
  orderNo: string;
  tradeNo: string;
  amountFen: number;
  status: 'PAID';
  paidAt: number;
}

export const signSandbox = (key: Buffer, body: string) => crypto.createHmac('sha256', key).update(body).digest('hex');

export const sandboxPagePath = (tradeNo: string) => `/pay/sandbox/${tradeNo}`;

export class SandboxProvider implements PayProvider {
  readonly name = 'sandbox' as const;
  constructor(private readonly key: Buffer) {}

  async createPayment(db: Db, r: PaymentRequest): Promise<PaymentStart> {
    const tradeNo = `SB${Date.now()}${crypto.randomBytes(5).toString('hex')}`;
    await db
      .insertInto('finSandboxTrade')
      .values({ tradeNo, orderNo: r.orderNo, amountFen: r.amountFen, subject: r.subject, status: 'WAIT', createTime: Date.now(), paidTime: null })
      .execute();
    const page = sandboxPagePath(tradeNo);
    return { payUrl: page, qrText: page };
  }

  /** Signs a notice the way the sandbox sends it (also used by tests to forge or replay). */
  sign(notice: SandboxNotice): RawNotification {
    const body = JSON.stringify(notice);
    return { headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signSandbox(this.key, body) }, body };
  }

  async verifyNotification(raw: RawNotification): Promise<VerifiedPayment | null> {
    const given = raw.headers[SANDBOX_SIGNATURE_HEADER] ?? '';
    const want = signSandbox(this.key, raw.body);
    if (given.length !== want.length || !crypto.timingSafeEqual(Buffer.from(given), Buffer.from(want))) throw new NotificationRefused('签名验证失败');
    let n: SandboxNotice;
    try {
      n = JSON.parse(raw.body) as SandboxNotice;
    } catch {
      throw new NotificationRefused('通知内容不是合法的 JSON');
    }
    if (n.status !== 'PAID') return null;
    if (typeof n.orderNo !== 'string' || typeof n.tradeNo !== 'string' || !Number.isSafeInteger(n.amountFen)) throw new NotificationRefused('通知字段不完整');
    return { orderNo: n.orderNo, amountFen: n.amountFen, providerTradeNo: n.tradeNo, paidAt: Number(n.paidAt) || Date.now() };
  }

  answer(accepted: boolean, message?: string): NotifyAnswer {
    return { status: accepted ? 200 : 400, contentType: 'text/plain; charset=utf-8', body: accepted ? 'success' : `fail: ${message ?? ''}` };
  }

  async refund(db: Db, r: RefundRequest): Promise<void> {
    const res = await db
      .updateTable('finSandboxTrade')
      .set({ status: 'REFUNDED' })
      .where('orderNo', '=', r.orderNo)
      .where('status', '=', 'PAID')
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw new Error('模拟支付：该交易未支付或已退款');
  }

  async query(db: Db, orderNo: string): Promise<TradeQuery> {
    const t = await db.selectFrom('finSandboxTrade').selectAll().where('orderNo', '=', orderNo).executeTakeFirst();
    if (!t) return { state: 'UNKNOWN' };
    return {
      state: t.status as TradeQuery['state'],
      providerTradeNo: t.tradeNo,
      amountFen: Number(t.amountFen),
      paidAt: t.paidTime ? Number(t.paidTime) : undefined,
    };
  }

  async close(db: Db, orderNo: string): Promise<void> {
    await db.updateTable('finSandboxTrade').set({ status: 'CLOSED' }).where('orderNo', '=', orderNo).where('status', '=', 'WAIT').execute();
  }
}
