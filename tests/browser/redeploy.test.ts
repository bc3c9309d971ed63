import path from 'node:path';
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshotDir, signIn } from './browser';

/**
 * A console tab left open across a redeploy (issue 25 item 7), in Chromium against the real server and the built
 * console. After a redeploy the server has only the new build's files: every chunk the old tab has not loaded yet
 * answers 404 (server/static.ts). Here the browser's requests play that part: once signed in, every script and style
 * sheet the tab has not asked for before answers 404, as the old names would.
 */
describe('console after a redeploy', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const sider = (page: Page) => page.locator('.ant-layout-sider');
  const openMenu = async (page: Page, group: string, item: string) => {
    const entry = sider(page).getByText(item, { exact: true });
    if (!(await entry.isVisible())) await sider(page).getByText(group, { exact: true }).click();
    await entry.click();
  };

  it('a page whose code is gone reloads once, then says 页面加载失败 with 刷新 inside the frame; 刷新 opens it once the code is there', async () => {
    const page = await newPage(browser, 1440, 900);
    const loaded = new Set<string>();
    page.on('request', (r) => {
      if (/\/assets\/[^/]+\.(?:js|css)$/.test(new URL(r.url()).pathname)) loaded.add(r.url());
    });
    // The background prefetch of the list page, started a while after 首页 has settled (src/router/prefetchPages.tsx).
    const prefetched = page.waitForResponse((r) => /\/assets\/StyleWarmup-[^/]+\.js$/.test(r.url()), { timeout: 30_000 });
    await signIn(page, 'admin', 'admin123');
    // Everything 首页 asks for has arrived: its chart (a lazily loaded part), the frame, the background prefetch.
    await page.locator('[data-chart="statistics"] svg').first().waitFor();
    await prefetched;
    await page.waitForLoadState('networkidle');

    // The redeploy: what this tab has not loaded is gone from the server.
    const before = new Set(loaded);
    const gone = (route: Route) =>
      before.has(route.request().url()) ? route.fallback() : route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not Found' });
    await page.route('**/assets/*.{js,css}', gone);
    let reloads = 0;
    page.on('request', (r) => {
      if (r.isNavigationRequest() && r.frame() === page.mainFrame()) reloads += 1;
    });

    await openMenu(page, '系统监控', '服务监控');
    await page.getByText('页面加载失败').waitFor({ timeout: 30_000 });
    await page.waitForURL('**/monitor/server');
    // Reloaded exactly once for the new build; the code still missing after that, no second reload.
    expect(reloads).toBe(1);
    await expect.poll(() => page.evaluate(() => sessionStorage.getItem('chunk-reload'))).not.toBeNull();
    // Inside the frame: the menu, the header and the tabs stay, and the page area says what to do.
    await expect.poll(() => sider(page).getByText('系统监控', { exact: true }).isVisible()).toBe(true);
    expect(await page.locator('.zy-tags-view [role=tab]').allInnerTexts()).toEqual(['首页', '服务监控']);
    await expect.poll(() => page.getByText('系统可能已更新，请刷新页面后重试').isVisible()).toBe(true);
    expect(await page.locator('.ant-layout-content').textContent()).not.toMatch(/Failed to fetch|TypeError|\/assets\//);
    await page.screenshot({ path: path.join(screenshotDir, 'redeploy-chunk-error.png') });

    // The server serves the code again (the new build has it): 刷新 opens the page.
    await page.unroute('**/assets/*.{js,css}', gone);
    await page.getByRole('button', { name: /刷\s*新/ }).click();
    await page.getByText('服务器信息').waitFor({ timeout: 30_000 });
    expect(await page.getByText('页面加载失败').count()).toBe(0);
    expect(reloads).toBe(2);
    // The page loaded: the marker is gone, so a later redeploy reloads once again.
    await expect.poll(() => page.evaluate(() => sessionStorage.getItem('chunk-reload'))).toBeNull();
    await page.context().close();
  });
});
