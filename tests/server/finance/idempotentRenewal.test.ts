import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { balanceOf, post } from '../../../server/finance/ledger.js';
import { signTimer } from '../../../server/security/protocol.js';
import { type ApiBody, backends, startServer, type TestServer } from '../harness.js';
import { expectLedgerBalanced } from './ledgerInvariant.js';

/**
 * Issue 22: 账户续费 paid from the store's balance (9,800 yuan) moves money once per request. A double click, a replayed
 * signed request, a retry with the same Idempotency-Key: each one charge, one order, the licence moved once.
 */

const RENEWAL = '/appv2/api/wxpay/channelRenewal';
const YEAR = { planId: '1y', payType: 'balance' };

describe.each(backends)('续费只扣一次款 (%s)', (backend) => {
  let s: TestServer;
  let store2: string;
  const db = () => s.app.db.kysely;

  beforeAll(async () => {
    s = await startServer(backend);
    store2 = await s.login('store2leader', 'store2leader123');
  });
  afterAll(async () => {
    await s?.close();
  });
  afterEach(async () => {
    await expectLedgerBalanced(s);
  });

  let price = 0;
  let licence = '';
  beforeEach(async () => {
    // Each case starts with a licence date it can see move, and the store can afford several years (so a second
    // charge would go through and be seen, not refused for want of money).
    await db().updateTable('sysPlatform').set({ expiredate: '2030-01-31' }).where('id', '=', 1).execute();
    // Each case is a new intention: forget the keys of the previous one (within IDEMPOTENCY_DERIVED_WINDOW_MS the same
    // renewal by the same user is otherwise answered as the earlier one, which is the point of the derived key).
    await sql`delete from sys_idempotency`.execute(db());
    licence = '2030-01-31';
    const info = (await s.call<{ plans: Array<{ planId: string; priceFen: number }> }>('POST', '/appv2/api/index/freeNum', { token: store2, body: {} })).body;
    price = info.data?.plans.find((p) => p.planId === '1y')?.priceFen ?? 0;
    expect(price).toBeGreaterThan(0);
    await post(db(), {
      type: 'opening',
      memo: '测试：门店预存',
      lines: [
        { storeId: 0, kind: 'world', amount: -5 * price },
        { storeId: 2, kind: 'balance', amount: 5 * price },
      ],
    });
  });

  const renewalOrders = async () =>
    (await db().selectFrom('finPayOrder').select(['orderNo', 'status']).where('purpose', '=', 'renewal').where('storeId', '=', 2).execute()).map(
      (o) => o.orderNo,
    );
  const expiredate = async () => (await db().selectFrom('sysPlatform').select('expiredate').where('id', '=', 1).executeTakeFirstOrThrow()).expiredate;
  const renew = (body: Record<string, unknown> = YEAR, headers?: Record<string, string>) =>
    s.call<{ orderNo: string; status: string }>('POST', RENEWAL, { token: store2, body, headers });

  it('a double click (two identical requests at once, each signed) pays one order and moves the licence once', async () => {
    const before = await balanceOf(db(), 2, 'balance');
    const orders = (await renewalOrders()).length;
    const [a, b] = await Promise.all([renew(), renew()]);
    const answers = [a.body, b.body];
    const paid = answers.filter((x) => x.code === 200);
    expect(paid.length, JSON.stringify(answers)).toBeGreaterThanOrEqual(1);
    // The other copy is refused while the first runs, or gets the first copy's answer: the same order either way.
    for (const x of answers) {
      if (x.code !== 200) expect(x.msg).toBe('数据正在处理，请勿重复提交');
    }
    expect(new Set(paid.map((x) => (x.data as { orderNo: string }).orderNo)).size).toBe(1);
    expect(await balanceOf(db(), 2, 'balance')).toBe(before - price);
    expect((await renewalOrders()).length).toBe(orders + 1);
    expect(await expiredate()).toBe('2031-01-31');
  });

  it('one signed request replayed three times: one charge, the replays refused with 40004', async () => {
    const before = await balanceOf(db(), 2, 'balance');
    const orders = (await renewalOrders()).length;
    const signed = signTimer(s.app.keys.requestPublicPem);
    const send = () => s.call('POST', RENEWAL, { token: store2, body: YEAR, sign: false, headers: signed });
    const first = await send();
    expect(first.body.code, first.body.msg).toBe(200);
    for (let i = 0; i < 3; i++) {
      const replay = await send();
      expect(replay.body.code).toBe(40004);
    }
    expect(await balanceOf(db(), 2, 'balance')).toBe(before - price);
    expect((await renewalOrders()).length).toBe(orders + 1);
    expect(await expiredate()).toBe('2031-01-31');
  });

  it('the same renewal sent again later with the same Idempotency-Key: one charge, the second answer names the same order', async () => {
    const before = await balanceOf(db(), 2, 'balance');
    const orders = (await renewalOrders()).length;
    const key = { 'Idempotency-Key': `renew-${backend}-${Date.now()}` };
    const first = await renew(YEAR, key);
    expect(first.body.code, first.body.msg).toBe(200);
    expect(first.body.data?.status).toBe('paid');
    // Sent again after the first finished (a retry after a lost answer): answered as the first, nothing charged.
    const again = await renew(YEAR, key);
    expect(again.body.code, again.body.msg).toBe(200);
    expect(again.body.data?.orderNo).toBe(first.body.data?.orderNo);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await balanceOf(db(), 2, 'balance')).toBe(before - price);
    expect((await renewalOrders()).length).toBe(orders + 1);
    expect(await expiredate()).toBe('2031-01-31');
    // The key names that one request: the same key with another body is refused, nothing charged.
    const other = await renew({ planId: '3y', payType: 'balance' }, key);
    expect(other.body.code).toBe(400);
    expect(other.body.msg).toContain('Idempotency-Key');
    expect(await balanceOf(db(), 2, 'balance')).toBe(before - price);
  });

  it('without a key, the same renewal sent again right after it finished is answered as the first, not charged again', async () => {
    const before = await balanceOf(db(), 2, 'balance');
    const first = await renew();
    expect(first.body.code, first.body.msg).toBe(200);
    const again = await renew();
    expect(again.body.code, again.body.msg).toBe(200);
    expect(again.body.data?.orderNo).toBe(first.body.data?.orderNo);
    expect(await balanceOf(db(), 2, 'balance')).toBe(before - price);
  });

  it('a refused first request (unknown plan) does not hold its key: the corrected request with the same key is paid', async () => {
    const before = await balanceOf(db(), 2, 'balance');
    const key = { 'Idempotency-Key': `fix-${backend}-${Date.now()}` };
    const refused = await renew({ planId: '9y', payType: 'balance' }, key);
    expect(refused.body.code).not.toBe(200);
    expect(refused.body.msg).toBe('请选择续费套餐');
    expect(await balanceOf(db(), 2, 'balance')).toBe(before);
    // Sent again unchanged (no key: the derived one), it is refused again for its own reason, not as a repeat.
    await renew({ planId: '9y', payType: 'balance' });
    const refusedAgain = await renew({ planId: '9y', payType: 'balance' });
    expect(refusedAgain.body.msg).toBe('请选择续费套餐');
    const fixed = await renew(YEAR, key);
    expect(fixed.body.code, fixed.body.msg).toBe(200);
    expect(await balanceOf(db(), 2, 'balance')).toBe(before - price);
    expect(await expiredate()).toBe('2031-01-31');
  });

  it('a malformed Idempotency-Key is refused with a message saying what a key looks like', async () => {
    const before = await balanceOf(db(), 2, 'balance');
    const res = (await renew(YEAR, { 'Idempotency-Key': 'x' })).body as ApiBody;
    expect(res.code).toBe(400);
    expect(res.msg).toContain('Idempotency-Key 格式不正确');
    expect(await balanceOf(db(), 2, 'balance')).toBe(before);
    expect(licence).toBe(await expiredate());
  });
});
