import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SharedGenerations, WatchedCache, WriteWatch } from '../../../server/security/writeWatch.js';
import { redisBinary, startRedis } from '../../processes.js';
import { backends, startServer, type TestServer } from '../harness.js';

/**
 * List pages kept on PostgreSQL when the processes share their writes through Redis (server/cache/tableGenerations.ts,
 * WriteWatch.share): process A answers a repeated list without a statement, and answers the write of process B — an
 * added, changed or deleted row — on its very next request, not after the cache's TTL.
 */

const LIST = '/dev-api/system/config/list?pageNum=1&pageSize=100';
const CONFIG = '/dev-api/system/config';

interface ConfigRow {
  configId: number;
  configKey: string;
  configValue: string;
  version: number;
}

/** How many times a server has run the 参数设置 list statement (page and total in one), from its SQL statistics. */
function listReads(server: TestServer): number {
  return (server.app.db.sqlStats?.top('count', 2000) ?? []).filter((s) => /__total/.test(s.sql) && /"sys_config"/.test(s.sql)).reduce((n, s) => n + s.count, 0);
}

const redis = redisBinary();
if (!redis && process.env.REQUIRE_REDIS === '1') throw new Error('缺少 redis-server（.ci/run 会安装）：多进程列表缓存测试必须运行');

describe.skipIf(!redis || !backends.includes('postgres'))('列表缓存：PostgreSQL + Redis，两个进程', () => {
  let child: ChildProcess;
  let a: TestServer;
  let b: TestServer;
  let admin: string;

  beforeAll(async () => {
    const started = await startRedis(redis as string);
    child = started.child;
    a = await startServer('postgres', { redisUrl: started.url, jobs: { enabled: false } });
    b = await startServer('postgres', { redisUrl: started.url, jobs: { enabled: false } }, a);
    admin = await a.login('admin', 'admin123');
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    child?.kill();
  });

  async function list(server: TestServer): Promise<{ total: number; rows: ConfigRow[] }> {
    const res = await server.call<never>('GET', LIST, { token: admin });
    const body = res.body as unknown as { code: number; msg: string; total: number; rows: ConfigRow[] };
    expect(body.code, body.msg).toBe(200);
    return body;
  }

  it('a repeated list is answered without a statement; a write in the other process shows on the next request', async () => {
    // Redis may still be connecting right after start (reads then go to the database): wait until A keeps the list.
    await expect
      .poll(async () => {
        await list(a);
        const before = listReads(a);
        await list(a);
        return listReads(a) - before;
      })
      .toBe(0);
    const first = await list(a);

    const added = await b.call<never>('POST', CONFIG, {
      token: admin,
      body: { configName: '共享缓存', configKey: 'cache.shared.test', configValue: 'v1', configType: 'N' },
    });
    expect(added.body.code, added.body.msg).toBe(200);
    const afterAdd = await list(a);
    expect(afterAdd.total).toBe(first.total + 1);
    const row = afterAdd.rows.find((r) => r.configKey === 'cache.shared.test');
    expect(row?.configValue).toBe('v1');

    const changed = await b.call<never>('PUT', CONFIG, {
      token: admin,
      body: { configId: row?.configId, version: row?.version, configName: '共享缓存', configKey: 'cache.shared.test', configValue: 'v2', configType: 'N' },
    });
    expect(changed.body.code, changed.body.msg).toBe(200);
    expect((await list(a)).rows.find((r) => r.configKey === 'cache.shared.test')?.configValue).toBe('v2');

    const removed = await b.call<never>('DELETE', `${CONFIG}/${row?.configId}`, { token: admin });
    expect(removed.body.code, removed.body.msg).toBe(200);
    const afterRemove = await list(a);
    expect(afterRemove.total).toBe(first.total);
    expect(afterRemove.rows.some((r) => r.configKey === 'cache.shared.test')).toBe(false);
  });
});

/** What the watch tells the other processes, and when a cache may keep what it read (a fake Redis). */
describe('WriteWatch.share', () => {
  function shared() {
    const generations = new Map<string, number>();
    const told: Array<string[] | null> = [];
    const fake: SharedGenerations = {
      async version(tables) {
        return ['*', ...tables].map((t) => generations.get(t) ?? 0).join(':');
      },
      async bump(tables) {
        told.push(tables ? [...tables] : null);
        for (const t of tables ?? ['*']) generations.set(t, (generations.get(t) ?? 0) + 1);
      },
    };
    const watch = new WriteWatch(false);
    watch.share(fake);
    return { watch, told, fake };
  }

  it('without sharing, a process on a shared database keeps nothing', async () => {
    const watch = new WriteWatch(false);
    const cache = new WatchedCache<string, number>(watch, [], 10_000);
    let loads = 0;
    await cache.get('k', async () => ++loads, ['sys_config']);
    await cache.get('k', async () => ++loads, ['sys_config']);
    expect(loads).toBe(2);
  });

  it('announces each write with its table, a write of unknown table as every table, and again after its transaction', async () => {
    const { watch, told } = shared();
    await watch.observe('update "sys_config" set "config_value" = $1 where "config_id" = $2');
    expect(told).toEqual([['sysconfig']]);
    watch.observe('begin');
    await watch.observe('insert into "sys_notice" ("notice_title") values ($1)');
    await watch.observe('with gone as (delete from sys_post returning *) select count(*) from gone');
    expect(told.slice(1)).toEqual([['sysnotice'], null]);
    await watch.observe('commit');
    expect(told[3]).toBeNull(); // the transaction's writes again, the unknown one as every table
    await watch.observe('commit');
    expect(told.length).toBe(4); // nothing pending any more
    await watch.observe('select * from "sys_config"');
    expect(told.length).toBe(4);
  });

  it('keeps a value until another process writes a table it was read from; never one read inside a transaction', async () => {
    const { watch, fake } = shared();
    const cache = new WatchedCache<string, number>(watch, [], 10_000);
    let loads = 0;
    const read = () => cache.get('page', async () => ++loads, ['sys_config', 'sys_dept']);
    expect(await read()).toBe(1);
    expect(await read()).toBe(1); // kept
    await fake.bump(['sysnotice']); // another process writes another table
    expect(await read()).toBe(1);
    await fake.bump(['sysdept']); // … and one the value was read from
    expect(await read()).toBe(2);
    await fake.bump(null); // … and a table nobody could tell
    expect(await read()).toBe(3);
    watch.observe('begin');
    expect(await read()).toBe(3); // a hit is still fine
    await fake.bump(['sysconfig']);
    expect(await read()).toBe(4); // read inside the transaction: not kept
    expect(await read()).toBe(5);
    await watch.observe('commit');
    expect(await read()).toBe(6);
    expect(await read()).toBe(6);
  });

  it('Redis unreachable: the value is read every time', async () => {
    const watch = new WriteWatch(false);
    watch.share({ version: async () => null, bump: async () => {} });
    const cache = new WatchedCache<string, number>(watch, [], 10_000);
    let loads = 0;
    await cache.get('k', async () => ++loads, ['sys_config']);
    await cache.get('k', async () => ++loads, ['sys_config']);
    expect(loads).toBe(2);
  });
});
