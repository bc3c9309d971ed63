import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { signTimer } from '../../server/security/protocol';

/** Calls the real server from the test process, signed like the console (keys from the test server's DATA_DIR). */
export async function api<T = unknown>(
  method: string,
  url: string,
  { token, body }: { token?: string; body?: unknown } = {},
): Promise<{ code: number; msg: string; data?: T }> {
  const pem = fs.readFileSync(path.join(inject('dataDir'), 'keys', 'request-public.pem'), 'utf8');
  const headers: Record<string, string> = { ...signTimer(pem), 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${inject('baseURL')}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return (await res.json()) as { code: number; msg: string; data?: T };
}

export async function apiLogin(username: string, password: string): Promise<string> {
  const res = await api<{ token: string }>('POST', '/dev-api/api/login/login', { body: { username, password } });
  if (!res.data?.token) throw new Error(`登录失败：${res.msg}`);
  return res.data.token;
}
