import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Q } from './store.js';

/**
 * The operation log (sys_oper_log, RuoYi columns): every engine write, successful or not, with who, what, where
 * from, the (masked, truncated) parameters and answer, and how long it took.
 */

export const BusinessType = { OTHER: 0, INSERT: 1, UPDATE: 2, DELETE: 3, GRANT: 4, EXPORT: 5, IMPORT: 6, FORCE: 7, CLEAN: 9 } as const;
export type BusinessTypeCode = (typeof BusinessType)[keyof typeof BusinessType];

export const TEXT_LIMIT = 2000;
const SECRET_KEY = /pass|pwd|secret|token|credential/i;

export function truncate(text: string | null | undefined, limit = TEXT_LIMIT): string | null {
  if (text === null || text === undefined) return null;
  return text.length > limit ? text.slice(0, limit) : text;
}

/** JSON of a request's parameters with secrets (by key name, and the given writeOnly properties) masked. */
export function maskedJson(value: unknown, secretKeys: string[] = []): string {
  const seen = new WeakSet<object>();
  try {
    return JSON.stringify(value ?? {}, (key, v) => {
      if (key && (SECRET_KEY.test(key) || secretKeys.includes(key)) && v !== null && v !== undefined && typeof v !== 'object') return '******';
      if (v && typeof v === 'object') {
        if (seen.has(v)) return '[循环引用]';
        seen.add(v);
      }
      return v;
    });
  } catch {
    return '';
  }
}

export interface OperEntry {
  title: string;
  businessType: BusinessTypeCode;
  method: string;
  param: unknown;
  result?: unknown;
  status: 0 | 1;
  errorMsg?: string | null;
  costTime: number;
  secretKeys?: string[];
}

/** Writes one log row; a failure to log is reported to the server log and never fails the request itself. */
export async function recordOperation(k: Q, request: FastifyRequest, entry: OperEntry): Promise<void> {
  try {
    await sql`insert into sys_oper_log (title, business_type, method, request_method, oper_name, oper_url, oper_ip, oper_param, json_result,
        status, error_msg, oper_time, cost_time)
      values (${entry.title}, ${entry.businessType}, ${entry.method}, ${request.method}, ${request.auth?.userName ?? ''},
        ${truncate(request.url.split('?')[0], 255)}, ${request.ip ?? ''}, ${truncate(maskedJson(entry.param, entry.secretKeys))},
        ${entry.result === undefined ? null : truncate(maskedJson(entry.result, entry.secretKeys))}, ${entry.status},
        ${truncate(entry.errorMsg ?? null)}, ${Date.now()}, ${entry.costTime})`.execute(k);
  } catch (err) {
    request.log.error({ err }, '写入操作日志失败');
  }
}
