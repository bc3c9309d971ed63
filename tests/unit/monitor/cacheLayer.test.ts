import { describe, expect, it } from 'vitest';
import { MemoryBackend } from '../../../server/cache/backends.js';
import { CacheLayer } from '../../../server/cache/index.js';
import { cronProblem, nextFireTimes } from '../../../server/monitor/cron.js';

/** The cache layer's versioned keys and the cron helpers, without a server. */
describe('cache layer', () => {
  it('serves a stored value until its name is cleared, and counts hits and misses', async () => {
    const cache = new CacheLayer(new MemoryBackend(), 'zy:t:');
    let loads = 0;
    const read = () => cache.wrap('dict', 'sex', async () => ++loads);
    expect(await read()).toBe(1);
    expect(await read()).toBe(1);
    await cache.clear('dict');
    expect(await read()).toBe(2);
    expect(cache.stats().find((s) => s.name === 'dict')).toMatchObject({ hits: 1, misses: 2 });
    expect(await cache.keys('dict')).toEqual(['sex']);
  });

  it('a read that loaded old data before a clear cannot store it where later reads look', async () => {
    const cache = new CacheLayer(new MemoryBackend(), 'zy:t:');
    let release!: () => void;
    let loading!: () => void;
    const loaderCalled = new Promise<void>((r) => (loading = r));
    const slow = cache.wrap('menu', 'rules', () => {
      loading();
      return new Promise<string>((r) => (release = () => r('old')));
    });
    await loaderCalled; // the slow read has taken its generation and is loading
    await cache.clear('menu'); // a write commits and clears meanwhile
    release();
    expect(await slow).toBe('old');
    expect(await cache.wrap('menu', 'rules', async () => 'new')).toBe('new');
  });

  it('CACHE=off reads through every time', async () => {
    const cache = new CacheLayer(new MemoryBackend(), 'zy:t:', false);
    let loads = 0;
    await cache.wrap('config', 'k', async () => ++loads);
    await cache.wrap('config', 'k', async () => ++loads);
    expect(loads).toBe(2);
  });
});

describe('cron', () => {
  it('accepts Quartz and Unix forms and refuses nonsense in Chinese', () => {
    expect(cronProblem('0 0/10 * * * ?')).toBeNull();
    expect(cronProblem('*/5 * * * *')).toBeNull();
    expect(cronProblem('61 * * * * ?')).toBe('Cron表达式不正确');
    expect(cronProblem('')).toBe('Cron表达式不能为空');
  });

  it('evaluates in China time', () => {
    // 03:00 Asia/Shanghai is 19:00 UTC the day before.
    const [first] = nextFireTimes('0 0 3 * * ?', 1, Date.UTC(2026, 0, 1, 0, 0, 0));
    expect(new Date(first).toISOString()).toBe('2026-01-01T19:00:00.000Z');
  });
});
