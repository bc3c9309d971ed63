import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin } from './api';
import { launchBrowser, newPage, rowAction, screenshotDir, signIn } from './browser';

/**
 * 运营管理 in Chromium against the real server (docs/content.md): a banner with an image and a schedule, reordered by
 * drag, published → on /site/ and in the /appv2 list, unpublished → gone; a classroom video of 50+ MB uploaded with
 * the progress bar, paused and resumed, then played from the public site with seeking.
 */

const PNG_1PX = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

interface BannerRow {
  bannerId: number;
  title: string;
  sort: number;
  status: string;
  version: number;
}

describe('content: 运营管理 in Chromium against the real server', () => {
  let browser: Browser;
  let token: string;
  beforeAll(async () => {
    browser = await launchBrowser();
    token = await apiLogin('operator', 'operator123');
  });
  afterAll(async () => {
    await browser?.close();
  });

  const rows = (page: Page) => page.locator('.engine-list .ant-table-tbody tr.ant-table-row');
  const banners = async () =>
    ((await api<never>('POST', '/appv2/api/ManagerBanner/list', { token, body: { pageSize: 100 } })) as unknown as { rows: BannerRow[] }).rows;
  const publicTitles = async () =>
    ((await api<never>('GET', '/appv2/api/public/banner/list')) as unknown as { rows: Array<{ title: string }> }).rows.map((r) => r.title);
  const siteHome = async (page: Page) => {
    await page.goto('/site/');
    return page.content();
  };

  it('banner: create with image and schedule, drag to reorder, publish → /site/ and /appv2, unpublish → gone', async () => {
    const page = await newPage(browser, 1440, 900);
    await signIn(page, 'operator', 'operator123');
    await page.goto('/operation/advertisement');
    await rows(page).first().waitFor();
    await page.screenshot({ path: path.join(screenshotDir, 'content-banner-list.png') });

    const title = `端到端轮播${Date.now() % 100000}`;
    await page.getByRole('button', { name: /新\s*增/ }).click();
    const dialog = page.locator('.ant-modal').filter({ hasText: '新增轮播广告' });
    await dialog.waitFor();
    await dialog.getByPlaceholder('请输入标题').fill(title);
    await dialog.locator('input[type=file]').first().setInputFiles({ name: 'banner.png', mimeType: 'image/png', buffer: PNG_1PX });
    await dialog.locator('.ant-upload-list-item-done, .ant-upload-list-item img').first().waitFor();
    await dialog.getByPlaceholder('请输入以 http:// 或 https:// 开头的链接').fill('https://www.example.com/e2e');
    const start = dialog.getByPlaceholder('请选择开始时间');
    await start.click();
    await start.fill('2026-01-01 00:00:00');
    await start.press('Enter');
    const end = dialog.getByPlaceholder('请选择结束时间');
    await end.click();
    await end.fill('2030-12-31 23:59:59');
    await end.press('Enter');
    await dialog.getByText('已发布', { exact: true }).click();
    await page.screenshot({ path: path.join(screenshotDir, 'content-banner-form.png') });
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await page.getByText('新增成功').waitFor({ timeout: 90000 });
    await dialog.waitFor({ state: 'detached' });

    const created = (await banners()).find((b) => b.title === title) as BannerRow;
    expect(created).toBeTruthy();
    expect((await publicTitles()).includes(title)).toBe(true);
    expect(await siteHome(page)).toContain(title);
    await page.screenshot({ path: path.join(screenshotDir, 'content-site-home.png'), fullPage: false });

    // Drag the new banner (sort 0: first row) below the third one.
    await page.goto('/operation/advertisement');
    await rows(page).nth(2).waitFor();
    const before = (await banners()).map((b) => b.bannerId);
    expect(before[0]).toBe(created.bannerId);
    const handle = rows(page).first().getByRole('button', { name: '拖动排序' });
    const target = rows(page).nth(2);
    const from = await handle.boundingBox();
    const to = await target.boundingBox();
    if (!from || !to) throw new Error('no boxes');
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2, from.y + 20, { steps: 4 });
    await page.mouse.move(from.x + from.width / 2, to.y + to.height * 0.75, { steps: 12 });
    await page.mouse.up();
    await page.getByText('排序成功').waitFor({ timeout: 90000 });
    await expect.poll(async () => (await banners()).map((b) => b.bannerId).indexOf(created.bannerId)).toBe(2);

    // Unpublish with the list switch.
    const row = rows(page).filter({ hasText: title });
    await row.getByRole('switch').click();
    await page
      .locator('.ant-modal-confirm')
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await page.getByText('停用成功').waitFor({ timeout: 90000 });
    await expect.poll(publicTitles).not.toContain(title);
    expect(await siteHome(page)).not.toContain(title);
    await page.close();
  }, 300000);

  it('operator: every page of 运营管理, 官网管理, 直播管理 is a working screen; singleton form, QR share, classroom with its videos', async () => {
    const page = await newPage(browser, 1440, 900);
    await signIn(page, 'operator', 'operator123');
    const routers =
      (await api<Array<{ path: string; children?: Array<{ path: string; meta: { title: string } }> }>>('POST', '/dev-api/api/auth/getRuleList', { token }))
        .data ?? [];
    const pages = routers
      .filter((r) => ['/operation', '/showManage', '/liveBroadcast'].includes(r.path))
      .flatMap((r) => (r.children ?? []).map((c) => ({ url: `${r.path}/${c.path}`, title: c.meta.title })));
    expect(pages.length).toBe(30);
    // The screens added last (广告, 链接, 服务, 官网广告, 网点, 资料库, 中间栏, 新建页面) are photographed on the way.
    const added = [
      'operation/adItems',
      'operation/href',
      'operation/service',
      'showManage/advertisement',
      'showManage/network',
      'showManage/library',
      'showManage/middle',
      'showManage/newbuilt',
    ];
    for (const p of pages) {
      await page.goto(p.url);
      await page.locator('.engine-list, .engine-singleton').first().waitFor();
      expect(await page.getByText('建设中').count(), p.title).toBe(0);
      const [dir, leaf] = p.url.split('/').slice(1);
      if (added.includes(`${dir}/${leaf}`)) {
        await rows(page).first().waitFor();
        await page.screenshot({ path: path.join(screenshotDir, `content-${dir === 'showManage' ? 'show' : 'op'}-${leaf}.png`) });
      }
    }

    // 资讯管理 预览 of a draft: a new tab shows it on /site/ with a signed token; without the token it is not public.
    const draft = await api<{ newsId: number }>('POST', '/dev-api/operation/news', {
      token,
      body: { title: `预览草稿资讯${Date.now() % 100000}`, category: '1', status: '0', content: '<p>草稿正文</p>' },
    });
    const draftId = draft.data?.newsId as number;
    await page.goto('/operation/news');
    const draftRow = rows(page).filter({ hasText: '预览草稿资讯' }).first();
    await draftRow.waitFor();
    const popup = page.waitForEvent('popup');
    await rowAction(page, draftRow, '预览');
    const tab = await popup;
    await tab.waitForURL(new RegExp(`/site/news/${draftId}\\?preview=`));
    await tab.getByText('预览：此内容可能尚未发布').waitFor();
    await tab.getByRole('heading', { name: /预览草稿资讯/ }).waitFor();
    await tab.screenshot({ path: path.join(screenshotDir, 'content-site-preview.png') });
    await tab.goto(`/site/news/${draftId}`);
    await tab.getByText('资讯不存在或未发布').waitFor();
    await tab.close();

    // 关于我们: the single record's form, saved in place; 预览 beside it. The form is filled once its record has loaded
    // (the list answer shows it first, the record's own answer fills it).
    const loaded = page.waitForResponse((r) => /\/dev-api\/showManage\/about\/\d+$/.test(new URL(r.url()).pathname));
    await page.goto('/showManage/aboutUs');
    const single = page.locator('.engine-singleton');
    await loaded;
    await single.getByPlaceholder('请输入标题').waitFor();
    await expect(single.getByPlaceholder('请输入标题').inputValue()).resolves.toMatch(/^关于我们/);
    const aboutTitle = `关于我们（端到端 ${Date.now() % 100000}）`; // a retry must not find its own earlier edit
    await single.getByPlaceholder('请输入标题').fill(aboutTitle);
    await single.getByRole('button', { name: /提\s*交/ }).click();
    await page.getByText('修改成功').waitFor({ timeout: 90000 });
    await page.screenshot({ path: path.join(screenshotDir, 'content-show-about.png') });
    await page.goto('/site/about');
    await page.getByRole('heading', { name: aboutTitle }).waitFor();

    // 主题设置: colour pickers.
    await page.goto('/showManage/theme');
    await page.locator('.engine-singleton .ant-color-picker-trigger').first().waitFor();
    await page.screenshot({ path: path.join(screenshotDir, 'content-show-theme.png') });

    // 直播列表: 分享 draws a QR code of the channel page.
    await page.goto('/liveBroadcast/list');
    await rows(page).first().waitFor();
    await rowAction(page, rows(page).first(), '分享');
    const qr = page.locator('img[data-qrcode]');
    await qr.waitFor();
    expect(await qr.getAttribute('data-qrcode')).toMatch(/\/site\/live\/gk2026-0\d$/);
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    await page.screenshot({ path: path.join(screenshotDir, 'content-live-share.png') });
    await page.getByRole('button', { name: /关\s*闭/ }).click();

    // 课堂管理 详情: the classroom with its videos (x-children).
    await page.goto('/operation/classRoom');
    await rows(page).first().waitFor();
    await rowAction(page, rows(page).first(), '详情');
    const show = page.locator('.ant-modal').filter({ hasText: '课堂详情' });
    await show.locator('[data-children="content_classroom_video"]').waitFor();
    await page.screenshot({ path: path.join(screenshotDir, 'content-classroom-show.png') });
    await page.close();
  }, 300000);

  it('classroom video: 50+ MB upload with progress, pause and resume, then playback with seeking on /site/', async () => {
    const page = await newPage(browser, 1440, 900);
    await signIn(page, 'operator', 'operator123');
    const roomTitle = `端到端视频课堂${Date.now() % 100000}`;
    const room = await api<{ classroomId: number }>('POST', '/appv2/api/ManagerClassroom/save', {
      token,
      body: { title: roomTitle, classTypeId: 1, teacher: '测试老师', status: '1' },
    });
    expect(room.msg).toBe('新增成功');
    const classroomId = room.data?.classroomId as number;

    // A real, playable video: a few seconds of canvas recorded by Chromium (WebM), padded past 50 MB.
    await page.goto('/site/');
    const recorded = await page.evaluate(async () => {
      const canvas = document.createElement('canvas');
      canvas.width = 320;
      canvas.height = 180;
      const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
      const stream = canvas.captureStream(25);
      const recorder = new MediaRecorder(stream, { mimeType: 'video/webm;codecs=vp8' });
      const parts: Blob[] = [];
      recorder.ondataavailable = (e) => parts.push(e.data);
      let frame = 0;
      const timer = setInterval(() => {
        ctx.fillStyle = `hsl(${(frame * 7) % 360} 70% 50%)`;
        ctx.fillRect(0, 0, 320, 180);
        ctx.fillStyle = '#fff';
        ctx.font = '40px sans-serif';
        ctx.fillText(String(frame++), 20, 100);
      }, 40);
      recorder.start();
      await new Promise((r) => setTimeout(r, 4000));
      recorder.stop();
      await new Promise((r) => {
        recorder.onstop = r;
      });
      clearInterval(timer);
      const bytes = new Uint8Array(await new Blob(parts).arrayBuffer());
      return Array.from(bytes);
    });
    const video = Buffer.concat([Buffer.from(recorded), Buffer.alloc(52 * 1024 * 1024 - recorded.length)]);
    // Playwright hands files over 50 MB to the page by path only.
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'zy-video-')), 'lesson.webm');
    fs.writeFileSync(file, video);

    await page.goto('/operation/classVideo');
    await page.locator('.engine-list[data-resource="content_classroom_video"]').waitFor();
    await page.getByRole('button', { name: /新\s*增/ }).click();
    const dialog = page.locator('.ant-modal').filter({ hasText: '新增课程视频' });
    await dialog.waitFor();
    await dialog.locator('#root_classroomId').click();
    await page.locator('.ant-select-tree-node-content-wrapper, .ant-select-item-option').filter({ hasText: roomTitle }).first().click();
    await dialog.getByPlaceholder('请输入视频标题').fill('第一讲 · 端到端');
    await dialog.getByLabel('选择视频文件').setInputFiles(file);
    const progress = dialog.getByRole('progressbar', { name: '上传进度' }).or(dialog.locator('.ant-progress'));
    await progress.first().waitFor();
    // Interrupt once some chunks are in, then resume from the server's offset.
    await expect
      .poll(async () => Number((await dialog.locator('.ant-progress-text').textContent())?.replace('%', '') ?? 0), { timeout: 60000 })
      .toBeGreaterThan(10);
    await dialog.getByRole('button', { name: /暂\s*停/ }).click();
    const paused = Number((await dialog.locator('.ant-progress-text').textContent())?.replace('%', '') ?? 0);
    await page.screenshot({ path: path.join(screenshotDir, 'content-video-upload.png') });
    expect(paused).toBeLessThan(100);
    await dialog.getByRole('button', { name: /继\s*续/ }).click();
    await page.getByText('视频上传成功').waitFor({ timeout: 120000 });
    await dialog.getByText('已发布', { exact: true }).click();
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await page.getByText('新增成功').waitFor({ timeout: 90000 });

    // Playback with seeking on the public classroom page (range requests on /profile/).
    await page.goto(`/site/classroom/${classroomId}`);
    const player = page.locator('video').first();
    await player.waitFor();
    const played = await player.evaluate(async (el: HTMLVideoElement) => {
      el.muted = true;
      await el.play();
      await new Promise((r) => setTimeout(r, 500));
      const seek = new Promise((r) => el.addEventListener('seeked', r, { once: true }));
      el.currentTime = 2;
      await seek;
      return { time: el.currentTime, error: el.error?.code ?? 0 };
    });
    expect(played.error).toBe(0);
    expect(played.time).toBeGreaterThanOrEqual(1.5);
    await page.screenshot({ path: path.join(screenshotDir, 'content-site-classroom.png') });
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
    await page.close();
  }, 300000);
});
