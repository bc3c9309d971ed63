import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startServer, type TestServer } from '../harness.js';
import { downloadBatch, ok, PRICE, releaseOk, staff } from './helpers.js';

/**
 * Generated over the routes: every /dev-api route of 会员卡 and 用户管理 is called by the staff of an agency store
 * (青岛门店, store 3, holding the leader role, so every permission passes) with parameters naming headquarters' customer,
 * cards, batch, memo, message and appraisal. No answer may show headquarters' data, and nothing of
 * headquarters may change.
 */

const HQ_NAME = '总部客户甲';

describe.each(backends)('门店数据隔离 (%s)', (backend) => {
  let s: TestServer;
  let hq: string;
  let agency: string;
  const ids = { student: 0, card: 0, cardNo: '', usedCardNo: '', batch: 0, memo: 0, message: 0, appraisal: 0 };

  beforeAll(async () => {
    s = await startServer(backend);
    hq = await s.login('leader', 'leader123');
    agency = await staff(s, 'agency_staff', 3);
    const db = s.app.db.kysely;
    const sun = await db.selectFrom('volStudent').select('studentId').where('name', '=', '孙七').executeTakeFirstOrThrow();
    await db
      .updateTable('volStudent')
      .set({ name: HQ_NAME, address: '总部地址', receiver: '甲家长', receiverMobile: '13911112222' })
      .where('studentId', '=', sun.studentId)
      .execute();
    ids.student = sun.studentId;
    const batch = await releaseOk(s, hq, { storeId: 1, kind: 1, card_num: 3, vip_price: PRICE[1] });
    ids.batch = batch.batchId;
    ids.usedCardNo = batch.cardNoFirst;
    ids.cardNo = String(Number(batch.cardNoFirst) + 1);
    await ok(s, hq, 'POST', '/dev-api/customer/openCard', { studentId: ids.student, cardNo: ids.usedCardNo });
    ids.card = (await db.selectFrom('card').select('cardId').where('cardNo', '=', Number(ids.cardNo)).executeTakeFirstOrThrow()).cardId;
    ids.memo = (await ok<{ memoId: number }>(s, hq, 'POST', '/dev-api/customer/memo', { studentId: ids.student, content: '总部备忘' })).memoId;
    await ok(s, hq, 'POST', '/dev-api/customer/message', { target: 'one', studentIds: String(ids.student), title: '总部消息', content: '总部消息内容' });
    ids.message = (await db.selectFrom('cusMessage').select('messageId').where('studentId', '=', ids.student).executeTakeFirstOrThrow()).messageId;
    ids.appraisal = (
      await db
        .insertInto('cusAppraisal')
        .values({
          studentId: ids.student,
          storeId: 1,
          answers: '{}',
          score: 10,
          result: '{"dims":{"R":2},"code":"RIA"}',
          summary: '总部测评',
          expireTime: Date.now() + 1e9,
          createTime: Date.now(),
        })
        .returning('appraisalId')
        .executeTakeFirstOrThrow()
    ).appraisalId;
    // The agency has data of its own, so its lists are not trivially empty.
    await db.updateTable('volStudent').set({ storeId: 3 }).where('name', '=', '李四').execute();
    await releaseOk(s, agency, { kind: 3, card_num: 2, vip_price: PRICE[3] });
  });
  afterAll(async () => {
    await s?.close();
  });

  /** Everything of headquarters that a route could change. */
  async function hqState() {
    const db = s.app.db.kysely;
    return JSON.stringify({
      store: await db.selectFrom('cusStore').selectAll().where('storeId', '=', 1).execute(),
      students: await db.selectFrom('volStudent').selectAll().where('storeId', '=', 1).orderBy('studentId').execute(),
      cards: await db.selectFrom('card').selectAll().where('storeId', '=', 1).orderBy('cardId').execute(),
      batches: await db.selectFrom('cardBatch').selectAll().where('storeId', '=', 1).orderBy('batchId').execute(),
      memos: await db.selectFrom('cusMemo').selectAll().where('storeId', '=', 1).execute(),
      messages: await db.selectFrom('cusMessage').selectAll().where('storeId', '=', 1).execute(),
      deliveries: await db.selectFrom('cusDelivery').selectAll().where('storeId', '=', 1).execute(),
      appraisals: await db.selectFrom('cusAppraisal').selectAll().where('storeId', '=', 1).execute(),
    });
  }

  it('no route of 会员卡 / 用户管理 lets an agency read or change headquarters’ customers or cards', async () => {
    const routes = s.app.routeRegistry.filter((r) => /^\/dev-api\/(card|customer)(\/|$)/.test(r.url));
    expect(routes.length).toBeGreaterThanOrEqual(25);
    const params = {
      studentId: ids.student,
      studentIds: String(ids.student),
      ids: String(ids.student),
      cardIds: String(ids.card),
      cardNo: ids.cardNo,
      batchId: ids.batch,
      memoId: ids.memo,
      messageId: ids.message,
      appraisalId: ids.appraisal,
      storeId: 1,
      toStoreId: 3,
      target: 'one',
      version: 1,
      name: '改名',
      province: '山东',
      examYear: 2026,
      content: '改',
      title: '改',
      receiver: '改',
      receiverMobile: '13900009999',
      address: '改',
      item: '报告',
      carrier: '顺丰',
      trackingNo: 'SF000000001',
      kind: 1,
      card_num: 1,
      vip_price: PRICE[1],
    };
    const secretsOfHq = (await downloadBatch(s, hq, ids.batch)).rows.map((r) => r.卡密);
    const before = await hqState();
    const leaks: string[] = [];
    for (const r of routes) {
      const url = r.url.replace(':ids', r.url.includes('memo') ? String(ids.memo) : String(ids.message));
      // A distinct body per route: the server refuses identical repeats within 1 s as double submissions.
      const body = { ...params, _route: r.url };
      const res =
        r.method === 'GET'
          ? await s.call('GET', url, { token: agency, query: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])) })
          : await s.call(r.method, url, { token: agency, body });
      const text = res.raw + (res.rawBuffer.subarray(0, 2).toString() === 'PK' ? '[xlsx]' : '');
      const what = `${r.method} ${r.url} → ${res.status} ${text.slice(0, 120)}`;
      if ([HQ_NAME, '总部备忘', '总部消息', '总部测评', '总部地址', ids.usedCardNo, ids.cardNo, ...secretsOfHq].some((needle) => text.includes(needle)))
        leaks.push(what);
      if (res.rawBuffer.subarray(0, 2).toString() === 'PK' || res.rawBuffer.subarray(0, 4).toString() === '%PDF') leaks.push(`${what} (file)`);
      if (r.method !== 'GET' && res.body?.code === 200) {
        // A write may succeed only on the agency's own rows (e.g. 发卡 for its own store is refused here: storeId 1).
        leaks.push(`${what} (write accepted)`);
      }
    }
    expect(leaks).toEqual([]);
    expect(await hqState()).toBe(before);
  });

  it('the agency still works on its own store', async () => {
    const list = (await s.call('GET', '/dev-api/customer/list', { token: agency, query: { pageSize: 50 } })).body;
    expect((list.rows as Array<{ name: string }>).map((r) => r.name)).toEqual(['李四']);
    const cards = (await s.call('GET', '/dev-api/card/two/list', { token: agency, query: { pageSize: 50 } })).body;
    expect(cards.total).toBe(2);
    const hqList = (await s.call('GET', '/dev-api/customer/list', { token: hq, query: { pageSize: 50 } })).body;
    expect((hqList.rows as Array<{ name: string }>).map((r) => r.name)).toContain('李四');
  });
});
