import ExcelJS from 'exceljs';
import type { Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addPaymentMenus } from '../../../server/db/migrations/017_finance_payments.js';
import { balanceOf } from '../../../server/finance/ledger.js';
import { closeExpiredOrders, refundOrder } from '../../../server/finance/orders.js';
import { payProvidersOf, sandboxNotifier } from '../../../server/finance/payRoutes.js';
import { backends, startServer, type TestServer } from '../harness.js';
import { form, PDF } from './financeHelpers.js';
import { expectLedgerBalanced } from './ledgerInvariant.js';
import { api, apiOk, type Created, count, notify, order, payInSandbox, signedSandboxNotice, today, tradeNoOf } from './payHelpers.js';

const MW = '/appv2/api/MoneyWallet';

describe.each(backends)('在线支付、充值与续费 (%s)', (backend) => {
  let s: TestServer;
  let admin: string;
  let store2: string;
  const db = () => s.app.db.kysely;

  beforeAll(async () => {
    s = await startServer(backend);
    admin = await s.login('admin', 'admin123');
    store2 = await s.login('store2leader', 'store2leader123');
  });
  afterAll(async () => {
    await s?.close();
  });
  afterEach(async () => {
    const n = sandboxNotifier(s.app);
    Object.assign(n.mode, { delayMs: 0, duplicate: false, hold: false });
    await n.settle();
    await expectLedgerBalanced(s);
  });

  const recharge = (amountFen: unknown, token = store2) => api<Created>(s, token, `${MW}/commitRecharge`, { amountFen, provider: 'sandbox' });

  it('a store recharges through the sandbox: the page, the signed notification, the balance moves once', async () => {
    const before = await balanceOf(db(), 2, 'balance');
    const created = await recharge(12_345);
    expect(created.code, created.msg).toBe(200);
    const o = created.data as Created;
    expect(o.amountFen).toBe(12_345);
    expect(o.qrCode).toMatch(/^data:image\/png;base64,/);
    const pageHtml = (await s.app.inject({ method: 'GET', url: o.payUrl as string })).body;
    expect(pageHtml).toContain('¥ 123.45');
    expect(pageHtml).toContain('支付成功');
    expect(pageHtml).not.toContain('<script');
    expect(await payInSandbox(s, o.payUrl)).toContain('支付成功');
    expect(await balanceOf(db(), 2, 'balance')).toBe(before + 12_345);
    const status = await apiOk<{ status: string; statusName: string }>(s, store2, '/dev-api/finance/pay/order', { orderNo: o.orderNo }, 'GET');
    expect(status).toMatchObject({ status: 'paid', statusName: '已支付' });
    const log = await api<never>(s, store2, `${MW}/rechargeLog`, {});
    expect(log.rows?.[0]).toMatchObject({ orderNo: o.orderNo, status: 'done', statusName: '已到账', methodName: '在线支付', amountYuan: '123.45' });
    // Paying the same trade again is refused by the sandbox itself.
    expect(await payInSandbox(s, o.payUrl)).toContain('该交易已支付');
    expect(await balanceOf(db(), 2, 'balance')).toBe(before + 12_345);
  });

  it('a duplicated, late or out-of-order notification changes nothing more; twenty at once apply once', async () => {
    const n = sandboxNotifier(s.app);
    const before = await balanceOf(db(), 2, 'balance');
    // Twice, and late.
    Object.assign(n.mode, { duplicate: true, delayMs: 150 });
    const a = (await recharge(1_000)).data as Created;
    await payInSandbox(s, a.payUrl);
    expect(await balanceOf(db(), 2, 'balance')).toBe(before + 1_000);
    const outcomes = await db().selectFrom('finPayNotification').select('outcome').where('orderNo', '=', a.orderNo).orderBy('notifyId').execute();
    // One applied, one duplicate. Not in id order: on PostgreSQL the copy that lost the race may write its row first.
    expect(outcomes.map((x) => x.outcome).sort()).toEqual(['applied', 'duplicate']);
    // Held back and delivered in reverse order, each twice.
    Object.assign(n.mode, { duplicate: true, delayMs: 0, hold: true });
    const b = (await recharge(2_000)).data as Created;
    const c = (await recharge(3_000)).data as Created;
    await payInSandbox(s, b.payUrl);
    await payInSandbox(s, c.payUrl);
    expect(await balanceOf(db(), 2, 'balance')).toBe(before + 1_000);
    await n.flush({ reverse: true });
    expect(await balanceOf(db(), 2, 'balance')).toBe(before + 6_000);
    // Twenty copies of one notification at the same moment.
    n.mode.hold = false;
    n.mode.duplicate = false;
    const d = (await recharge(4_000)).data as Created;
    const tradeNo = await tradeNoOf(s, d.orderNo);
    await db().updateTable('finSandboxTrade').set({ status: 'PAID', paidTime: Date.now() }).where('tradeNo', '=', tradeNo).execute();
    const raw = signedSandboxNotice(s, { orderNo: d.orderNo, tradeNo, amountFen: 4_000 });
    const answers = await Promise.all(Array.from({ length: 20 }, () => notify(s, 'sandbox', raw)));
    expect(answers.every((x) => x.status === 200 && x.body === 'success')).toBe(true);
    expect(await balanceOf(db(), 2, 'balance')).toBe(before + 10_000);
    expect(await count(s, 'finPayNotification', ['outcome', 'applied'])).toBe(await count(s, 'finPayOrder', ['status', 'paid']));
    const postings = await db().selectFrom('finTxn').select('txnId').where('refId', '=', d.orderNo).execute();
    expect(postings).toHaveLength(1);
  });

  it('a forged notification or a wrong amount changes nothing', async () => {
    const before = await balanceOf(db(), 2, 'balance');
    const o = (await recharge(5_000)).data as Created;
    const tradeNo = await tradeNoOf(s, o.orderNo);
    const good = signedSandboxNotice(s, { orderNo: o.orderNo, tradeNo, amountFen: 5_000 });
    // The body changed after signing (amount raised), or signed with another key.
    const tampered = { headers: good.headers, body: good.body.replace('"amountFen":5000', '"amountFen":500000') };
    expect((await notify(s, 'sandbox', tampered)).status).toBe(400);
    expect((await notify(s, 'sandbox', { headers: { ...good.headers, 'x-sandbox-signature': 'ab'.repeat(32) }, body: good.body })).status).toBe(400);
    expect((await notify(s, 'sandbox', { headers: { 'content-type': 'application/json' }, body: good.body })).status).toBe(400);
    // A valid signature over the wrong amount (not what we asked for): refused.
    const wrong = signedSandboxNotice(s, { orderNo: o.orderNo, tradeNo, amountFen: 4_999 });
    expect((await notify(s, 'sandbox', wrong)).status).toBe(400);
    // An unknown order.
    expect((await notify(s, 'sandbox', signedSandboxNotice(s, { orderNo: 'R0000', tradeNo: 'SBX', amountFen: 1 }))).status).toBe(400);
    expect((await order(s, o.orderNo)).status).toBe('created');
    expect(await balanceOf(db(), 2, 'balance')).toBe(before);
    const recorded = await db()
      .selectFrom('finPayNotification')
      .select(['outcome', 'message'])
      .where('receivedTime', '>', Date.now() - 60_000)
      .orderBy('notifyId', 'desc')
      .limit(5)
      .execute();
    expect(recorded.map((r) => r.outcome).sort()).toEqual(['forged', 'forged', 'forged', 'rejected', 'rejected']);
  });

  it('bad amounts are refused in Chinese and nothing is written', async () => {
    const orders = await count(s, 'finPayOrder');
    const recharges = await count(s, 'finRecharge');
    expect((await recharge(-100)).msg).toBe('充值金额必须大于 0');
    expect((await recharge(0)).msg).toBe('充值金额必须大于 0');
    expect((await recharge(10.5)).msg).toBe('充值金额必须是整数（单位：分），不能有小数');
    expect((await recharge('12.3')).msg).toBe('充值金额必须是整数（单位：分），不能有小数');
    expect((await recharge('abc')).msg).toBe('充值金额必须是数字（单位：分）');
    expect((await recharge(undefined)).msg).toBe('充值金额不能为空');
    expect((await recharge(100_000_001)).msg).toBe('充值金额不能超过 1000000.00 元');
    const other = await api(s, store2, `${MW}/commitRecharge`, { amountFen: 100, storeId: 3, provider: 'sandbox' });
    expect(other.msg).toBe('没有权限访问其他门店的充值');
    expect((await api(s, store2, `${MW}/commitRecharge`, { amountFen: 100, provider: 'alipay' })).msg).toBe('未启用的支付方式：支付宝');
    expect(await count(s, 'finPayOrder')).toBe(orders);
    expect(await count(s, 'finRecharge')).toBe(recharges);
  });

  it('offline recharge: the voucher must be an image or PDF; headquarters confirms once or rejects with a reason', async () => {
    const upload = async (name: string, type: string, data: Buffer) => {
      const f = await form({}, { field: 'file', name, type, data });
      return (await s.call<{ url: string }>('POST', `${MW}/upVoucher`, { token: store2, body: f.body, headers: f.headers })).body;
    };
    expect((await upload('凭证.png', 'image/png', Buffer.from('not really a picture'))).msg).toBe('转账凭证只能是图片（png、jpg）或 PDF 文件');
    expect((await upload('凭证.docx', 'application/octet-stream', PDF)).msg).toBe('转账凭证只能是图片（png、jpg）或 PDF 文件');
    expect((await upload('凭证.pdf', 'application/pdf', Buffer.from('<html>hello</html>'))).msg).toBe('转账凭证只能是图片（png、jpg）或 PDF 文件');
    const up = await upload('凭证.pdf', 'application/pdf', PDF);
    expect(up.code, up.msg).toBe(200);
    const voucherUrl = (up.data as { url: string }).url;
    expect(voucherUrl).toMatch(/^\/profile\/voucher\/\d{4}\/\d{2}\/\d{2}\/[\w-]+\.pdf$/);
    const before = await count(s, 'finRecharge');
    expect((await api(s, store2, `${MW}/commitRecharg`, { amountFen: 50_000, voucherUrl: '/profile/other/evil.html' })).msg).toBe('转账凭证无效，请重新上传');
    expect((await api(s, store2, `${MW}/commitRecharg`, { amountFen: 50_000 })).msg).toBe('请上传转账凭证');
    expect(await count(s, 'finRecharge')).toBe(before);

    const bal = await balanceOf(db(), 2, 'balance');
    const { rechargeId } = await apiOk<{ rechargeId: number }>(s, store2, `${MW}/commitRecharg`, { amountFen: 50_000, voucherUrl, voucherName: '凭证.pdf' });
    // The store cannot confirm its own transfer.
    expect((await api(s, store2, '/dev-api/finance/recharge/confirm', { rechargeId })).code).toBe(403);
    await apiOk(s, admin, '/dev-api/finance/recharge/confirm', { rechargeId });
    expect(await balanceOf(db(), 2, 'balance')).toBe(bal + 50_000);
    // A copy of the same confirmation is answered as the first (issue 22, nothing done again); a new confirmation of
    // the same recharge (its own Idempotency-Key) is refused by the rule.
    const copy = await s.call('POST', '/dev-api/finance/recharge/confirm', { token: admin, body: { rechargeId } });
    expect(copy.body.msg).toBe('已确认到账');
    expect(copy.headers['idempotent-replayed']).toBe('true');
    const anew = await s.call('POST', '/dev-api/finance/recharge/confirm', {
      token: admin,
      body: { rechargeId },
      headers: { 'Idempotency-Key': `confirm-${rechargeId}-again` },
    });
    expect(anew.body.msg).toBe('该充值已到账，不能重复处理');
    expect((await api(s, admin, '/dev-api/finance/recharge/reject', { rechargeId, reason: '晚了' })).msg).toBe('该充值已到账，不能驳回');
    expect(await balanceOf(db(), 2, 'balance')).toBe(bal + 50_000);

    const second = await apiOk<{ rechargeId: number }>(s, store2, `${MW}/commitRecharg`, { amountFen: 70_000, voucherUrl });
    expect((await api(s, admin, '/dev-api/finance/recharge/reject', { rechargeId: second.rechargeId })).msg).toBe('驳回原因不能为空');
    await apiOk(s, admin, '/dev-api/finance/recharge/reject', { rechargeId: second.rechargeId, reason: '凭证金额与申请不符' });
    expect(await balanceOf(db(), 2, 'balance')).toBe(bal + 50_000);
    const log = await api<never>(s, store2, `${MW}/rechargeLog`, { method: 'offline' });
    expect(log.rows?.[0]).toMatchObject({ rechargeId: second.rechargeId, statusName: '已驳回', reason: '凭证金额与申请不符' });
    const trail = await db()
      .selectFrom('finPayAction')
      .select(['action', 'fromStatus', 'toStatus', 'userName'])
      .where('targetType', '=', 'recharge')
      .where('targetId', '=', String(rechargeId))
      .orderBy('actionId')
      .execute();
    expect(trail.map((t) => `${t.action}:${t.fromStatus ?? ''}→${t.toStatus}`)).toEqual(['apply:→pending', 'confirm:pending→done']);
  });

  it('an unpaid order closes after its time (job and on access); the sandbox then refuses to take the money', async () => {
    const a = (await recharge(800)).data as Created;
    const b = (await recharge(900)).data as Created;
    await db()
      .updateTable('finPayOrder')
      .set({ expireTime: Date.now() - 1 })
      .where('orderNo', 'in', [a.orderNo, b.orderNo])
      .execute();
    expect(await closeExpiredOrders(db(), Date.now(), payProvidersOf(s.app))).toBeGreaterThanOrEqual(1);
    const status = await apiOk<{ status: string }>(s, store2, '/dev-api/finance/pay/order', { orderNo: b.orderNo }, 'GET');
    expect(status.status).toBe('closed');
    expect((await order(s, a.orderNo)).status).toBe('closed');
    expect(await payInSandbox(s, a.payUrl)).toContain('该交易已关闭');
    const log = await api<never>(s, store2, `${MW}/rechargeLog`, { status: 'closed' });
    expect((log.rows as Array<{ orderNo: string }>).map((r) => r.orderNo)).toEqual(expect.arrayContaining([a.orderNo, b.orderNo]));
    // A payment notification that still arrives for the closed order is recorded as late, and changes nothing.
    const bal = await balanceOf(db(), 2, 'balance');
    const late = await notify(s, 'sandbox', signedSandboxNotice(s, { orderNo: a.orderNo, tradeNo: await tradeNoOf(s, a.orderNo), amountFen: 800 }));
    expect(late.status).toBe(200);
    expect((await order(s, a.orderNo)).status).toBe('closed');
    expect(await balanceOf(db(), 2, 'balance')).toBe(bal);
    const report = await apiOk<{ mismatches: Array<{ orderNo: string; kind: string }> }>(s, admin, '/dev-api/finance/reconcile', { date: today() }, 'GET');
    expect(report.mismatches).toContainEqual(expect.objectContaining({ orderNo: a.orderNo, kind: '关单后收到支付' }));
  });

  it('a customer pays online: the collection wallet moves; a refund reverses it and the sandbox refunds', async () => {
    const before = await balanceOf(db(), 2, 'collection');
    const o = await apiOk<Created>(s, admin, '/appv2/api/AlipayTool/creatAliOrder', { storeId: 2, amountFen: 29_900, subject: '志愿填报一对一服务' });
    await payInSandbox(s, o.payUrl);
    expect(await balanceOf(db(), 2, 'collection')).toBe(before + 29_900);
    await db()
      .transaction()
      .execute((trx) => refundOrder(trx, o.orderNo, '家长取消服务', { userName: 'admin' }, payProvidersOf(s.app)));
    expect(await balanceOf(db(), 2, 'collection')).toBe(before);
    expect((await order(s, o.orderNo)).status).toBe('refunded');
    const trade = await db().selectFrom('finSandboxTrade').select('status').where('orderNo', '=', o.orderNo).executeTakeFirstOrThrow();
    expect(trade.status).toBe('REFUNDED');
    await expect(
      db()
        .transaction()
        .execute((trx) => refundOrder(trx, o.orderNo, '再退一次', { userName: 'admin' }, payProvidersOf(s.app))),
    ).rejects.toThrow('订单已退款，不能退款');
  });

  it('账户续费 moves the licence expiry: online from an expired licence, and from the balance', async () => {
    await db().updateTable('sysPlatform').set({ expiredate: '2020-01-31' }).where('id', '=', 1).execute();
    await s.app.cache.clear('platform');
    const info = await apiOk<{ expired: boolean; licenceStatus: string; plans: Array<{ planId: string; priceFen: number; months: number }> }>(
      s,
      admin,
      '/appv2/api/index/freeNum',
    );
    expect(info.expired).toBe(true);
    // The 状态 figure of the 账户续费 screen (schemas/finance/fin_renewal_order.json x-header).
    expect(info.licenceStatus).toBe('已到期');
    const year = info.plans.find((p) => p.planId === '1y') as { priceFen: number };
    const o = await apiOk<Created>(s, admin, '/appv2/api/wxpay/channelRenewal', { planId: '1y', payType: 'sandbox' });
    expect(o.amountFen).toBe(year.priceFen);
    const revenue = await balanceOf(db(), 1, 'revenue');
    await payInSandbox(s, o.payUrl);
    const d = new Date();
    const expected = `${d.getFullYear() + 1}-${String(d.getMonth() + 1).padStart(2, '0')}`;
    const v = await apiOk<{ status: string; expiredate: string; expired: boolean }>(s, admin, '/appv2/api/wxpay/channelRenewalVertiy', { orderNo: o.orderNo });
    // The order's own statusName is kept beside the licence's state.
    expect(v).toMatchObject({ status: 'paid', statusName: '已支付', expired: false, licenceStatus: '使用中' });
    expect(v.expiredate.startsWith(expected)).toBe(true);
    const platform = (await s.call<{ expired: boolean }>('POST', '/appv2/api/index/platformInfo', { body: {} })).body;
    expect(platform.data?.expired).toBe(false);
    expect(await balanceOf(db(), 1, 'revenue')).toBe(revenue + year.priceFen);

    // From the store's balance: refused when short, nothing written; else paid at once.
    const bal = await balanceOf(db(), 2, 'balance');
    await db().updateTable('sysPlatform').set({ expiredate: '2030-01-31' }).where('id', '=', 1).execute();
    const three = info.plans.find((p) => p.planId === '3y') as { priceFen: number };
    if (three.priceFen > bal)
      expect((await api(s, store2, '/appv2/api/wxpay/channelRenewal', { planId: '3y', payType: 'balance' })).msg).toMatch(/^门店余额余额不足/);
    const paid = await apiOk<{ status: string }>(s, store2, '/appv2/api/wxpay/channelRenewal', { planId: '1y', payType: 'balance' });
    expect(paid.status).toBe('paid');
    expect(await balanceOf(db(), 2, 'balance')).toBe(bal - year.priceFen);
    const p = await db().selectFrom('sysPlatform').select('expiredate').where('id', '=', 1).executeTakeFirstOrThrow();
    expect(p.expiredate).toBe('2031-01-31');
  });

  it('the reconciliation of the day lists a forced mismatch, and exports it as xlsx', async () => {
    const o = await apiOk<Created>(s, admin, '/appv2/api/AlipayTool/creatAliOrder', { storeId: 3, amountFen: 10_000 });
    await payInSandbox(s, o.payUrl);
    const clean = await apiOk<{
      mismatches: Array<{ orderNo: string }>;
      stores: Array<{ storeId: number; paidFen: number; notifiedFen: number; ledgerFen: number }>;
    }>(s, admin, '/dev-api/finance/reconcile', { date: today(), storeId: 3 }, 'GET');
    expect(clean.mismatches).toEqual([]);
    expect(clean.stores[0]).toMatchObject({ storeId: 3, paidFen: 10_000, notifiedFen: 10_000, ledgerFen: 10_000 });
    // Forced: the recorded notification says another amount than the order.
    await db().updateTable('finPayNotification').set({ amountFen: 9_999 }).where('orderNo', '=', o.orderNo).execute();
    const report = await apiOk<{ mismatches: Array<{ orderNo: string; kind: string }> }>(
      s,
      admin,
      '/dev-api/finance/reconcile',
      { date: today(), storeId: 3 },
      'GET',
    );
    expect(report.mismatches).toEqual([expect.objectContaining({ orderNo: o.orderNo, kind: '通知金额不符' })]);
    // A store sees its own day only.
    const mine = await apiOk<{ stores: Array<{ storeId: number }> }>(s, store2, '/dev-api/finance/reconcile', { date: today(), storeId: 3 }, 'GET');
    expect(mine.stores.every((r) => r.storeId === 2)).toBe(true);
    expect((await api(s, admin, '/dev-api/finance/reconcile', { date: '2024/01/01' }, 'GET')).msg).toBe('对账日期格式不正确（应为 YYYY-MM-DD）');
    const file = await s.call('GET', '/dev-api/finance/reconcile/export', { token: admin, query: { date: today(), storeId: 3 } });
    expect(String(file.headers['content-type'])).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file.rawBuffer as unknown as ArrayBuffer);
    const diff = wb.getWorksheet('差异');
    expect(diff?.getRow(2).getCell(2).value).toBe(o.orderNo);
    expect(diff?.getRow(2).getCell(3).value).toBe('通知金额不符');
  });
  it('an install seeded before the payments gets their pages and buttons from migration 017, once', async () => {
    const perms = [
      'finance:renewal:list',
      'finance:renewal:pay',
      'finance:coupon:list',
      'finance:coupon:issue',
      'finance:reconcile:list',
      'finance:reconcile:export',
      'finance:recharge:apply',
      'finance:recharge:review',
    ];
    const ids = (await db().selectFrom('sysMenu').select('menuId').where('perms', 'in', perms).execute()).map((m) => m.menuId);
    expect(ids).toHaveLength(8);
    await db().deleteFrom('sysRoleMenu').where('menuId', 'in', ids).execute();
    await db().deleteFrom('sysMenu').where('menuId', 'in', ids).execute();
    await addPaymentMenus(db() as unknown as Kysely<unknown>);
    await addPaymentMenus(db() as unknown as Kysely<unknown>);
    const back = await db().selectFrom('sysMenu').select(['menuId', 'perms', 'menuType', 'component']).where('perms', 'in', perms).execute();
    expect(back.map((m) => m.perms).sort()).toEqual([...perms].sort());
    expect(back.find((m) => m.perms === 'finance:coupon:list')).toMatchObject({ menuType: 'C', component: 'finance/coupon/index' });
    const leaderHas = await db()
      .selectFrom('sysRoleMenu as rm')
      .innerJoin('sysRole as r', 'r.roleId', 'rm.roleId')
      .innerJoin('sysMenu as m', 'm.menuId', 'rm.menuId')
      .select('m.perms')
      .where('r.roleKey', '=', 'leader')
      .where('m.perms', 'in', perms)
      .execute();
    expect(leaderHas.map((m) => m.perms).sort()).toEqual(
      [
        'finance:coupon:list',
        'finance:recharge:apply',
        'finance:reconcile:export',
        'finance:reconcile:list',
        'finance:renewal:list',
        'finance:renewal:pay',
      ].sort(),
    );
    // The store leader can pay a renewal and open 对账 again; reviewing stays with headquarters.
    const fresh = await s.login('store2leader', 'store2leader123');
    expect((await api(s, fresh, '/dev-api/finance/reconcile', {}, 'GET')).code).toBe(200);
    expect((await api(s, fresh, '/dev-api/finance/recharge/confirm', { rechargeId: 1 })).code).toBe(403);
  });
});
