import { fail } from './envelope.js';

// Request parameters read the same way by every module (a number, a list of ids, a bounded text, a page), with the
// same Chinese refusals. Infrastructure, so any module may import it without reaching into another module.

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
