import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actorOf } from '../../../server/security/actor.js';
import { latestGallery, latestResources, recommendedApps } from '../../../server/service/tabs.js';
import { pendingWorkOrderCount } from '../../../server/service/workOrders.js';
import { call, staff } from '../customer/helpers.js';
import { backends, startServer, type TestServer } from '../harness.js';

/**
 * 服务中心 beyond work orders: the seeded shelf, countApp, counted and confined downloads, the generated school poster,
 * help reading, the public app detail and the readers the home page uses.
 */

describe.each(backends)('服务中心 (%s)', (backend) => {
  let s: TestServer;
  let admin: string;
  let store2: string;
  const db = () => s.app.db.kysely;

  beforeAll(async () => {
    s = await startServer(backend);
    admin = await s.login('admin', 'admin123');
    store2 = await staff(s, 'svc_store2', 2);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('seeds a shelf that looks real, listed through the spec calls', async () => {
    const apps = await call<never>(s, admin, 'POST', '/dev-api/api/ManagerAppStore/managerAppList', { pageNum: 1, pageSize: 20 });
    expect(apps.code).toBe(200);
    expect(apps.total).toBe(6);
    expect((apps.rows as Array<{ appName: string; icon: string }>)[0]).toMatchObject({ appName: '智能志愿填报', icon: '/service/assets/app-filling.svg' });
    for (const url of ['/dev-api/api/Help/list', '/dev-api/api/MarketingGallery/list', '/dev-api/api/ManagerResource/list']) {
      const res = await call<never>(s, store2, 'POST', url, { pageNum: 1, pageSize: 20 });
      expect(res.code, url).toBe(200);
      expect(res.total, url).toBeGreaterThanOrEqual(4);
    }
    // The help list searches by keywords.
    const found = await call<never>(s, store2, 'POST', '/dev-api/api/Help/list', { pageNum: 1, pageSize: 20, keywords: '退款' });
    expect((found.rows as Array<{ title: string }>).map((r) => r.title)).toEqual(['会员卡退款怎么申请']);
    // The built-in images are served (not API routes: an <img> loads them), nothing outside their folder.
    const icon = await s.call('GET', '/service/assets/app-filling.svg', { sign: false });
    expect(icon.status).toBe(200);
    expect(String(icon.headers['content-type'])).toContain('image/svg+xml');
    expect((await s.call('GET', '/service/assets/..%2Fposter.ts', { sign: false })).status).toBe(404);
  });

  it('countApp counts the shelf and one install; the public detail needs no sign-in; a store cannot edit the shelf', async () => {
    const counts = await call<{ total: number; categories: Record<string, number> }>(s, store2, 'POST', '/dev-api/api/ManagerAppStore/countApp', {});
    expect(counts.data).toEqual({ total: 6, categories: { '1': 2, '2': 1, '3': 2, '4': 1 } });
    const one = await call<{ installCount: number }>(s, store2, 'POST', '/dev-api/api/ManagerAppStore/countApp', { appId: 1 });
    // The same count again at once is a double click (a declared write: the duplicate-submit window), not a second install.
    const two = await call<{ installCount: number }>(s, store2, 'POST', '/dev-api/api/ManagerAppStore/countApp', { appId: 1 });
    expect(two.msg).toBe('数据正在处理，请勿重复提交');
    const stored = await sql<{ n: number }>`select install_count as n from service_app where app_id = 1`.execute(db());
    expect(Number(stored.rows[0]?.n)).toBe(one.data?.installCount);
    expect((await call(s, store2, 'POST', '/dev-api/api/ManagerAppStore/countApp', { appId: 999 })).msg).toBe('应用不存在或已下架');
    const pub = await s.call<{ appName: string }>('GET', '/appv2/api/public/app/1');
    expect(pub.body.code).toBe(200);
    expect(pub.body.data?.appName).toBe('智能志愿填报');
    expect(
      (await s.call('POST', '/dev-api/api/ManagerAppStore/saveApp', { token: store2, body: { appName: 'x', category: '1', summary: 'x' } })).body.code,
    ).toBe(403);
  });

  it('downloads a resource and a gallery material, counting each; an address outside their folders is refused', async () => {
    const res = await s.call('POST', '/dev-api/api/ManagerResource/download', { token: store2, body: { resourceId: 1 } });
    expect(res.status).toBe(200);
    expect(res.rawBuffer.subarray(0, 5).toString()).toBe('%PDF-');
    expect(decodeURIComponent(String(res.headers['download-filename']))).toBe('2026年志愿填报服务手册.pdf');
    const count = await sql<{ n: number }>`select download_count as n from service_resource where resource_id = 1`.execute(db());
    expect(Number(count.rows[0].n)).toBe(1);

    const img = await s.call('POST', '/dev-api/api/MarketingGallery/download', { token: store2, body: { galleryId: 1 } });
    expect(img.status).toBe(200);
    expect(img.raw).toContain('<svg');

    // A resource pointing outside its folder (written past the form) answers 文件不存在 and counts nothing.
    for (const file of ['builtin:../routes.ts', '/profile/../../etc/passwd', '/etc/passwd', 'builtin:volunteer-guide-2026.pdf/..']) {
      await sql`update service_resource set file = ${file}, download_count = 0 where resource_id = 2`.execute(db());
      const bad = await call(s, store2, 'POST', '/dev-api/api/ManagerResource/download', { resourceId: 2 });
      expect(bad.msg, file).toBe('文件不存在或已被删除');
    }
    const after = await sql<{ n: number }>`select download_count as n from service_resource where resource_id = 2`.execute(db());
    expect(Number(after.rows[0].n)).toBe(0);
  });

  it('draws a school poster from our admission data as PNG', async () => {
    const schools = await call<Array<{ schoolId: number; name: string }>>(s, store2, 'GET', '/dev-api/api/MarketingGallery/schools', { keyword: '山东大学' });
    const school = schools.data?.find((x) => x.name === '山东大学') ?? schools.data?.[0];
    expect(school).toBeTruthy();
    const res = await s.call('POST', '/dev-api/api/MarketingGallery/poster', { token: store2, body: { schoolId: school?.schoolId } });
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toBe('image/png');
    expect(res.rawBuffer.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
    expect(res.rawBuffer.readUInt32BE(16)).toBe(750); // IHDR width
    expect((await call(s, store2, 'POST', '/dev-api/api/MarketingGallery/poster', { schoolId: 99999999 })).msg).toBe('院校不存在');
  });

  it('reading a help article counts one view; the home page readers and the to-do count answer', async () => {
    const a = await call<{ viewCount: number; content: string }>(s, store2, 'GET', '/dev-api/api/Help/read', { helpId: 3 });
    expect(a.code).toBe(200);
    expect(a.data?.viewCount).toBe(1);
    expect(a.data?.content).toContain('未使用');

    expect((await recommendedApps(db(), 3)).map((x) => x.appName)).toEqual(['智能志愿填报', '职业兴趣测评', '位次换算']);
    expect(await latestResources(db(), 2)).toHaveLength(2);
    expect((await latestGallery(db(), 10)).length).toBe(7);

    const hq = await actorOf(db(), { userId: 1, userName: 'admin', roles: ['admin'] } as never);
    const store = { ...hq, userId: 0, roles: [], storeId: 2, allStores: false };
    const before = { hq: await pendingWorkOrderCount(db(), hq), store: await pendingWorkOrderCount(db(), store) };
    const res = await call(s, store2, 'POST', '/dev-api/api/WorkOrder/saveWorkOrder', { form: 'feedback', reason: '首页待办计数' });
    expect(res.code, res.msg).toBe(200);
    expect(await pendingWorkOrderCount(db(), hq)).toBe(before.hq + 1);
    expect(await pendingWorkOrderCount(db(), store)).toBe(before.store + 1);
    expect(await pendingWorkOrderCount(db(), { ...store, storeId: 3 })).toBe(0);
    const listed = await call<never>(s, admin, 'GET', '/dev-api/api/WorkOrder/list', { status: 0 });
    expect(listed.total).toBe(before.hq + 1);
  });
});
