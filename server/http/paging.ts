import type { FastifyRequest } from 'fastify';
import { ApiError, Code } from './envelope.js';

/**
 * Paging parameters are checked once for every API route, whatever the route's own schema says: a pageNum of 1e20 or
 * -5 gets a clear 400 instead of reaching SQL as an offset the database cannot hold. Routes keep their own, tighter
 * limits (the engine's 500 rows a page, for one).
 */
export const PAGE_NUM_MAX = 1_000_000;
export const PAGE_SIZE_MAX = 10_000;

const LIMITS = [
  ['pageNum', PAGE_NUM_MAX, `页码必须是 1 到 ${PAGE_NUM_MAX} 之间的整数`],
  ['pageSize', PAGE_SIZE_MAX, `每页条数必须是 1 到 ${PAGE_SIZE_MAX} 之间的整数`],
] as const;

function check(source: unknown): void {
  if (!source || typeof source !== 'object' || Array.isArray(source)) return;
  const values = source as Record<string, unknown>;
  for (const [name, max, message] of LIMITS) {
    const raw = values[name];
    if (raw === undefined || raw === null || raw === '') continue;
    const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < 1 || n > max) throw new ApiError(Code.BAD_REQUEST, message);
  }
}

export function checkPaging(request: FastifyRequest): void {
  check(request.query);
  check(request.body);
}
