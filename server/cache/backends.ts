import { Redis } from 'ioredis';

/**
 * Where cached values live. Values are JSON text under flat string keys; the cache layer (index.ts) builds the keys.
 * The memory backend serves one process; the Redis backend (REDIS_URL) is shared by every process that uses the same
 * key prefix, so a change made through one process is seen by all at once.
 */
export interface CacheBackend {
  readonly kind: 'memory' | 'redis';
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  del(keys: string[]): Promise<void>;
  /** Atomically adds one to an integer key and answers the new value (generation counters). */
  incr(key: string): Promise<number>;
  /** Keys that start with `prefix` (SCAN on Redis; never KEYS). */
  keys(prefix: string, limit?: number): Promise<string[]>;
  /** Backend facts for 缓存监控: memory, key count, and on Redis the INFO sections. */
  info(): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

interface Entry {
  value: string;
  expires: number;
}

export class MemoryBackend implements CacheBackend {
  readonly kind = 'memory' as const;
  private readonly map = new Map<string, Entry>();
  /** Bound on entries so a cache of many keys cannot eat the heap; the oldest inserted go first. */
  constructor(private readonly maxEntries = 20_000) {}

  async get(key: string): Promise<string | null> {
    const e = this.map.get(key);
    if (!e) return null;
    if (e.expires <= Date.now()) {
      this.map.delete(key);
      return null;
    }
    return e.value;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    this.map.delete(key);
    this.map.set(key, { value, expires: Date.now() + ttlMs });
    while (this.map.size > this.maxEntries) {
      const oldest = this.map.keys().next().value;
      if (oldest === undefined) break;
      this.map.delete(oldest);
    }
  }

  async del(keys: string[]): Promise<void> {
    for (const k of keys) this.map.delete(k);
  }

  async incr(key: string): Promise<number> {
    const n = Number((await this.get(key)) ?? 0) + 1;
    await this.set(key, String(n), 365 * 24 * 3600 * 1000);
    return n;
  }

  async keys(prefix: string, limit = 10_000): Promise<string[]> {
    const now = Date.now();
    const out: string[] = [];
    for (const [k, e] of this.map) {
      if (e.expires <= now || !k.startsWith(prefix)) continue;
      out.push(k);
      if (out.length >= limit) break;
    }
    return out;
  }

  async info(): Promise<Record<string, unknown>> {
    let bytes = 0;
    for (const [k, e] of this.map) bytes += (k.length + e.value.length) * 2;
    return { entries: this.map.size, approxBytes: bytes, maxEntries: this.maxEntries };
  }

  async close(): Promise<void> {
    this.map.clear();
  }
}

export class RedisBackend implements CacheBackend {
  readonly kind = 'redis' as const;
  readonly client: Redis;

  constructor(url: string) {
    // Fail fast when Redis is away: the cache layer then reads from the database instead of hanging a request.
    this.client = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: true, connectTimeout: 2000, lazyConnect: false });
    this.client.on('error', () => {}); // reported through failed commands (the layer counts them)
  }

  async get(key: string): Promise<string | null> {
    return this.client.get(key);
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.client.set(key, value, 'PX', ttlMs);
  }

  async del(keys: string[]): Promise<void> {
    if (keys.length) await this.client.del(...keys);
  }

  async incr(key: string): Promise<number> {
    return this.client.incr(key);
  }

  async keys(prefix: string, limit = 10_000): Promise<string[]> {
    const out: string[] = [];
    let cursor = '0';
    const match = `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
    do {
      const [next, batch] = await this.client.scan(cursor, 'MATCH', match, 'COUNT', 500);
      cursor = next;
      out.push(...batch);
    } while (cursor !== '0' && out.length < limit);
    return out.slice(0, limit);
  }

  async info(): Promise<Record<string, unknown>> {
    const text = await this.client.info();
    const info: Record<string, string> = {};
    for (const line of text.split(/\r?\n/)) {
      const at = line.indexOf(':');
      if (at > 0 && !line.startsWith('#')) info[line.slice(0, at)] = line.slice(at + 1);
    }
    const dbSize = await this.client.dbsize();
    const commandStats = (await this.client.info('commandstats'))
      .split(/\r?\n/)
      .filter((l) => l.startsWith('cmdstat_'))
      .map((l) => {
        const [name, rest] = l.split(':');
        return { name: name.replace('cmdstat_', ''), calls: Number(/calls=(\d+)/.exec(rest)?.[1] ?? 0) };
      })
      .sort((a, b) => b.calls - a.calls)
      .slice(0, 12);
    return { info, dbSize, commandStats };
  }

  async close(): Promise<void> {
    this.client.disconnect();
  }
}
