import type { SqlStats } from '../db/sqlStats.js';

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
 * Writes by another process (a second server, psql) are not seen here; every cache using the watch also has a TTL
 * of a few seconds that bounds writes made outside the server. A cache shared by several processes (the session cache
 * in Redis, server/cache/auth.ts) hears of this process's writes through `announceWrites`, and of the others' through
 * what they announce. On PostgreSQL with Redis the watch itself shares every write (`share`, server/cache/
 * tableGenerations.ts): each table's generation lives in Redis, so the caches of every process may keep values again.
 *
 * No value read while a transaction of this process is open is kept: the read may be inside that transaction and see
 * its uncommitted writes (a hit from another request, or a rollback, would then show rows that never were).
 */
export class WriteWatch {
  private readonly generations = new Map<string, number>();
  private everything = 0;
  /** Transactions open on any connection of this process (BEGIN seen, COMMIT / ROLLBACK not yet). */
  private openTransactions = 0;
  private readonly announcers: Announcer[] = [];
  /** Generations shared with the other processes of the database (PostgreSQL + Redis), if any. */
  private shared: SharedGenerations | null = null;
  /** Tables written in a transaction that may still be open (null among them: unknown), announced again after it. */
  private readonly sharedPending = new Set<string | null>();

  /**
   * soleWriter: this process is the only writer of its database (embedded SQLite), so every write is seen here and a
   * cache may keep a value until one. On PostgreSQL several processes may share the database and a logout or a
   * revoked role in another process is not seen here: the caches then keep nothing (revocation must stay immediate).
   */
  constructor(readonly soleWriter = true) {}

  /**
   * Shares this process's writes with every process of a shared database and lets its caches keep values (see the
   * class comment): each write replaces its table's generation in `shared` before the statement returns, and again
   * after the transaction that made it ends.
   */
  share(shared: SharedGenerations): void {
    this.shared = shared;
  }

  /** Whether values read now may be kept: this process is the only writer, or the others announce their writes. */
  get caching(): boolean {
    return this.soleWriter || this.shared !== null;
  }

  /** A transaction of this process is open: what is read now may be uncommitted (see the class comment). */
  get inTransaction(): boolean {
    return this.openTransactions > 0;
  }

  /**
   * The token of `tables` for a cache entry, or null when nothing may be kept now (no sharing on a shared database,
   * Redis unreachable). Take it BEFORE reading what is filed under it. `readTables`: the tables a shared token covers
   * (defaults to `tables`; a caller with every quoted name of a statement passes the few it reads from).
   */
  async token(tables: readonly string[], readTables: readonly string[] = tables): Promise<string | null> {
    const local = this.version(tables);
    if (this.soleWriter) return local;
    if (!this.shared) return null;
    const shared = await this.shared.version([...new Set(readTables.map(normalise))]);
    return shared === null ? null : `${local}|${shared}`;
  }

  /**
   * Called with the SQL text of every executed statement. Answers a promise when a shared cache must first hear of
   * the write (announceWrites): the statement log that calls this awaits it, so the statement — and the request that
   * ran it — finishes only once every process has been told.
   */
  observe(statement: string): Promise<void> | undefined {
    const head = statement.trimStart().slice(0, 200);
    const verb = /^(insert|update|delete|replace|commit|rollback|truncate|alter|drop|merge|with|begin|start)\b/i.exec(head)?.[1].toLowerCase();
    if (!verb) return;
    if (verb === 'begin' || verb === 'start') {
      if (verb === 'begin' || /^start\s+transaction\b/i.test(head)) this.openTransactions++;
      return;
    }
    if (verb === 'with') {
      // A CTE may be a plain read; treat it as a write only when it writes somewhere.
      if (!/\b(insert|update|delete)\b/i.test(statement)) return;
      this.everything++;
      return this.announce(null, statement);
    }
    if (verb === 'commit' || verb === 'rollback') {
      this.everything++;
      // ROLLBACK TO SAVEPOINT leaves its transaction open.
      if (!/^rollback\s+to\b/i.test(head)) this.openTransactions = Math.max(0, this.openTransactions - 1);
      return this.transactionEnded();
    }
    const table = /^(?:insert\s+(?:or\s+\w+\s+)?into|replace\s+into|update|delete\s+from)\s+("?)([\w.]+)\1/i.exec(head)?.[2];
    if (table) this.bump(table);
    else this.everything++;
    return this.announce(table ? normalise(table) : null, statement);
  }

  /**
   * Tells a cache shared with other processes about this process's writes to `tables`: `announce` runs after each
   * such statement (an autocommit write is then visible to all), and, while a transaction that made one may still be
   * open, again after every COMMIT or ROLLBACK until no transaction is open — so one announcement always follows the
   * commit that made the write visible. A write whose table cannot be read from its text counts for every table.
   * `ignoreInserts`: tables whose plain INSERTs change nothing the cache holds (a new sign-in's session row).
   */
  announceWrites(tables: readonly string[], announce: () => Promise<void>, ignoreInserts: readonly string[] = []): void {
    this.announcers.push({ tables: new Set(tables.map(normalise)), ignoreInserts: new Set(ignoreInserts.map(normalise)), announce, pending: false });
  }

  private announce(table: string | null, statement: string): Promise<void> | undefined {
    const waits: Promise<void>[] = [];
    if (this.shared) {
      if (this.openTransactions > 0) this.sharedPending.add(table);
      waits.push(this.shared.bump(table === null ? null : [table]));
    }
    if (this.announcers.length === 0) return settle(waits);
    const plainInsert = /^\s*insert\s+into\b/i.test(statement) && !/\bon\s+conflict\b/i.test(statement);
    for (const a of this.announcers) {
      if (table !== null && (!a.tables.has(table) || (plainInsert && a.ignoreInserts.has(table)))) continue;
      if (this.openTransactions > 0) a.pending = true;
      waits.push(a.announce());
    }
    return settle(waits);
  }

  private transactionEnded(): Promise<void> | undefined {
    const waits: Promise<void>[] = [];
    if (this.shared && this.sharedPending.size > 0) {
      const tables = [...this.sharedPending];
      waits.push(this.shared.bump(tables.includes(null) ? null : (tables as string[])));
      if (this.openTransactions === 0) this.sharedPending.clear();
    }
    for (const a of this.announcers) {
      if (!a.pending) continue;
      if (this.openTransactions === 0) a.pending = false;
      waits.push(a.announce());
    }
    return settle(waits);
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

  /**
   * Listens to every statement logged to `stats` (keeps its own recording). The logger of server/db/connection.ts
   * hands record's answer back to Kysely, which awaits it before the statement resolves: an announcement
   * (announceWrites) is made before the code that ran the statement goes on.
   */
  attach(stats: SqlStats): void {
    const record = stats.record.bind(stats);
    stats.record = (statement, ms, failed) => {
      const announced = failed ? undefined : this.observe(statement);
      record(statement, ms, failed);
      return announced; // SqlStats types it void; the promise still reaches Kysely (see above)
    };
  }
}

interface Announcer {
  tables: Set<string>;
  ignoreInserts: Set<string>;
  announce: () => Promise<void>;
  /** A transaction that wrote one of `tables` may still be open: announce again after the next COMMIT / ROLLBACK. */
  pending: boolean;
}

/** Generations shared by the processes of one database (server/cache/tableGenerations.ts); names normalised. */
export interface SharedGenerations {
  version(tables: readonly string[]): Promise<string | null>;
  bump(tables: readonly string[] | null): Promise<void>;
}

const settle = (waits: Promise<void>[]): Promise<void> | undefined =>
  waits.length === 0 ? undefined : waits.length === 1 ? waits[0] : Promise.all(waits).then(() => undefined);

/** "public"."sys_user_role", sys_user_role and sysUserRole are the same table. */
const normalise = (table: string) => (table.split('.').pop() ?? table).replace(/"/g, '').replace(/_/g, '').toLowerCase();

/**
 * A value cached for at most `ttlMs`, and only while the watched tables are unchanged: in every process where the
 * watch shares generations (WriteWatch.share), else in this one (the sole writer), else not at all.
 */
export class WatchedCache<K, V> {
  private readonly entries = new Map<K, { value: V; version: string; expires: number }>();

  constructor(
    private readonly watch: WriteWatch,
    private readonly tables: readonly string[],
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  /** `readTables`: on a shared database, the tables whose generations the entry also carries (see WriteWatch.token). */
  async get(key: K, load: () => Promise<V>, readTables: readonly string[] = this.tables, now = Date.now()): Promise<V> {
    if (!this.watch.caching) return load();
    const version = this.watch.soleWriter ? this.watch.version(this.tables) : await this.watch.token(this.tables, readTables);
    if (version === null) return load();
    const hit = this.entries.get(key);
    if (hit && hit.version === version && hit.expires > now) return hit.value;
    const keep = !this.watch.inTransaction;
    const value = await load();
    if (!keep || this.watch.inTransaction) return value;
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
