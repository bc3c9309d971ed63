import crypto from 'node:crypto';
import { Redis } from 'ioredis';

/**
 * A generation per table, kept in Redis and shared by every server process of one PostgreSQL database, so each
 * process may keep what it read (list pages and totals, server/engine/query.ts) until ANY process writes one of the
 * tables it was read from — what the embedded SQLite gets for free by being the only writer (server/security/
 * writeWatch.ts). Without it a process on a shared database cannot keep anything: another process's write would not
 * be seen.
 *
 * A write replaces its table's generation (a random value, not INCR: should a key be evicted, the next value still
 * differs from every tag stored before) after the statement and again after its transaction ends (writeWatch's
 * announcements), and the statement — so the request that wrote — goes on only once Redis has it. A reader asks for
 * the generations of the tables it reads (one MGET) BEFORE it reads the database and files what it read under them:
 * a read that raced a write is filed already stale. A write whose table cannot be told from its SQL replaces the
 * generation every reader also asks for (`*`). Redis away: readers get no generation and read the database; writers
 * answer after BUMP_WAIT_MS at most. Writes made outside the server (psql) are bounded by each cache's TTL.
 */

/** How long a write waits for Redis to take a new generation before it answers anyway (the TTL bounds the rest). */
const BUMP_WAIT_MS = 1_000;
const ANY_TABLE = '*';

export class TableGenerations {
  private readonly client: Redis;

  constructor(
    url: string,
    private readonly prefix: string,
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    // Fail fast when Redis is away: readers then read the database instead of waiting.
    this.client = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2000 });
    this.client.on('error', () => {}); // reported through failed commands
  }

  private key(table: string): string {
    return `${this.prefix}tgen:${table}`;
  }

  /** One token for the current generations of `tables` (normalised names), or null when Redis cannot say. */
  async version(tables: readonly string[]): Promise<string | null> {
    if (this.client.status !== 'ready') return null;
    try {
      const values = await this.client.mget(this.key(ANY_TABLE), ...tables.map((t) => this.key(t)));
      return values.map((v) => v ?? '0').join(':');
    } catch (error) {
      this.onError(error);
      return null;
    }
  }

  /** New generations for `tables` (null: a write whose table is unknown — every table). Never rejects. */
  bump(tables: readonly string[] | null): Promise<void> {
    if (this.client.status !== 'ready') return Promise.resolve();
    const names = tables ?? [ANY_TABLE];
    const args = names.flatMap((t) => [this.key(t), crypto.randomBytes(9).toString('base64url')]);
    const done = this.client.mset(...args).then(
      () => undefined,
      (error) => this.onError(error),
    );
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, BUMP_WAIT_MS);
      timer.unref();
    });
    return Promise.race([done, late]).finally(() => clearTimeout(timer));
  }

  close(): void {
    this.client.disconnect();
  }
}
