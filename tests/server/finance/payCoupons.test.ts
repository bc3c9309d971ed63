import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CARD_KINDS } from '../../../server/customer/rules.js';
import { pullCoupon } from '../../../server/finance/coupons.js';
import { balanceOf } from '../../../server/finance/ledger.js';
import { closeExpiredOrders, refundOrder } from '../../../server/finance/orders.js';
import { payProvidersOf, sandboxNotifier } from '../../../server/finance/payRoutes.js';
import { appUser } from '../customer/helpers.js';
import { backends, startServer, type TestServer } from '../harness.js';
import { expectLedgerBalanced } from './ledgerInvariant.js';
import { api, apiOk, type Created, count, notify, order, payInSandbox, signedSandboxNotice, today, tradeNoOf } from './payHelpers.js';

const DAY = 86_400_000;

describe.each(backends)('优惠券 (%s)', (backend) => {
  let s: TestServer;
  let admin: string;
  let store2: string;
  let family: { token: string; userId: number };
  const db = () => s.app.db.kysely;

  beforeAll(async () => {
    s = await startServer(backend);
    admin = await s.login('admin', 'admin123');
    store2 = await s.login('store2leader', 'store2leader123');
    family = await appUser(s, 'coupon_family');
  });
  afterAll(async () => {
    await s?.close();
  });
  afterEach(async () => {
    await sandboxNotifier(s.app).settle();
    await expectLedgerBalanced(s);
  });

  const batch = (body: Record<string, unknown>, token = admin) =>
    api<{ batchId: number }>(s, token, '/appv2/api/Coupon/addMoney', {
      name: '开学季立减',
      kind: 'amount',
      amountFen: 5_000,
      validFrom: Date.now() - DAY,
      validTo: Date.now() + 30 * DAY,
      total: 3,
      perUserLimit: 1,
      ...body,
    });

  it('headquarters issues batches; bad input is refused in Chinese; a store cannot issue', async () => {
    expect((await batch({ kind: 'gift' })).msg).toBe('请选择优惠券类型（满减券或折扣券）');
    expect((await batch({ amountFen: -5 })).msg).toBe('减免金额（分）应在 1 到 100000000 之间');
    expect((await batch({ amountFen: 12.5 })).msg).toBe('减免金额（分）必须是整数');
    expect((await batch({ kind: 'discount', discountPct: 120 })).msg).toBe('折扣（支付百分比）应在 1 到 99 之间');
    expect((await batch({ validTo: Date.now() - 2 * DAY })).msg).toBe('失效时间必须晚于生效时间');
    expect((await batch({ total: 0 })).msg).toBe('发放总量应在 1 到 1000000 之间');
    expect((await batch({ name: '' })).msg).toBe('优惠券名称不能为空');
    expect((await batch({}, store2)).code).toBe(403);
    expect(await db().selectFrom('finCouponBatch').select('batchId').execute()).toEqual([]);
    const ok = await batch({});
    expect(ok.code, ok.msg).toBe(200);
    const list = await api<never>(s, admin, '/dev-api/finance/coupon/list', {}, 'GET');
    expect(list.rows?.[0]).toMatchObject({ name: '开学季立减', kindName: '满减券', remaining: 3, statusName: '发放中' });
  });

  it('pulling is limited by the total and the per-user limit under concurrency', async () => {
    const { batchId } = await apiOk<{ batchId: number }>(s, admin, '/appv2/api/Coupon/addMoney', {
      name: '限量券',
      kind: 'discount',
      discountPct: 80,
      validFrom: Date.now() - DAY,
      validTo: Date.now() + DAY,
      total: 5,
      perUserLimit: 2,
    });
    // Twenty different users at once: five get one.
    const users = Array.from({ length: 20 }, (_, i) => 10_000 + i);
    const results = await Promise.allSettled(users.map((u) => pullCoupon(db(), u, batchId)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => (r.reason as Error).message);
    expect(new Set(refused)).toEqual(new Set(['优惠券已领完']));
    const b = await db().selectFrom('finCouponBatch').select('remaining').where('batchId', '=', batchId).executeTakeFirstOrThrow();
    expect(b.remaining).toBe(0);

    // One user pulling ten times at once from a fresh batch: at most the limit.
    const other = await apiOk<{ batchId: number }>(s, admin, '/appv2/api/Coupon/addMoney', {
      name: '每人两张',
      kind: 'amount',
      amountFen: 1_000,
      validFrom: Date.now() - DAY,
      validTo: Date.now() + DAY,
      total: 100,
      perUserLimit: 2,
    });
    const burst = await Promise.allSettled(Array.from({ length: 10 }, () => pullCoupon(db(), 777, other.batchId)));
    const got = await db().selectFrom('finCoupon').select('couponId').where('batchId', '=', other.batchId).where('userId', '=', 777).execute();
    // Never above the limit (racing pulls of one user may be told 领取太频繁 and simply pull again).
    expect(got.length).toBeGreaterThanOrEqual(1);
    expect(got.length).toBeLessThanOrEqual(2);
    expect(burst.filter((r) => r.status === 'fulfilled')).toHaveLength(got.length);
    const left = await db().selectFrom('finCouponBatch').select('remaining').where('batchId', '=', other.batchId).executeTakeFirstOrThrow();
    expect(left.remaining).toBe(100 - got.length);
    while ((await db().selectFrom('finCoupon').select('couponId').where('batchId', '=', other.batchId).where('userId', '=', 777).execute()).length < 2) {
      await pullCoupon(db(), 777, other.batchId);
    }
    await expect(pullCoupon(db(), 777, other.batchId)).rejects.toThrow('每人限领 2 张，您已领完');
    // Through the API: the family pulls, a second pull of a limit-1 batch is refused.
    const one = await apiOk<{ batchId: number }>(s, admin, '/appv2/api/Coupon/addMoney', {
      name: '新人券',
      kind: 'amount',
      amountFen: 2_000,
      validFrom: Date.now() - DAY,
      validTo: Date.now() + DAY,
      total: 10,
    });
    await apiOk(s, family.token, '/appv2/api/coupon/pullCoupon', { batchId: one.batchId });
    // (A second identical call right away would meet the duplicate-submit window first; the rule itself:)
    await expect(pullCoupon(db(), family.userId, one.batchId)).rejects.toThrow('每人限领 1 张，您已领完');
  });

  it('a coupon pays part of a card purchase and is consumed exactly once under 50 concurrent payments', async () => {
    const { batchId } = await apiOk<{ batchId: number }>(s, admin, '/appv2/api/Coupon/addMoney', {
      name: '购卡立减 50 元',
      kind: 'amount',
      amountFen: 5_000,
      minFen: 9_000,
      validFrom: Date.now() - DAY,
      validTo: Date.now() + DAY,
      total: 10,
    });
    const { couponId } = await apiOk<{ couponId: number }>(s, family.token, '/appv2/api/coupon/pullCoupon', { batchId });
    const price = CARD_KINDS[1].price;
    const check = await apiOk<{ payableFen: number; discountFen: number }>(s, family.token, '/appv2/api/Coupon/payVerification', { couponId, cardKind: 1 });
    expect(check).toMatchObject({ discountFen: 5_000, payableFen: price - 5_000 });

    // Fifty purchases at once with the same coupon, each its own intention (its own Idempotency-Key: identical copies
    // of one request are one purchase, issue 22): one order gets it.
    const tries = await Promise.all(
      Array.from({ length: 50 }, (_v, i) =>
        s.call<Created>('POST', '/appv2/api/Coupon/creatWeChatOrder', {
          token: family.token,
          body: { cardKind: 1, couponId, provider: 'sandbox' },
          headers: { 'Idempotency-Key': `coupon-race-${couponId}-${i}` },
        }),
      ),
    );
    const won = tries.filter((t) => t.body.code === 200);
    expect(won).toHaveLength(1);
    expect(new Set(tries.filter((t) => t.body.code !== 200).map((t) => t.body.msg))).toEqual(new Set(['优惠券已使用或正在支付中']));
    const o = won[0].body.data as Created;
    expect(o.amountFen).toBe(price - 5_000);

    // Paid, with fifty copies of the notification racing: one posting, the coupon used once.
    const revenue = await balanceOf(db(), 1, 'revenue');
    const tradeNo = await tradeNoOf(s, o.orderNo);
    await db().updateTable('finSandboxTrade').set({ status: 'PAID', paidTime: Date.now() }).where('tradeNo', '=', tradeNo).execute();
    const raw = signedSandboxNotice(s, { orderNo: o.orderNo, tradeNo, amountFen: o.amountFen });
    await Promise.all(Array.from({ length: 50 }, () => notify(s, 'sandbox', raw)));
    expect(await balanceOf(db(), 1, 'revenue')).toBe(revenue + price - 5_000);
    const c = await db().selectFrom('finCoupon').select(['status', 'orderNo']).where('couponId', '=', couponId).executeTakeFirstOrThrow();
    expect(c).toEqual({ status: 'used', orderNo: o.orderNo });
    const later = await s.call('POST', '/appv2/api/Coupon/creatWeChatOrder', {
      token: family.token,
      body: { cardKind: 1, couponId, provider: 'sandbox' },
      headers: { 'Idempotency-Key': `coupon-later-${couponId}` },
    });
    expect(later.body.msg).toBe('优惠券已使用或正在支付中');
    const mine = await apiOk<{ mine: Array<{ couponId: number; statusName: string }> }>(s, family.token, '/appv2/api/coupon/getCouponData');
    expect(mine.mine.find((m) => m.couponId === couponId)?.statusName).toBe('已使用');
    // The card paid for exists once: this family is not a customer yet, so it waits unused in the store's stock.
    const cards = await db()
      .selectFrom('card')
      .innerJoin('cardBatch', 'cardBatch.batchId', 'card.batchId')
      .select(['card.status', 'card.kind', 'cardBatch.totalFen'])
      .where('cardBatch.remark', '=', `在线购卡 ${o.orderNo}`)
      .execute();
    expect(cards).toEqual([{ status: 'unused', kind: 1, totalFen: price }]);
  });

  it('a family who is a customer gets the card they paid for activated, pay type 在线购买', async () => {
    const buyer = await appUser(s, 'card_buyer');
    const student = await db().selectFrom('volStudent').select(['studentId', 'storeId']).where('name', '=', '吴九').executeTakeFirstOrThrow();
    await db()
      .updateTable('volStudent')
      .set({ appUserId: buyer.userId, cardId: null, vipExpireTime: null })
      .where('studentId', '=', student.studentId)
      .execute();
    const o = await apiOk<Created>(s, buyer.token, '/appv2/api/Coupon/creatWeChatOrder', { cardKind: 3, provider: 'sandbox' });
    const tradeNo = await tradeNoOf(s, o.orderNo);
    await db().updateTable('finSandboxTrade').set({ status: 'PAID', paidTime: Date.now() }).where('tradeNo', '=', tradeNo).execute();
    const raw = signedSandboxNotice(s, { orderNo: o.orderNo, tradeNo, amountFen: o.amountFen });
    await Promise.all([notify(s, 'sandbox', raw), notify(s, 'sandbox', raw)]);
    const after = await db()
      .selectFrom('volStudent')
      .select(['userType', 'vipPayType', 'cardNo', 'vipExpireTime'])
      .where('studentId', '=', student.studentId)
      .executeTakeFirstOrThrow();
    expect(after).toMatchObject({ userType: 3, vipPayType: 3 });
    expect(Number(after.vipExpireTime)).toBeGreaterThan(Date.now());
    const card = await db().selectFrom('card').select(['status', 'storeId', 'studentId']).where('cardNo', '=', Number(after.cardNo)).executeTakeFirstOrThrow();
    expect(card).toEqual({ status: 'activated', storeId: student.storeId, studentId: student.studentId });
    const made = await db().selectFrom('cardBatch').select('batchId').where('remark', '=', `在线购卡 ${o.orderNo}`).execute();
    expect(made).toHaveLength(1);
    // The card is in use: the purchase cannot be refunded, and the refusal changes nothing.
    await expect(
      db()
        .transaction()
        .execute((trx) => refundOrder(trx, o.orderNo, '不想要了', { userName: '测试' })),
    ).rejects.toThrow(`该订单的会员卡 ${after.cardNo} 已激活，不能退款`);
    expect((await db().selectFrom('finPayOrder').select('status').where('orderNo', '=', o.orderNo).executeTakeFirstOrThrow()).status).toBe('paid');
  });

  it('closing an unpaid order gives the coupon back; below the threshold it is refused', async () => {
    const { batchId } = await apiOk<{ batchId: number }>(s, admin, '/appv2/api/Coupon/addMoney', {
      name: '八折券',
      kind: 'discount',
      discountPct: 80,
      minFen: 20_000,
      validFrom: Date.now() - DAY,
      validTo: Date.now() + DAY,
      total: 10,
    });
    const { couponId } = await apiOk<{ couponId: number }>(s, family.token, '/appv2/api/coupon/pullCoupon', { batchId });
    const orders = await count(s, 'finPayOrder');
    expect((await api(s, family.token, '/appv2/api/Coupon/creatWeChatOrder', { cardKind: 3, couponId, provider: 'sandbox' })).msg).toBe(
      '订单金额未达到优惠券使用门槛（200.00 元）',
    );
    expect(await count(s, 'finPayOrder')).toBe(orders);
    const o = await apiOk<Created>(s, family.token, '/appv2/api/Coupon/creatWeChatOrder', { cardKind: 2, couponId, provider: 'sandbox' });
    expect(o.amountFen).toBe(Math.ceil((CARD_KINDS[2].price * 80) / 100));
    await db()
      .updateTable('finPayOrder')
      .set({ expireTime: Date.now() - 1 })
      .where('orderNo', '=', o.orderNo)
      .execute();
    await closeExpiredOrders(db(), Date.now(), payProvidersOf(s.app));
    expect((await order(s, o.orderNo)).status).toBe('closed');
    const c = await db().selectFrom('finCoupon').select(['status', 'orderNo']).where('couponId', '=', couponId).executeTakeFirstOrThrow();
    expect(c).toEqual({ status: 'unused', orderNo: null });
    // Usable again, and this time paid through the sandbox page.
    // A new purchase (its own Idempotency-Key), not a copy of the closed one.
    const againRes = await s.call<Created>('POST', '/appv2/api/Coupon/creatWeChatOrder', {
      token: family.token,
      body: { cardKind: 2, couponId, provider: 'sandbox' },
      headers: { 'Idempotency-Key': `coupon-again-${couponId}` },
    });
    expect(againRes.body.code, againRes.body.msg).toBe(200);
    const again = againRes.body.data as Created;
    await payInSandbox(s, again.payUrl);
    expect((await order(s, again.orderNo)).status).toBe('paid');
  });

  it('the day reconciles without a mismatch', async () => {
    const report = await apiOk<{ mismatches: unknown[]; total: { paidCount: number; paidFen: number; notifiedFen: number; ledgerFen: number } }>(
      s,
      admin,
      '/dev-api/finance/reconcile',
      { date: today() },
      'GET',
    );
    expect(report.mismatches).toEqual([]);
    expect(report.total.paidCount).toBe(3); // two coupon purchases and the customer's card purchase
    expect(report.total.notifiedFen).toBe(report.total.paidFen);
    expect(report.total.ledgerFen).toBe(report.total.paidFen);
  });
});
