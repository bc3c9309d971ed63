import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin } from './api';
import { launchBrowser, newPage, screenshotDir, signIn } from './browser';

/**
 * 首页 in Chromium against the real server, signed in as admin: a chart with real figures, a to-do count that equals
 * the total of the list it opens, the system drawer and the QR codes; 统计, 帮助中心 and 版本管理 are working screens.
 */
describe('首页 in Chromium', () => {
  let browser: Browser;
  let page: Page;
  let token: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    fs.mkdirSync(screenshotDir, { recursive: true });
    token = await apiLogin('admin', 'admin123');
    // The seeded draft plan is submitted, so 待审核方案 has something to count.
    const drafts = await api<never>('GET', '/dev-api/api/Examine/list?status=draft&pageNum=1&pageSize=10', { token });
    const draft = (drafts as unknown as { rows: Array<{ studentId: number; version: number }> }).rows[0];
    if (draft) await api('POST', '/dev-api/api/Subscriber/submit', { token, body: { studentId: draft.studentId, version: draft.version } });
    page = await newPage(browser, 1440, 900);
    await signIn(page, 'admin', 'admin123');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('admin sees a chart with real figures and a to-do count that matches the list it opens', async () => {
    await page.goto('/index');
    const review = page.locator('[data-todo="review"]');
    await review.waitFor({ timeout: 20000 });
    await page.locator('[data-chart="statistics"] svg').first().waitFor({ timeout: 20000 });
    // The seeded customers were created today: the 新增客户 total is a real, non-zero figure.
    const newCustomers = page.locator('.ant-statistic', { hasText: '新增客户合计' }).locator('.ant-statistic-content-value');
    await expect.poll(async () => Number((await newCustomers.textContent())?.replace(/[^\d.]/g, '') || 0), { timeout: 15000 }).toBeGreaterThan(0);
    const label = await page.locator('[data-chart="statistics"]').getAttribute('aria-label');
    expect(label).toMatch(/新增客户 [1-9]\d*/);
    const count = Number(await review.locator('[data-count]').textContent());
    expect(count).toBeGreaterThan(0);
    await page.screenshot({ path: path.join(screenshotDir, 'home-admin.png'), fullPage: true });

    await review.click();
    await page.waitForURL(/\/volunteer\/examine\?status=submitted/);
    await page.getByText(`共 ${count} 条`).waitFor({ timeout: 15000 });
    const list = (await api<never>('GET', '/dev-api/api/Examine/list?status=submitted&pageNum=1&pageSize=10', { token })) as unknown as { total: number };
    expect(list.total).toBe(count);
  });

  it('the system drawer shows 系统更新, 工单 and 版本更新; the QR dialog shows the platform links', async () => {
    await page.goto('/index');
    await page.getByRole('button', { name: /系\s*统/ }).click();
    const drawer = page.locator('.ant-drawer');
    await drawer.getByRole('tab', { name: '系统更新' }).waitFor();
    await drawer.getByText('v2.0.4').first().waitFor();
    await drawer.getByRole('tab', { name: '版本更新' }).click();
    await drawer.getByText('签名工具').waitFor();
    await page.screenshot({ path: path.join(screenshotDir, 'home-drawer.png') });
    await drawer.getByRole('tab', { name: '工单' }).click();
    await drawer.getByText('查看全部工单').waitFor();
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: /二维码/ }).click();
    const dialog = page.locator('.ant-modal', { hasText: '扫码访问' });
    await dialog.waitFor();
    for (const t of ['小程序', 'APP下载', 'H5']) await dialog.getByText(t, { exact: true }).waitFor();
    // The seeded platform has an H5 address: its code is drawn from that very link.
    const platform = await api<{ h5addr: string }>('POST', '/appv2/api/index/platformInfo', { body: {} });
    expect(await dialog.locator('img[data-qrcode]').first().getAttribute('data-qrcode')).toBe(platform.data?.h5addr);
    await page.screenshot({ path: path.join(screenshotDir, 'home-qrcode.png') });
    await page.keyboard.press('Escape');
  });

  it('统计, 帮助中心 and 版本管理 are working screens', async () => {
    for (const [url, ready, shot] of [
      ['/center/statistics', '[data-chart="statistics"] svg', 'home-statistics'],
      ['/center/helpCenter', '.ant-collapse-item, .ant-empty', 'home-help-center'],
      ['/center/version', '.ant-table-row >> text=v2.0.4', 'home-versions'],
    ]) {
      await page.goto(url);
      await page.locator(ready).first().waitFor({ timeout: 15000 });
      expect(await page.getByText('建设中').count(), url).toBe(0);
      await page.screenshot({ path: path.join(screenshotDir, `${shot}.png`), fullPage: true });
    }
  });

  it('an expert sees only their own to-dos and no business statistics on the home page', async () => {
    const expert = await newPage(browser, 1440, 900);
    await signIn(expert, 'expert', 'expert123');
    await expert.locator('[data-todo="appointment"]').waitFor({ timeout: 20000 });
    await expert.locator('.ant-card-head-title', { hasText: '快捷菜单' }).waitFor();
    expect(await expert.locator('[data-todo]').count()).toBe(1);
    expect(await expert.getByText('业务统计').count()).toBe(0);
    await expert.screenshot({ path: path.join(screenshotDir, 'home-expert.png'), fullPage: true });
    await expert.close();
  });
});
