import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startServer, type TestServer } from '../harness.js';

/**
 * A list's total and its pages are kept between requests (server/engine/query.ts countRows, pageRows); they must still
 * be exact right after every add, edit and delete, filtered or not, and after a write to a table the list joins.
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

  it('修改一行后，同一页立即显示新值', async () => {
    const page = async (token = admin) => {
      const res = await s.call('GET', `${BASE}/list`, { token, query: { pageNum: 1, pageSize: 5 } });
      expect(res.body.code, res.body.msg).toBe(200);
      return res.body.rows as Array<{ configId: number; configName: string; version: number }>;
    };
    const first = await page();
    expect(await page()).toEqual(first); // the same page again (kept)
    const row = first[0];
    const info = await s.call('GET', `${BASE}/${row.configId}`, { token: admin });
    const record = info.body.data as Record<string, unknown>;
    const edit = await s.call('PUT', BASE, { token: admin, body: { ...record, configName: '页缓存已改' } });
    expect(edit.body.code, edit.body.msg).toBe(200);
    expect((await page()).find((r) => r.configId === row.configId)?.configName).toBe('页缓存已改');
    await s.call('PUT', BASE, { token: admin, body: { ...record, version: row.version + 1 } }); // the old name back
  });

  it('关联表被改名后，列表里的关联名称立即更新', async () => {
    // 用户管理 joins 部门 for 部门名称: renaming the dept changes the user list's page.
    const users = async () => {
      const res = await s.call('GET', '/dev-api/system/user/list', { token: admin, query: { pageNum: 1, pageSize: 10, userName: 'admin' } });
      expect(res.body.code, res.body.msg).toBe(200);
      return res.body.rows as Array<{ userName: string; deptId: number; dept?: { deptName?: string }; deptName?: string }>;
    };
    const before = (await users()).find((u) => u.userName === 'admin');
    expect(before).toBeTruthy();
    const deptName = (u: typeof before) => u?.dept?.deptName ?? u?.deptName;
    const dept = await s.call('GET', `/dev-api/system/dept/${before?.deptId}`, { token: admin });
    expect(dept.body.code, dept.body.msg).toBe(200);
    const renamed = await s.call('PUT', '/dev-api/system/dept', { token: admin, body: { ...(dept.body.data as object), deptName: '页缓存部门' } });
    expect(renamed.body.code, renamed.body.msg).toBe(200);
    expect(deptName((await users()).find((u) => u.userName === 'admin'))).toBe('页缓存部门');
    const back = await s.call('GET', `/dev-api/system/dept/${before?.deptId}`, { token: admin });
    await s.call('PUT', '/dev-api/system/dept', { token: admin, body: { ...(back.body.data as object), deptName: deptName(before) } });
  });
});
