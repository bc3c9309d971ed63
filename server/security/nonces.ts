import crypto from 'node:crypto';
import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Db } from '../db/connection.js';
import type { Database } from '../db/types.js';

/**
 * A short-lived seen-set: a key can be claimed once until it expires. Used for single-use request signatures (`sig:`)
 * and the server's duplicate-submit window for writes (`dup:`). Every claim that answers true is durable in
 * sys_request_nonce (migration 009) before it answers, so a signature is accepted at most once, also across a restart
 * or a crash. Two implementations (docs/security.md, "Single-use request signatures"):
 *  - SharedNonceStore (PostgreSQL, several processes): one INSERT … ON CONFLICT per claim; the table decides.
 *  - LocalNonceStore (embedded SQLite, this process the sole writer): the seen-set in memory decides at once, and the
 *    claims of one event-loop turn are written in ONE transaction (group commit, one fsync) before any of them answers.
 */
export interface NonceStore {
  /** True when the key was not seen before (and is now remembered, durably, until expiresAt); false for a repeat. */
  claim(key: string, expiresAt: number, now?: number): Promise<boolean>;
  /** Forgets one key at once (a refused write may be sent again). */
  release(key: string): Promise<void>;
  /** Forgets expired keys; returns how many. */
  purge(now?: number): Promise<number>;
  /** Writes what is still pending (called before the database closes). */
  close(): Promise<void>;
}

/** The stored form of a key: a long signature is kept as its hash (the table's key stays short). */
const storedKey = (key: string) => (key.length > 80 ? `${key.slice(0, 4)}${digest(key)}` : key);

const PURGE_EVERY_MS = 60_000;

/** The table decides: every server process sharing the database agrees. */
export class SharedNonceStore implements NonceStore {
  private lastPurge = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly purgeEveryMs = PURGE_EVERY_MS,
  ) {}

  async claim(key: string, expiresAt: number, now = Date.now()): Promise<boolean> {
    const result = await this.db
      .insertInto('sysRequestNonce')
      .values({ nonce: storedKey(key), expiresAt })
      // A remembered key whose time is up is free again, purged or not.
      .onConflict((oc) => oc.column('nonce').doUpdateSet({ expiresAt }).where('sysRequestNonce.expiresAt', '<', now))
      .executeTakeFirst();
    if (now - this.lastPurge > this.purgeEveryMs) {
      this.lastPurge = now;
      // Off the request path: a failed purge only leaves rows for the next one (or the scheduled purge job).
      void this.purge(now).catch(() => undefined);
    }
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  async release(key: string): Promise<void> {
    await this.db.deleteFrom('sysRequestNonce').where('nonce', '=', storedKey(key)).execute();
  }

  async purge(now = Date.now()): Promise<number> {
    const r = await this.db.deleteFrom('sysRequestNonce').where('expiresAt', '<', now).executeTakeFirst();
    return Number(r.numDeletedRows ?? 0n);
  }

  async close(): Promise<void> {}
}

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * The embedded SQLite's store. The seen-set lives in memory (loaded from the table at start), so a claim is decided
 * without a statement; a durable INSERT per request (an fsync each, synchronous=FULL) was most of the cost of a small
 * list request. What is claimed is still written before the claim answers true — batched: every claim of one event-loop
 * turn waits for one transaction, run right after that turn (setImmediate), so concurrent requests share one fsync.
 * A crash therefore never forgets an accepted signature. Statements go to the better-sqlite3 connection directly (no
 * query building per request); while the engine holds an open transaction on that connection the batch waits for it.
 */
export class LocalNonceStore implements NonceStore {
  private readonly seen = new Map<string, number>();
  private upserts = new Map<string, number>();
  private deletes = new Set<string>();
  private waiters: Waiter[] = [];
  private scheduled = false;
  private lastPurge = Date.now();
  private readonly writeBatch: (upserts: Map<string, number>, deletes: Set<string>) => void;
  private readonly deleteExpired: SQLite.Statement<[number]>;

  constructor(
    private readonly sqlite: SQLite.Database,
    now = Date.now(),
    private readonly purgeEveryMs = PURGE_EVERY_MS,
  ) {
    const load = sqlite.prepare<[number], { nonce: string; expires_at: number }>('select nonce, expires_at from sys_request_nonce where expires_at >= ?');
    for (const row of load.iterate(now)) this.seen.set(row.nonce, Number(row.expires_at));
    // The memory decides, so the row simply takes the latest expiry.
    const upsert = sqlite.prepare<[string, number]>(
      'insert into sys_request_nonce (nonce, expires_at) values (?, ?) on conflict (nonce) do update set expires_at = excluded.expires_at',
    );
    const remove = sqlite.prepare<[string]>('delete from sys_request_nonce where nonce = ?');
    this.deleteExpired = sqlite.prepare<[number]>('delete from sys_request_nonce where expires_at < ?');
    this.writeBatch = sqlite.transaction((ups: Map<string, number>, dels: Set<string>) => {
      for (const nonce of dels) remove.run(nonce);
      for (const [nonce, expiresAt] of ups) upsert.run(nonce, expiresAt);
    });
  }

  async claim(key: string, expiresAt: number, now = Date.now()): Promise<boolean> {
    const nonce = storedKey(key);
    const held = this.seen.get(nonce);
    if (held !== undefined && held >= now) return false;
    this.seen.set(nonce, expiresAt);
    this.deletes.delete(nonce);
    this.upserts.set(nonce, expiresAt);
    if (now - this.lastPurge > this.purgeEveryMs) {
      this.lastPurge = now;
      void this.purge(now).catch(() => undefined);
    }
    // Answer only once the claim is on disk; a failed write fails the request (the key stays claimed: no replay).
    await new Promise<void>((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      this.schedule();
    });
    return true;
  }

  async release(key: string): Promise<void> {
    const nonce = storedKey(key);
    this.seen.delete(nonce);
    this.upserts.delete(nonce);
    this.deletes.add(nonce);
    this.schedule();
  }

  async purge(now = Date.now()): Promise<number> {
    let forgotten = 0;
    for (const [nonce, expiresAt] of this.seen) {
      if (expiresAt < now) {
        this.seen.delete(nonce);
        forgotten++;
      }
    }
    // The rows go too unless a transaction of the engine is open on the connection (the purge job will take them).
    if (this.sqlite.open && !this.sqlite.inTransaction) this.deleteExpired.run(now);
    return forgotten;
  }

  async close(): Promise<void> {
    if (this.sqlite.open) this.flush(true);
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush(false));
  }

  private flush(closing: boolean): void {
    this.scheduled = false;
    if (this.upserts.size === 0 && this.deletes.size === 0 && this.waiters.length === 0) return;
    if (this.sqlite.inTransaction && !closing) {
      // The engine's transaction is open on this connection: a batch written now would join (and roll back with) it.
      this.scheduled = true;
      setTimeout(() => this.flush(false), 1);
      return;
    }
    const upserts = this.upserts;
    const deletes = this.deletes;
    const waiters = this.waiters;
    this.upserts = new Map();
    this.deletes = new Set();
    this.waiters = [];
    try {
      this.writeBatch(upserts, deletes);
    } catch (error) {
      // Kept for the next batch; the requests waiting on this one are refused.
      for (const [nonce, expiresAt] of upserts) if (!this.upserts.has(nonce)) this.upserts.set(nonce, expiresAt);
      for (const nonce of deletes) this.deletes.add(nonce);
      for (const w of waiters) w.reject(error);
      return;
    }
    for (const w of waiters) w.resolve();
  }
}

/** The store for this database: in memory with group commit where this process is the sole writer (SQLite). */
export function openNonceStore(db: Db): NonceStore {
  if (db.dialect === 'sqlite' && db.sqlite && process.env.NONCE_STORE !== 'table') return new LocalNonceStore(db.sqlite);
  return new SharedNonceStore(db.kysely);
}

export const digest = (text: string) => crypto.createHash('sha256').update(text).digest('base64url');
