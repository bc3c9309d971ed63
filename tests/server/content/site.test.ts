import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, multipartFile, startServer, type TestServer } from '../harness.js';

/**
 * The screens added to close issue 9 (广告, 链接, 服务, 官网广告, 网点, 资料库, 中间栏, 新建页面) and what they feed on
 * /site/; the server-enforced singleton (关于我们); draft preview with a signed, short-lived token; and the remaining
 * bad inputs (each refused with a Chinese message, nothing written).
 */

const HOUR = 3600_000;

describe.each(backends)('content site and preview on %s', (backend) => {
  let s: TestServer;
  let operator: string;
  let expert: string;

  beforeAll(async () => {
    s = await startServer(backend);
    operator = await s.login('operator', 'operator123');
    expert = await s.login('expert', 'expert123');
  });
  afterAll(async () => {
    await s?.close();
  });

  const call = async (method: string, url: string, body?: unknown, token = operator) => (await s.call(method, url, { token, body })).body;
  const site = (url: string) => s.app.inject({ method: 'GET', url });
  const total = async (base: string) => Number((await call('GET', `${base}/list?pageSize=500`)).total);

  it('the new screens answer their seeded rows to the operator, and the public site shows the published ones', async () => {
    for (const base of [
      '/dev-api/operation/ad',
      '/dev-api/operation/href',
      '/dev-api/operation/serviceItem',
      '/dev-api/showManage/ad',
      '/dev-api/showManage/network',
      '/dev-api/showManage/library',
      '/dev-api/showManage/middle',
      '/dev-api/showManage/page',
    ]) {
      const list = await call('GET', `${base}/list`);
      expect(list.code, base).toBe(200);
      expect(Number(list.total), base).toBeGreaterThan(0);
    }
    const home = await site('/site/');
    expect(home.body).toContain('专家护航'); // 中间栏
    expect(home.body).toContain('data-ad='); // 官网广告, 首页中部横幅
    expect(home.body).toContain('阳光高考志愿填报入口'); // 链接
    const library = await site('/site/library');
    expect(library.body).toContain('志愿填报操作指南（图解版）');
    expect(library.body).not.toContain('近三年本科批录取位次汇总'); // not published
    const pdf = await site('/site/assets/library-1.pdf');
    expect(pdf.headers['content-type']).toContain('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const network = await site('/site/network');
    expect(network.body).toContain('青岛第二中学（合作学校）');
    expect(network.body).toMatch(/<h3>河南<\/h3>[\s\S]*<h3>山东<\/h3>/);
    const services = await site('/site/services');
    expect(services.body).toContain('¥2980.00 / 次');
    expect(services.body).not.toContain('志愿填报年度会员'); // not published
    for (const page of [home, library, network, services]) expect(page.body).not.toMatch(/<script/i);
  });

  it('新建页面: published at /site/page/<id>, a draft is 404 there, its rich text is sanitised', async () => {
    const made = await call('POST', '/dev-api/showManage/page', {
      title: '招生咨询会安排',
      status: '1',
      publishTime: Date.now() - HOUR,
      content: '<p>时间：7 月 1 日</p><img src="x" onerror="steal()"><script>alert(1)</script>',
    });
    expect(made.code, made.msg).toBe(200);
    const id = (made.data as { pageId: number }).pageId;
    const page = await site(`/site/page/${id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('招生咨询会安排');
    expect(page.body).not.toMatch(/<script|onerror|steal\(\)/);
    const draft = await call('POST', '/dev-api/showManage/page', { title: '未发布的页面', status: '0' });
    const draftId = (draft.data as { pageId: number }).pageId;
    const hidden = await site(`/site/page/${draftId}`);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.body).toContain('页面不存在或未发布');
  });

  it('draft preview: a signed-in operator gets a token for one row; the draft shows with it and nowhere else', async () => {
    const news = await call('POST', '/dev-api/operation/news', { title: '尚未发布的资讯草稿', category: '1', status: '0', content: '<p>草稿正文</p>' });
    const newsId = (news.data as { newsId: number }).newsId;
    expect((await site(`/site/news/${newsId}`)).statusCode).toBe(404);

    const granted = await call('POST', '/dev-api/site/preview', { schema: 'content_news', id: newsId });
    expect(granted.code, granted.msg).toBe(200);
    const { token, url } = granted.data as { token: string; url: string };
    expect(url).toBe(`/site/news/${newsId}?preview=${token}`);
    const preview = await site(url);
    expect(preview.statusCode).toBe(200);
    expect(preview.body).toContain('尚未发布的资讯草稿');
    expect(preview.body).toContain('预览：此内容可能尚未发布');
    expect(preview.headers['cache-control']).toBe('no-store');
    expect(preview.headers['x-robots-tag']).toBe('noindex');

    // The token opens that row only; a forged or altered token opens nothing; the list pages never show the draft.
    const other = await call('POST', '/dev-api/operation/news', { title: '另一篇草稿', category: '1', status: '0' });
    const otherId = (other.data as { newsId: number }).newsId;
    expect((await site(`/site/news/${otherId}?preview=${token}`)).statusCode).toBe(403);
    const [body, mac] = token.split('.');
    expect((await site(`/site/news/${newsId}?preview=${body}.${mac.slice(0, -2)}xx`)).statusCode).toBe(403);
    expect((await site(`/site/news/${newsId}?preview=garbage`)).statusCode).toBe(403);
    expect((await site('/site/news')).body).not.toContain('尚未发布的资讯草稿');

    // Not signed in, or without the entity's query permission: no token.
    expect((await s.call('POST', '/dev-api/site/preview', { body: { schema: 'content_news', id: newsId } })).body.code).toBe(401);
    expect((await call('POST', '/dev-api/site/preview', { schema: 'content_news', id: newsId }, expert)).code).toBe(403);
    expect((await call('POST', '/dev-api/site/preview', { schema: 'sys_user', id: 1 })).msg).toBe('该内容不支持预览');
    expect((await call('POST', '/dev-api/site/preview', { schema: 'content_news', id: 999999 })).msg).toBe('数据不存在或已被删除');
  });

  it('draft preview of a banner: the unpublished banner leads the home carousel with the token only', async () => {
    const made = await call('POST', '/appv2/api/ManagerBanner/saveBanner', { title: '预览专用轮播草稿', image: '/site/assets/banner-3.svg', status: '0' });
    const bannerId = (made.data as { bannerId: number }).bannerId;
    expect((await site('/site/')).body).not.toContain('预览专用轮播草稿');
    const { url } = (await call('POST', '/dev-api/site/preview', { schema: 'content_banner', id: bannerId })).data as { url: string };
    expect(url.startsWith('/site/?preview=')).toBe(true);
    const home = await site(url);
    expect(home.statusCode).toBe(200);
    expect(home.body).toMatch(/<section class="banners"[^>]*><a href="#" data-banner="\d+"><img src="\/site\/assets\/banner-3\.svg" alt="预览专用轮播草稿">/);
  });

  it('x-singleton on the server: a second 关于我们 is refused with a Chinese message and nothing is written; the list answers one', async () => {
    const before = await s.app.schemaEngine.env.k
      .selectFrom('site_about' as never)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    const second = await call('POST', '/dev-api/showManage/about', { title: '第二个关于我们' });
    expect(second).toMatchObject({ code: 500, msg: '关于我们只能有一条记录，请修改已有的记录' });
    const after = await s.app.schemaEngine.env.k
      .selectFrom('site_about' as never)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    expect(Number(after?.n)).toBe(Number(before?.n));
    const list = await call('GET', '/dev-api/showManage/about/list?pageNum=1&pageSize=10');
    expect(list.total).toBe(1);
    expect((list.rows as Array<{ title: string }>)[0].title).toMatch(/^关于我们/);
  });

  it('an image upload that is not an image is refused with a Chinese message and stores no file', async () => {
    const uploads = path.join(s.app.config.dataDir, 'uploads');
    const files = () =>
      fs.existsSync(uploads) ? fs.readdirSync(uploads, { recursive: true }).filter((f) => fs.statSync(path.join(uploads, String(f))).isFile()).length : 0;
    const before = files();
    const form = await multipartFile('file', 'ad.png', 'image/png', Buffer.from('MZ\u0090\u0000 not an image at all'));
    const res = await s.call('POST', '/dev-api/common/upload', { token: operator, body: form.body, headers: form.headers });
    expect(res.body.code).toBe(500);
    expect(res.body.msg).toContain('文件格式不正确');
    expect(files()).toBe(before);
  });

  it('bad inputs on the new screens: not-http links, a schedule ending before it starts, a bad colour — refused, nothing written', async () => {
    const hrefs = await total('/dev-api/operation/href');
    const bad = await call('POST', '/dev-api/operation/href', { name: '坏链接', url: 'javascript:alert(1)' });
    expect(bad).toMatchObject({ code: 400, msg: '链接地址必须是以 http:// 或 https:// 开头的链接' });
    const ftp = await call('POST', '/dev-api/operation/href', { name: 'FTP 链接', url: 'ftp://example.com/a' });
    expect(ftp.code).toBe(400);
    expect(await total('/dev-api/operation/href')).toBe(hrefs);

    const ads = await total('/dev-api/showManage/ad');
    const now = Date.now();
    const late = await call('POST', '/dev-api/showManage/ad', { title: '倒排期广告', image: '/site/assets/ad-1.svg', startTime: now + HOUR, endTime: now });
    expect(late).toMatchObject({ code: 500, msg: '结束时间不能早于开始时间' });
    const appAd = await call('POST', '/dev-api/operation/ad', { title: '倒排期', image: '/site/assets/ad-2.svg', startTime: now + HOUR, endTime: now });
    expect(appAd).toMatchObject({ code: 500, msg: '结束时间不能早于开始时间' });
    expect(await total('/dev-api/showManage/ad')).toBe(ads);

    const middles = await total('/dev-api/showManage/middle');
    const colour = await call('POST', '/dev-api/showManage/middle', { title: '坏颜色', color: 'red;background:url(x)' });
    expect(colour.code).toBe(400);
    expect(colour.msg).toContain('底色');
    expect(await total('/dev-api/showManage/middle')).toBe(middles);

    const docs = await total('/dev-api/showManage/library');
    const noFile = await call('POST', '/dev-api/showManage/library', { title: '没有文件的资料' });
    expect(noFile).toMatchObject({ code: 400, msg: '资料文件不能为空' });
    expect(await total('/dev-api/showManage/library')).toBe(docs);
  });
});
