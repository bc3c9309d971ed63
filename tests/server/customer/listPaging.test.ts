import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_ANCHORS } from '../../../server/engine/query.js';
import { backends, startServer, type TestServer } from '../harness.js';
import { call } from './helpers.js';

/**
 * 用户列表 / 回收站 page vol_student by key like an engine list (server/customer/customers.ts, engine pageKeys): the
 * total is kept until the table is written, a page in the second half is read from the end, a deep page seeks from
 * its nearest anchor (every 3 rows here, 1000 in production). Every page must be its slice of the whole list — for
 * every filter, in a store's own scope, and right after a write.
 */
describe.each(backends)('用户列表 paging by key (%s)', (backend) => {
  let s: TestServer;
  let admin: string;
  const saved = { ...PAGE_ANCHORS };

  beforeAll(async () => {
    Object.assign(PAGE_ANCHORS, { every: 3, minWalk: 0, enabled: true });
    s = await startServer(backend);
    admin = await s.login('admin', 'admin123');
    const now = Date.now();
    const rows = Array.from({ length: 57 }, (_, j) => ({
      name: `翻页客户${String(j).padStart(2, '0')}`,
      mobile: `1370000${String(j).padStart(4, '0')}`,
      province: '山东',
      examYear: 2027,
      score: 500 + j,
      subjects: '1,2,3',
      preferRegions: '[]',
      preferLevels: '[]',
      preferMajors: '[]',
      delFlag: '0',
      createTime: now,
      updateTime: now,
      version: 1,
      storeId: 1 + (j % 2),
      userType: j % 3,
    }));
    await s.app.db.kysely.insertInto('volStudent').values(rows).execute();
  });
  afterAll(async () => {
    Object.assign(PAGE_ANCHORS, saved);
    await s?.close();
  });

  type Page = { code: number; total: number; rows: { studentId: number; name: string; storeId: number }[] };
  const list = async (q: Record<string, unknown>, url = '/dev-api/customer/list') => (await call(s, admin, 'GET', url, q)) as unknown as Page;

  async function expectEveryPageIsItsSlice(q: Record<string, unknown>, url?: string) {
    const all = await list({ ...q, pageSize: 500 }, url);
    expect(all.code).toBe(200);
    expect(all.rows.length).toBe(all.total);
    const ids = all.rows.map((r) => r.studentId);
    // Newest customer first.
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const pageSize = 4;
    for (let pageNum = 1; pageNum <= Math.ceil(all.total / pageSize) + 1; pageNum++) {
      const page = await list({ ...q, pageNum, pageSize }, url);
      expect(page.total).toBe(all.total);
      expect(
        page.rows.map((r) => r.studentId),
        `${JSON.stringify(q)} page ${pageNum}`,
      ).toEqual(ids.slice((pageNum - 1) * pageSize, pageNum * pageSize));
    }
    return all.rows;
  }

  it('every page of the whole list, of one store and of a name search is its slice', async () => {
    const all = await expectEveryPageIsItsSlice({});
    expect(all.length).toBeGreaterThanOrEqual(57);
    const store2 = await expectEveryPageIsItsSlice({ storeId: 2 });
    expect(store2.every((r) => r.storeId === 2)).toBe(true);
    const named = await expectEveryPageIsItsSlice({ name: '翻页客户' });
    expect(named.length).toBe(57);
    expect(await expectEveryPageIsItsSlice({ name: '翻页客户', userType: 1 })).toHaveLength(19);
  });

  it('after customers move to 回收站 both lists follow at once', async () => {
    const before = await expectEveryPageIsItsSlice({ name: '翻页客户' });
    // Warm the deep pages' anchors and the total, then recycle three customers from the middle of the list.
    const gone = before.slice(20, 23).map((r) => r.studentId);
    const res = await call(s, admin, 'POST', '/dev-api/customer/recycle', { ids: gone });
    expect(res.code, res.msg).toBe(200);
    const after = await expectEveryPageIsItsSlice({ name: '翻页客户' });
    expect(after.map((r) => r.studentId)).toEqual(before.map((r) => r.studentId).filter((id) => !gone.includes(id)));
    const recycled = await expectEveryPageIsItsSlice({ name: '翻页客户' }, '/dev-api/customer/recycle/list');
    expect(recycled.map((r) => r.studentId).sort()).toEqual([...gone].sort());
  });
});
