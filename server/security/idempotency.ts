import { finished, PassThrough, type Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { ApiError, Code } from '../http/envelope.js';
import { digest } from './nonces.js';

/**
 * Money moves once (issue 22): a route declaring `config.idempotent` (renewal, recharge, payment orders, withdrawals,
 * card release, refunds) runs once per request, however many copies arrive — a double click, a retry after a lost
 * answer, a replay by a proxy. server/app.ts calls `claim` before the handler and `settle` on the answer.
 *
 * The key of a request is the client's `Idempotency-Key` header when it sends one (remembered IDEMPOTENCY_WINDOW_MS,
 * default 10 minutes: long enough for a retry after a timeout), else one derived from the caller, the method, the
 * route pattern, its parameters, query and body with keys sorted (remembered IDEMPOTENCY_DERIVED_WINDOW_MS, default
 * 60 s: a double click or a quick replay is one payment, while the same purchase made on purpose a minute later is a
 * new one). Either is scoped to the caller, so one user's key never answers another's request.
 *
 * The first copy claims the key with one atomic INSERT … ON CONFLICT DO NOTHING on sys_idempotency (the database
 * decides, also across server processes on PostgreSQL). A copy arriving while the first runs is refused with
 * 数据正在处理，请勿重复提交; one arriving after it succeeded gets the first copy's own answer (same order number) and
 * nothing runs again; a refused first copy (a business error) deletes its row, so a corrected retry runs.
 */

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const PENDING_MESSAGE = '数据正在处理，请勿重复提交';
export const KEY_REUSED_MESSAGE = '这个 Idempotency-Key 已用于另一笔内容不同的请求，请为新的请求生成新的键后重试';
export const BAD_KEY_MESSAGE = 'Idempotency-Key 格式不正确：请使用 8–100 位字母、数字或 - _ . : 组成的键';
/** The answer header marking a replayed answer (the first copy's, nothing was done again). */
export const REPLAYED_HEADER = 'idempotent-replayed';

const CLIENT_KEY = /^[A-Za-z0-9_.:-]{8,100}$/;
/** An answer the console treats as success: plain (200) or encrypted (20000). Anything else releases the key. */
const SUCCESS = /^\{"code":(200|20000)[,}]/;
/** How much of a streamed answer is kept to find its closing envelope line (发卡's NDJSON: progress, then envelope). */
const STREAM_KEEP_BYTES = 1024 * 1024;
const PURGE_EVERY_MS = 60_000;

export interface RequestKey {
  key: string;
  fingerprint: string;
  expires: number;
}

export type ClaimOutcome = { kind: 'first' } | { kind: 'pending' } | { kind: 'mismatch' } | { kind: 'done'; answer: string; contentType: string };

/** JSON with object keys sorted at every depth: two copies of one body give one text whatever their key order. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value as Record<string, unknown>)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * The key of this request for user `userId`, or null when it has none (a multipart body without a client key: its
 * stream has no faithful text). Throws a 400 for a malformed client key.
 */
export function requestKey(request: FastifyRequest, userId: number, windows: { clientMs: number; derivedMs: number }, now = Date.now()): RequestKey | null {
  const raw = request.headers[IDEMPOTENCY_HEADER];
  const clientKey = Array.isArray(raw) ? raw[0] : raw;
  const route = `${request.method} ${request.routeOptions.url ?? ''}`;
  const multipart = request.isMultipart();
  const fingerprint = digest(
    [route, canonical(request.params ?? {}), canonical(request.query ?? {}), multipart ? '(multipart)' : canonical(request.body ?? null)].join('\n'),
  );
  if (clientKey !== undefined) {
    if (!CLIENT_KEY.test(clientKey)) throw new ApiError(Code.BAD_REQUEST, BAD_KEY_MESSAGE);
    return { key: `c:${digest(`${userId}\n${route}\n${clientKey}`)}`, fingerprint, expires: now + windows.clientMs };
  }
  if (multipart) return null;
  return { key: `d:${digest(`${userId}\n${fingerprint}`)}`, fingerprint, expires: now + windows.derivedMs };
}

interface Row {
  state: string;
  fingerprint: string;
  answer: string | null;
  kind: string | null;
}

export class IdempotencyStore {
  private lastPurge = 0;

  constructor(private readonly db: Kysely<unknown>) {}

  /** Claims `k` for this request, or says why not: another copy runs, or has run (its answer), or the key is misused. */
  async claim(k: RequestKey, userId: number, now = Date.now()): Promise<ClaimOutcome> {
    this.purgeNow(now);
    // A row might vanish between the INSERT and the SELECT (the first copy was refused and released it): claim again.
    for (let attempt = 0; attempt < 3; attempt++) {
      // A remembered key whose time is up is free again.
      await sql`delete from sys_idempotency where idem_key = ${k.key} and expires < ${now}`.execute(this.db);
      const inserted = await sql`insert into sys_idempotency (idem_key, user_id, state, fingerprint, expires, create_time)
        values (${k.key}, ${userId}, 'pending', ${k.fingerprint}, ${k.expires}, ${now}) on conflict (idem_key) do nothing`.execute(this.db);
      if (Number(inserted.numAffectedRows ?? 0n) === 1) return { kind: 'first' };
      const row = (await sql<Row>`select state, fingerprint, answer, kind from sys_idempotency where idem_key = ${k.key}`.execute(this.db)).rows[0];
      if (!row) continue;
      if (row.fingerprint !== k.fingerprint) return { kind: 'mismatch' };
      if (row.state !== 'done' || row.answer == null) return { kind: 'pending' };
      return { kind: 'done', answer: row.answer, contentType: row.kind ?? 'application/json; charset=utf-8' };
    }
    return { kind: 'pending' };
  }

  /** The first copy succeeded: later copies get this answer. */
  async finish(key: string, answer: string, contentType: string): Promise<void> {
    await sql`update sys_idempotency set state = 'done', answer = ${answer}, kind = ${contentType} where idem_key = ${key}`.execute(this.db);
  }

  /** The first copy was refused (it changed nothing): the key is free for a corrected retry. */
  async release(key: string): Promise<void> {
    await sql`delete from sys_idempotency where idem_key = ${key} and state = 'pending'`.execute(this.db);
  }

  /**
   * Records the answer of a claimed request: a success is kept, anything else releases the key. A streamed answer
   * (发卡's NDJSON) is passed through; its last line is the envelope and is judged when the stream ends, the key staying
   * pending until then. Returns the payload to send.
   */
  async settle(key: string, payload: unknown, contentType: string, onError: (err: unknown) => void): Promise<unknown> {
    if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
      const text = payload.toString();
      if (SUCCESS.test(text)) await this.finish(key, text, contentType);
      else await this.release(key);
      return payload;
    }
    if (!payload || typeof (payload as Readable).pipe !== 'function') {
      await this.release(key);
      return payload;
    }
    const source = payload as Readable;
    const out = new PassThrough();
    const kept: Buffer[] = [];
    let size = 0;
    source.on('data', (chunk: Buffer | string) => {
      if (size >= STREAM_KEEP_BYTES) return;
      const b = Buffer.from(chunk);
      kept.push(b);
      size += b.length;
    });
    source.pipe(out);
    finished(source, (err) => {
      const lines = Buffer.concat(kept).toString().trim().split('\n');
      const last = lines[lines.length - 1] ?? '';
      const done = !err && SUCCESS.test(last) ? this.finish(key, `${last}\n`, contentType) : this.release(key);
      done.catch(onError);
    });
    return out;
  }

  private purgeNow(now: number): void {
    if (now - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = now;
    // Off the request path: a failed purge leaves rows for the next one; an expired row is ignored by claim anyway.
    void sql`delete from sys_idempotency where expires < ${now}`.execute(this.db).catch(() => undefined);
  }
}
