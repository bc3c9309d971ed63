import type { Envelope } from '../../common/http/envelope.js';

/**
 * Response envelopes and result codes (spec §8).
 * HTTP status is 200 for every business answer (RuoYi convention); the `code` field carries the outcome.
 */
export const Code = {
  OK: 200,
  ENCRYPTED: 20000,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  ERROR: 500,
  WARN: 601,
  SESSION_EXPIRED: 40310,
} as const;

export type { Envelope };

export function ok<T>(data?: T, msg = '操作成功', extra: Record<string, unknown> = {}): Envelope<T> {
  return { code: Code.OK, msg, ...(data === undefined ? {} : { data }), ...extra };
}

/** RuoYi table page: {code, msg, rows, total}. */
export function page<T>(rows: T[], total: number): Envelope {
  return { code: Code.OK, msg: '查询成功', rows, total };
}

/** A business failure: thrown anywhere, answered as {code, msg} by the error handler. */
export class ApiError extends Error {
  constructor(
    public readonly code: number,
    message: string,
    public readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const fail = (msg: string, code: number = Code.ERROR, extra: Record<string, unknown> = {}) => new ApiError(code, msg, extra);
