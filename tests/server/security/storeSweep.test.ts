import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startServer, type TestServer } from '../harness.js';

/**
 * Issue 22 "store scope for every account": accounts made after the seed must be confined like the seeded ones.
 * (a) a 机构负责人 of 济南门店 (store 2) made through 用户管理 and (b) a self-registered account call every declared
 * read route of the registry (so new routes are covered) with parameters naming headquarters' (store 1) customer and
 * payment order. No answer may carry them. Then: a change of store is audited and applies at the next request, and an
 * account without a store is told so.
 */

const HQ_STUDENT = '总部客户扫描甲';
const HQ_MOBILE = '13977770001';
const HQ_PAYER = '总部付款人扫描';
const USER = '/dev-api/system/user';
const NO_STORE = '账号未分配门店，请联系管理员';

describe.each(backends)('门店范围：新账号 (%s)', (backend) => {
  let s: TestServer;
  let admin: string;
  let leaderId = 0;
  const ids = { student: 0, orderNo: '' };

  beforeAll(async () => {
    s = await startServer(backend);
    admin = await s.login('admin', 'admin123');
    const db = s.app.db.kysely;
    const hq = await db.selectFrom('volStudent').select('studentId').where('storeId', '=', 1).orderBy('studentId').executeTakeFirstOrThrow();
    await db.updateTable('volStudent').set({ name: HQ_STUDENT, mobile: HQ_MOBILE }).where('studentId', '=', hq.studentId).execute();
    ids.student = hq.studentId;
    // A payment order of headquarters, paid to store 1.
    await db.updateTable('sysUser').set({ nickName: HQ_PAYER }).where('userName', '=', 'admin').execute();
    const order = await s.call<{ orderNo: string }>('POST', '/appv2/api/AlipayTool/creatAliOrder', { token: admin, body: { storeId: 1, amountFen: 12_345 } });
    expect(order.body.code, order.body.msg).toBe(200);
    ids.orderNo = String(order.body.data?.orderNo);
    expect(ids.orderNo).toMatch(/\S{10,}/);
  });
  afterAll(async () => {
    await s?.close();
  });

  async function newLeader(userName: string, storeId: number | null): Promise<{ userId: number; token: string }> {
    const res = await s.call<{ userId: number }>('POST', USER, {
      token: admin,
      body: { userName, nickName: `店长${userName}`, password: 'secret12', roleIds: [2], ...(storeId ? { storeId } : {}) },
    });
    expect(res.body.code, res.body.msg).toBe(200);
    return { userId: Number(res.body.data?.userId), token: await s.login(userName, 'secret12') };
  }

  it('a store-2 leader made through 用户管理 and a self-registered account see none of headquarters’ rows on any read route', async () => {
    const leader = await newLeader('sweep_leader', 2);
    leaderId = leader.userId;
    const reg = await s.call('POST', '/dev-api/register', { body: { username: 'sweep_self', password: 'secret12', confirmPassword: 'secret12' } });
    expect(reg.body.code, reg.body.msg).toBe(200);
    const self = await s.login('sweep_self', 'secret12');
    expect(await s.app.db.kysely.selectFrom('sysUser').select('storeId').where('userName', '=', 'sweep_self').executeTakeFirst()).toEqual({ storeId: null });

    // Every declared read behind a sign-in, except streams and files (no envelope to read).
    const routes = s.app.routeRegistry.filter(
      (r) => !r.write && r.permission !== 'public' && /^\/(dev-api|appv2)\//.test(r.url) && !/(export|download|stream|sse|poster)/i.test(r.url),
    );
    expect(routes.length).toBeGreaterThanOrEqual(100);
    const params = {
      studentId: ids.student,
      id: ids.student,
      ids: String(ids.student),
      orderNo: ids.orderNo,
      storeId: 1,
      pageNum: 1,
      pageSize: 100,
    };
    const markers = [HQ_STUDENT, HQ_MOBILE, HQ_PAYER, ids.orderNo];
    const leaks: string[] = [];
    for (const [who, token] of [
      ['leader', leader.token],
      ['self', self],
    ] as const) {
      for (const r of routes) {
        const url = r.url.replace(/:[A-Za-z]+/g, String(ids.student));
        const res =
          r.method === 'GET' ? await s.call('GET', url, { token, query: params }) : await s.call(r.method, url, { token, body: { ...params, _route: r.url } });
        let text = res.raw;
        if (res.body?.code === 20000) text = JSON.stringify(s.decrypt(res.body.data));
        for (const m of markers) if (text.includes(m)) leaks.push(`${who} ${r.method} ${r.url}: ${m}`);
      }
    }
    expect(leaks).toEqual([]);

    // By id and by order number the answers are refusals, not empty successes.
    for (const token of [leader.token, self]) {
      const order = await s.call('GET', '/dev-api/finance/pay/order', { token, query: { orderNo: ids.orderNo } });
      expect(order.body.code).not.toBe(200);
    }
    const student = await s.call('GET', '/dev-api/customer/history', { token: leader.token, query: { studentId: ids.student } });
    expect(student.body.code).not.toBe(200);
  });

  it('a change of store in 用户管理 is audited and applies at the next request', async () => {
    const { userId, token } = leaderId ? { userId: leaderId, token: await s.login('sweep_leader', 'secret12') } : await newLeader('sweep_leader', 2);
    const scope = async () => (await s.call<{ storeId: number; allStores: boolean }>('GET', '/dev-api/customer/stores', { token })).body.data;
    expect(await scope()).toMatchObject({ storeId: 2, allStores: false });
    const current = (await s.call<Record<string, unknown>>('GET', `${USER}/${userId}`, { token: admin })).body.data as Record<string, unknown>;
    expect(current.storeId).toBe(2);
    const moved = await s.call('PUT', USER, { token: admin, body: { ...current, storeId: 3 } });
    expect(moved.body.code, moved.body.msg).toBe(200);
    expect(await scope()).toMatchObject({ storeId: 3, allStores: false });
    const log = await s.app.db.kysely.selectFrom('sysOperLog').selectAll().where('method', '=', 'sys_user.store').execute();
    expect(log.map((l) => JSON.parse(String(l.operParam)))).toContainEqual(
      expect.objectContaining({ userId, fromStoreId: 2, toStoreId: 3, from: '济南门店', to: '青岛门店' }),
    );
    expect(log.every((l) => l.operName === 'admin')).toBe(true);
  });

  it('用户管理 refuses a store role without a store, an unknown store, and a store role for an account without one', async () => {
    const noStore = await s.call('POST', USER, { token: admin, body: { userName: 'sweep_nostore', nickName: '无门店', password: 'secret12', roleIds: [2] } });
    expect(noStore.body).toMatchObject({ code: 500, msg: '请选择所属门店' });
    const unknown = await s.call('POST', USER, {
      token: admin,
      body: { userName: 'sweep_unknown', nickName: '无门店', password: 'secret12', roleIds: [2], storeId: 999 },
    });
    expect(unknown.body).toMatchObject({ code: 500, msg: '所属门店不存在或已停用' });
    const self = await s.app.db.kysely.selectFrom('sysUser').select('userId').where('userName', '=', 'sweep_self').executeTakeFirst();
    if (self) {
      const grant = await s.call('PUT', `${USER}/authRole`, { token: admin, body: { userId: self.userId, roleIds: '2' } });
      expect(grant.body).toMatchObject({ code: 500, msg: '该用户未分配所属门店，请先在修改用户中选择所属门店' });
    }
  });

  it('an account without a store is told to ask the administrator when it acts for a store', async () => {
    const { userId, token } = await newLeader('sweep_orphan', 2);
    // As an account from before the upgrade: a store role, no store.
    await s.app.db.kysely.updateTable('sysUser').set({ storeId: null }).where('userId', '=', userId).execute();
    const wallet = await s.call('GET', '/appv2/api/MoneyWallet/wallet', { token });
    expect(wallet.body).toMatchObject({ code: 500, msg: NO_STORE });
    const pay = await s.call('POST', '/appv2/api/AlipayTool/creatAliOrder', { token, body: { amountFen: 100 } });
    expect(pay.body).toMatchObject({ code: 500, msg: NO_STORE });
    const stores = await s.call<{ stores: unknown[]; storeId: number | null }>('GET', '/dev-api/customer/stores', { token });
    expect(stores.body.data).toMatchObject({ stores: [], storeId: null });
  });
});
