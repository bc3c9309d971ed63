import crypto from 'node:crypto';
import { type CacheBackend, MemoryBackend, RedisBackend } from './backends.js';

/**
 * One cache layer for what is read often and changed rarely (docs/monitor.md "缓存"): dictionaries, 参数设置, menu trees
 * (getRuleList / getStoreRule) and platform info. In-process by default; Redis when REDIS_URL is set, so several
 * processes share the values and their invalidation.
 *
 * Invalidation uses versioned keys: every cache name has a generation counter stored in the backend, and a value lives
 * under `<prefix><name>:<generation>:<key>`. Clearing a name increments its generation, so every process stops reading
 * the old values at once — and a read that loaded old data before the clear can only store it under the old
 * generation, where nobody looks any more (no stale value survives a race with a write).
 */
export interface CacheName {
  name: string;
  /** Chinese name shown on 缓存列表. */
  title: string;
  /** Time to live of a value (ms); values also go when their name is cleared. */
  ttlMs: number;
}

export const CACHE_NAMES: CacheName[] = [
  { name: 'dict', title: '字典数据', ttlMs: 60 * 60 * 1000 },
  { name: 'config', title: '参数设置', ttlMs: 60 * 60 * 1000 },
  { name: 'menu', title: '菜单与路由', ttlMs: 60 * 60 * 1000 },
  { name: 'platform', title: '平台信息', ttlMs: 60 * 60 * 1000 },
];

interface Counter {
  hits: number;
  misses: number;
  errors: number;
}

export class CacheLayer {
  private readonly counters = new Map<string, Counter>();

  constructor(
    readonly backend: CacheBackend,
    /** Namespace of this deployment's keys (processes sharing a database share it). */
    readonly prefix: string,
    /** CACHE=off: every read goes to the database (the bench's "without cache" figures). */
    readonly enabled = true,
  ) {
    for (const c of CACHE_NAMES) this.counters.set(c.name, { hits: 0, misses: 0, errors: 0 });
  }

  private counter(name: string): Counter {
    let c = this.counters.get(name);
    if (!c) {
      c = { hits: 0, misses: 0, errors: 0 };
      this.counters.set(name, c);
    }
    return c;
  }

  private genKey(name: string) {
    return `${this.prefix}gen:${name}`;
  }

  private async generation(name: string): Promise<string> {
    return (await this.backend.get(this.genKey(name))) ?? '0';
  }

  private ttl(name: string) {
    return CACHE_NAMES.find((c) => c.name === name)?.ttlMs ?? 10 * 60 * 1000;
  }

  /** The cached value of name/key, or the loader's (then stored). A backend failure falls back to the loader. */
  async wrap<T>(name: string, key: string, load: () => Promise<T>): Promise<T> {
    const c = this.counter(name);
    if (!this.enabled) {
      c.misses++;
      return load();
    }
    let fullKey: string;
    try {
      fullKey = `${this.prefix}${name}:${await this.generation(name)}:${key}`;
      const hit = await this.backend.get(fullKey);
      if (hit !== null) {
        c.hits++;
        return JSON.parse(hit) as T;
      }
    } catch {
      c.errors++;
      return load();
    }
    c.misses++;
    const value = await load();
    try {
      await this.backend.set(fullKey, JSON.stringify(value ?? null), this.ttl(name));
    } catch {
      c.errors++;
    }
    return value;
  }

  /** Drops every value of a cache name (all processes, at once). */
  async clear(name: string): Promise<void> {
    const old = await this.generation(name);
    await this.backend.incr(this.genKey(name));
    // The old generation's values are unreachable already; removing them just frees memory.
    const stale = await this.backend.keys(`${this.prefix}${name}:${old}:`);
    await this.backend.del(stale);
  }

  async clearAll(): Promise<void> {
    for (const c of CACHE_NAMES) await this.clear(c.name);
  }

  /** The keys (as given to wrap) currently held under a name. */
  async keys(name: string): Promise<string[]> {
    const head = `${this.prefix}${name}:${await this.generation(name)}:`;
    return (await this.backend.keys(head)).map((k) => k.slice(head.length)).sort();
  }

  /** The stored value of one key (parsed), or undefined. */
  async value(name: string, key: string): Promise<unknown> {
    const raw = await this.backend.get(`${this.prefix}${name}:${await this.generation(name)}:${key}`);
    return raw === null ? undefined : JSON.parse(raw);
  }

  async clearKey(name: string, key: string): Promise<void> {
    await this.backend.del([`${this.prefix}${name}:${await this.generation(name)}:${key}`]);
  }

  /** Hits / misses / errors per name, counted by this process. */
  stats() {
    return CACHE_NAMES.map((c) => {
      const n = this.counter(c.name);
      const total = n.hits + n.misses;
      return { ...c, hits: n.hits, misses: n.misses, errors: n.errors, hitRate: total ? n.hits / total : 0 };
    });
  }

  close(): Promise<void> {
    return this.backend.close();
  }
}

/**
 * The namespace of a deployment's cache keys: CACHE_PREFIX, else derived from where its data lives (the database
 * address without credentials and its schema, or the data folder), so processes sharing a database share the keys.
 */
export function cachePrefixFor(c: { cachePrefix?: string; databaseUrl?: string; databaseSchema?: string; dataDir: string }): string {
  if (c.cachePrefix) return c.cachePrefix.endsWith(':') ? c.cachePrefix : `${c.cachePrefix}:`;
  const where = c.databaseUrl ? `${c.databaseUrl.replace(/\/\/[^@]*@/, '//')}#${c.databaseSchema ?? 'public'}` : c.dataDir;
  return `zy:${crypto.createHash('sha1').update(where).digest('hex').slice(0, 10)}:`;
}

export function createCache(redisUrl: string | undefined, prefix: string, enabled = true): CacheLayer {
  return new CacheLayer(redisUrl ? new RedisBackend(redisUrl) : new MemoryBackend(), prefix, enabled);
}

/** Reads through the app's cache when it has one (every built app does; a bare test app may not). */
export function cached<T>(app: { hasDecorator(name: string): boolean; cache?: CacheLayer }, name: string, key: string, load: () => Promise<T>): Promise<T> {
  return app.hasDecorator('cache') && app.cache ? app.cache.wrap(name, key, load) : load();
}
