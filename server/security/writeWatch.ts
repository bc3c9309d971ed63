import type { SqlStats } from '../monitor/sqlStats.js';

/**
 * Which tables this server process has written, as generation numbers, so short-lived caches (sessions, permission
 * sets, list totals) can be dropped the moment what they were read from changes.
 *
 * Every statement of the process, query builder or raw SQL, through any Kysely instance (the engine's included, which
 * runs without plugins), is logged once to SqlStats after it ran; that is the one place that sees them all, so the
 * watch listens there. A write bumps its table; a write whose table cannot be read from the text, and every COMMIT
 * or ROLLBACK, bumps everything, so a value read from another connection between a write and its commit never
 * survives the commit. A reader takes `version()` BEFORE it reads and stores it with the value: a write that lands
 * during the read makes the stored value stale at once.
 *
 * Writes by another process (a second server, psql) are not seen; every cache using the watch also has a TTL of a
 * few seconds that bounds that case.
 */
export class WriteWatch {
  private readonly generations = new Map<string, number>();
  private everything = 0;

  /**
   * soleWriter: this process is the only writer of its database (embedded SQLite), so every write is seen here and a
   * cache may keep a value until one. On PostgreSQL several processes may share the database and a logout or a
   * revoked role in another process is not seen here: the caches then keep nothing (revocation must stay immediate).
   */
  constructor(readonly soleWriter = true) {}

  /** Called with the SQL text of every executed statement. */
  observe(statement: string): void {
    const head = statement.trimStart().slice(0, 200);
    const verb = /^(insert|update|delete|replace|commit|rollback|truncate|alter|drop|merge|with)\b/i.exec(head)?.[1].toLowerCase();
    if (!verb) return;
    if (verb === 'with') {
      // A CTE may be a plain read; treat it as a write only when it writes somewhere.
      if (/\b(insert|update|delete)\b/i.test(statement)) this.everything++;
      return;
    }
    const table = /^(?:insert\s+(?:or\s+\w+\s+)?into|replace\s+into|update|delete\s+from)\s+("?)([\w.]+)\1/i.exec(head)?.[2];
    if (table) this.bump(table);
    else this.everything++;
  }

  private bump(table: string): void {
    const name = normalise(table);
    this.generations.set(name, (this.generations.get(name) ?? 0) + 1);
  }

  /** A token that changes whenever any of `tables` (snake_case or camelCase) may have changed. */
  version(tables: readonly string[]): string {
    let v = `${this.everything}`;
    for (const t of tables) v += `:${this.generations.get(normalise(t)) ?? 0}`;
    return v;
  }

  /** Listens to every statement logged to `stats` (keeps its own recording). */
  attach(stats: SqlStats): void {
    const record = stats.record.bind(stats);
    stats.record = (statement, ms, failed) => {
      if (!failed) this.observe(statement);
      record(statement, ms, failed);
    };
  }
}

/** "public"."sys_user_role", sys_user_role and sysUserRole are the same table. */
const normalise = (table: string) => (table.split('.').pop() ?? table).replace(/"/g, '').replace(/_/g, '').toLowerCase();

/** A value cached for at most `ttlMs`, and only while the watched tables are unchanged. */
export class WatchedCache<K, V> {
  private readonly entries = new Map<K, { value: V; version: string; expires: number }>();

  constructor(
    private readonly watch: WriteWatch,
    private readonly tables: readonly string[],
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  async get(key: K, load: () => Promise<V>, now = Date.now()): Promise<V> {
    if (!this.watch.soleWriter) return load();
    const version = this.watch.version(this.tables);
    const hit = this.entries.get(key);
    if (hit && hit.version === version && hit.expires > now) return hit.value;
    const value = await load();
    if (this.entries.size >= this.maxEntries) this.entries.clear(); // a bound, not an LRU: refills in one round
    this.entries.set(key, { value, version, expires: now + this.ttlMs });
    return value;
  }

  delete(key: K): void {
    this.entries.delete(key);
  }
}

/** The watch of each database (a test process runs several servers; their caches must never mix). */
const watches = new WeakMap<object, WriteWatch>();

export function registerWatch(owner: object, watch: WriteWatch): void {
  watches.set(owner, watch);
}

/** Stops caching for `owner` (the console bench times the same query with and without the cache). */
export function forgetWatch(owner: object): void {
  watches.delete(owner);
}

export function watchOf(owner: object): WriteWatch | undefined {
  return watches.get(owner);
}
