import { expect } from 'vitest';
import { payProvidersOf, sandboxNotifier } from '../../../server/finance/payRoutes.js';
import type { ApiBody, TestServer } from '../harness.js';

/** Shared helpers of the payments server tests (pay*.test.ts). */

export async function api<D = unknown>(s: TestServer, token: string, url: string, body: Record<string, unknown> = {}, method = 'POST'): Promise<ApiBody<D>> {
  if (method === 'GET') return (await s.call<D>('GET', url, { token, query: body as Record<string, string | number> })).body;
  return (await s.call<D>(method, url, { token, body })).body;
}

export async function apiOk<D = unknown>(s: TestServer, token: string, url: string, body: Record<string, unknown> = {}, method = 'POST'): Promise<D> {
  const res = await api<D>(s, token, url, body, method);
  expect(res.code, `${url}: ${res.msg}`).toBe(200);
  return (res.data ?? res) as D;
}

export interface Created {
  orderNo: string;
  amountFen: number;
  payUrl?: string;
  qrCode?: string;
}

/** Presses 支付成功 on the sandbox page and waits until its notification has been answered. */
export async function payInSandbox(s: TestServer, payUrl: string | undefined): Promise<string> {
  expect(payUrl).toMatch(/^\/pay\/sandbox\//);
  const res = await s.app.inject({ method: 'POST', url: `${payUrl}/pay`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
  expect(res.statusCode).toBe(200);
  await sandboxNotifier(s.app).settle();
  return res.body;
}

/** Posts a notification to /pay/notify/<provider> as a provider would (raw body and headers). */
export async function notify(s: TestServer, provider: string, raw: { headers: Record<string, string | undefined>; body: string }) {
  const res = await s.app.inject({ method: 'POST', url: `/pay/notify/${provider}`, headers: raw.headers as Record<string, string>, payload: raw.body });
  return { status: res.statusCode, body: res.body };
}

/** A sandbox notice signed with the server's own sandbox key (a replay, or a forged amount with a valid signature). */
export function signedSandboxNotice(s: TestServer, n: { orderNo: string; tradeNo: string; amountFen: number }) {
  const sandbox = payProvidersOf(s.app).sandbox;
  if (!sandbox) throw new Error('sandbox disabled');
  return sandbox.sign({ notifyId: `T${Date.now()}`, status: 'PAID', paidAt: Date.now(), ...n });
}

export async function count(s: TestServer, table: 'finPayOrder' | 'finRecharge' | 'finTxn' | 'finCoupon' | 'finPayNotification', where?: [string, string]) {
  let q = s.app.db.kysely.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'));
  if (where) q = q.where(where[0] as never, '=', where[1] as never);
  return Number((await q.executeTakeFirst())?.n ?? 0);
}

export async function order(s: TestServer, orderNo: string) {
  return s.app.db.kysely.selectFrom('finPayOrder').selectAll().where('orderNo', '=', orderNo).executeTakeFirstOrThrow();
}

export async function tradeNoOf(s: TestServer, orderNo: string): Promise<string> {
  const t = await s.app.db.kysely.selectFrom('finSandboxTrade').select('tradeNo').where('orderNo', '=', orderNo).executeTakeFirstOrThrow();
  return t.tradeNo;
}

export const today = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};
