/**
 * The answer envelope of every call (spec §8): HTTP status 200 for every business answer, `code` carries the outcome,
 * `data` a single value, `rows`/`total` a RuoYi table page. server/http/envelope.ts builds it, src/api/request.ts
 * reads it.
 */
export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data?: T;
  rows?: unknown[];
  total?: number;
  /** Further fields some answers carry beside data (options, token, …). */
  [extra: string]: unknown;
}
