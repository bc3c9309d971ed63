import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_ANCHORS } from '../../../server/engine/query.js';
import { backends, startServer, type TestServer } from '../harness';

type Page = { code: number; total: number; rows: { postId: number; postCode: string }[] };

/**
 * Page anchors (server/engine/query.ts): on the embedded SQLite a page deep in a list seeks from a remembered sort key
 * and walks a few rows from there. Spaced every 3 rows here (1000 in production) so a small list has many of them:
 * every page must equal the same slice of the whole list, with ties in the sort column, with filters, and right
 * after a write (the anchors of the old list must not survive it). PostgreSQL keeps its plain paging: same answers.
 */
describe.each(backends)('engine list paging from page anchors (%s)', (backend) => {
  let s: TestServer;
  let token: string;
  const saved = { ...PAGE_ANCHORS };

  beforeAll(async () => {
    Object.assign(PAGE_ANCHORS, { every: 3, minWalk: 0, enabled: true });
    s = await startServer(backend);
    token = await s.login('admin', 'admin123');
    // postSort and createTime repeat, so the primary key has to break ties between anchors and their pages.
    for (let i = 0; i < 45; i++) {
      await sql`insert into sys_post (post_code, post_name, post_sort, status, create_time)
        values (${`anchor-${String(i).padStart(3, '0')}`}, ${`锚点岗位${i}`}, ${i % 4}, '0', ${1_700_000_000_000 + (i % 7) * 1000})`.execute(s.app.db.kysely);
    }
  });
  afterAll(async () => {
    Object.assign(PAGE_ANCHORS, saved);
    await s?.close();
  });

  const list = async (query: Record<string, string | number>) => (await s.call('GET', '/dev-api/system/post/list', { token, query })).body as unknown as Page;

  async function expectEveryPageIsItsSlice(query: Record<string, string>) {
    const all = await list({ ...query, pageSize: 500 });
    expect(all.code).toBe(200);
    expect(all.rows.length).toBe(all.total);
    const ids = all.rows.map((r) => r.postId);
    for (const pageSize of [4]) {
      for (let pageNum = 1; pageNum <= Math.ceil(all.total / pageSize); pageNum++) {
        const page = await list({ ...query, pageNum, pageSize });
        expect(page.total).toBe(all.total);
        expect(
          page.rows.map((r) => r.postId),
          `${JSON.stringify(query)} page ${pageNum} of ${pageSize}`,
        ).toEqual(ids.slice((pageNum - 1) * pageSize, pageNum * pageSize));
      }
    }
    return ids;
  }

  const orders: Record<string, string>[] = [
    {},
    { orderByColumn: 'postSort', isAsc: 'ascending' },
    { orderByColumn: 'createTime', isAsc: 'descending' },
    { orderByColumn: 'postCode', isAsc: 'ascending' },
  ];
  for (const order of orders) {
    it(`every page equals its slice of the whole list (${JSON.stringify(order)})`, async () => {
      await expectEveryPageIsItsSlice(order);
    });
  }

  it('pages a filtered list from its own anchors', async () => {
    const ids = await expectEveryPageIsItsSlice({ postCode: 'anchor-0', orderByColumn: 'postSort', isAsc: 'ascending' });
    expect(ids.length).toBe(45);
  });

  it('after a write the pages follow the new list at once', async () => {
    const order = { orderByColumn: 'postSort', isAsc: 'ascending' };
    await expectEveryPageIsItsSlice(order); // anchors of the list as it is now
    // A row that sorts among the first ones and a deleted row in the middle shift every later page by one.
    const created = await s.call('POST', '/dev-api/system/post', {
      token,
      body: { postCode: 'anchor-new', postName: '锚点新增', postSort: 0, status: '0' },
    });
    expect(created.body.code, created.body.msg).toBe(200);
    const middle = (await list({ ...order, pageNum: 10, pageSize: 2 })).rows[0];
    expect((await s.call('DELETE', `/dev-api/system/post/${middle.postId}`, { token })).body.code).toBe(200);
    const ids = await expectEveryPageIsItsSlice(order);
    expect(ids).not.toContain(middle.postId);
  });

  it.runIf(backend === 'sqlite')('deep pages are found from anchors on SQLite, found once per list until a write', async () => {
    const anchorLookups = () => (s.app.db.sqlStats?.top('count', 1000) ?? []).filter((x) => x.sql.includes('page_anchor')).reduce((n, x) => n + x.count, 0);
    const order = { orderByColumn: 'createTime', isAsc: 'ascending' };
    const before = anchorLookups();
    await expectEveryPageIsItsSlice(order);
    expect(anchorLookups() - before).toBeGreaterThanOrEqual(1);
    const after = anchorLookups();
    const again = await list({ ...order, pageNum: 6, pageSize: 4 });
    expect(again.rows.length).toBe(4);
    expect(anchorLookups()).toBe(after); // the same list again: its anchors are reused
  });
});
