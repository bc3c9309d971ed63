import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startServer, type TestServer } from '../harness.js';
import { call, ok, PRICE, releaseOk, staff, studentByName } from './helpers.js';

/**
 * What the customer screens that now come from schemas/customer/ (备忘录, 消息管理, 测评管理, 发卡记录, 卡片二) ask of the
 * module's list routes beyond the generic conformance suite: the search fields the schemas declare (门店, 卡类型,
 * 状态, one note by memoId for the 修改 dialog) filter within the caller's store only, a note says whether the caller
 * wrote it (`mine`, x-rowWhen), and the dictionaries the schemas name exist.
 */
describe.each(backends)('customer lists behind the schemas (%s)', (backend) => {
  let s: TestServer;
  let leader: string;
  let agency: string;

  beforeAll(async () => {
    s = await startServer(backend);
    leader = await s.login('leader', 'leader123');
    agency = await staff(s, 'agency_lists', 2);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('the dictionaries of the customer schemas are there with their labels', async () => {
    const labels = async (type: string) =>
      (await ok<Array<{ dictValue: string; dictLabel: string }>>(s, leader, 'GET', `/dev-api/system/dict/data/type/${type}`)).map(
        (d) => `${d.dictValue}=${d.dictLabel}`,
      );
    expect(await labels('cus_card_kind')).toEqual(['1=志愿卡', '2=升学卡', '3=体验卡']);
    expect(await labels('cus_card_status')).toEqual(['unused=未使用', 'activated=已激活', 'expired=已过期', 'voided=已作废']);
    expect(await labels('cus_read_status')).toEqual(['0=未读', '1=已读']);
  });

  it('发卡记录 and 卡片二 search by 门店 (headquarters), 卡类型 and 状态, within the caller’s store only', async () => {
    const hqBatch = await releaseOk(s, leader, { storeId: 1, kind: 3, card_num: 2, vip_price: PRICE[3] });
    const agencyBatch = await releaseOk(s, leader, { storeId: 2, kind: 3, card_num: 1, vip_price: PRICE[3] });

    const batches = async (token: string, q: Record<string, unknown>) =>
      ((await call<never>(s, token, 'GET', '/dev-api/card/record/list', { pageSize: 100, ...q })).rows as Array<{ batchId: number }>).map((b) => b.batchId);
    expect(await batches(leader, { storeId: 2 })).toContain(agencyBatch.batchId);
    expect(await batches(leader, { storeId: 2 })).not.toContain(hqBatch.batchId);
    expect(await batches(leader, { storeId: 1, kind: 3 })).toContain(hqBatch.batchId);
    expect(await batches(leader, { storeId: 1, kind: 2 })).not.toContain(hqBatch.batchId);
    // A store's staff asking for headquarters' store still sees nothing of it.
    expect(await batches(agency, { storeId: 1 })).toEqual([]);
    expect(await batches(agency, {})).toContain(agencyBatch.batchId);

    const cards = async (token: string, q: Record<string, unknown>) =>
      (await call<never>(s, token, 'GET', '/dev-api/card/two/list', { pageSize: 100, ...q })) as unknown as {
        rows: Array<{ cardNo: string; storeId: number; status: string; kind: number }>;
        total: number;
        counts: Record<string, number>;
      };
    const found = await cards(leader, { storeId: 2, kind: 3, status: 'unused' });
    expect(found.rows.length).toBeGreaterThan(0);
    expect(found.rows.every((c) => c.storeId === 2 && c.kind === 3 && c.status === 'unused')).toBe(true);
    expect(found.total).toBe(found.rows.length);
    expect((await cards(agency, { storeId: 1 })).rows).toEqual([]);
    // The figures above the list (x-header: counts by state, sent the 门店 filter) follow the store.
    const all = await cards(leader, {});
    const store2 = await cards(leader, { storeId: 2 });
    const sum = (c: Record<string, number>) => Object.values(c).reduce((n, v) => n + v, 0);
    expect(sum(all.counts)).toBe(all.total);
    expect(sum(store2.counts)).toBe(store2.total);
    expect(store2.total).toBeLessThan(all.total);
    expect((await cards(agency, {})).counts).toEqual(store2.counts);
  });

  it('备忘录 answers one note by memoId (the 修改 dialog), never another store’s', async () => {
    const wang = await studentByName(s, '王五');
    await ok(s, leader, 'POST', '/dev-api/customer/memo', { studentId: wang.studentId, content: '第一条备忘' });
    await ok(s, leader, 'POST', '/dev-api/customer/memo', { studentId: wang.studentId, content: '第二条备忘' });
    const all = (await call<never>(s, leader, 'GET', '/dev-api/customer/memo/list', { pageSize: 100 })).rows as Array<{ memoId: number; content: string }>;
    const first = all.find((m) => m.content === '第一条备忘');
    expect(first).toBeTruthy();
    const one = await call<never>(s, leader, 'GET', '/dev-api/customer/memo/list', { memoId: first?.memoId as number });
    expect(one.total).toBe(1);
    expect((one.rows as Array<{ content: string; studentName: string }>)[0]).toMatchObject({ content: '第一条备忘', studentName: '王五' });
    // 修改 / 删除 show only on the caller's own notes (x-rowWhen on `mine`).
    expect(all.filter((m) => m.content.endsWith('条备忘')).map((m) => (m as { mine?: boolean }).mine)).toEqual([true, true]);
    const colleague = await staff(s, 'hq_lists_colleague', 1);
    const seen = (await call<never>(s, colleague, 'GET', '/dev-api/customer/memo/list', { memoId: first?.memoId as number })).rows as Array<{
      mine: boolean;
    }>;
    expect(seen).toHaveLength(1);
    expect(seen[0].mine).toBe(false);
    const elsewhere = await call<never>(s, agency, 'GET', '/dev-api/customer/memo/list', { memoId: first?.memoId as number });
    expect(elsewhere).toMatchObject({ code: 200, total: 0, rows: [] });
  });

  it('消息管理 filters by 状态 and counts the store’s unread messages (x-header 未读消息)', async () => {
    const wang = await studentByName(s, '王五');
    await ok(s, leader, 'POST', '/dev-api/customer/message', { target: 'one', studentIds: String(wang.studentId), title: '状态测试', content: '内容' });
    const list = async (q: Record<string, unknown>) =>
      (await call<never>(s, leader, 'GET', '/dev-api/customer/message/list', { pageSize: 100, title: '状态测试', ...q })) as unknown as {
        rows: Array<{ readStatus: number }>;
        unread: number;
      };
    expect((await list({ readStatus: 0 })).rows).toHaveLength(1);
    expect((await list({ readStatus: 1 })).rows).toHaveLength(0);
    expect((await list({})).unread).toBeGreaterThanOrEqual(1);
    const unreadOf = async (storeId?: number) => {
      let q = s.app.db.kysely
        .selectFrom('cusMessage')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('readStatus', '=', 0);
      if (storeId != null) q = q.where('storeId', '=', storeId);
      return Number((await q.executeTakeFirst())?.n ?? 0);
    };
    expect((await list({})).unread).toBe(await unreadOf()); // headquarters: every store
    const agencyView = (await call<never>(s, agency, 'GET', '/dev-api/customer/message/list', { pageSize: 1 })) as unknown as { unread: number };
    expect(agencyView.unread).toBe(await unreadOf(2));
    expect(agencyView.unread).toBeLessThan((await list({})).unread);
  });
});
