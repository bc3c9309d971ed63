import { expect } from 'vitest';
import { post } from '../../../server/finance/ledger.js';
import type { ApiBody, TestServer } from '../harness.js';

/** Shared helpers of the ledger helper's finance server tests. */

export const W = '/appv2/api/MoneyWallet';

/** A small but well-formed PDF (signature at the start, %%EOF at the end). */
export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n',
  'latin1',
);

/** A valid UnionPay card number (Luhn check digit right). */
export const GOOD_CARD = '6222021234567890128';

export async function api<D = unknown>(s: TestServer, token: string, url: string, body: Record<string, unknown> = {}): Promise<ApiBody<D>> {
  return (await s.call<D>('POST', url, { token, body })).body;
}

export async function apiOk<D = unknown>(s: TestServer, token: string, url: string, body: Record<string, unknown> = {}): Promise<D> {
  const res = await api<D>(s, token, url, body);
  expect(res.code, `${url}: ${res.msg}`).toBe(200);
  return (res.data ?? res) as D;
}

/** A multipart body of text fields and one file. */
export async function form(fields: Record<string, string>, file?: { field: string; name: string; type: string; data: Buffer }) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  if (file) fd.append(file.field, new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);
  const request = new Request('http://localhost/', { method: 'POST', body: fd });
  return { body: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type') ?? '' } };
}

/** Money a family paid the store online (what the payments helper's customer_payment posts), straight in the ledger. */
export async function collect(s: TestServer, storeId: number, amount: number) {
  await post(s.app.db.kysely, {
    type: 'customer_payment',
    memo: '家长在线支付（测试）',
    lines: [
      { storeId: 0, kind: 'world', amount: -amount },
      { storeId, kind: 'collection', amount },
    ],
  });
}

/** Adds a bank account for the store and has headquarters verify it; answers its id. */
export async function verifiedBank(s: TestServer, store: string, admin: string, storeId?: number): Promise<number> {
  const { bankId } = await apiOk<{ bankId: number }>(s, store, `${W}/upBank`, {
    accountName: '济南门店',
    bankName: '中国工商银行',
    branch: '济南分行',
    cardNo: GOOD_CARD,
    ...(storeId ? { storeId } : {}),
  });
  await apiOk(s, admin, `${W}/verifyBank`, { bankId });
  return bankId;
}

export async function count(s: TestServer, table: 'finWithdrawal' | 'finInvoice' | 'finBankAccount' | 'finEntry' | 'finInvoiceHeader'): Promise<number> {
  const row = await s.app.db.kysely
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
