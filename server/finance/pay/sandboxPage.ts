import type { FastifyInstance, FastifyReply } from 'fastify';
import QRCode from 'qrcode';
import type { SandboxNotice, SandboxProvider } from './sandbox.js';

/**
 * The sandbox provider's side of the world: its payment page and its notifier. The page is plain HTML (no script, so
 * the CSP holds) at /pay/sandbox/<tradeNo> with the amount, a QR code of the page and two forms: 支付成功 and 取消.
 * Paying marks the sandbox trade paid and sends a signed notification to /pay/notify/sandbox — as a real provider
 * would: asynchronously and, when asked (PAY_SANDBOX_DELAY_MS, PAY_SANDBOX_DUPLICATE=1, or the test hooks of
 * `sandboxNotifier(app)`), late, twice, or held back and delivered out of order. Undelivered ones are retried.
 */

export interface SandboxMode {
  /** Wait this long before sending (a late notification). */
  delayMs: number;
  /** Send every notification twice. */
  duplicate: boolean;
  /** Keep notifications until flush() (which may deliver them in reverse: out of order). */
  hold: boolean;
}

const RETRY_DELAYS_MS = [1000, 5000, 15000];

export class SandboxNotifier {
  readonly mode: SandboxMode;
  readonly held: SandboxNotice[] = [];
  private readonly inflight = new Set<Promise<void>>();
  /** Answers of the notify endpoint, newest last (for tests and the server log). */
  readonly answers: Array<{ orderNo: string; status: number; body: string }> = [];
  private closed = false;

  constructor(
    private readonly app: FastifyInstance,
    private readonly provider: SandboxProvider,
    env: NodeJS.ProcessEnv = process.env,
  ) {
    this.mode = { delayMs: Math.max(0, Number(env.PAY_SANDBOX_DELAY_MS) || 0), duplicate: env.PAY_SANDBOX_DUPLICATE === '1', hold: false };
    app.addHook('onClose', async () => {
      this.closed = true;
    });
  }

  /** A paid trade's notification, sent according to the mode. */
  send(notice: SandboxNotice): void {
    if (this.mode.hold) {
      this.held.push(notice);
      if (this.mode.duplicate) this.held.push(notice);
      return;
    }
    const times = this.mode.duplicate ? 2 : 1;
    for (let i = 0; i < times; i++) this.track(this.later(notice, this.mode.delayMs));
  }

  /** Delivers the held notifications (reverse: out of order) and waits for them. */
  async flush(options: { reverse?: boolean } = {}): Promise<void> {
    const list = this.held.splice(0);
    if (options.reverse) list.reverse();
    for (const n of list) await this.deliver(n, 0);
    await this.settle();
  }

  /** Waits until every notification under way has been answered. */
  async settle(): Promise<void> {
    while (this.inflight.size) await Promise.allSettled([...this.inflight]);
  }

  private track(p: Promise<void>): void {
    this.inflight.add(p);
    p.finally(() => this.inflight.delete(p)).catch(() => undefined);
  }

  private async later(notice: SandboxNotice, delayMs: number): Promise<void> {
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
    await this.deliver(notice, 0);
  }

  private async deliver(notice: SandboxNotice, attempt: number): Promise<void> {
    if (this.closed) return;
    const raw = this.provider.sign(notice);
    let status = 0;
    let body = '';
    try {
      const res = await this.app.inject({ method: 'POST', url: '/pay/notify/sandbox', headers: raw.headers as Record<string, string>, payload: raw.body });
      status = res.statusCode;
      body = res.body;
    } catch (error) {
      body = (error as Error).message;
    }
    this.answers.push({ orderNo: notice.orderNo, status, body });
    // A provider retries until it hears success.
    if (status !== 200 && attempt < RETRY_DELAYS_MS.length && !this.closed) {
      this.track(
        new Promise<void>((resolve) => {
          const t = setTimeout(() => this.deliver(notice, attempt + 1).finally(resolve), RETRY_DELAYS_MS[attempt]);
          t.unref();
        }),
      );
    }
  }
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const yuan = (fen: number) => (fen / 100).toFixed(2);

function page(reply: FastifyReply, status: number, title: string, inner: string) {
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(`<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:-apple-system,"PingFang SC","Microsoft YaHei",sans-serif;background:#f5f7fa;margin:0;padding:40px 16px;color:#303133}
.card{max-width:420px;margin:0 auto;background:#fff;border-radius:8px;box-shadow:0 2px 12px rgba(0,0,0,.08);padding:28px;text-align:center}
h1{font-size:20px;margin:0 0 4px}.tip{color:#909399;font-size:13px;margin:0 0 18px}.amount{font-size:32px;color:#f56c6c;margin:12px 0}
.row{display:flex;justify-content:space-between;font-size:14px;padding:6px 0;border-bottom:1px solid #f0f0f0;text-align:left}
.row span:first-child{color:#909399}form{display:inline-block;margin:18px 6px 0}
button{font-size:15px;padding:9px 26px;border-radius:4px;border:1px solid #dcdfe6;background:#fff;cursor:pointer}
button.pay{background:#1890ff;border-color:#1890ff;color:#fff}.done{color:#52c41a;font-size:18px}.warn{color:#e6a23c;font-size:18px}</style>
</head><body><div class="card">${inner}</div></body></html>`);
}

const STATE_TEXT: Record<string, string> = { PAID: '该交易已支付', CLOSED: '该交易已关闭', REFUNDED: '该交易已退款' };

/** GET /pay/sandbox/:tradeNo and its two forms (non-API routes: this is the "provider's" site, no console session). */
export function registerSandboxPage(app: FastifyInstance, notifier: SandboxNotifier): void {
  const db = app.db.kysely;
  const find = (tradeNo: string) => db.selectFrom('finSandboxTrade').selectAll().where('tradeNo', '=', tradeNo).executeTakeFirst();

  app.get<{ Params: { tradeNo: string } }>('/pay/sandbox/:tradeNo', async (request, reply) => {
    const t = await find(request.params.tradeNo);
    if (!t) return page(reply, 404, '模拟支付', '<h1>模拟支付</h1><p class="warn">交易不存在</p>');
    const url = `${request.protocol}://${request.host}/pay/sandbox/${encodeURIComponent(t.tradeNo)}`;
    const qr = await QRCode.toDataURL(url, { margin: 1, width: 180 });
    const rows = `<div class="row"><span>商品</span><span>${escapeHtml(t.subject)}</span></div>
<div class="row"><span>订单号</span><span>${escapeHtml(t.orderNo)}</span></div>
<div class="row"><span>交易号</span><span>${escapeHtml(t.tradeNo)}</span></div>`;
    if (t.status !== 'WAIT') {
      return page(
        reply,
        200,
        '模拟支付',
        `<h1>模拟支付</h1><div class="amount">¥ ${yuan(Number(t.amountFen))}</div>${rows}<p class="${t.status === 'PAID' ? 'done' : 'warn'}">${STATE_TEXT[t.status] ?? t.status}</p>`,
      );
    }
    const action = `/pay/sandbox/${encodeURIComponent(t.tradeNo)}`;
    return page(
      reply,
      200,
      '模拟支付',
      `<h1>模拟支付</h1><p class="tip">开发与测试用的模拟收银台，不会产生真实扣款</p>
<img src="${qr}" width="180" height="180" alt="支付二维码"><div class="amount">¥ ${yuan(Number(t.amountFen))}</div>${rows}
<form method="post" action="${action}/pay"><button class="pay" type="submit">支付成功</button></form>
<form method="post" action="${action}/cancel"><button type="submit">取消</button></form>`,
    );
  });

  app.post<{ Params: { tradeNo: string } }>('/pay/sandbox/:tradeNo/pay', async (request, reply) => {
    const now = Date.now();
    const res = await db
      .updateTable('finSandboxTrade')
      .set({ status: 'PAID', paidTime: now })
      .where('tradeNo', '=', request.params.tradeNo)
      .where('status', '=', 'WAIT')
      .executeTakeFirst();
    const t = await find(request.params.tradeNo);
    if (!t) return page(reply, 404, '模拟支付', '<h1>模拟支付</h1><p class="warn">交易不存在</p>');
    if (Number(res.numUpdatedRows) !== 1)
      return page(reply, 200, '模拟支付', `<h1>模拟支付</h1><p class="warn">${STATE_TEXT[t.status] ?? '该交易不能支付'}</p>`);
    notifier.send({ notifyId: `N${now}${t.tradeNo}`, orderNo: t.orderNo, tradeNo: t.tradeNo, amountFen: Number(t.amountFen), status: 'PAID', paidAt: now });
    return page(
      reply,
      200,
      '支付成功',
      `<h1>模拟支付</h1><div class="amount">¥ ${yuan(Number(t.amountFen))}</div><p class="done">支付成功</p><p class="tip">可以关闭本页，回到控制台查看结果</p>`,
    );
  });

  app.post<{ Params: { tradeNo: string } }>('/pay/sandbox/:tradeNo/cancel', async (request, reply) => {
    await db.updateTable('finSandboxTrade').set({ status: 'CLOSED' }).where('tradeNo', '=', request.params.tradeNo).where('status', '=', 'WAIT').execute();
    return page(reply, 200, '已取消', '<h1>模拟支付</h1><p class="warn">已取消支付</p><p class="tip">可以关闭本页</p>');
  });
}
