import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startServer, type TestServer } from '../harness.js';

/**
 * A list's total is kept per filter set between requests (server/engine/query.ts countRows); it must still be
 * exact right after every add and delete, filtered or not.
 */
const BASE = '/dev-api/system/config';

describe.each(backends)('列表总数缓存：写入后立即准确 (%s)', (backend) => {
  let s: TestServer;
  let admin: string;
  beforeAll(async () => {
    s = await startServer(backend);
    admin = await s.login('admin', 'admin123');
  });
  afterAll(async () => s?.close());

  const total = async (query: Record<string, string | number> = {}) => {
    const res = await s.call('GET', `${BASE}/list`, { token: admin, query: { pageNum: 1, pageSize: 10, ...query } });
    expect(res.body.code, res.body.msg).toBe(200);
    return Number(res.body.total);
  };

  it('新增与删除后，无筛选与有筛选的总数都立即变化', async () => {
    const all = await total();
    const filtered = await total({ configName: '计数缓存' });
    expect(await total()).toBe(all); // a second read of the same lists (from the cache)
    expect(filtered).toBe(0);

    const add = await s.call('POST', BASE, {
      token: admin,
      body: { configName: '计数缓存测试', configKey: 'count.cache.test', configValue: '1', configType: 'N' },
    });
    expect(add.body.code, add.body.msg).toBe(200);
    expect(await total()).toBe(all + 1);
    expect(await total({ configName: '计数缓存' })).toBe(1);

    const listed = await s.call('GET', `${BASE}/list`, { token: admin, query: { configKey: 'count.cache.test' } });
    const id = (listed.body.rows as Array<{ configId: number }>)[0].configId;
    const del = await s.call('DELETE', `${BASE}/${id}`, { token: admin });
    expect(del.body.code, del.body.msg).toBe(200);
    expect(await total()).toBe(all);
    expect(await total({ configName: '计数缓存' })).toBe(0);
  });
});
