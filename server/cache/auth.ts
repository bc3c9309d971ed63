import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import type { SessionTable } from '../db/types.js';
import type { Access } from '../security/access.js';

/**
 * The session and permission set of a signed-in request, kept between requests (docs/monitor.md "缓存"): without it
 * every request reads sys_session and the role tables before doing its own work — on PostgreSQL two or three round
 * trips of a four-trip 20-row list.
 *
 * One entry per session (by token hash) holds the session row and the user's permission set, tagged with the
 * generation of everything they were read from. Any write to those tables, in any process, replaces the generation
 * (server/security/writeWatch.ts announces it after the write and again after its transaction commits), so every
 * process stops using every entry at once: a sign-out, 强退, a disabled or deleted user, a reset password (all of which
 * revoke sys_session rows) and a changed role, menu permission or role assignment all hold from the next request on.
 * A reader takes the generation in the same round trip as the entry, BEFORE it loads from the database, and stores
 * what it loaded under that generation: a load that raced a write is stored already stale.
 *
 * Where: REDIS_URL set → Redis, shared by every process (one MGET per request); else the embedded SQLite (this process
 * the only writer) → this process's memory; else (PostgreSQL without Redis: other processes may write and this one
 * would not hear of it) → nothing is kept, every request reads the database. Entries live AUTH_CACHE_TTL_MS at most,
 * which bounds writes made outside the server (psql), and a Redis that cannot be reached means reading the database.
 */

export const AUTH_CACHE_TTL_MS = 5_000;

/**
 * What the entry is read from. sys_session counts only when updated or deleted (a new sign-in adds a row no entry
 * holds); sys_user is not read (a disabled, deleted or re-passworded user's sessions are revoked in sys_session).
 */
export const AUTH_TABLES = ['sys_session', 'sys_user_role', 'sys_role', 'sys_role_menu', 'sys_menu'];

export type AuthLookup = { ok: true; session: SessionTable; access: Access } | { ok: false; reason: 'unknown' | 'revoked' | 'expired' };

interface Entry {
  /** The generation the entry was loaded under. */
  g: string;
  session: SessionTable;
  access: Access;
}

interface AuthStore {
  /** The entry of a token hash (if any) and the current generation, in one round trip. */
  read(tokenHash: string): Promise<{ entry: Entry | null; generation: string }>;
  write(tokenHash: string, entry: Entry, ttlMs: number): Promise<void>;
  /** A new generation: every entry stored before is stale. */
  bump(): Promise<void>;
  close(): Promise<void>;
}

class MemoryStore implements AuthStore {
  private readonly entries = new Map<string, { entry: Entry; expires: number }>();
  private generation = 0;

  constructor(private readonly maxEntries = 10_000) {}

  async read(tokenHash: string) {
    const hit = this.entries.get(tokenHash);
    return { entry: hit && hit.expires > Date.now() ? hit.entry : null, generation: String(this.generation) };
  }

  async write(tokenHash: string, entry: Entry, ttlMs: number) {
    if (this.entries.size >= this.maxEntries) this.entries.clear(); // a bound, not an LRU: refills in one round
    this.entries.set(tokenHash, { entry, expires: Date.now() + ttlMs });
  }

  async bump() {
    this.generation++;
    this.entries.clear(); // unreachable already; dropping them frees the memory
  }

  async close() {
    this.entries.clear();
  }
}

class RedisStore implements AuthStore {
  private readonly client: Redis;
  private readonly genKey: string;

  constructor(
    url: string,
    private readonly prefix: string,
  ) {
    // Fail fast when Redis is away: requests then read the database instead of waiting (as the cache layer does).
    this.client = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2000 });
    this.client.on('error', () => {}); // reported through failed commands
    this.genKey = `${prefix}auth:gen`;
  }

  get ready(): boolean {
    return this.client.status === 'ready';
  }

  async read(tokenHash: string) {
    const [raw, generation] = await this.client.mget(`${this.prefix}auth:${tokenHash}`, this.genKey);
    return { entry: raw ? (JSON.parse(raw) as Entry) : null, generation: generation ?? '0' };
  }

  async write(tokenHash: string, entry: Entry, ttlMs: number) {
    await this.client.set(`${this.prefix}auth:${tokenHash}`, JSON.stringify(entry), 'PX', ttlMs);
  }

  async bump() {
    // A random generation rather than INCR: should the key ever be lost (eviction), the next one still differs from
    // every tag stored before.
    await this.client.set(this.genKey, crypto.randomBytes(9).toString('base64url'));
  }

  async close() {
    this.client.disconnect();
  }
}

/** How long a write waits for Redis to take a new generation before it answers anyway (the TTL bounds the rest). */
const BUMP_WAIT_MS = 1_000;

export class AuthCache {
  constructor(
    private readonly store: AuthStore | null,
    private readonly ttlMs = AUTH_CACHE_TTL_MS,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  /** The session of a token hash with its permission set, from the cache or `load` (whose answer is then kept). */
  async lookup(tokenHash: string, load: () => Promise<AuthLookup>): Promise<AuthLookup> {
    const store = this.store;
    if (!store) return load();
    let generation: string;
    try {
      const kept = await store.read(tokenHash);
      generation = kept.generation;
      if (kept.entry && kept.entry.g === generation) return { ok: true, session: kept.entry.session, access: kept.entry.access };
    } catch (error) {
      this.failed(error);
      return load();
    }
    const started = Date.now();
    const found = await load();
    // Only a session that was valid is kept (refusals stay cheap and are never stored). A load slower than the TTL is
    // not stored: what it read may already be older than any entry is allowed to be (writes made outside the server).
    if (found.ok && Date.now() - started < this.ttlMs) {
      store.write(tokenHash, { g: generation, session: found.session, access: found.access }, this.ttlMs).catch((error) => this.failed(error));
    }
    return found;
  }

  /**
   * Every entry becomes stale, in every process. Never rejects (it runs inside the statement log of a write that has
   * succeeded); waits at most BUMP_WAIT_MS, and not at all while Redis is unreachable (readers then read the database).
   */
  bump(): Promise<void> {
    const store = this.store;
    if (!store) return Promise.resolve();
    const done = store.bump().catch((error) => this.failed(error));
    if (store instanceof RedisStore && !store.ready) return Promise.resolve();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, BUMP_WAIT_MS);
      timer.unref();
    });
    return Promise.race([done, late]).finally(() => clearTimeout(timer));
  }

  close(): Promise<void> {
    return this.store?.close() ?? Promise.resolve();
  }

  private failed(error: unknown): void {
    this.onError(error);
  }
}

/**
 * The cache for this deployment: Redis when REDIS_URL is set, this process's memory on the embedded SQLite (this
 * process is the only writer), none on PostgreSQL without Redis. `prefix` is the deployment's cache namespace
 * (cachePrefixFor in ./index.ts), so processes sharing a database share entries and generation.
 */
export function createAuthCache(options: {
  redisUrl?: string;
  prefix: string;
  soleWriter: boolean;
  ttlMs?: number;
  onError?: (error: unknown) => void;
}): AuthCache {
  const store = options.redisUrl ? new RedisStore(options.redisUrl, options.prefix) : options.soleWriter ? new MemoryStore() : null;
  return new AuthCache(store, options.ttlMs, options.onError);
}
