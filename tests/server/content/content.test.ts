import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSchemas, DEFAULT_SCHEMAS_DIR } from '../../../server/engine/metaSchema.js';
import { backends, multipartFile, startServer, type TestServer } from '../harness.js';

/**
 * The content module (docs/content.md): 运营管理 / 官网管理 / 直播管理 on the schema engine, publishing with schedules,
 * drag-to-sort, the /appv2 public read API, the server-rendered /site/, the tus video upload and 意见反馈 replies.
 */

const BANNER = '/appv2/api/ManagerBanner';
const PUBLIC_BANNERS = '/appv2/api/public/banner/list';
const HOUR = 3600_000;

interface RouterItem {
  path: string;
  component: string;
  meta?: { title?: string };
  children?: RouterItem[];
}

describe.each(backends)('content module on %s', (backend) => {
  let s: TestServer;
  let operator: string;
  let admin: string;

  beforeAll(async () => {
    s = await startServer(backend);
    operator = await s.login('operator', 'operator123');
    admin = await s.login('admin', 'admin123');
  });
  afterAll(async () => {
    await s?.close();
  });

  const post = async (url: string, body: unknown, token = operator) => (await s.call('POST', url, { token, body })).body;
  const publicBanners = async () => ((await s.call('GET', PUBLIC_BANNERS)).body.rows ?? []) as Array<{ bannerId: number; title: string }>;
  const bannerCount = async () => Number((await post(`${BANNER}/list`, { pageSize: 500 })).total);

  it('operator: every page under 运营管理, 官网管理 and 直播管理 opens a schema screen (no 建设中)', async () => {
    const res = await s.call('POST', '/dev-api/api/auth/getRuleList', { token: operator });
    const routers = res.body.data as RouterItem[];
    const components = new Set(checkSchemas(DEFAULT_SCHEMAS_DIR).schemas.map((l) => l.schema['x-menu']?.component));
    const pages: string[] = [];
    for (const dir of routers.filter((r) => ['/operation', '/showManage', '/liveBroadcast'].includes(r.path))) {
      for (const p of dir.children ?? []) {
        pages.push(p.component);
        expect(components.has(p.component), `${p.meta?.title} (${p.component})`).toBe(true);
      }
    }
    expect(pages.length).toBe(30);
    expect(res.body.permissions).toEqual(
      expect.arrayContaining(['operation:banner:import', 'operation:banner:export', 'show:about:edit', 'live:broadcast:add']),
    );
  });

  it('a schedule that ends before it starts, a javascript: link and a missing image are refused; nothing is written', async () => {
    const before = await bannerCount();
    const now = Date.now();
    const late = await post(`${BANNER}/saveBanner`, { title: '倒排期', image: '/site/assets/banner-1.svg', startTime: now + HOUR, endTime: now });
    expect(late).toMatchObject({ code: 500, msg: '结束时间不能早于开始时间' });
    const js = await post(`${BANNER}/saveBanner`, { title: '坏链接', image: '/site/assets/banner-1.svg', link: 'javascript:alert(1)' });
    expect(js).toMatchObject({ code: 400, msg: '跳转链接必须是以 http:// 或 https:// 开头的链接' });
    const noImage = await post(`${BANNER}/saveBanner`, { title: '没有图' });
    expect(noImage).toMatchObject({ code: 400, msg: '图片不能为空' });
    expect(await bannerCount()).toBe(before);
  });

  it('an upload that is not an image is refused with a Chinese message', async () => {
    const form = await multipartFile('file', 'banner.png', 'image/png', Buffer.from('<script>alert(1)</script>'));
    const res = await s.call('POST', '/dev-api/common/upload', { token: operator, body: form.body, headers: form.headers });
    expect(res.body).toMatchObject({ code: 500 });
    expect(res.body.msg).toContain('文件格式不正确');
  });

  it('publish → on /appv2 and /site/; unpublish → gone; out of schedule → not public', async () => {
    const now = Date.now();
    const made = await post(`${BANNER}/saveBanner`, {
      title: '测试发布轮播',
      image: '/site/assets/banner-2.svg',
      link: 'https://www.example.com/a',
      position: '1',
      status: '1',
      startTime: now - HOUR,
      endTime: now + HOUR,
    });
    expect(made.code).toBe(200);
    const { bannerId, version } = made.data as { bannerId: number; version: number };
    expect((await publicBanners()).map((b) => b.title)).toContain('测试发布轮播');
    const site = await s.app.inject({ method: 'GET', url: '/site/' });
    expect(site.statusCode).toBe(200);
    expect(site.headers['content-type']).toContain('text/html');
    expect(site.body).toContain('测试发布轮播');
    expect(site.body).not.toMatch(/<script/i);

    const off = await post(`${BANNER}/changeBanner`, { bannerId, version, status: '0' });
    expect(off.code).toBe(200);
    expect((await publicBanners()).map((b) => b.title)).not.toContain('测试发布轮播');
    expect((await s.app.inject({ method: 'GET', url: '/site/' })).body).not.toContain('测试发布轮播');

    // Published but its schedule is over: still not public. A change of only the end is checked against the stored start.
    const v2 = (off.data as { version: number }).version;
    const expired = await post(`${BANNER}/changeBanner`, { bannerId, version: v2, status: '1', endTime: now - 2 * HOUR });
    expect(expired).toMatchObject({ code: 500, msg: '结束时间不能早于开始时间' });
    const past = await post(`${BANNER}/changeBanner`, { bannerId, version: v2, status: '1', startTime: now - 3 * HOUR, endTime: now - 2 * HOUR });
    expect(past.code).toBe(200);
    expect((await publicBanners()).map((b) => b.title)).not.toContain('测试发布轮播');
    // The public answer carries only the declared fields.
    const one = (await publicBanners())[0] as Record<string, unknown>;
    expect(Object.keys(one).sort()).toEqual(['bannerId', 'endTime', 'image', 'link', 'position', 'sort', 'startTime', 'title']);
  });

  it('drag-to-sort: reorder sets the sort order, the list and the public API follow it', async () => {
    const list = await post(`${BANNER}/list`, { pageSize: 500 });
    const ids = (list.rows as Array<{ bannerId: number }>).map((r) => r.bannerId);
    const reversed = [...ids].reverse();
    const res = await post(`${BANNER}/reorder`, { ids: reversed });
    expect(res).toMatchObject({ code: 200, msg: '排序成功' });
    const after = await post(`${BANNER}/list`, { pageSize: 500 });
    expect((after.rows as Array<{ bannerId: number; sort: number }>).map((r) => r.bannerId)).toEqual(reversed);
    expect((await post(`${BANNER}/reorder`, { ids: [...reversed, 999999] })).code).toBe(500);
    const expert = await s.login('expert', 'expert123');
    expect((await post(`${BANNER}/reorder`, { ids }, expert)).code).toBe(403);
  });

  it('rich text with script is sanitised; the article shows on /site/news/<id> once published', async () => {
    const res = await s.call('POST', '/dev-api/operation/news', {
      token: operator,
      body: {
        title: '脚本测试资讯',
        category: '1',
        status: '1',
        publishTime: Date.now() - HOUR,
        content: '<p onclick="x()">正文</p><script>alert(1)</script><a href="javascript:alert(1)">链接</a>',
      },
    });
    expect(res.body.code).toBe(200);
    const id = (res.body.data as { newsId: number }).newsId;
    const stored = (await s.call('GET', `/dev-api/operation/news/${id}`, { token: operator })).body.data as { content: string };
    expect(stored.content).toContain('<p>正文</p>');
    expect(stored.content).not.toMatch(/script|onclick|javascript:/i);
    const page = await s.app.inject({ method: 'GET', url: `/site/news/${id}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('脚本测试资讯');
    expect((await s.app.inject({ method: 'GET', url: '/site/news/999999' })).statusCode).toBe(404);
  });

  it('the public site pages answer HTML without scripts', async () => {
    for (const url of [
      '/site/',
      '/site/news',
      '/site/classroom',
      '/site/classroom/1',
      '/site/about',
      '/site/privacy',
      '/site/agreement/1',
      '/site/links',
      '/site/sites',
      '/site/live/gk2026-01',
    ]) {
      const res = await s.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).not.toMatch(/<script/i);
    }
    const asset = await s.app.inject({ method: 'GET', url: '/site/assets/banner-1.svg' });
    expect(asset.headers['content-type']).toContain('image/svg+xml');
    expect((await s.app.inject({ method: 'GET', url: '/site/assets/..%2f..%2fpackage.json' })).statusCode).toBe(404);
  });

  it('意见反馈: a reply is stamped and unread for the submitter until they read it', async () => {
    const made = await s.call('POST', '/dev-api/operation/feedback', { token: admin, body: { userName: 'admin', content: '导出按钮太小了' } });
    const id = (made.body.data as { feedbackId: number }).feedbackId;
    const row = (await s.call('GET', `/dev-api/operation/feedback/${id}`, { token: operator })).body.data as Record<string, unknown>;
    const saved = await s.call('PUT', '/dev-api/operation/feedback', { token: operator, body: { ...row, reply: '已调大，感谢反馈' } });
    expect(saved.body.code).toBe(200);
    const replied = (await s.call('GET', `/dev-api/operation/feedback/${id}`, { token: operator })).body.data as Record<string, unknown>;
    expect(replied).toMatchObject({ reply: '已调大，感谢反馈', readStatus: '0' });
    expect(replied.replyTime).toBeGreaterThan(0);
    const mine = (await s.call('GET', '/appv2/api/feedback/mine', { token: admin })).body.rows as Array<Record<string, unknown>>;
    expect(mine.find((f) => f.feedbackId === id)).toMatchObject({ reply: '已调大，感谢反馈', readStatus: '0' });
    expect((await s.call('POST', '/appv2/api/feedback/read', { token: admin, body: { feedbackId: id } })).body.code).toBe(200);
    expect(((await s.call('GET', `/dev-api/operation/feedback/${id}`, { token: operator })).body.data as Record<string, unknown>).readStatus).toBe('1');
    // Someone else cannot mark it read.
    expect((await s.call('POST', '/appv2/api/feedback/read', { token: operator, body: { feedbackId: id } })).body.code).toBe(500);
  });

  describe('video upload (tus)', () => {
    const TUS = '/appv2/api/ManagerClassroom/videoUpload';
    const mp4 = (size: number) => {
      const b = Buffer.alloc(size, 7);
      b.write('\u0000\u0000\u0000\u0018ftypmp42', 0, 'latin1');
      return b;
    };
    const meta = (name: string, type: string) => `filename ${Buffer.from(name).toString('base64')},filetype ${Buffer.from(type).toString('base64')}`;
    const tusHeaders = (extra: Record<string, string> = {}) => ({ 'tus-resumable': '1.0.0', ...extra });

    it('uploads in two chunks, resumes from the offset the server reports, and plays back with range requests', async () => {
      const file = mp4(300_000);
      const created = await s.call('POST', TUS, {
        token: operator,
        headers: tusHeaders({ 'upload-length': String(file.length), 'upload-metadata': meta('课程.mp4', 'video/mp4') }),
      });
      expect(created.status).toBe(201);
      const location = String(created.headers.location);
      const url = location.startsWith('http') ? new URL(location).pathname : location;
      const first = await s.call('PATCH', url, {
        token: operator,
        body: file.subarray(0, 100_000),
        headers: tusHeaders({ 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }),
      });
      expect(first.status).toBe(204);
      // The connection dropped: ask where to go on.
      const head = await s.call('HEAD', url, { token: operator, headers: tusHeaders() });
      expect(head.headers['upload-offset']).toBe('100000');
      const rest = await s.call('PATCH', url, {
        token: operator,
        body: file.subarray(100_000),
        headers: tusHeaders({ 'upload-offset': '100000', 'content-type': 'application/offset+octet-stream' }),
      });
      expect([200, 204]).toContain(rest.status);
      const videoUrl = String(rest.headers['x-video-url']);
      expect(videoUrl).toMatch(/^\/profile\/video\/\d{4}\/\d{2}\/\d{2}\/[0-9a-f]{32}\.mp4$/);
      const range = await s.app.inject({ method: 'GET', url: videoUrl, headers: { range: 'bytes=1000-1999' } });
      expect(range.statusCode).toBe(206);
      expect(range.rawPayload.length).toBe(1000);
      expect(range.headers['content-range']).toBe(`bytes 1000-1999/${file.length}`);
    });

    it('refuses a video over the cap, a file that is not a video, and callers without the permission', async () => {
      const big = await s.call('POST', TUS, {
        token: operator,
        headers: tusHeaders({ 'upload-length': String(3 * 1024 ** 3), 'upload-metadata': meta('大.mp4', 'video/mp4') }),
      });
      expect(big.status).toBe(413);
      expect(big.raw).toContain('视频大小不能超过 2048 MB');
      const text = await s.call('POST', TUS, {
        token: operator,
        headers: tusHeaders({ 'upload-length': '10', 'upload-metadata': meta('a.txt', 'text/plain') }),
      });
      expect(text.status).toBe(400);
      expect(text.raw).toContain('请上传 MP4 / WebM / Ogg 视频');
      // Named .mp4 but its bytes are not a video: refused when it is complete.
      const fake = Buffer.from('this is not a video at all');
      const made = await s.call('POST', TUS, {
        token: operator,
        headers: tusHeaders({ 'upload-length': String(fake.length), 'upload-metadata': meta('假.mp4', 'video/mp4') }),
      });
      const loc = String(made.headers.location);
      const url = loc.startsWith('http') ? new URL(loc).pathname : loc;
      const done = await s.call('PATCH', url, {
        token: operator,
        body: fake,
        headers: tusHeaders({ 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }),
      });
      expect(done.status).toBe(400);
      expect(done.raw).toContain('文件内容不是有效的视频');
      const expert = await s.login('expert', 'expert123');
      const denied = await s.call('POST', TUS, {
        token: expert,
        headers: tusHeaders({ 'upload-length': '10', 'upload-metadata': meta('a.mp4', 'video/mp4') }),
      });
      expect(denied.body.code).toBe(403);
    });
  });
});
