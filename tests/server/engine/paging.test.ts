import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startServer, type TestServer } from '../harness';

type Page = { code: number; total: number; rows: { postId: number; postCode: string; postSort: number; createTime: number }[] };

/**
 * Engine lists find a page by key (server/engine/query.ts selectRows): the page's keys come from the sort index and
 * pages in the second half are counted from the end in reversed order. Whatever the route, every page must hold
 * exactly the rows of the full list at that position — with ties in the sort column and, descending, every order.
 */
describe.each(backends)('engine list paging by key (%s)', (backend) => {
  let s: TestServer;
  let token: string;

  beforeAll(async () => {
    s = await startServer(backend);
    token = await s.login('admin', 'admin123');
    // 57 more posts; postSort and createTime repeat, so the primary key has to break ties.
    for (let i = 0; i < 57; i++) {
      await sql`insert into sys_post (post_code, post_name, post_sort, status, create_time)
        values (${`page-${String(i).padStart(3, '0')}`}, ${`分页岗位${i}`}, ${i % 4}, '0', ${1_700_000_000_000 + (i % 11) * 1000})`.execute(s.app.db.kysely);
    }
  });
  afterAll(async () => s?.close());

  const list = async (query: Record<string, string | number>) => (await s.call('GET', '/dev-api/system/post/list', { token, query })).body as unknown as Page;

  const orders: Record<string, string>[] = [
    {},
    { orderByColumn: 'postSort', isAsc: 'descending' },
    { orderByColumn: 'createTime', isAsc: 'ascending' },
    { orderByColumn: 'createTime', isAsc: 'descending' },
  ];
  for (const order of orders) {
    it(`every page equals its slice of the whole list (${JSON.stringify(order)})`, async () => {
      const all = await list({ ...order, pageSize: 500 });
      expect(all.code).toBe(200);
      expect(all.rows.length).toBe(all.total);
      expect(all.total).toBeGreaterThan(57);
      const ids = all.rows.map((r) => r.postId);
      for (const pageSize of [7, 20]) {
        const pages = Math.ceil(all.total / pageSize);
        for (let pageNum = 1; pageNum <= pages + 1; pageNum++) {
          const page = await list({ ...order, pageNum, pageSize });
          expect(page.total).toBe(all.total);
          expect(
            page.rows.map((r) => r.postId),
            `page ${pageNum} of ${pageSize}`,
          ).toEqual(ids.slice((pageNum - 1) * pageSize, pageNum * pageSize));
        }
      }
    });
  }

  it('pages a filtered list the same way', async () => {
    const all = await list({ postCode: 'page-0', pageSize: 500 });
    expect(all.total).toBe(57);
    const last = await list({ postCode: 'page-0', pageNum: 6, pageSize: 10 });
    expect(last.rows.map((r) => r.postCode)).toEqual(all.rows.slice(50, 60).map((r) => r.postCode));
  });
});
