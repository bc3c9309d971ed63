import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startServer, type TestServer } from '../harness.js';

/**
 * 直播 (docs/content.md "直播"): every reader shows the status derived from the times — ManagerLive/list, the public
 * live API, the 首页 直播 tab and /site/live/<channel> — and the page plays the pull address with hls.js under a CSP
 * that lets that stream's origin in and nothing more.
 */

const LIVE = '/appv2/api/ManagerLive';
const HOUR = 3600_000;
const CDN = 'https://cdn.example.com';

describe.each(backends)('live broadcasts on %s', (backend) => {
  let s: TestServer;
  let operator: string;
  let n = 0;

  beforeAll(async () => {
    s = await startServer(backend);
    operator = await s.login('operator', 'operator123');
  });
  afterAll(async () => {
    await s?.close();
  });

  const post = async (url: string, body: unknown) => (await s.call('POST', url, { token: operator, body })).body;
  const site = (url: string) => s.app.inject({ method: 'GET', url });
  /** A published channel with a fresh channel id. */
  const channel = async (fields: Record<string, unknown>) => {
    const channelId = `t${Date.now() % 1_000_000}-${++n}`;
    const made = await post(`${LIVE}/save`, { title: `测试直播 ${channelId}`, channelId, published: '1', poster: '/site/assets/live-1.svg', ...fields });
    expect(made.code, made.msg).toBe(200);
    return { channelId, liveId: (made.data as { liveId: number }).liveId };
  };
  const listRow = async (liveId: number) =>
    ((await post(`${LIVE}/list`, { pageSize: 500 })).rows as Array<Record<string, unknown>>).find((r) => r.liveId === liveId);

  it('the seeded 预告 of 2026-06-09 reads 已结束 in every reader; the edit form keeps the stored hand', async () => {
    const seeded = ((await post(`${LIVE}/list`, { channelId: 'gk2026-01' })).rows as Array<Record<string, unknown>>)[0];
    expect(seeded).toMatchObject({ liveStatus: '2', liveStatusText: '已结束' });
    expect(((await post(`${LIVE}/info`, { liveId: seeded.liveId })).data as Record<string, unknown>).liveStatus).toBe('0');
    const pub = (await s.call('GET', '/appv2/api/public/live/list')).body.rows as Array<Record<string, unknown>>;
    expect(pub.find((r) => r.channelId === 'gk2026-01')?.liveStatus).toBe('2');
    const tab = (await s.call('POST', '/dev-api/api/index/tabList', { token: operator, body: { tab: 'live' } })).body.data as {
      rows: Array<Record<string, unknown>>;
    };
    expect(tab.rows.find((r) => r.liveId === seeded.liveId)).toMatchObject({ liveStatus: '2', liveStatusText: '已结束' });
    const page = await site('/site/live/gk2026-01');
    expect(page.body).toMatch(/data-live-status>已结束</);
    expect(page.body).toContain('直播已结束');
    expect(page.body).not.toContain('预告');
  });

  it('预告: the poster and the start time, no player; within a day of the start a timer reloads the page then', async () => {
    const far = await channel({ startTime: Date.now() + 25 * HOUR, pullUrl: `${CDN}/live/a.m3u8` });
    const farPage = await site(`/site/live/${far.channelId}`);
    expect(farPage.body).toContain('直播尚未开始，开始时间：');
    expect(farPage.body).not.toMatch(/<video|<script|data-live-starts-in/i);
    const start = Date.now() + 2 * HOUR;
    const { channelId, liveId } = await channel({ startTime: start, pullUrl: `${CDN}/live/a.m3u8` });
    expect(await listRow(liveId)).toMatchObject({ liveStatus: '0', liveStatusText: '预告' });
    const page = await site(`/site/live/${channelId}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/data-live-status>预告</);
    expect(page.body).toContain('直播尚未开始，开始时间：');
    expect(page.body).toContain('src="/site/assets/live-1.svg"');
    expect(page.body).not.toMatch(/<video|hls\.light/i);
    const seconds = Number(/data-live-starts-in="(\d+)"/.exec(page.body)?.[1]);
    expect(seconds).toBeGreaterThan(2 * 3600 - 60);
    expect(seconds).toBeLessThanOrEqual(2 * 3600);
    expect(page.body).toMatch(/<script src="\/site\/assets\/live-player\.js\?v=[\d.]+" defer><\/script>/);
    expect(page.headers['content-security-policy']).not.toContain(CDN);
  });

  it('直播中: the pull address plays with hls.js, and the page CSP lets in that origin only', async () => {
    const { channelId, liveId } = await channel({ startTime: Date.now() - HOUR, endTime: Date.now() + HOUR, pullUrl: `${CDN}/live/a.m3u8?auth=1&x=2` });
    expect(await listRow(liveId)).toMatchObject({ liveStatus: '1', liveStatusText: '直播中' });
    const page = await site(`/site/live/${channelId}`);
    expect(page.body).toMatch(/data-live-status>直播中</);
    expect(page.body).toContain(
      `<video data-live-src="${CDN}/live/a.m3u8?auth=1&amp;x=2" data-live-kind="live" controls playsinline preload="none" autoplay muted`,
    );
    expect(page.body).toMatch(/<script src="\/site\/assets\/hls\.light\.min\.js\?v=[\d.]+" defer><\/script><script src="\/site\/assets\/live-player\.js/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toMatch(new RegExp(`connect-src 'self' ${CDN}(;|$)`));
    expect(csp).toMatch(new RegExp(`media-src 'self' blob: https: ${CDN}(;|$)`));
    expect(csp).toContain("script-src 'self' 'unsafe-eval'"); // unchanged: no inline script, no CDN
    // Every other page keeps the console's CSP.
    expect(String((await site('/site/news')).headers['content-security-policy'])).toContain("connect-src 'self';");
    for (const [asset, text] of [
      ['/site/assets/hls.light.min.js', 'isSupported'],
      ['/site/assets/live-player.js', 'data-live-src'],
    ]) {
      const res = await site(asset);
      expect(res.statusCode, asset).toBe(200);
      expect(res.headers['content-type']).toContain('text/javascript');
      expect(res.body).toContain(text);
    }
  });

  it('已结束 reads 回放 with a replay address; 手动结束 and 提前开播 move it forward', async () => {
    const ended = await channel({
      startTime: Date.now() - 5 * HOUR,
      endTime: Date.now() - 3 * HOUR,
      pullUrl: `${CDN}/live/b.m3u8`,
      replayUrl: `${CDN}/replay/b.mp4`,
    });
    expect(await listRow(ended.liveId)).toMatchObject({ liveStatus: '2', liveStatusText: '回放' });
    const replay = await site(`/site/live/${ended.channelId}`);
    expect(replay.body).toMatch(/data-live-status>回放</);
    expect(replay.body).toContain(`<video data-live-src="${CDN}/replay/b.mp4" data-live-kind="replay"`);
    expect(replay.body).not.toContain('autoplay');

    const stopped = await channel({ startTime: Date.now() - HOUR, endTime: Date.now() + HOUR, liveStatus: '2', pullUrl: `${CDN}/live/c.m3u8` });
    expect(await listRow(stopped.liveId)).toMatchObject({ liveStatus: '2', liveStatusText: '已结束' });
    expect((await site(`/site/live/${stopped.channelId}`)).body).not.toContain('<video');

    const early = await channel({ startTime: Date.now() + HOUR, liveStatus: '1', pullUrl: `${CDN}/live/d.m3u8` });
    expect(await listRow(early.liveId)).toMatchObject({ liveStatus: '1', liveStatusText: '直播中' });
    expect((await site(`/site/live/${early.channelId}`)).body).toContain('<video data-live-src');
  });

  it('a pull address that is not http(s) is refused on save with a Chinese message, and nothing is written', async () => {
    const before = Number((await post(`${LIVE}/list`, { pageSize: 1 })).total);
    for (const pullUrl of ['javascript:alert(1)', 'rtmp://cdn.example.com/live/a']) {
      const bad = await post(`${LIVE}/save`, { title: '坏地址', channelId: `bad${++n}`, pullUrl, startTime: Date.now() - HOUR });
      expect(bad.code, pullUrl).toBe(400);
      expect(bad.msg).toBe('播放地址必须是以 http:// 或 https:// 开头的链接');
    }
    const badReplay = await post(`${LIVE}/save`, { title: '坏回放', channelId: `bad${++n}`, replayUrl: 'data:video/mp4;base64,AAAA' });
    expect(badReplay.msg).toBe('回放地址必须是以 http:// 或 https:// 开头的链接');
    expect(Number((await post(`${LIVE}/list`, { pageSize: 1 })).total)).toBe(before);
  });

  it('an unpublished channel: 404 on the site, plays with a preview token (also as the console embed), 403 with another row’s token', async () => {
    const { channelId, liveId } = await channel({ published: '0', startTime: Date.now() - HOUR, pullUrl: `${CDN}/live/e.m3u8` });
    expect((await site(`/site/live/${channelId}`)).statusCode).toBe(404);
    const preview = await post('/dev-api/site/preview', { schema: 'live_broadcast', id: liveId });
    expect(preview.code, preview.msg).toBe(200);
    const url = (preview.data as { url: string }).url;
    expect(url).toMatch(new RegExp(`^/site/live/${channelId}\\?preview=`));
    const page = await site(url);
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('data-preview');
    expect(page.body).toContain(`data-live-src="${CDN}/live/e.m3u8"`);
    const embed = await site(`${url}&embed=1`);
    expect(embed.body).toMatch(/<body data-live-status="直播中"><video data-live-src/);
    expect(embed.body).not.toContain('<header>');
    const other = await channel({ published: '0', startTime: Date.now() - HOUR });
    expect((await site(`/site/live/${other.channelId}?preview=${url.split('preview=')[1]}`)).statusCode).toBe(403);
  });
});
