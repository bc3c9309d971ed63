import crypto from 'node:crypto';
import ExcelJS from 'exceljs';
import { expect } from 'vitest';
import type { ApiBody, TestServer } from '../harness.js';

/** Shared helpers of the customer / card server tests. */

export const PRICE = { 1: 39_800, 2: 59_800, 3: 9_900 } as const;

export async function call<D = unknown>(s: TestServer, token: string, method: string, url: string, body?: Record<string, unknown>): Promise<ApiBody<D>> {
  if (method === 'GET') return (await s.call<D>('GET', url, { token, query: (body ?? {}) as Record<string, string | number> })).body;
  return (await s.call<D>(method, url, { token, body: body ?? {} })).body;
}

export async function ok<D = unknown>(s: TestServer, token: string, method: string, url: string, body?: Record<string, unknown>): Promise<D> {
  const res = await call<D>(s, token, method, url, body);
  if (res.code !== 200) throw new Error(`${method} ${url}: ${res.code} ${res.msg}`);
  return (res.data ?? res) as D;
}

export interface ReleaseLines {
  status: number;
  progress: Array<{ progress: number; total: number }>;
  final: { code: number; msg: string; data?: { batchId: number; cardNoFirst: string; cardNoEnd: string; card_num: number; storeBalance: number } };
}

/**
 * 发卡 answers NDJSON (progress lines, then the envelope) or, refused before starting, one JSON envelope. Each call is
 * a batch of its own (its own Idempotency-Key, as the console's form sends one per submission): without one, the
 * same body again within a minute would be answered with the first batch (server/security/idempotency.ts).
 */
export async function release(
  s: TestServer,
  token: string,
  body: Record<string, unknown>,
  idempotencyKey = `test-${crypto.randomUUID()}`,
): Promise<ReleaseLines> {
  const res = await s.call('POST', '/dev-api/card/release', { token, body, headers: { 'idempotency-key': idempotencyKey } });
  const lines = res.raw
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const final = lines.at(-1);
  return { status: res.status, progress: lines.filter((l) => 'progress' in l), final };
}

export async function releaseOk(s: TestServer, token: string, body: Record<string, unknown>) {
  const r = await release(s, token, body);
  expect(r.final.code, r.final.msg).toBe(200);
  return r.final.data as NonNullable<ReleaseLines['final']['data']>;
}

/** The batch list (download) read back: header row and the cards as {卡号, 卡密, …}. */
export async function downloadBatch(s: TestServer, token: string, batchId: number) {
  const res = await s.call('POST', '/dev-api/card/record/download', { token, body: { batchId } });
  if (!String(res.headers['content-type']).includes('spreadsheetml')) return { status: res.status, body: res.body, rows: [] as Array<Record<string, string>> };
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawBuffer as unknown as ArrayBuffer);
  const ws = wb.worksheets[0];
  const header = (ws.getRow(1).values as unknown[]).slice(1).map(String);
  const rows: Array<Record<string, string>> = [];
  ws.eachRow((row, n) => {
    if (n === 1) return;
    const v = (row.values as unknown[]).slice(1);
    rows.push(Object.fromEntries(header.map((h, i) => [h, v[i] == null ? '' : String(v[i])])));
  });
  return { status: res.status, body: res.body, rows, headers: res.headers };
}

/** A new signed-in staff member of a store with the given role. */
export async function staff(s: TestServer, userName: string, storeId: number, roleKey = 'leader'): Promise<string> {
  const db = s.app.db.kysely;
  const reg = await s.call('POST', '/dev-api/register', { body: { username: userName, password: 'secret12', confirmPassword: 'secret12' } });
  expect(reg.body.code, reg.body.msg).toBe(200);
  const user = await db.selectFrom('sysUser').select('userId').where('userName', '=', userName).executeTakeFirstOrThrow();
  const role = await db.selectFrom('sysRole').select('roleId').where('roleKey', '=', roleKey).executeTakeFirstOrThrow();
  await db.updateTable('sysUser').set({ storeId }).where('userId', '=', user.userId).execute();
  await db.deleteFrom('sysUserRole').where('userId', '=', user.userId).execute();
  await db.insertInto('sysUserRole').values({ userId: user.userId, roleId: role.roleId }).execute();
  return s.login(userName, 'secret12');
}

/** An app user (role common) — the family side. */
export async function appUser(s: TestServer, userName: string): Promise<{ token: string; userId: number }> {
  const reg = await s.call('POST', '/dev-api/register', { body: { username: userName, password: 'secret12', confirmPassword: 'secret12' } });
  expect(reg.body.code, reg.body.msg).toBe(200);
  const user = await s.app.db.kysely.selectFrom('sysUser').select('userId').where('userName', '=', userName).executeTakeFirstOrThrow();
  return { token: await s.login(userName, 'secret12'), userId: user.userId };
}

export async function balance(s: TestServer, storeId: number): Promise<number> {
  const row = await s.app.db.kysely.selectFrom('cusStore').select('balance').where('storeId', '=', storeId).executeTakeFirstOrThrow();
  return Number(row.balance);
}

export async function studentByName(s: TestServer, name: string) {
  return s.app.db.kysely.selectFrom('volStudent').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
}
