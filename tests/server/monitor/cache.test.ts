import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisBinary, startRedis } from '../../processes.js';
import { backends, startServer, type TestServer } from '../harness.js';

/**
 * The cache layer (server/cache/): dictionaries, 参数设置 and menu trees are served from the cache and a change shows at
 * once — in one process (memory) and across two processes sharing Redis; 缓存列表 shows and clears keys.
 */

const DICT = '/dev-api/system/dict/data';
const CONFIG = '/dev-api/system/config';

interface DictRow {
  dictCode: number;
  dictLabel: string;
  dictValue: string;
  version: number;
}

/** Renames the label of the first entry of sys_user_sex through the engine's update (what 字典数据 does). */
async function renameFirstSex(server: TestServer, token: string, label: string) {
  const list = await server.call('GET', `${DICT}/list`, { token, query: { dictType: 'sys_user_sex' } });
  const row = (list.body.rows as DictRow[]).find((r) => r.dictValue === '0') as DictRow;
  const full = await server.call<Record<string, unknown>>('GET', `${DICT}/${row.dictCode}`, { token });
  const res = await server.call('PUT', DICT, { token, body: { ...full.body.data, dictLabel: label } });
  expect(res.body.code).toBe(200);
}

async function sexLabels(server: TestServer, token: string): Promise<string[]> {
  const res = await server.call<DictRow[]>('GET', `${DICT}/type/sys_user_sex`, { token });
  expect(res.body.code).toBe(200);
  return (res.body.data ?? []).map((r) => r.dictLabel);
}

describe.each(backends)('cache, one process in memory (%s)', (backend) => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startServer(backend, { jobs: { enabled: false } });
    token = await server.login('admin', 'admin123');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('serves a dictionary from the cache and a change at once', async () => {
    expect(await sexLabels(server, token)).toContain('男');
    expect(await sexLabels(server, token)).toContain('男'); // second read: a hit
    const stats = await server.call<{ names: Array<{ name: string; hits: number; keys: number }> }>('GET', '/dev-api/monitor/cache', { token });
    const dict = stats.body.data?.names.find((n) => n.name === 'dict');
    expect(dict?.hits).toBeGreaterThanOrEqual(1);
    expect(dict?.keys).toBeGreaterThanOrEqual(1);
    await renameFirstSex(server, token, '男性');
    expect(await sexLabels(server, token)).toContain('男性');
  });

  it('参数设置: configKey is cached, and 刷新缓存 really refreshes after a change made behind the API', async () => {
    const read = async () => (await server.call('GET', `${CONFIG}/configKey/sys.index.skinName`, { token })).body.msg;
    expect(await read()).toBe('skin-blue');
    // A change straight in the database (another tool): the cache still answers the old value until refreshed.
    await server.app.db.kysely
      .updateTable('sysConfig' as never)
      .set({ configValue: 'skin-red' } as never)
      .where('configKey' as never, '=', 'sys.index.skinName' as never)
      .execute();
    expect(await read()).toBe('skin-blue');
    const refresh = await server.call('DELETE', `${CONFIG}/refreshCache`, { token });
    expect(refresh.body).toMatchObject({ code: 200, msg: '刷新成功' });
    expect(await read()).toBe('skin-red');
  });

  it('getRuleList is built once per role set and rebuilt after a menu change', async () => {
    const rules = async () => JSON.stringify((await server.call('POST', '/dev-api/api/auth/getRuleList', { token })).body.data);
    const before = await rules();
    expect(before).toContain('"title":"定时任务"');
    const menu = await server.call('GET', '/dev-api/system/menu/list', { token, query: { menuName: '定时任务' } });
    const row = (menu.body.rows as Array<{ menuId: number }>)[0];
    const full = await server.call<Record<string, unknown>>('GET', `/dev-api/system/menu/${row.menuId}`, { token });
    const saved = await server.call('PUT', '/dev-api/system/menu', { token, body: { ...full.body.data, menuName: '计划任务' } });
    expect(saved.body.code).toBe(200);
    const after = await rules();
    expect(after).toContain('"title":"计划任务"');
    expect(after).not.toContain('"title":"定时任务"');
  });

  it('缓存列表: names, keys, a value, and clearing by key, by name and all', async () => {
    await sexLabels(server, token);
    const names = await server.call<Array<{ cacheName: string; remark: string }>>('GET', '/dev-api/monitor/cache/getNames', { token });
    expect(names.body.data?.map((n) => n.remark)).toEqual(['字典数据', '参数设置', '菜单与路由', '平台信息']);
    const keys = await server.call<string[]>('GET', '/dev-api/monitor/cache/getKeys/dict', { token });
    expect(keys.body.data).toContain('sys_user_sex');
    const value = await server.call<{ cacheValue: string }>('GET', '/dev-api/monitor/cache/getValue/dict/sys_user_sex', { token });
    expect(value.body.data?.cacheValue).toContain('dictLabel');
    await server.call('DELETE', '/dev-api/monitor/cache/clearCacheKey/dict/sys_user_sex', { token });
    expect((await server.call<string[]>('GET', '/dev-api/monitor/cache/getKeys/dict', { token })).body.data).not.toContain('sys_user_sex');
    await sexLabels(server, token);
    expect((await server.call('DELETE', '/dev-api/monitor/cache/clearCacheName/dict', { token })).body.msg).toBe('清理成功');
    expect((await server.call<string[]>('GET', '/dev-api/monitor/cache/getKeys/dict', { token })).body.data).toEqual([]);
    await server.call('POST', '/dev-api/api/auth/getStoreRule', { token });
    await server.call('DELETE', '/dev-api/monitor/cache/clearCacheAll', { token });
    expect((await server.call<string[]>('GET', '/dev-api/monitor/cache/getKeys/menu', { token })).body.data).toEqual([]);
    const unknown = await server.call('GET', '/dev-api/monitor/cache/getKeys/nope', { token });
    expect(unknown.body).toMatchObject({ code: 500, msg: "缓存名称'nope'不存在" });
  });

  it('refuses the monitor pages to a user without their permissions', async () => {
    const expert = await server.login('expert', 'expert123');
    for (const url of ['/dev-api/monitor/cache', '/dev-api/monitor/druid', '/dev-api/monitor/server', '/dev-api/monitor/job/list']) {
      expect((await server.call('GET', url, { token: expert })).body.code).toBe(403);
    }
  });
});

const redis = redisBinary();
// CI (.ci/run sets REQUIRE_REDIS=1) must run the two-process Redis test; elsewhere it is skipped without the binary.
if (!redis && process.env.REQUIRE_REDIS === '1') throw new Error('缺少 redis-server（.ci/run 会安装）：双进程共享缓存测试必须运行');

describe.skipIf(!redis).each(backends)('cache shared by two processes through Redis (%s)', (backend) => {
  let child: ChildProcess;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    let redisUrl: string;
    ({ child, url: redisUrl } = await startRedis(redis as string));
    a = await startServer(backend, { redisUrl, jobs: { enabled: false } });
    b = await startServer(backend, { redisUrl, jobs: { enabled: false } }, a);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    child?.kill();
  });

  it('a dictionary changed through one process is served changed by the other at once', async () => {
    const tokenA = await a.login('admin', 'admin123');
    const tokenB = await b.login('admin', 'admin123');
    expect(await sexLabels(b, tokenB)).toContain('男'); // b caches it (in Redis)
    expect(await sexLabels(b, tokenB)).toContain('男');
    await renameFirstSex(a, tokenA, '男士');
    expect(await sexLabels(b, tokenB)).toContain('男士');
    const monitor = await b.call<{ backend: string; info: { info: Record<string, string> } }>('GET', '/dev-api/monitor/cache', { token: tokenB });
    expect(monitor.body.data?.backend).toBe('redis');
    expect(monitor.body.data?.info.info.redis_version).toMatch(/^\d+\./);
  });
});
