import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startServer, type TestServer } from '../harness.js';
import { appUser, balance, call, downloadBatch, ok, PRICE, release, releaseOk, staff, studentByName } from './helpers.js';

describe.each(backends)('会员卡 (%s)', (backend) => {
  let s: TestServer;
  let leader: string;

  beforeAll(async () => {
    s = await startServer(backend);
    leader = await s.login('leader', 'leader123');
  });
  afterAll(async () => {
    await s?.close();
  });

  const db = () => s.app.db.kysely;

  it('发卡 debits the balance exactly once and makes exactly card_num unique, consecutive numbers', async () => {
    const info = await ok<{ storeBalance: number; no_vip_num: number; kinds: Array<{ kind: number; vip_price: number }> }>(
      s,
      leader,
      'GET',
      '/dev-api/card/release/info',
      { storeId: 1 },
    );
    expect(info.no_vip_num).toBe(0);
    expect(info.kinds.find((k) => k.kind === 1)?.vip_price).toBe(PRICE[1]);
    const before = await balance(s, 1);
    const r = await release(s, leader, { storeId: 1, kind: 1, card_num: 1200, vip_price: PRICE[1], remark: '首批' });
    expect(r.final).toMatchObject({ code: 200, msg: '发卡成功' });
    // Progress lines count up to the total.
    expect(r.progress[0]).toEqual({ progress: 0, total: 1200 });
    expect(r.progress.at(-1)).toEqual({ progress: 1200, total: 1200 });
    const data = r.final.data!;
    expect(Number(data.cardNoEnd) - Number(data.cardNoFirst)).toBe(1199);
    expect(await balance(s, 1)).toBe(before - 1200 * PRICE[1]);
    expect(data.storeBalance).toBe(before - 1200 * PRICE[1]);
    const cards = await db().selectFrom('card').select(['cardNo', 'status', 'storeId']).where('batchId', '=', data.batchId).orderBy('cardNo').execute();
    expect(cards).toHaveLength(1200);
    expect(new Set(cards.map((c) => Number(c.cardNo))).size).toBe(1200);
    expect(Number(cards[0].cardNo)).toBe(Number(data.cardNoFirst));
    expect(Number(cards.at(-1)?.cardNo)).toBe(Number(data.cardNoEnd));
    expect(cards.every((c) => c.status === 'unused' && c.storeId === 1)).toBe(true);
    const logs = await db().selectFrom('cusBalanceLog').selectAll().where('refType', '=', 'card_batch').where('refId', '=', data.batchId).execute();
    expect(logs).toHaveLength(1);
    expect(Number(logs[0].amount)).toBe(-1200 * PRICE[1]);
    const again = await ok<{ no_vip_num: number }>(s, leader, 'GET', '/dev-api/card/release/info', { storeId: 1 });
    expect(again.no_vip_num).toBe(1200);
    // A second batch continues the numbering: unique across the platform.
    const next = await releaseOk(s, leader, { storeId: 1, kind: 3, card_num: 5, vip_price: PRICE[3] });
    expect(Number(next.cardNoFirst)).toBe(Number(data.cardNoEnd) + 1);
  });

  it('a release beyond the balance writes nothing', async () => {
    const before = {
      balance: await balance(s, 3),
      cards: (
        await db()
          .selectFrom('card')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
      batches: (
        await db()
          .selectFrom('cardBatch')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
      counter: (await db().selectFrom('cardCounter').selectAll().executeTakeFirstOrThrow()).nextNo,
      logs: (
        await db()
          .selectFrom('cusBalanceLog')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    };
    const n = Math.floor(before.balance / PRICE[2]) + 1;
    const r = await release(s, leader, { storeId: 3, kind: 2, card_num: n, vip_price: PRICE[2] });
    expect(r.final.code).toBe(500);
    expect(r.final.msg).toMatch(/^门店余额不足：需要 .* 元，当前余额 .* 元$/);
    expect({
      balance: await balance(s, 3),
      cards: (
        await db()
          .selectFrom('card')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
      batches: (
        await db()
          .selectFrom('cardBatch')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
      counter: (await db().selectFrom('cardCounter').selectAll().executeTakeFirstOrThrow()).nextNo,
      logs: (
        await db()
          .selectFrom('cusBalanceLog')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    }).toEqual(before);
  });

  it('the debit inside the transaction refuses too, leaving nothing (balance drained after the pre-check)', async () => {
    const { checkRelease, releaseCards } = await import('../../../server/customer/cards.js');
    const { actorOf } = await import('../../../server/security/actor.js');
    const { loadOrCreateCardKeys } = await import('../../../server/customer/cardSecrets.js');
    const leaderId = (await db().selectFrom('sysUser').select('userId').where('userName', '=', 'leader').executeTakeFirstOrThrow()).userId;
    const actor = await actorOf(db(), { userId: leaderId, userName: 'leader', roles: ['leader'] } as never);
    const req = await checkRelease(db(), actor, { storeId: 3, kind: 3, card_num: 2, vip_price: PRICE[3] });
    const cardsBefore = (
      await db()
        .selectFrom('card')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n;
    const kept = await balance(s, 3);
    // Drain the balance after the pre-check through the ledger (the store's 余额 account; cus_store.balance mirrors it).
    const { post } = await import('../../../server/finance/ledger.js');
    const move = (amount: number) =>
      post(db(), {
        type: 'test',
        memo: '测试',
        lines: [
          { storeId: 3, kind: 'balance', amount },
          { storeId: 0, kind: 'world', amount: -amount },
        ],
      });
    await move(1 - kept);
    await expect(releaseCards(db(), loadOrCreateCardKeys(s.dataDir), actor, req)).rejects.toThrow(/门店余额不足/);
    expect(
      (
        await db()
          .selectFrom('card')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ).toBe(cardsBefore);
    expect(await balance(s, 3)).toBe(1);
    await move(kept - 1);
  });

  it('bad release input is refused in Chinese', async () => {
    expect((await release(s, leader, { storeId: 2, kind: 9, card_num: 1, vip_price: 1 })).final.msg).toBe('请选择卡类型（志愿卡 1、升学卡 2、体验卡 3）');
    expect((await release(s, leader, { storeId: 2, kind: 1, card_num: 0, vip_price: PRICE[1] })).final.msg).toBe('发卡数量应为 1 到 20000 之间的整数');
    expect((await release(s, leader, { storeId: 2, kind: 1, card_num: 2.5, vip_price: PRICE[1] })).final.msg).toBe('发卡数量应为 1 到 20000 之间的整数');
    expect((await release(s, leader, { storeId: 2, kind: 1, card_num: 1, vip_price: 100 })).final.msg).toBe('卡价已变更，请刷新后重试');
  });

  it('the batch download shows the secrets, is audited, and the database holds none in clear', async () => {
    const batch = await releaseOk(s, leader, { storeId: 1, kind: 1, card_num: 3, vip_price: PRICE[1] });
    const dl = await downloadBatch(s, leader, batch.batchId);
    expect(dl.rows).toHaveLength(3);
    expect(Object.keys(dl.rows[0])).toEqual(['卡号', '卡密', '卡类型', '状态', '用户', '激活时间', '到期时间']);
    expect(dl.rows.map((r) => r.卡号)).toEqual([0, 1, 2].map((i) => String(Number(batch.cardNoFirst) + i)));
    expect(dl.rows[0].卡密).toMatch(/^[A-Z2-9]{12}$/);
    const stored = await db().selectFrom('card').selectAll().where('batchId', '=', batch.batchId).execute();
    for (const r of dl.rows) expect(JSON.stringify(stored)).not.toContain(r.卡密);
    const audit = await db().selectFrom('cardAction').selectAll().where('batchId', '=', batch.batchId).where('action', '=', 'download').execute();
    expect(audit).toHaveLength(1);
    expect((await db().selectFrom('cardBatch').select('downloadCount').where('batchId', '=', batch.batchId).executeTakeFirstOrThrow()).downloadCount).toBe(1);
  });

  it('the family activates with number + secret once; a wrong secret or a second activation is refused', async () => {
    const batch = await releaseOk(s, leader, { storeId: 2, kind: 2, card_num: 2, vip_price: PRICE[2] });
    const [first] = (await downloadBatch(s, leader, batch.batchId)).rows;
    const fam = await appUser(s, 'family_one');
    const body = { cardNo: first.卡号, secret: first.卡密, name: '周同学', province: '山东', examYear: 2026 };
    expect(await call(s, fam.token, 'POST', '/appv2/api/card/activate', { ...body, secret: 'AAAAAAAAAAAA' })).toMatchObject({
      code: 500,
      msg: '卡号或卡密错误',
    });
    expect(await db().selectFrom('volStudent').select('studentId').where('appUserId', '=', fam.userId).execute()).toHaveLength(0);
    const done = await call<{ userType: number; vipPayType: number }>(s, fam.token, 'POST', '/appv2/api/card/activate', body);
    expect(done).toMatchObject({ code: 200, msg: '激活成功', data: { userType: 2, vipPayType: 1 } });
    const c = await studentByName(s, '周同学');
    expect(c).toMatchObject({ storeId: 2, userType: 2, vipPayType: 1, cusStatus: 'active' });
    const other = await appUser(s, 'family_two');
    expect(await call(s, other.token, 'POST', '/appv2/api/card/activate', { ...body, name: '吴同学' })).toMatchObject({
      code: 500,
      msg: '该卡已激活，不能重复使用',
    });
  });

  it('50 concurrent activations of one card succeed exactly once', async () => {
    const batch = await releaseOk(s, leader, { storeId: 1, kind: 1, card_num: 1, vip_price: PRICE[1] });
    const now = Date.now();
    const ids: number[] = [];
    for (let i = 0; i < 50; i++) {
      const row = await db()
        .insertInto('volStudent')
        .values({
          name: `并发${i}`,
          mobile: null,
          province: '山东',
          examYear: 2026,
          score: null,
          rank: null,
          rankFlag: null,
          subjects: '',
          preferRegions: '[]',
          preferLevels: '[]',
          preferMajors: '[]',
          tuitionCap: null,
          ownerId: null,
          remark: null,
          delFlag: '0',
          createBy: null,
          createTime: now,
          updateTime: now,
          version: 1,
        })
        .returning('studentId')
        .executeTakeFirstOrThrow();
      ids.push(row.studentId);
    }
    const answers = await Promise.all(ids.map((studentId) => call(s, leader, 'POST', '/dev-api/customer/openCard', { studentId, cardNo: batch.cardNoFirst })));
    const wins = answers.filter((a) => a.code === 200);
    expect(wins).toHaveLength(1);
    expect(answers.filter((a) => a.code !== 200).every((a) => a.msg === '该卡已激活，不能重复使用')).toBe(true);
    const card = await db().selectFrom('card').selectAll().where('cardNo', '=', Number(batch.cardNoFirst)).executeTakeFirstOrThrow();
    expect(card.status).toBe('activated');
    const bound = await db().selectFrom('volStudent').select(['studentId', 'userType', 'vipPayType']).where('cardId', '=', card.cardId).execute();
    expect(bound).toEqual([{ studentId: card.studentId, userType: 1, vipPayType: 2 }]);
    const activations = await db().selectFrom('cardAction').selectAll().where('cardId', '=', card.cardId).where('action', '=', 'activate').execute();
    expect(activations).toHaveLength(1);
  });

  it('card states: void only unused, transfer only by headquarters, expiry moves activated → expired', async () => {
    const batch = await releaseOk(s, leader, { storeId: 1, kind: 3, card_num: 3, vip_price: PRICE[3] });
    const cards = await db().selectFrom('card').select(['cardId', 'cardNo']).where('batchId', '=', batch.batchId).orderBy('cardNo').execute();
    const sun = await studentByName(s, '孙七');
    await ok(s, leader, 'POST', '/dev-api/customer/openCard', { studentId: sun.studentId, cardNo: String(cards[0].cardNo) });
    expect(await call(s, leader, 'POST', '/dev-api/card/two/void', { cardIds: String(cards[0].cardId) })).toMatchObject({
      code: 500,
      msg: `卡号 ${cards[0].cardNo} 已激活，只有未使用的卡可以作废`,
    });
    expect(await call(s, leader, 'POST', '/dev-api/card/two/void', { cardIds: String(cards[1].cardId), reason: '损坏' })).toMatchObject({
      code: 200,
      msg: '作废成功',
    });
    expect(await call(s, leader, 'POST', '/dev-api/customer/openCard', { studentId: sun.studentId, cardNo: String(cards[1].cardNo) })).toMatchObject({
      code: 500,
    });
    expect(await call(s, leader, 'POST', '/dev-api/card/two/transfer', { cardIds: String(cards[2].cardId), toStoreId: 2 })).toMatchObject({
      code: 200,
      msg: '调拨成功',
    });
    const agency = await staff(s, 'agency_mover', 2);
    expect(await call(s, agency, 'POST', '/dev-api/card/two/transfer', { cardIds: String(cards[2].cardId), toStoreId: 3 })).toMatchObject({
      code: 500,
      msg: '只有总部可以在门店之间调拨会员卡',
    });
    const { expireCards } = await import('../../../server/customer/cards.js');
    const expired = await expireCards(db(), Date.now() + 31 * 86_400_000);
    expect(expired).toBeGreaterThanOrEqual(1);
    expect((await db().selectFrom('card').select('status').where('cardId', '=', cards[0].cardId).executeTakeFirstOrThrow()).status).toBe('expired');
    expect((await studentByName(s, '孙七')).userType).toBe(0);
  });

  it('卡数据 counts activations per day', async () => {
    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    const res = await ok<{ days: Array<{ date: string; activated: number }> }>(s, leader, 'GET', '/dev-api/card/date/list', {
      beginTime: today,
      endTime: today,
    });
    expect(res.days).toHaveLength(1);
    const activated = (await db().selectFrom('card').select('cardId').where('activateTime', 'is not', null).execute()).length;
    expect(res.days[0].activated).toBe(activated);
  });
});
