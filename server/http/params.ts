import type { FastifyRequest } from 'fastify';
import { fail } from './envelope.js';

// Request parameters read the same way by every module (a number, a list of ids, a bounded text, a page), with the
// same Chinese refusals. Infrastructure, so any module may import it without reaching into another module.

type Fields = Record<string, unknown>;

/** The fields of a request's body; no body, an array or a text counts as none. */
export const bodyOf = (request: FastifyRequest): Fields =>
  request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? (request.body as Fields) : {};

/** The fields of a request's query string. */
export const queryOf = (request: FastifyRequest): Fields => (request.query ?? {}) as Fields;

/**
 * The parameters of a module route: query, body and the route's path parameters (`/memo/:ids`) merged, later ones
 * winning — the console sends a list's filters as query or as body.
 */
export function requestParams(request: FastifyRequest): Fields {
  const query = request.query && typeof request.query === 'object' ? (request.query as Fields) : {};
  return { ...query, ...bodyOf(request), ...((request.params ?? {}) as Fields) };
}

/** One positive integer id (`<title>不能为空` / `<title>格式不正确`). */
export function oneId(raw: unknown, title: string): number {
  if (raw === undefined || raw === null || raw === '') throw fail(`${title}不能为空`, 400);
  const text = String(raw).trim();
  if (!/^\d{1,15}$/.test(text) || Number(text) <= 0) throw fail(`${title}格式不正确`, 400);
  return Number(text);
}

export function intParam(v: unknown): number | undefined {
  if (v == null || v === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? Math.trunc(n) : undefined;
}

export function idList(v: unknown): number[] {
  const parts = Array.isArray(v) ? v : v == null ? [] : String(v).split(/[,，]/);
  const ids = parts.map((p) => Number(String(p).trim())).filter((n) => Number.isInteger(n) && n > 0);
  return [...new Set(ids)];
}

export function text(v: unknown, max: number, title: string, required = false): string | null {
  const s = typeof v === 'string' ? v.trim() : v == null ? '' : String(v).trim();
  if (!s) {
    if (required) throw fail(`${title}不能为空`);
    return null;
  }
  if (s.length > max) throw fail(`${title}长度不能超过 ${max} 个字符`);
  return s;
}

export function paging(q: { pageNum?: unknown; pageSize?: unknown }): { pageNum: number; pageSize: number; offset: number } {
  const pageNum = Math.max(1, intParam(q.pageNum) ?? 1);
  const pageSize = intParam(q.pageSize) ?? 20;
  if (pageSize < 1 || pageSize > 500) throw fail('每页条数应在 1 到 500 之间', 400);
  return { pageNum, pageSize, offset: (pageNum - 1) * pageSize };
}
