import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOrder, payFromBalance } from '../../../server/finance/orders.js';
import { balance, call, ok, PRICE, releaseOk, staff } from '../customer/helpers.js';
import { backends, multipartFile, PNG_1PX, startServer, type TestServer } from '../harness.js';

/**
 * Work orders (docs/service.md): for every form, handling does exactly its change in one transaction with an audit
 * entry; rejecting changes nothing; handling twice is refused; a store sees only its own orders; bad attachments
 * are refused. Store 2 (济南门店) submits, headquarters (admin) handles.
 */

const WO = '/dev-api/api/WorkOrder';

describe.each(backends)('工单 (%s)', (backend) => {
  let s: TestServer;
  let hq: string;
  let store2: string;
  let store3: string;
  const db = () => s.app.db.kysely;
  let attachment: { name: string; url: string };
  const ids = { a: 0, b: 0, c: 0 };

  beforeAll(async () => {
    s = await startServer(backend);
    hq = await s.login('admin', 'admin123');
    store2 = await staff(s, 'wo_store2', 2);
    store3 = await staff(s, 'wo_store3', 3);
    // Three customers of store 2 (the demo students moved there).
    for (const [key, name] of [
      ['a', '李四'],
      ['b', '王五'],
      ['c', '赵六'],
    ] as const) {
      const row = await db().selectFrom('volStudent').select('studentId').where('name', '=', name).executeTakeFirstOrThrow();
      await db().updateTable('volStudent').set({ storeId: 2 }).where('studentId', '=', row.studentId).execute();
      ids[key] = row.studentId;
    }
    const up = await multipartFile('file', '退款凭证.png', 'image/png', PNG_1PX);
    const res = await s.call<never>('POST', '/dev-api/common/upload', { token: store2, body: up.body, headers: up.headers });
    expect(res.body.code, res.body.msg).toBe(200);
    attachment = { name: '退款凭证.png', url: (res.body as unknown as { fileName: string }).fileName };
  });
  afterAll(async () => {
    await s?.close();
  });

  const submit = (token: string, body: Record<string, unknown>) =>
    call<{ workOrderId: number; orderNo: string }>(s, token, 'POST', `${WO}/saveWorkOrder`, body);
  const submitOk = async (token: string, body: Record<string, unknown>) => {
    const res = await submit(token, body);
    expect(res.code, res.msg).toBe(200);
    return res.data as { workOrderId: number; orderNo: string };
  };
  const handle = (id: number, reply?: string) => call<{ result: string }>(s, hq, 'POST', `${WO}/handle`, { workOrderId: id, reply });
  const student = (id: number) => db().selectFrom('volStudent').selectAll().where('studentId', '=', id).executeTakeFirstOrThrow();
  const order = (id: number) => db().selectFrom('svcWorkOrder').selectAll().where('workOrderId', '=', id).executeTakeFirstOrThrow();
  const snapshot = async () => ({
    students: await db().selectFrom('volStudent').selectAll().orderBy('studentId').execute(),
    cards: await db().selectFrom('card').select(['cardId', 'status', 'version']).orderBy('cardId').execute(),
    balances: await db().selectFrom('cusStore').select(['storeId', 'balance']).orderBy('storeId').execute(),
    logs: (
      await db()
        .selectFrom('cusBalanceLog')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
    actions: (
      await db()
        .selectFrom('cusAction')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  });

  it('会员卡退款: handling voids the card and credits its price to the store, once; the submitter sees the reply', async () => {
    const batch = await releaseOk(s, store2, { kind: 3, card_num: 2, vip_price: PRICE[3] });
    const cardNo = batch.cardNoFirst;
    const before = await balance(s, 2);
    const { workOrderId, orderNo } = await submitOk(store2, { form: 'cardRefund', cardNo, reason: '家长放弃报名', attachments: [attachment] });
    const row = await order(workOrderId);
    expect(row).toMatchObject({ type: 2, form: 'cardRefund', status: 0, storeId: 2 });
    // A second open refund of the same card is refused.
    expect((await submit(store2, { form: 'cardRefund', cardNo, reason: '重复', attachments: [attachment] })).msg).toBe('该卡已有待处理的退款工单');

    const res = await handle(workOrderId, '已核实，退款已到门店余额');
    expect(res.code, res.msg).toBe(200);
    const card = await db().selectFrom('card').selectAll().where('cardNo', '=', Number(cardNo)).executeTakeFirstOrThrow();
    expect(card.status).toBe('voided');
    expect(await balance(s, 2)).toBe(before + PRICE[3]);
    const credit = await db().selectFrom('cusBalanceLog').selectAll().where('refType', '=', 'work_order').where('refId', '=', workOrderId).execute();
    expect(credit).toHaveLength(1);
    expect(Number(credit[0].amount)).toBe(PRICE[3]);
    const voidAction = await db().selectFrom('cardAction').selectAll().where('cardId', '=', card.cardId).where('action', '=', 'void').execute();
    expect(voidAction).toHaveLength(1);
    expect(voidAction[0].comment).toContain(orderNo);
    // The other card of the batch is untouched.
    const other = await db()
      .selectFrom('card')
      .select('status')
      .where('cardNo', '=', Number(cardNo) + 1)
      .executeTakeFirstOrThrow();
    expect(other.status).toBe('unused');

    // Handling again is refused and changes nothing.
    const again = await handle(workOrderId);
    expect(again.code).toBe(500);
    expect(again.msg).toBe('工单已处理，不能重复处理');
    expect(await balance(s, 2)).toBe(before + PRICE[3]);

    // The submitter sees status, result and reply, and the trail.
    const mine = await call<never>(s, store2, 'GET', `${WO}/list`, { mine: 1 });
    const listed = (mine.rows as Array<Record<string, unknown>>).find((r) => r.workOrderId === workOrderId);
    expect(listed).toMatchObject({ status: 2, statusName: '已处理', reply: '已核实，退款已到门店余额', formName: '会员卡退款', typeName: '会员卡退款' });
    const info = await ok<{ logs: Array<{ action: string }>; result: string }>(s, store2, 'GET', `${WO}/info`, { workOrderId });
    expect(info.logs.map((l) => l.action)).toEqual(['submit', 'handle']);
    expect(info.result).toContain('已作废');
  });

  it('two handlers at once: exactly one handles, the card is refunded once', async () => {
    const batch = await releaseOk(s, store2, { kind: 3, card_num: 1, vip_price: PRICE[3] });
    const before = await balance(s, 2);
    const { workOrderId } = await submitOk(store2, { form: 'cardRefund', cardNo: batch.cardNoFirst, reason: '并发', attachments: [attachment] });
    const results = await Promise.all([handle(workOrderId, '甲处理'), handle(workOrderId, '乙处理')]);
    expect(results.map((r) => r.code).sort()).toEqual([200, 500]);
    expect(results.find((r) => r.code === 500)?.msg).toBe('工单已处理，不能重复处理');
    expect(await balance(s, 2)).toBe(before + PRICE[3]);
    expect(await db().selectFrom('cusBalanceLog').select('logId').where('refType', '=', 'work_order').where('refId', '=', workOrderId).execute()).toHaveLength(
      1,
    );
  });

  it('a change refused while handling leaves the order pending and writes nothing (the card was activated meanwhile)', async () => {
    const batch = await releaseOk(s, store2, { kind: 3, card_num: 1, vip_price: PRICE[3] });
    const { workOrderId } = await submitOk(store2, { form: 'cardRefund', cardNo: batch.cardNoFirst, reason: '退款', attachments: [attachment] });
    await ok(s, store2, 'POST', '/dev-api/customer/openCard', { studentId: ids.b, cardNo: batch.cardNoFirst });
    const before = await snapshot();
    const res = await handle(workOrderId, '处理');
    expect(res.code).toBe(500);
    expect(res.msg).toBe(`卡号 ${batch.cardNoFirst} 已激活，只有未使用的卡可以作废`);
    expect(await order(workOrderId)).toMatchObject({ status: 0, result: null, handleBy: null });
    expect(await snapshot()).toEqual(before);
    const logs = await db().selectFrom('svcWorkOrderLog').select('action').where('workOrderId', '=', workOrderId).execute();
    expect(logs.map((l) => l.action)).toEqual(['submit']);
    // Headquarters rejects it instead.
    expect((await call(s, hq, 'POST', `${WO}/reject`, { workOrderId, reply: '该卡已激活，不能退款' })).code).toBe(200);
  });

  it('the customer forms change exactly their field, audited; 注销用户 moves the customer to 回收站', async () => {
    const cases: Array<{ body: Record<string, unknown>; check: (row: Awaited<ReturnType<typeof student>>, was: Awaited<ReturnType<typeof student>>) => void }> =
      [
        { body: { form: 'changeScore', studentId: ids.a, score: 601 }, check: (r) => expect(r.score).toBe(601) },
        { body: { form: 'changeYear', studentId: ids.a, examYear: 2027 }, check: (r) => expect(r.examYear).toBe(2027) },
        { body: { form: 'changePhone', studentId: ids.a, mobile: '13712345678' }, check: (r) => expect(r.mobile).toBe('13712345678') },
        { body: { form: 'changePermission', studentId: ids.a, userType: 2 }, check: (r) => expect(r.userType).toBe(2) },
      ];
    for (const c of cases) {
      const was = await student(ids.a);
      const { workOrderId, orderNo } = await submitOk(store2, { ...c.body, reason: '家长来电要求修改' });
      const res = await handle(workOrderId);
      expect(res.code, `${c.body.form}: ${res.msg}`).toBe(200);
      const now = await student(ids.a);
      c.check(now, was);
      // Nothing else of the customer changed (besides the change itself, the version and the update time).
      const changed = Object.keys(now).filter((k) => JSON.stringify(now[k as keyof typeof now]) !== JSON.stringify(was[k as keyof typeof was]));
      expect(changed.sort(), String(c.body.form)).toEqual(
        [
          { changeScore: 'score', changeYear: 'examYear', changePhone: 'mobile', changePermission: 'userType' }[c.body.form as string] as string,
          'updateTime',
          'version',
        ].sort(),
      );
      const audit = await db().selectFrom('cusAction').selectAll().where('studentId', '=', ids.a).orderBy('actionId', 'desc').executeTakeFirstOrThrow();
      expect(audit.comment).toContain(orderNo);
      expect((await order(workOrderId)).status).toBe(2);
    }

    const { workOrderId } = await submitOk(store2, { form: 'cancelUser', studentId: ids.c, reason: '家长要求注销' });
    expect((await handle(workOrderId)).code).toBe(200);
    const cancelled = await student(ids.c);
    expect(cancelled.cusStatus).toBe('recycled');
    expect(cancelled.delFlag).toBe('2');
    const audit = await db().selectFrom('cusAction').selectAll().where('studentId', '=', ids.c).where('action', '=', 'recycle').execute();
    expect(audit).toHaveLength(1);
  });

  it('意见反馈 changes nothing but the order', async () => {
    const before = await snapshot();
    const fb = await submitOk(store2, { form: 'feedback', reason: '希望增加批量导出功能' });
    const res = await handle(fb.workOrderId, '感谢反馈，已排入下个版本');
    expect(res.code).toBe(200);
    expect(await snapshot()).toEqual(before);
    expect(await order(fb.workOrderId)).toMatchObject({ status: 2, reply: '感谢反馈，已排入下个版本' });
  });

  it('订单退款: handling refunds the paid order through the payments module, once; another store cannot ask', async () => {
    const paid = await payFromBalance(db(), {
      purpose: 'card_purchase',
      storeId: 2,
      amountFen: 12_300,
      subject: '门店购卡',
      userId: 1,
      userName: '测试',
      meta: { cardKind: 3 },
    });
    // The purchase delivered its card (unused in 济南门店's stock); the refund takes it back.
    const delivered = () =>
      db()
        .selectFrom('card')
        .innerJoin('cardBatch', 'cardBatch.batchId', 'card.batchId')
        .select('card.status')
        .where('cardBatch.remark', '=', `在线购卡 ${paid.orderNo}`)
        .execute();
    expect(await delivered()).toEqual([{ status: 'unused' }]);
    const before = await balance(s, 2);
    expect((await submit(store3, { form: 'orderRefund', orderNo: paid.orderNo, reason: 'x', attachments: [attachment] })).msg).toBe('订单不存在或不属于本门店');
    const { workOrderId, orderNo } = await submitOk(store2, { form: 'orderRefund', orderNo: paid.orderNo, reason: '重复支付', attachments: [attachment] });
    const res = await handle(workOrderId);
    expect(res.code, res.msg).toBe(200);
    expect((await findOrder(db(), paid.orderNo))?.status).toBe('refunded');
    expect(await balance(s, 2)).toBe(before + 12_300);
    expect((await order(workOrderId)).result).toBe(`订单 ${paid.orderNo} 已退款 123.00 元`);
    expect(await delivered()).toEqual([{ status: 'voided' }]);
    expect(orderNo).toMatch(/^GD\d+$/);
    // (another reply: the same body within a second would be the duplicate-submit guard's refusal, not the order's)
    expect((await handle(workOrderId, '再次处理')).msg).toBe('工单已处理，不能重复处理');
    expect(await balance(s, 2)).toBe(before + 12_300);
    // A refunded order cannot be asked for again.
    expect((await submit(store2, { form: 'orderRefund', orderNo: paid.orderNo, reason: 'x', attachments: [attachment] })).msg).toBe('订单已退款，不能申请退款');
  });

  it('rejecting changes nothing, needs a reason the submitter sees, and a rejected order cannot be handled', async () => {
    const batch = await releaseOk(s, store2, { kind: 3, card_num: 1, vip_price: PRICE[3] });
    const card = await submitOk(store2, { form: 'cardRefund', cardNo: batch.cardNoFirst, reason: '退款', attachments: [attachment] });
    const score = await submitOk(store2, { form: 'changeScore', studentId: ids.b, score: 455, reason: '分数录错' });
    const before = await snapshot();
    expect((await call(s, hq, 'POST', `${WO}/reject`, { workOrderId: card.workOrderId })).msg).toBe('驳回原因不能为空');
    for (const id of [card.workOrderId, score.workOrderId]) {
      const res = await call(s, hq, 'POST', `${WO}/reject`, { workOrderId: id, reply: '凭证不清晰，请补充后重新提交' });
      expect(res.code, res.msg).toBe(200);
    }
    expect(await snapshot()).toEqual(before);
    expect(await order(score.workOrderId)).toMatchObject({ status: 3, reply: '凭证不清晰，请补充后重新提交' });
    const again = await handle(score.workOrderId);
    expect(again.msg).toBe('工单已驳回，不能重复处理');
    expect(await snapshot()).toEqual(before);
  });

  it('assign moves 待处理 to 处理中; handling from 处理中 works; only headquarters acts', async () => {
    const { workOrderId } = await submitOk(store2, { form: 'feedback', reason: '指派测试' });
    // A store's staff holds no handle permission.
    expect((await s.call('POST', `${WO}/assign`, { token: store2, body: { workOrderId } })).body.code).toBe(403);
    const assigned = await call(s, hq, 'POST', `${WO}/assign`, { workOrderId, reply: '已安排专人跟进' });
    expect(assigned.code, assigned.msg).toBe(200);
    expect(await order(workOrderId)).toMatchObject({ status: 1, assigneeName: expect.any(String), reply: '已安排专人跟进' });
    expect((await call(s, hq, 'POST', `${WO}/assign`, { workOrderId })).msg).toBe('工单处理中，不能重复处理');
    expect((await handle(workOrderId, '已处理')).code).toBe(200);
  });

  it('a store sees only its own orders', async () => {
    const { workOrderId } = await submitOk(store2, { form: 'feedback', reason: '门店二的反馈' });
    const list3 = await call<never>(s, store3, 'GET', `${WO}/list`, {});
    expect(list3.code).toBe(200);
    expect((list3.rows as Array<{ storeId: number }>).every((r) => r.storeId === 3)).toBe(true);
    expect(list3.total).toBe(0);
    // Asking for store 2 by filter changes nothing for store 3.
    expect((await call<never>(s, store3, 'GET', `${WO}/list`, { storeId: 2 })).total).toBe(0);
    expect((await call(s, store3, 'GET', `${WO}/info`, { workOrderId })).msg).toBe('工单不存在或无权访问');
    // Nor can store 3 file an order about store 2's customer or card.
    expect((await submit(store3, { form: 'changeScore', studentId: ids.b, score: 500, reason: 'x' })).msg).toBe('用户不存在或无权访问');
    const batch = await releaseOk(s, store2, { kind: 3, card_num: 1, vip_price: PRICE[3] });
    expect((await submit(store3, { form: 'cardRefund', cardNo: batch.cardNoFirst, reason: 'x', attachments: [attachment] })).msg).toBe(
      '卡号不存在或不属于本门店',
    );
    // Headquarters sees every store's.
    const all = await call<never>(s, hq, 'GET', `${WO}/list`, { storeId: 2 });
    expect((all.rows as Array<{ workOrderId: number }>).some((r) => r.workOrderId === workOrderId)).toBe(true);
  });

  it("工单管理 is headquarters' page: a store leader's menu has 提交工单 but not 工单管理; 提交工单's list is the caller's own", async () => {
    type Route = { component?: string; children?: Route[] };
    const components = async (token: string) => {
      const res = await s.call<Route[]>('POST', '/dev-api/api/auth/getRuleList', { token, body: {} });
      const out: string[] = [];
      const walk = (items: Route[]) => {
        for (const r of items) {
          if (r.component) out.push(r.component);
          walk(r.children ?? []);
        }
      };
      walk((res.body.data ?? []) as Route[]);
      return out;
    };
    const store = await components(store2);
    expect(store).toContain('serviceCenter/submitWorkOrder/index');
    expect(store).not.toContain('serviceCenter/workOrder/index');
    expect(await components(hq)).toEqual(expect.arrayContaining(['serviceCenter/submitWorkOrder/index', 'serviceCenter/workOrder/index']));
    // 提交工单's list (the preset filter mine=1 of schemas/service/service_my_work_order.json): only the caller's own.
    const mine = await call<never>(s, store2, 'GET', `${WO}/list`, { mine: 1, pageNum: 1, pageSize: 50 });
    expect(mine.total).toBeGreaterThan(0);
    expect((mine.rows as Array<{ storeId: number }>).every((r) => r.storeId === 2)).toBe(true);
    expect((await call<never>(s, hq, 'GET', `${WO}/list`, { mine: 1 })).total).toBe(0);
  });

  it('each form checks its own fields and the attachments', async () => {
    const batch = await releaseOk(s, store2, { kind: 3, card_num: 1, vip_price: PRICE[3] });
    const card = { form: 'cardRefund', cardNo: batch.cardNoFirst, reason: '退款' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ form: 'nope', reason: 'x' }, '请选择工单类型（会员卡退款、订单退款、修改分数、修改年份、修改权限、修改手机号、意见反馈、注销用户）'],
      [{ form: 'feedback' }, '反馈内容不能为空'],
      [{ form: 'changeScore', studentId: ids.b, score: 800, reason: 'x' }, '分数应在 0 到 750 之间'],
      [{ form: 'changeYear', studentId: ids.b, examYear: 1990, reason: 'x' }, '请填写正确的高考年份'],
      [{ form: 'changePhone', studentId: ids.b, mobile: '12345', reason: 'x' }, '请输入正确的手机号码'],
      [{ form: 'changePermission', studentId: ids.b, userType: 9, reason: 'x' }, '请选择用户类型（权限）'],
      [{ form: 'orderRefund', orderNo: 'a b', reason: 'x', attachments: [attachment] }, '请输入正确的订单号'],
      [{ form: 'orderRefund', orderNo: 'PAY20260101000001', reason: 'x', attachments: [attachment] }, '订单不存在或不属于本门店'],
      [card, '请上传至少 1 个附件（退款凭证）'],
      [{ ...card, attachments: Array(6).fill(attachment) }, '上传文件数量不能超过 5 个!'],
      [{ ...card, attachments: [{ name: 'x', url: '/profile/../../etc/passwd' }] }, '附件不存在，请重新上传'],
      [{ ...card, attachments: [{ name: 'x', url: 'https://evil.example/x.png' }] }, '附件不存在，请重新上传'],
      [{ ...card, attachments: [{ name: 'x', url: '/profile/upload/2026/01/01/00000000000000000000000000000000.png' }] }, '附件不存在，请重新上传'],
    ];
    for (const [body, msg] of cases) {
      const res = await submit(store2, body);
      expect(res.msg, JSON.stringify(body).slice(0, 80)).toBe(msg);
    }
    // A stored file whose bytes are not what its name says (written past the upload checks) is refused by content.
    const key = 'upload/2026/01/01/0123456789abcdef0123456789abcdef.png';
    const abs = path.join(s.dataDir, 'uploads', key);
    await fs.mkdir(path.dirname(abs), { recursive: true });
    await fs.writeFile(abs, '<script>alert(1)</script>');
    expect((await submit(store2, { ...card, attachments: [{ name: 'x.png', url: `/profile/${key}` }] })).msg).toBe(
      '文件格式不正确, 请上传png/jpg/jpeg/pdf/doc/docx/xls/xlsx格式文件!',
    );
    // A stored text file is a type a work order does not take.
    const txt = await multipartFile('file', 'a.txt', 'text/plain', Buffer.from('说明'));
    const up = await s.call<never>('POST', '/dev-api/common/upload', { token: store2, body: txt.body, headers: txt.headers });
    const url = (up.body as unknown as { fileName: string }).fileName;
    expect((await submit(store2, { ...card, attachments: [{ name: 'a.txt', url }] })).msg).toBe(
      '文件格式不正确, 请上传png/jpg/jpeg/pdf/doc/docx/xls/xlsx格式文件!',
    );
    // Nothing was stored by any refusal.
    expect(await db().selectFrom('svcWorkOrder').select('workOrderId').where('cardNo', '=', Number(batch.cardNoFirst)).execute()).toHaveLength(0);
  });
});
