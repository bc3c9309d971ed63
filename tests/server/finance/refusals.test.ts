import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startServer, type TestServer } from '../harness.js';
import { api, apiOk, type Created, count } from './payHelpers.js';

/**
 * Issue 22, "no partial writes on refusal": a money request that is refused changes nothing. Each case below is a
 * request a store or headquarters could really send with one field wrong; after every refusal the money and store
 * tables hold exactly what they held before (every row, not only the counts). The operation log is left out on
 * purpose: it records refusals too (docs/security.md).
 */

const MW = '/appv2/api/MoneyWallet';
const LONG = '备'.repeat(201);
const VOUCHER = '/profile/voucher/2026/11/27/abcdef0123456789.png';

/** Tables a money route may write: the ledger and payments, stores, cards, customers, the licence and the students. */
const WATCHED = /^(fin_|cus_|sys_platform$|sys_user$|vol_student$)/;

async function tableNames(s: TestServer): Promise<string[]> {
  const db = s.app.db.kysely;
  const rows =
    s.backend === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)
      : await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(db);
  return rows.rows.map((r) => r.name).filter((n) => WATCHED.test(n));
}

/** A digest of every row of every watched table, in a stable order. */
async function snapshot(s: TestServer, tables: string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const t of tables) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(t)}`.execute(s.app.db.kysely);
    const lines = rows.rows.map((r) => JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).sort();
    out[t] = `${lines.length}:${crypto.createHash('sha256').update(lines.join('\n')).digest('hex')}`;
  }
  return out;
}

describe.each(backends)('被拒绝的资金请求不留下任何数据 (%s)', (backend) => {
  let s: TestServer;
  let admin: string;
  let store2: string;
  let tables: string[];

  beforeAll(async () => {
    s = await startServer(backend);
    admin = await s.login('admin', 'admin123');
    store2 = await s.login('store2leader', 'store2leader123');
    tables = await tableNames(s);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('watches the money tables', () => {
    expect(tables).toEqual(expect.arrayContaining(['fin_pay_order', 'fin_recharge', 'fin_txn', 'cus_store', 'sys_platform']));
  });

  it('an online recharge refused for its remark leaves no payable order (the finding) and a valid one still works', async () => {
    const orders = await count(s, 'finPayOrder');
    const res = await api(s, store2, `${MW}/commitRecharge`, { amountFen: 10_000, provider: 'sandbox', remark: LONG });
    expect(res.code).not.toBe(200);
    expect(res.msg).toBe('备注长度不能超过 200 个字符');
    expect(await count(s, 'finPayOrder')).toBe(orders);
    const fine = await apiOk<Created & { rechargeId: number }>(s, store2, `${MW}/commitRecharge`, {
      amountFen: 10_000,
      provider: 'sandbox',
      remark: '正常备注',
    });
    expect(fine.rechargeId).toBeGreaterThan(0);
    const row = await s.app.db.kysely.selectFrom('finRecharge').selectAll().where('orderNo', '=', fine.orderNo).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ rechargeId: fine.rechargeId, status: 'created', remark: '正常备注' });
  });

  const cases: [title: string, who: 'store2' | 'admin', url: string, body: Record<string, unknown>][] = [
    ['在线充值：备注过长', 'store2', `${MW}/commitRecharge`, { amountFen: 10_000, provider: 'sandbox', remark: LONG }],
    ['在线充值：金额为负', 'store2', `${MW}/commitRecharge`, { amountFen: -100, provider: 'sandbox' }],
    ['在线充值：金额不是整数分', 'store2', `${MW}/commitRecharge`, { amountFen: 10.5, provider: 'sandbox' }],
    ['在线充值：未启用的支付方式', 'store2', `${MW}/commitRecharge`, { amountFen: 10_000, provider: 'paypal' }],
    ['在线充值：为其他门店充值', 'store2', `${MW}/commitRecharge`, { amountFen: 10_000, provider: 'sandbox', storeId: 1 }],
    ['线下充值：没有凭证', 'store2', `${MW}/commitRecharg`, { amountFen: 10_000 }],
    ['线下充值：凭证地址不是上传的文件', 'store2', `${MW}/commitRecharg`, { amountFen: 10_000, voucherUrl: 'https://evil.example/x.png' }],
    ['线下充值：备注过长', 'store2', `${MW}/commitRecharg`, { amountFen: 10_000, voucherUrl: VOUCHER, remark: LONG }],
    ['线下充值：凭证文件名过长', 'store2', `${MW}/commitRecharg`, { amountFen: 10_000, voucherUrl: VOUCHER, voucherName: 'x'.repeat(101) }],
    ['确认充值：不存在的充值', 'admin', '/dev-api/finance/recharge/confirm', { rechargeId: 987_654 }],
    ['驳回充值：不存在的充值', 'admin', '/dev-api/finance/recharge/reject', { rechargeId: 987_654, reason: '金额不符' }],
    ['在线收款：金额为零', 'store2', '/appv2/api/AlipayTool/creatAliOrder', { amountFen: 0, provider: 'sandbox' }],
    ['在线收款：不存在的门店', 'admin', '/appv2/api/AlipayTool/creatAliOrder', { amountFen: 100, provider: 'sandbox', storeId: 99_999 }],
    ['续费：不存在的套餐', 'store2', '/appv2/api/wxpay/channelRenewal', { planId: '9y', payType: 'balance' }],
    ['续费：未启用的支付方式', 'store2', '/appv2/api/wxpay/channelRenewal', { planId: '1y', payType: 'paypal' }],
    ['在线购卡：不存在的卡种', 'store2', '/appv2/api/Coupon/creatWeChatOrder', { cardKind: 9, provider: 'sandbox' }],
    ['在线购卡：不存在的优惠券', 'store2', '/appv2/api/Coupon/creatWeChatOrder', { cardKind: 1, provider: 'sandbox', couponId: 'NOPE-0000' }],
    ['领取优惠券：不存在的批次', 'store2', '/appv2/api/coupon/pullCoupon', { batchId: 987_654 }],
    ['提现：没有银行账户', 'store2', `${MW}/commitCash`, { bankId: 987_654, amountFen: 10_000 }],
    ['提现：金额为负', 'store2', `${MW}/commitCash`, { bankId: 1, amountFen: -1 }],
    ['提现审核：不存在的申请', 'admin', `${MW}/approveCash`, { withdrawId: 987_654 }],
    ['提现打款：不存在的申请', 'admin', `${MW}/payCash`, { withdrawId: 987_654 }],
    ['开票申请：没有抬头', 'store2', `${MW}/applyInvoice`, { headerId: 987_654, amountFen: 100 }],
    ['发卡：数量为零', 'store2', '/dev-api/card/release', { kind: 1, num: 0 }],
    ['发卡：不存在的卡种', 'store2', '/dev-api/card/release', { kind: 9, num: 1 }],
    ['开卡：不存在的客户', 'store2', '/dev-api/customer/openCard', { userId: 987_654, kind: 1 }],
    ['激活：错误的卡号卡密', 'store2', '/appv2/api/card/activate', { cardNo: '123456789', cardPwd: 'WRONG' }],
  ];

  it.each(cases)('%s：被拒绝，资金与门店数据一行不变', async (_title, who, url, body) => {
    const before = await snapshot(s, tables);
    const res = await api(s, who === 'admin' ? admin : store2, url, body);
    expect(res.code, `${url} ${JSON.stringify(body)} → ${res.msg}`).not.toBe(200);
    expect(res.msg).toMatch(/[\u4e00-\u9fa5]/); // a Chinese message that says what is wrong
    expect(res.msg).not.toContain('系统内部错误');
    expect(await snapshot(s, tables)).toEqual(before);
  });
});
