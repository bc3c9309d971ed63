import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin } from './api';
import { launchBrowser, newPage, screenshotDir, signIn } from './browser';

/** The console shell (issue 3) in Chromium against the real server and the built console. */
describe('console shell', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
    fs.mkdirSync(screenshotDir, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
  });

  const sider = (page: Page) => page.locator('.ant-layout-sider');
  const tab = (page: Page, title: string) => page.locator('.zy-tags-view [role=tab]', { hasText: title });
  const openMenu = async (page: Page, group: string, item: string) => {
    const menu = sider(page);
    const entry = menu.getByText(item, { exact: true });
    if (!(await entry.isVisible())) await menu.getByText(group, { exact: true }).click();
    await entry.click();
  };

  it('keeps typed search text when switching tabs, and 关闭其他 leaves home and the current tab', async () => {
    const page = await newPage(browser);
    await signIn(page, 'admin', 'admin123');
    await openMenu(page, '系统监控', '在线用户');
    await page.waitForURL('**/monitor/online');
    const search = page.getByPlaceholder('请输入登录地址');
    await search.fill('127.0.0.1');
    // The table shows the live sessions (at least this one).
    await page.locator('.ant-table-row').first().waitFor();
    await openMenu(page, '系统管理', '岗位管理');
    await page.waitForURL('**/system/post');
    await page.getByPlaceholder('请输入岗位名称').waitFor();
    await openMenu(page, '系统管理', '通知公告');
    await page.waitForURL('**/system/notice');
    await page.getByPlaceholder('请输入公告标题').waitFor();
    expect(await page.locator('.zy-tags-view [role=tab]').allInnerTexts()).toEqual(['首页', '在线用户', '岗位管理', '通知公告']);

    await tab(page, '在线用户').click();
    await page.waitForURL('**/monitor/online');
    await expect(page.getByPlaceholder('请输入登录地址').inputValue()).resolves.toBe('127.0.0.1');

    // Tabs survive a browser refresh.
    await page.reload();
    await page.getByPlaceholder('请输入登录地址').waitFor();
    expect(await page.locator('.zy-tags-view [role=tab]').allInnerTexts()).toEqual(['首页', '在线用户', '岗位管理', '通知公告']);

    const tabTexts = () => page.locator('.zy-tags-view [role=tab]').allInnerTexts();
    const closeOthers = async () => {
      // Seen once on a loaded machine: the context menu closed again while Playwright waited for its opening animation
      // to settle (the click then timed out). Open it once more in that case, saying so; a third failure fails.
      for (let attempt = 1; ; attempt++) {
        await tab(page, '岗位管理').click({ button: 'right' });
        const item = page.getByRole('menuitem', { name: '关闭其他' });
        try {
          await item.waitFor({ timeout: 10_000 });
          await item.click({ timeout: 10_000 });
          return;
        } catch (error) {
          if (attempt >= 3) throw error;
          console.warn(`关闭其他: the tab's context menu closed before the click (attempt ${attempt}); opening it again`);
          await page.keyboard.press('Escape');
        }
      }
    };
    await closeOthers();
    // CI has twice seen this click change nothing (never reproduced locally). Say what the page looked like, then try
    // the menu once more: a second no-op still fails the test.
    const closed = await expect
      .poll(tabTexts, { timeout: 5000 })
      .toEqual(['首页', '岗位管理'])
      .then(() => true)
      .catch(() => false);
    if (!closed) {
      const file = path.join(screenshotDir, '..', '..', 'test-results', 'tags-close-others.png');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      await page.screenshot({ path: file });
      console.warn(
        `关闭其他 changed nothing: tabs ${JSON.stringify(await tabTexts())}, url ${page.url()}, open menus ${JSON.stringify(
          await page.getByRole('menuitem').allInnerTexts(),
        )}, stored ${await page.evaluate(() => sessionStorage.getItem('tags-view-visited'))}; screenshot ${file}`,
      );
      await closeOthers();
    }
    await expect.poll(tabTexts).toEqual(['首页', '岗位管理']);
    expect(new URL(page.url()).pathname).toBe('/system/post');

    // Closing the active tab goes to the last remaining one (home).
    await tab(page, '岗位管理').getByLabel('关闭 岗位管理').click();
    await page.waitForURL('**/index');
    // The pinned home tab has no close button.
    await expect(tab(page, '首页').getByLabel('关闭 首页').count()).resolves.toBe(0);
    await page.context().close();
  });

  it('refreshing a deep dynamic route stays there; a non-numeric parameter is not found', async () => {
    const page = await newPage(browser);
    await signIn(page, 'admin', 'admin123');
    await page.goto('/monitor/job-log/index/12');
    await page.getByRole('button', { name: '返回定时任务' }).waitFor();
    await page.reload();
    await page.getByRole('button', { name: '返回定时任务' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/monitor/job-log/index/12');
    await page.goto('/monitor/job-log/index/abc');
    await page.getByText('404').first().waitFor();
    await page.context().close();
  });

  it('a user without the permission opening a known route sees /405', async () => {
    const page = await newPage(browser);
    await signIn(page, 'operator', 'operator123');
    await page.goto('/monitor/online');
    await page.waitForURL('**/405');
    await page.goto('/system/user-auth/role/1');
    await page.waitForURL('**/405');
    await page.context().close();
  });

  it('/test1 连接检测 and /test2 浏览器检测 check this browser against the real server, each row 正常', async () => {
    const page = await newPage(browser);
    await signIn(page, 'expert', 'expert123');
    await page.goto('/test1');
    const summary = page.getByTestId('check-summary');
    await expect.poll(() => summary.textContent()).toBe('全部正常');
    // Running the checks again is no page view: no call to platformInfo (the console-open counter, docs/home.md).
    const counted: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/appv2/api/index/platformInfo')) counted.push(r.url());
    });
    const checked = page.waitForResponse((r) => r.url().includes('/dev-api/api/Systerm/getNoteDesc'));
    await page.getByRole('button', { name: '重新检测' }).click();
    await checked;
    await expect.poll(() => summary.textContent()).toBe('全部正常');
    expect(counted).toEqual([]);
    const row = (item: string) => page.locator('.ant-table-row', { hasText: item });
    for (const item of ['服务器连接', '本机时间', '加密通信', '登录状态', '控制台版本'])
      await expect(row(item).locator('.ant-tag').textContent()).resolves.toBe('正常');
    await expect(row('登录状态').textContent()).resolves.toContain('已登录：');
    await expect(page.locator('.zy-tags-view, [role=tablist]').first().textContent()).resolves.toContain('连接检测');
    await page.screenshot({ path: path.join(screenshotDir, 'check-connection.png') });
    await page.goto('/test2');
    await expect.poll(() => summary.textContent()).toBe('全部正常');
    await expect(row('浏览器').textContent()).resolves.toMatch(/Chrome \d+/);
    await expect(row('窗口大小').textContent()).resolves.toContain('1366 × 800 像素');
    await page.screenshot({ path: path.join(screenshotDir, 'check-browser.png') });
    await page.context().close();
  });

  it('below 992 px the sidebar becomes a drawer', async () => {
    const page = await newPage(browser, 800, 900);
    await signIn(page, 'admin', 'admin123');
    await expect(page.locator('.ant-layout-sider').count()).resolves.toBe(0);
    await page.screenshot({ path: path.join(screenshotDir, 'home-mobile.png') });
    await page.getByRole('button', { name: '展开菜单' }).click();
    const drawer = page.locator('.zy-sidebar-drawer');
    await drawer.getByText('系统管理', { exact: true }).waitFor();
    await page.waitForTimeout(500); // let the slide-in finish before the picture
    await page.screenshot({ path: path.join(screenshotDir, 'home-mobile-drawer.png') });
    await drawer.getByText('系统管理', { exact: true }).click();
    await drawer.getByText('岗位管理', { exact: true }).click();
    await page.waitForURL('**/system/post');
    // Navigating closes the drawer.
    await drawer.waitFor({ state: 'hidden' });
    await page.context().close();
  });

  it('theme colour: a preset saved with 保存配置 survives reload; 重置配置 restores #409EFF; light sidebar', async () => {
    const page = await newPage(browser);
    await signIn(page, 'admin', 'admin123');
    await page.screenshot({ path: path.join(screenshotDir, 'home-desktop-dark.png') });
    const primary = () => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--zy-primary').trim().toLowerCase());
    await expect.poll(primary).toBe('#409eff');
    await page.getByRole('button', { name: '布局设置' }).click();
    const drawer = page.locator('.zy-theme-drawer');
    await drawer.getByLabel('主题颜色 #ff4500').click();
    await drawer.getByLabel('亮色侧边栏').click();
    await drawer.getByRole('button', { name: '保存配置' }).click();
    await page.getByText('正在保存到本地，请稍候...').waitFor();
    await page.reload();
    await page.getByText(/欢迎使用志愿填报管理系统。当前角色/).waitFor();
    await expect.poll(primary).toBe('#ff4500');
    await expect(page.locator('.ant-layout-sider-light').count()).resolves.toBe(1);
    await page.screenshot({ path: path.join(screenshotDir, 'home-desktop-light.png') });

    await page.getByRole('button', { name: '布局设置' }).click();
    await drawer.getByRole('button', { name: '重置配置' }).click();
    await page.getByText('正在清除设置缓存并刷新，请稍候...').waitFor();
    await page.waitForEvent('load');
    await page.getByText(/欢迎使用志愿填报管理系统。当前角色/).waitFor();
    await expect.poll(primary).toBe('#409eff');
    await expect(page.locator('.ant-layout-sider-dark').count()).resolves.toBe(1);
    await page.context().close();
  });

  it('the tool cabinet opens the built-in tool; a token-expired message from it leads to re-login', async () => {
    const page = await newPage(browser);
    page.setDefaultTimeout(15000);
    const warnings: string[] = [];
    page.on('console', (m) => warnings.push(m.text()));
    await signIn(page, 'admin', 'admin123');
    await page.getByRole('button', { name: '工具箱' }).hover();
    const cabinet = page.locator('.zy-tool-cabinet');
    await cabinet.waitFor();
    for (const group of ['招生计划', '历年分数线', '数据库', '榜单', '更多']) await cabinet.getByText(group, { exact: true }).waitFor();
    // The seeded admin has the diagnosis flag: 诊断换算 is offered (the expert, without it, is checked below).
    await cabinet.getByText('诊断换算').waitFor();
    await cabinet.getByRole('button', { name: '一分一段' }).click();
    const frame = page.frameLocator('iframe[title="一分一段"]');
    // The tool has loaded its table — the newest 一分一段 table loaded (years are data: the newest rank-table-YYYY.csv of
    // the seeded folder), whose last row holds every candidate — before we type.
    const seeded = new URL('../../server/db/seed/data/gaokao-shandong/', import.meta.url);
    const newest = Math.max(...fs.readdirSync(seeded).map((n) => Number(/^rank-table-(\d{4})\.csv$/.exec(n)?.[1] ?? 0)));
    const cohort = Math.max(
      ...fs
        .readFileSync(new URL(`rank-table-${newest}.csv`, seeded), 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => Number(line.split(',').at(-1))),
    );
    await frame.getByRole('cell', { name: String(cohort) }).waitFor();
    await frame.locator('input[name=score]').fill('600');
    await frame.getByRole('button', { name: '查询位次' }).click();
    await frame.getByText(/累计位次/).waitFor();
    await page.screenshot({ path: path.join(screenshotDir, 'tool-score-segment.png') });
    // The built-in tool is of the console's origin: no sandbox that could lift itself (Chromium warned of one).
    expect(await page.locator('iframe[title="一分一段"]').getAttribute('sandbox')).toBeNull();
    expect(warnings.filter((w) => /escape its sandboxing/.test(w))).toEqual([]);

    // The session ends elsewhere (signed out on the server); the tool's next call reports it to the console.
    const token = (await page.context().cookies()).find((c) => c.name === 'Admin-Token')?.value ?? '';
    expect((await api('POST', '/dev-api/api/login/logout', { token })).code).toBe(200);
    await frame.getByRole('button', { name: '查询位次' }).click();
    const dialog = page.locator('.ant-modal-confirm', { hasText: '系统提示' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: '重新登录' }).click();
    await page.waitForURL('**/login**');
    await page.getByRole('tab', { name: '账号密码登录' }).waitFor();
    // Closing right after the full-page navigation of 重新登录 can stall in Chromium; the browser is closed after all.
    await Promise.race([page.context().close(), new Promise((resolve) => setTimeout(resolve, 5000))]);
  });

  it('诊断换算 is offered only to users whose info carries the diagnosis flag', async () => {
    const page = await newPage(browser);
    await signIn(page, 'expert', 'expert123');
    await page.getByRole('button', { name: '工具箱' }).hover();
    const cabinet = page.locator('.zy-tool-cabinet');
    await cabinet.getByText('一分一段').waitFor();
    await expect(cabinet.getByText('诊断换算').count()).resolves.toBe(0);
    await page.context().close();
  });

  it('the version dialog (1400 wide) with the change log opens for roleId 2 on store 1 only', async () => {
    const page = await newPage(browser, 1600, 900);
    await signIn(page, 'leader', 'leader123');
    await page.getByRole('button', { name: '用户菜单' }).click();
    await page.getByRole('button', { name: /当前版本 2\.0\.4/ }).click();
    const dialog = page.locator('.ant-modal', { hasText: '版本信息' });
    await dialog.getByText('v2.0.3').waitFor();
    // Measured once the zoom-in animation has settled.
    await expect.poll(() => dialog.evaluate((el) => el.getBoundingClientRect().width)).toBe(1400);
    for (const label of ['应用ID', '当前用户', '签名工具', '发布时间', '发布标签', '域名']) await dialog.getByText(label, { exact: true }).first().waitFor();
    await page.context().close();

    const expert = await newPage(browser);
    await signIn(expert, 'expert', 'expert123');
    await expert.getByRole('button', { name: '用户菜单' }).click();
    await expert.getByText(/当前版本 2\.0\.4/).waitFor();
    await expect(expert.getByRole('button', { name: /当前版本/ }).count()).resolves.toBe(0);
    await expert.context().close();
  });

  it('an expired licence sends a signed-in user to /beOverdue from every path but /login and /appDetail', async () => {
    const admin = await apiLogin('admin', 'admin123');
    const current = await api<Record<string, unknown>>('GET', '/dev-api/system/platform', { token: admin });
    const page = await newPage(browser);
    await signIn(page, 'admin', 'admin123');
    try {
      const res = await api('PUT', '/dev-api/system/platform', { token: admin, body: { ...stripReadOnly(current.data ?? {}), expiredate: '2020-01-01' } });
      expect(res.code).toBe(200);
      await page.goto('/system/post');
      await page.waitForURL('**/beOverdue');
      await page.getByText('平台授权已到期').waitFor();
      await page.goto('/appDetail');
      await page.getByText('应用详情').waitFor();
      expect(new URL(page.url()).pathname).toBe('/appDetail');
    } finally {
      await api('PUT', '/dev-api/system/platform', { token: admin, body: { ...stripReadOnly(current.data ?? {}) } });
    }
    // Valid again: /beOverdue goes to /index.
    await page.goto('/beOverdue');
    await page.waitForURL('**/index');
    await page.context().close();
  });
});

/** The platform row as the edit endpoint accepts it (its editable fields only). */
const EDITABLE = [
  'title',
  'expiredate',
  'favicon',
  'watermark',
  'h5addr',
  'logo',
  'smalllogo',
  'qrUrl',
  'kfPhone',
  'wxapp',
  'appdown',
  'gwaddr',
  'appId',
  'toolboxaddr',
  'tipsTitle',
  'tips',
  'gddesc',
  'registerEnabled',
];
function stripReadOnly(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).filter(([k]) => EDITABLE.includes(k)));
}
