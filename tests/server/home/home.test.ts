import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIGURES } from '../../../common/home/statistics.js';
import { computeDays, readDays, refreshDaily } from '../../../server/home/daily.js';
import { DAY_MS, dayKey, dayNo, dayStart } from '../../../server/home/days.js';
import { PageViewCounter } from '../../../server/home/pageViews.js';
import { call, ok, staff } from '../customer/helpers.js';
import { backends, startServer, type TestServer } from '../harness.js';

interface Todo {
  key: string;
  title: string;
  count: number;
  component: string;
  query: Record<string, string>;
}
interface Home {
  today: string;
  todo: Todo[];
  platform: { pv: number; todayPv: number; registerNum: number; todayRegistrations: number };
}
interface Stats {
  beginDate: string;
  endDate: string;
  days: Array<Record<string, number | string>>;
  totals: Record<string, number>;
}

describe.each(backends)('首页 (%s)', (backend) => {
  let s: TestServer;
  let admin: string;
  const db = () => s.app.db.kysely;
  const now = Date.now();
  const today = dayNo(now);

  /** A customer of a store created at a given time, with optionally a plan and its actions. */
  async function customer(storeId: number, createTime: number, plan?: { status: string; actions: Array<[string, string, number]> }) {
    const st = await db()
      .insertInto('volStudent')
      .values({ name: `统计${createTime}`, province: '山东', examYear: 2026, createTime, storeId, delFlag: '0', version: 1 } as never)
      .returning('studentId')
      .executeTakeFirstOrThrow();
    if (plan) {
      const p = await db()
        .insertInto('volPlan')
        .values({ studentId: st.studentId, status: plan.status, version: 1, itemCount: 1, createTime, updateTime: createTime, submitTime: createTime } as never)
        .returning('planId')
        .executeTakeFirstOrThrow();
      for (const [action, to, t] of plan.actions)
        await db()
          .insertInto('volPlanAction')
          .values({
            studentId: st.studentId,
            planId: p.planId,
            action,
            fromStatus: null,
            toStatus: to,
            version: 1,
            userId: 1,
            userName: 'admin',
            comment: null,
            createTime: t,
          })
          .execute();
    }
    return st.studentId;
  }

  beforeAll(async () => {
    s = await startServer(backend);
    admin = await s.login('admin', 'admin123');
    // Activity over the last 10 days in stores 1 and 2 (China-time noon of each day, so day edges do not matter).
    for (let i = 1; i <= 10; i++) {
      const t = dayStart(today - i) + 12 * 3600_000;
      await customer(1, t, {
        status: 'approved',
        actions: [
          ['submit', 'submitted', t],
          ['approve', 'approved', t + 60_000],
        ],
      });
      if (i % 2 === 0) await customer(2, t, { status: 'submitted', actions: [['submit', 'submitted', t]] });
    }
    // Waiting today: two submitted plans in store 1, one in store 2.
    await customer(1, now - 1000, { status: 'submitted', actions: [['submit', 'submitted', now - 1000]] });
    await customer(1, now - 1000, { status: 'submitted', actions: [['submit', 'submitted', now - 1000]] });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('each to-do count equals the total of the filtered list it opens', async () => {
    // An appointment today, pending, and one tomorrow (not today's).
    const sid = await customer(1, now);
    const expert = await db().selectFrom('sysUser').select('userId').where('userName', '=', 'expert').executeTakeFirstOrThrow();
    for (const t of [Math.max(now, dayStart(today) + 60_000), dayStart(today + 1) + 3600_000])
      await db()
        .insertInto('volAppointment')
        .values({
          studentId: sid,
          expertId: expert.userId,
          appointTime: t,
          duration: 60,
          status: 'pending',
          delFlag: '0',
          createTime: now,
          version: 1,
        } as never)
        .execute();
    const home = await ok<Home>(s, admin, 'POST', '/dev-api/api/index/index');
    const byKey = Object.fromEntries(home.todo.map((t) => [t.key, t]));
    expect(Object.keys(byKey)).toEqual(expect.arrayContaining(['review', 'appointment', 'workOrder', 'withdraw', 'invoice']));

    const review = await call(s, admin, 'GET', '/dev-api/api/Examine/list', { ...byKey.review.query, pageNum: 1, pageSize: 10 });
    expect(review.total).toBeGreaterThanOrEqual(7);
    expect(byKey.review.count).toBe(review.total);

    const q = byKey.appointment.query;
    expect(Number(q.dateFrom)).toBe(dayStart(today));
    expect(Number(q.dateTo)).toBe(dayStart(today) + DAY_MS - 1);
    const appts = await call(s, admin, 'GET', '/dev-api/api/appointment/list', { ...q, pageNum: 1, pageSize: 10 });
    expect(byKey.appointment.count).toBe(1);
    expect(byKey.appointment.count).toBe(appts.total);

    // Finance: withdrawals and invoices, through the lists 提现 and 发票管理 call, filtered as the links say.
    for (const [key, url] of [
      ['withdraw', '/appv2/api/MoneyWallet/cashList'],
      ['invoice', '/appv2/api/MoneyWallet/invoiceList'],
    ] as const) {
      const list = await call(s, admin, 'POST', url, { ...byKey[key].query, pageNum: 1, pageSize: 10 });
      expect(list.code, `${url}: ${list.msg}`).toBe(200);
      expect(byKey[key].count, key).toBe(list.total);
    }
  });

  it('a store-confined leader counts only their store; an expert sees only the to-dos of their own lists', async () => {
    const storeLeader = await staff(s, 'home_leader2', 2, 'leader');
    const home = await ok<Home>(s, storeLeader, 'POST', '/dev-api/api/index/index');
    const review = home.todo.find((t) => t.key === 'review');
    const list = await call(s, storeLeader, 'GET', '/dev-api/api/Examine/list', { status: 'submitted', pageNum: 1, pageSize: 10 });
    expect(review?.count).toBe(list.total);
    expect(review?.count).toBe(5); // store 2's five submitted plans, not store 1's
    const expert = await s.login('expert', 'expert123');
    const mine = await ok<Home>(s, expert, 'POST', '/dev-api/api/index/index');
    expect(mine.todo.map((t) => t.key)).toEqual(['appointment']);
    const refused = await call(s, expert, 'POST', '/dev-api/api/index/indexv', {});
    expect(refused.code).toBe(403);
  });

  it('daily figures: live before the job, the same after it, and the stored rows equal a live recomputation', async () => {
    const body = { beginDate: dayKey(today - 11), endDate: dayKey(today) };
    const before = await ok<Stats>(s, admin, 'POST', '/dev-api/api/index/indexv', body);
    expect(before.days).toHaveLength(12);
    expect(before.totals.newCustomers).toBeGreaterThanOrEqual(15 + 2);
    expect(before.totals.submittedPlans).toBeGreaterThanOrEqual(15 + 2);
    expect(before.totals.approvedPlans).toBe(10);
    const yesterday = before.days.find((d) => d.date === dayKey(today - 1));
    expect(yesterday).toMatchObject({ newCustomers: 1, submittedPlans: 1, approvedPlans: 1 });

    const r = await refreshDaily(db(), 3, now);
    expect(r.recomputed).toBe(3);
    expect(r.backfilled).toBe(7); // the first activity (10 days ago) up to the recent window
    const stored = await db()
      .selectFrom('homeDaily')
      .selectAll()
      .where('day', '>=', dayKey(today - 11))
      .execute();
    expect(stored.length).toBeGreaterThan(0);
    const live = await computeDays(db(), today - 11, today - 1);
    for (const row of stored.filter((x) => x.storeId >= 0)) {
      const want = live.get(Math.floor(Date.parse(`${row.day}T00:00:00Z`) / DAY_MS))?.get(row.storeId);
      for (const f of FIGURES) expect(Number(row[f]), `${row.day} store ${row.storeId} ${f}`).toBe(want?.[f] ?? 0);
    }
    const after = await ok<Stats>(s, admin, 'POST', '/dev-api/api/index/indexv', body);
    expect(after.days).toEqual(before.days);
    expect(after.totals).toEqual(before.totals);
    // A rerun changes nothing; store 2's view is its own share.
    await refreshDaily(db(), 3, now);
    expect(await readDays(db(), today - 11, today, undefined, now)).toEqual(await readDays(db(), today - 11, today, undefined, now));
    const store2 = await readDays(db(), today - 11, today, 2, now);
    const created = await db()
      .selectFrom('volStudent')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('storeId', '=', 2)
      .where('createTime', '>=', dayStart(today - 11))
      .executeTakeFirstOrThrow();
    expect(store2.reduce((n, d) => n + d.newCustomers, 0)).toBe(Number(created.n));
    expect(Number(created.n)).toBeGreaterThanOrEqual(5);
  });

  it('the job is registered and runs from 定时任务', async () => {
    const job = await db().selectFrom('sysJob').select(['jobId', 'handlerName']).where('handlerName', '=', 'homeDailyFigures').executeTakeFirstOrThrow();
    const res = await call(s, admin, 'PUT', '/dev-api/monitor/job/run', { jobId: job.jobId });
    expect(res.code, res.msg).toBe(200);
  });

  it('refuses a bad statistics range with a clear message', async () => {
    const bad = async (body: Record<string, unknown>) => (await call(s, admin, 'POST', '/dev-api/api/index/indexv', body)).msg;
    expect(await bad({ beginDate: '2026-02-30' })).toBe('开始日期格式应为 YYYY-MM-DD');
    expect(await bad({ beginDate: '2026-03-02', endDate: '2026-03-01' })).toBe('结束日期不能早于开始日期');
    expect(await bad({ beginDate: '2024-01-01', endDate: '2026-01-01' })).toBe('统计范围最多 366 天');
  });

  it('快捷菜单: only pages of the own menu, stored per user', async () => {
    const expert = await s.login('expert', 'expert123');
    const mine = await ok<{ picked: unknown[]; choices: Array<{ menuId: number; path: string; menuName: string }> }>(
      s,
      expert,
      'GET',
      '/dev-api/api/index/fastPath',
    );
    expect(mine.picked).toEqual([]);
    const filling = mine.choices.find((c) => c.path === '/volunteer/Filling');
    expect(filling?.menuName).toBe('专家填报');
    expect(mine.choices.some((c) => c.path === '/system/user')).toBe(false);
    const userMenu = await db().selectFrom('sysMenu').select('menuId').where('component', '=', 'system/user/index').executeTakeFirstOrThrow();
    const refused = await call(s, expert, 'POST', '/dev-api/api/index/fastPath', { menuIds: [filling?.menuId, userMenu.menuId] });
    expect(refused.msg).toBe(`菜单'${userMenu.menuId}'不在您的菜单中，不能设为快捷菜单`);
    expect((await ok<{ picked: unknown[] }>(s, expert, 'GET', '/dev-api/api/index/fastPath')).picked).toEqual([]);
    const saved = await ok<{ picked: Array<{ menuId: number }> }>(s, expert, 'POST', '/dev-api/api/index/fastPath', { menuIds: [filling?.menuId] });
    expect(saved.picked.map((p) => p.menuId)).toEqual([filling?.menuId]);
    // Another user's shortcuts are their own; the super admin may pick 用户管理.
    expect((await ok<{ picked: unknown[] }>(s, admin, 'GET', '/dev-api/api/index/fastPath')).picked).toEqual([]);
    const adminSaved = await ok<{ picked: Array<{ path: string }> }>(s, admin, 'POST', '/dev-api/api/index/fastPath', { menuIds: [userMenu.menuId] });
    expect(adminSaved.picked[0].path).toBe('/system/user');
  });

  it('page views are counted on the server and written in batches', async () => {
    const stored = async () =>
      Number(
        (
          await db()
            .selectFrom('homePageView')
            .select('views')
            .where('day', '=', dayKey(dayNo(Date.now())))
            .executeTakeFirst()
        )?.views ?? 0,
      );
    // Over HTTP: each open of the console (platformInfo) counts, and shows at once on the home page.
    await s.app.pageViews.flush();
    const before = await ok<Home>(s, admin, 'POST', '/dev-api/api/index/index');
    for (let i = 0; i < 3; i++) await s.call('POST', '/appv2/api/index/platformInfo', { body: {} });
    // A page of the public site counts too; its assets do not.
    expect((await s.call('GET', '/site/', { sign: false })).status).toBe(200);
    await s.call('GET', '/site/assets/banner-1.svg', { sign: false });
    const counted = await ok<Home>(s, admin, 'POST', '/dev-api/api/index/index');
    expect(counted.platform.todayPv).toBe(before.platform.todayPv + 4);
    await s.app.pageViews.flush();
    expect(await stored()).toBe(counted.platform.todayPv);
    const platform = await db().selectFrom('sysPlatform').select('pv').executeTakeFirstOrThrow();
    expect(Number(platform.pv)).toBe(counted.platform.pv);
    expect(counted.platform.registerNum).toBeGreaterThanOrEqual(5);
    // The counter itself (no timer running): counting writes nothing; one flush writes the batch.
    const counter = new PageViewCounter(db());
    const written = await stored();
    for (let i = 0; i < 5; i++) counter.count();
    expect(await stored()).toBe(written);
    expect(counter.unwritten(dayNo(Date.now()))).toBe(5);
    await counter.flush();
    expect(await stored()).toBe(written + 5);
    expect(counter.unwrittenTotal()).toBe(0);
  });

  it('platformInfo answers the same 访问量 and 注册人数 as the home page, at once', async () => {
    // The platform row is cached and its stored totals are written later (page views in batches, 注册人数 by the
    // hourly job): platformInfo used to answer pv 0 and registerNum 0 while 首页 showed the real figures.
    await s.call('POST', '/appv2/api/index/platformInfo', { body: {} });
    const info = (await s.call<{ pv: number; registerNum: number }>('POST', '/appv2/api/index/platformInfo', { body: {} })).body.data;
    const home = await ok<Home>(s, admin, 'POST', '/dev-api/api/index/index');
    // An open is counted once answered: the home page shows platformInfo's figure plus that open.
    expect(home.platform.pv).toBe((info?.pv ?? 0) + 1);
    expect(info?.pv).toBeGreaterThan(0);
    expect(info?.registerNum).toBe(home.platform.registerNum);
    expect(info?.registerNum).toBeGreaterThanOrEqual(5);
  });

  it('帮助中心 lists the published help articles and searches them', async () => {
    const all = await ok<Array<{ helpId: number; title: string; content: string }>>(s, admin, 'GET', '/dev-api/api/index/helpCenter');
    expect(all.length).toBeGreaterThan(0);
    expect(all.every((h) => Number.isInteger(h.helpId) && h.title && h.content)).toBe(true);
    const first = all[0];
    const found = await ok<Array<{ helpId: number }>>(s, admin, 'GET', '/dev-api/api/index/helpCenter', { keyword: first.title });
    expect(found.map((h) => h.helpId)).toContain(first.helpId);
    expect(await ok(s, admin, 'GET', '/dev-api/api/index/helpCenter', { keyword: '没有这样的文章%' })).toEqual([]);
  });

  it('tabList answers the four dashboard tabs and refuses an unknown one', async () => {
    for (const tab of ['app', 'resource', 'gallery', 'live']) {
      const r = await ok<{ rows: Array<Record<string, unknown>>; title: string }>(s, admin, 'POST', '/dev-api/api/index/tabList', { tab });
      expect(Array.isArray(r.rows)).toBe(true);
      // Each row has its number key (a reader that misses a column answers NaN or nothing).
      const key = { app: 'appId', resource: 'resourceId', gallery: 'galleryId', live: 'liveId' }[tab] as string;
      for (const row of r.rows) expect(Number.isInteger(row[key]), `${tab} ${key}`).toBe(true);
    }
    expect((await call(s, admin, 'POST', '/dev-api/api/index/tabList', { tab: 'x' })).msg).toBe('标签不正确，可选：app、resource、gallery、live');
  });

  it('版本管理 maintains the releases that systermUpdateList answers', async () => {
    const add = await call(s, admin, 'POST', '/dev-api/system/version', {
      appId: 'zy-console',
      releaseTag: 'v2.0.5',
      userName: '张工',
      signTool: 'vite build',
      publishTime: now,
      domain: 'zy.example.com',
      changedFiles: 42,
      log: '首页待办与统计',
    });
    expect(add.code, add.msg).toBe(200);
    const dup = await call(s, admin, 'POST', '/dev-api/system/version', {
      appId: 'a',
      releaseTag: 'v2.0.5',
      userName: 'x',
      signTool: 'x',
      publishTime: now,
      domain: 'x',
      changedFiles: 1,
      log: 'x',
    });
    expect(dup.msg).toBe("新增'v2.0.5'失败，发布标签已存在");
    const info = await ok<{ lasttag: string; user: string; domainName: string; historylog: Array<{ tag: string; filenums: number }> }>(
      s,
      admin,
      'POST',
      '/dev-api/api/index/systermUpdateList',
    );
    expect(info).toMatchObject({ lasttag: 'v2.0.5', user: '张工', domainName: 'zy.example.com' });
    expect(info.historylog[0]).toMatchObject({ tag: 'v2.0.5', filenums: 42 });
    expect(info.historylog.map((h) => h.tag)).toContain('v2.0.4');
  });
});
