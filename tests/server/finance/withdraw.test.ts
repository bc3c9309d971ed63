import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { yuanText } from '../../../common/finance/checks.js';
import { balanceOf } from '../../../server/finance/ledger.js';
import { staff } from '../customer/helpers.js';
import { readXlsx } from '../engine/engineClient.js';
import { backends, startServer, type TestServer } from '../harness.js';
import { api, apiOk, collect, count, GOOD_CARD, W } from './financeHelpers.js';
import { expectLedgerBalanced } from './ledgerInvariant.js';

describe.each(backends)('提现与银行账户 (%s)', (backend) => {
  let s: TestServer;
  let admin: string;
  let store2: string;
  let store3: string;
  let bankId: number;
  const db = () => s.app.db.kysely;

  beforeAll(async () => {
    s = await startServer(backend);
    admin = await s.login('admin', 'admin123');
    store2 = await s.login('store2leader', 'store2leader123');
    store3 = await staff(s, 'store3_leader', 3);
  });
  afterAll(async () => {
    await s?.close();
  });
  afterEach(async () => {
    await expectLedgerBalanced(s);
  });

  it('refuses an invalid bank account number in Chinese and stores nothing', async () => {
    const before = await count(s, 'finBankAccount');
    const base = { accountName: '济南门店', bankName: '中国工商银行' };
    expect((await api(s, store2, `${W}/upBank`, { ...base, cardNo: '6222abc' })).msg).toBe('银行卡号应为 12 到 19 位数字');
    expect((await api(s, store2, `${W}/upBank`, { ...base, cardNo: '12345678901' })).msg).toBe('银行卡号应为 12 到 19 位数字');
    expect((await api(s, store2, `${W}/upBank`, { ...base, cardNo: '6222021234567890127' })).msg).toBe('银行卡号校验失败，请核对卡号');
    expect((await api(s, store2, `${W}/upBank`, { bankName: '中国工商银行', cardNo: GOOD_CARD })).msg).toBe('开户名不能为空');
    expect(await count(s, 'finBankAccount')).toBe(before);
  });

  it('a withdrawal needs a verified account, and only headquarters verifies', async () => {
    const { bankId: id } = await apiOk<{ bankId: number }>(s, store2, `${W}/upBank`, {
      accountName: '济南门店',
      bankName: '中国工商银行',
      cardNo: `${GOOD_CARD.slice(0, 4)} ${GOOD_CARD.slice(4)}`,
    });
    const list = await apiOk<Array<{ bankId: number; verified: boolean; cardNoMasked: string }>>(s, store2, `${W}/bankList`);
    expect(list.find((b) => b.bankId === id)).toMatchObject({ verified: false, cardNoMasked: '6222 **** **** 0128' });
    await collect(s, 2, 100_000);
    expect((await api(s, store2, `${W}/commitCash`, { bankId: id, amountFen: 100 })).msg).toBe('该银行账户尚未通过总部核验，暂不能提现');
    const denied = await api(s, store2, `${W}/verifyBank`, { bankId: id });
    expect(denied.code).toBe(403);
    await apiOk(s, admin, `${W}/verifyBank`, { bankId: id });
    bankId = id;
  });

  it('bad amounts are refused in Chinese and write nothing', async () => {
    const before = { w: await count(s, 'finWithdrawal'), e: await count(s, 'finEntry'), c: await balanceOf(db(), 2, 'collection') };
    for (const amountFen of [-100, 0, 1.5, '12.5', 'abc']) {
      expect((await api(s, store2, `${W}/commitCash`, { bankId, amountFen })).msg).toBe('提现金额必须是大于 0 的整数（分）');
    }
    const over = await api(s, store2, `${W}/commitCash`, { bankId, amountFen: before.c + 1 });
    expect(over.msg).toBe(`收款钱包余额不足：需要 ${((before.c + 1) / 100).toFixed(2)} 元，当前余额 ${(before.c / 100).toFixed(2)} 元`);
    expect({ w: await count(s, 'finWithdrawal'), e: await count(s, 'finEntry'), c: await balanceOf(db(), 2, 'collection') }).toEqual(before);
  });

  it('100 concurrent withdrawals that together exceed the wallet leave it at 0 or above', async () => {
    const start = await balanceOf(db(), 2, 'collection');
    const amount = Math.ceil(start / 40); // 100 × amount is far over the wallet
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => api(s, store2, `${W}/commitCash`, { bankId, amountFen: amount, remark: `第 ${i} 笔` })),
    );
    const okCount = answers.filter((a) => a.code === 200).length;
    const refused = answers.filter((a) => a.code !== 200);
    expect(okCount).toBe(Math.floor(start / amount));
    expect(new Set(refused.map((a) => a.msg.split('：')[0]))).toEqual(new Set(['收款钱包余额不足']));
    const left = await balanceOf(db(), 2, 'collection');
    expect(left).toBeGreaterThanOrEqual(0);
    expect(left).toBe(start - okCount * amount);
    expect(await balanceOf(db(), 2, 'withdrawPending')).toBe(okCount * amount);
    const rows = await db().selectFrom('finWithdrawal').select('withdrawId').where('storeId', '=', 2).where('status', '=', 0).execute();
    expect(rows).toHaveLength(okCount);
  });

  it('headquarters approves and pays with a bank reference, or rejects and the money goes back; states are enforced', async () => {
    const list = (await s.call('GET', `${W}/cashList`, { token: admin, query: { storeId: 2, status: 0, pageSize: 100 } })).body;
    const [a, b] = list.rows as Array<{ withdrawId: number; amountFen: number; amountYuan: string; statusName: string }>;
    expect(a.statusName).toBe('待审核');
    // The 通过 confirm of the 提现 screen names the amount in yuan (schemas/finance/fin_withdrawal.json).
    expect(a.amountYuan).toBe(yuanText(a.amountFen));
    // A store leader cannot review.
    expect((await api(s, store2, `${W}/approveCash`, { withdrawId: a.withdrawId })).code).toBe(403);
    // Paying before approval is refused.
    expect((await api(s, admin, `${W}/payCash`, { withdrawId: a.withdrawId, bankRef: 'B1' })).msg).toBe('该提现申请当前为“待审核”，不能打款');
    await apiOk(s, admin, `${W}/approveCash`, { withdrawId: a.withdrawId });
    expect((await api(s, admin, `${W}/approveCash`, { withdrawId: a.withdrawId, again: 1 })).msg).toBe('该提现申请当前为“已通过”，不能通过');
    expect((await api(s, admin, `${W}/payCash`, { withdrawId: a.withdrawId })).msg).toBe('银行流水号不能为空');
    const pendingBefore = await balanceOf(db(), 2, 'withdrawPending');
    await apiOk(s, admin, `${W}/payCash`, { withdrawId: a.withdrawId, bankRef: 'ICBC20261123001' });
    expect(await balanceOf(db(), 2, 'withdrawPending')).toBe(pendingBefore - a.amountFen);
    expect((await api(s, admin, `${W}/rejectCash`, { withdrawId: a.withdrawId, reason: '晚了' })).msg).toBe('该提现申请当前为“已打款”，不能驳回');

    const collection = await balanceOf(db(), 2, 'collection');
    expect((await api(s, admin, `${W}/rejectCash`, { withdrawId: b.withdrawId })).msg).toBe('驳回原因不能为空');
    await apiOk(s, admin, `${W}/rejectCash`, { withdrawId: b.withdrawId, reason: '账户信息有误' });
    expect(await balanceOf(db(), 2, 'collection')).toBe(collection + b.amountFen);

    const trail = await apiOk<Array<{ action: string }>>(s, store2, `${W}/cashTrail`, { withdrawId: a.withdrawId });
    expect(trail.map((t) => t.action)).toEqual(['申请提现', '审核通过', '已打款']);
    const mine = (await s.call('GET', `${W}/cashList`, { token: store2, query: { pageSize: 200 } })).body.rows as Array<{
      withdrawId: number;
      statusName: string;
      bankRef: string;
    }>;
    expect(mine.find((r) => r.withdrawId === a.withdrawId)).toMatchObject({ statusName: '已打款', bankRef: 'ICBC20261123001' });
    expect(mine.find((r) => r.withdrawId === b.withdrawId)?.statusName).toBe('已驳回');
  });

  it('a repeated request key is one withdrawal', async () => {
    const c = await balanceOf(db(), 2, 'collection');
    const body = { bankId, amountFen: 100, requestKey: 'k-1' };
    // The same key in two different-looking submissions (the repeat guard refuses an identical one within 1 s).
    const [x, y] = await Promise.all([
      apiOk<{ withdrawId: number }>(s, store2, `${W}/commitCash`, body),
      apiOk<{ withdrawId: number }>(s, store2, `${W}/commitCash`, { ...body, remark: '重试' }),
    ]);
    expect(x.withdrawId).toBe(y.withdrawId);
    expect(await balanceOf(db(), 2, 'collection')).toBe(c - 100);
  });

  it('store 3 cannot see or use store 2 wallet, withdrawals or bank accounts', async () => {
    expect((await api(s, store3, `${W}/wallet`, { storeId: 2 })).msg).toBe('没有权限访问其他门店的钱包');
    expect((await api(s, store3, `${W}/walletIn`, { storeId: 2 })).msg).toBe('没有权限访问其他门店的资金流水');
    expect((await api(s, store3, `${W}/cashList`, { storeId: 2 })).msg).toBe('没有权限访问其他门店的提现记录');
    const own = (await s.call('GET', `${W}/cashList`, { token: store3, query: { pageSize: 100 } })).body;
    expect(own.total).toBe(0);
    expect(await apiOk<unknown[]>(s, store3, `${W}/bankList`)).toEqual([]);
    expect((await api(s, store3, `${W}/commitCash`, { bankId, amountFen: 100 })).msg).toBe('请选择提现到账的银行账户');
    expect((await api(s, store3, `${W}/commitCash`, { storeId: 2, bankId, amountFen: 100 })).msg).toBe('没有权限访问其他门店的收款钱包');
    expect((await api(s, store3, `${W}/delBank`, { bankId })).msg).toBe('没有权限访问其他门店的银行账户');
    const theirs = await db().selectFrom('finWithdrawal').select('withdrawId').where('storeId', '=', 2).executeTakeFirstOrThrow();
    expect((await api(s, store3, `${W}/cashTrail`, { withdrawId: theirs.withdrawId })).msg).toBe('没有权限访问其他门店的提现记录');
  });

  it('wallet pages: balance, collection and what was paid, with 资金流水 filters and an xlsx export', async () => {
    const w = await apiOk<{ balanceFen: number; collectionFen: number; withdrawableFen: number; storeName: string }>(s, store2, `${W}/wallet`);
    expect(w).toMatchObject({ storeName: '济南门店', balanceFen: await balanceOf(db(), 2, 'balance') });
    expect(w.withdrawableFen).toBe(w.collectionFen);
    const incoming = (await s.call('GET', `${W}/walletIn`, { token: store2, query: { pageSize: 5 } })).body;
    expect((incoming.rows as Array<{ amountFen: number; typeName: string }>).every((r) => r.amountFen > 0)).toBe(true);
    const log = (await s.call('GET', '/appv2/api/recharge/moneyLogList', { token: store2, query: { type: 'withdraw_request', pageSize: 5 } })).body;
    expect(log.total).toBeGreaterThan(0);
    expect((log.rows as Array<{ typeName: string }>)[0].typeName).toBe('提现申请');
    const future = (await s.call('GET', `${W}/tableList`, { token: store2, query: { beginTime: '2099-01-01' } })).body;
    expect(future.total).toBe(0);
    expect((await api(s, store2, `${W}/tableList`, { beginTime: '昨天' })).msg).toBe('日期格式应为 YYYY-MM-DD');
    const x = await s.call('GET', `${W}/tableList/export`, { token: store2 });
    expect(String(x.headers['content-type'])).toContain('spreadsheetml');
    expect(x.rawBuffer.subarray(0, 2).toString()).toBe('PK');
  });

  it('资金流水 reads the date range as the schema lists send it: params in a JSON body, params[…] in the form of 导出', async () => {
    const all = await api(s, store2, `${W}/tableList`, { pageSize: 500 });
    expect(all.total).toBeGreaterThan(0);
    expect((await api(s, store2, `${W}/tableList`, { params: { beginTime: '2099-01-01' } })).total).toBe(0);
    expect((await api(s, store2, `${W}/tableList`, { params: { beginTime: '2000-01-01', endTime: '2099-12-31' } })).total).toBe(all.total);
    expect((await api(s, store2, `${W}/expenditure`, { params: { endTime: '2000-01-01' } })).total).toBe(0);
    const exported = async (fields: Record<string, string>) => {
      const body = new URLSearchParams(fields).toString();
      const res = await s.call('POST', `${W}/tableList/export`, { token: store2, body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(res.status).toBe(200);
      return readXlsx(res.rawBuffer);
    };
    expect(await exported({ pageNum: '1', pageSize: '20' })).toHaveLength(Number(all.total) + 1); // header + every entry
    expect(await exported({ 'params[beginTime]': '2099-01-01' })).toEqual([['时间', '账户', '类型', '金额（元）', '变动后余额（元）', '说明', '操作人']]);
  });
});
