import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../processes.js';
import { api, apiLogin } from './api';
import { launchBrowser, newPage, rowAction, screenshotDir, signIn } from './browser';

/**
 * 直播 in Chromium against the real server (docs/content.md "直播"): a channel whose pull address is a real HLS stream
 * (tests/fixtures/hls, H.264 + AAC, served by a small HTTP server of this test on another origin, as a CDN would be)
 * plays on /site/live/<channel> through hls.js under the page's CSP; a dead address says 网络错误; the console's
 * 直播列表 shows the status derived from the times and its 预览 plays the same stream.
 */

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/hls');
const TYPES: Record<string, string> = { '.m3u8': 'application/vnd.apple.mpegurl', '.m2ts': 'video/mp2t' };

describe('live broadcast playback in Chromium', () => {
  let browser: Browser;
  let token: string;
  let cdn: http.Server;
  let cdnBase: string;
  const fetched: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    token = await apiLogin('operator', 'operator123');
    // The stream's own server, on another origin: it answers CORS as a CDN serving HLS does.
    cdn = http.createServer((req, res) => {
      const name = path.basename(new URL(req.url ?? '/', 'http://x').pathname);
      const file = path.join(FIXTURE, name);
      res.setHeader('access-control-allow-origin', '*');
      if (!TYPES[path.extname(name)] || !fs.existsSync(file)) {
        res.writeHead(404).end();
        return;
      }
      fetched.push(name);
      res.writeHead(200, { 'content-type': TYPES[path.extname(name)] }).end(fs.readFileSync(file));
    });
    const port = await freePort();
    await new Promise<void>((resolve) => cdn.listen(port, '127.0.0.1', resolve));
    cdnBase = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => cdn?.close(resolve));
  });

  const channel = async (pullUrl: string, startTime = Date.now() - 10 * 60_000) => {
    const channelId = `e2e${Date.now() % 1_000_000}${Math.floor(Math.random() * 100)}`;
    const made = await api<{ liveId: number }>('POST', '/appv2/api/ManagerLive/save', {
      token,
      body: {
        title: `端到端直播 ${channelId}`,
        channelId,
        anchor: '测试老师',
        poster: '/site/assets/live-1.svg',
        startTime,
        endTime: startTime + 70 * 60_000,
        liveStatus: '0', // the stored 预告 does not hold it back: it is 直播中 by its times
        pullUrl,
        intro: '端到端测试的直播。',
        published: '1',
      },
    });
    expect(made.msg).toBe('新增成功');
    return channelId;
  };
  /** Waits until the video has decoded frames and its clock has moved: it really plays. */
  const playing = (target: Page | Frame) =>
    target.waitForFunction(
      () => {
        const v = document.querySelector('video[data-live-src]') as HTMLVideoElement | null;
        return Boolean(v && v.readyState >= 2 && v.currentTime > 0.5 && !v.getAttribute('data-live-error'));
      },
      undefined,
      { timeout: 30000 },
    );

  it('a channel with an HLS address plays on /site/live/<channel> through hls.js', async () => {
    const channelId = await channel(`${cdnBase}/index.m3u8`);
    const page = await newPage(browser, 1280, 860);
    const blocked: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) blocked.push(m.text());
    });
    await page.goto(`/site/live/${channelId}`);
    await expect(page.locator('[data-live-status]').textContent()).resolves.toBe('直播中');
    await playing(page);
    // hls.js (not the browser's own HLS) fetched the playlist and segments, and fed the video from a blob: source.
    expect(fetched).toContain('index.m3u8');
    expect(fetched.some((f) => f.endsWith('.m2ts'))).toBe(true);
    expect(await page.evaluate(() => (document.querySelector('video') as HTMLVideoElement).currentSrc)).toMatch(/^blob:/);
    expect(blocked).toEqual([]);
    await page.screenshot({ path: path.join(screenshotDir, 'live-player.png') });
    await page.close();
  }, 90000);

  it('a dead pull address says 网络错误 in words', async () => {
    const channelId = await channel(`${cdnBase}/missing.m3u8`);
    const page = await newPage(browser, 1280, 860);
    await page.goto(`/site/live/${channelId}`);
    const message = page.locator('[data-live-message]');
    await message.waitFor({ state: 'visible', timeout: 30000 });
    await expect(message.textContent()).resolves.toBe('网络错误：无法加载直播流，请检查网络后刷新重试');
    await page.close();
  }, 90000);

  it('before its start a channel shows its poster and 直播尚未开始, then starts playing by itself at the start', async () => {
    const startTime = Date.now() + 8000;
    const channelId = await channel(`${cdnBase}/index.m3u8`, startTime);
    const before = fetched.length;
    const page = await newPage(browser, 1280, 860);
    await page.goto(`/site/live/${channelId}`);
    await expect(page.locator('[data-live-status]').textContent()).resolves.toBe('预告');
    await expect(page.locator('[data-live-notice]').textContent()).resolves.toMatch(/^直播尚未开始，开始时间：\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    await page.locator('img[data-live-poster]').waitFor();
    expect(await page.locator('video').count()).toBe(0);
    expect(fetched.length).toBe(before);
    expect(Date.now()).toBeLessThan(startTime); // the 预告 was seen before the start, not by a slow machine after it
    await page.screenshot({ path: path.join(screenshotDir, 'live-upcoming.png') });
    // The page reloads itself at the start (live-player.js) and the stream plays without anyone touching it.
    await page.locator('video[data-live-src]').waitFor({ timeout: 30000 });
    await expect(page.locator('[data-live-status]').textContent()).resolves.toBe('直播中');
    await playing(page);
    await page.close();
  }, 90000);

  it('the console 直播列表 shows 直播中 and its 预览 plays the stream', async () => {
    const channelId = await channel(`${cdnBase}/index.m3u8`);
    const page = await newPage(browser, 1440, 900);
    await signIn(page, 'operator', 'operator123');
    await page.goto('/liveBroadcast/list');
    const row = page.locator('.engine-list .ant-table-tbody tr.ant-table-row').filter({ hasText: channelId });
    await row.waitFor();
    await expect(row.locator('[data-live-status]').textContent()).resolves.toBe('直播中');
    // The seeded 预告 of 2026-06-09 reads 已结束 by its times.
    const seeded = page.locator('.engine-list .ant-table-tbody tr.ant-table-row').filter({ hasText: 'gk2026-01' });
    if (await seeded.count()) await expect(seeded.locator('[data-live-status]').textContent()).resolves.toBe('已结束');
    await page.screenshot({ path: path.join(screenshotDir, 'live-list.png') });
    await rowAction(page, row, '预览');
    const dialog = page.locator('[data-live-preview]');
    await dialog.waitFor();
    await expect(dialog.locator('[data-live-status]').textContent()).resolves.toBe('直播中');
    const frame = await (await dialog.locator('iframe').elementHandle())?.contentFrame();
    if (!frame) throw new Error('预览对话框里没有播放画面');
    expect(frame.url()).toContain(`/site/live/${channelId}?preview=`);
    await playing(frame);
    await page.screenshot({ path: path.join(screenshotDir, 'live-preview.png') });
    await page.close();
  }, 120000);
});
