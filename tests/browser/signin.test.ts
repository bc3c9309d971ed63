import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshotDir, signIn } from './browser';

describe('sign-in in Chromium against the real server', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('sends a visitor without a token to /login with the wanted path in redirect', async () => {
    const page = await newPage(browser);
    await page.goto('/system/user');
    await page.waitForURL('**/login?redirect=*');
    expect(decodeURIComponent(page.url())).toContain('redirect=/system/user');
    await page.getByRole('tab', { name: '账号密码登录' }).waitFor();
    await page.getByRole('tab', { name: '短信验证码登录' }).waitFor();
    await page.context().close();
  });

  it('admin/admin123 signs in and sees 首页 and the server menu in the sidebar', async () => {
    const page = await newPage(browser);
    await signIn(page, 'admin', 'admin123');
    await page.getByText(/欢迎使用志愿填报管理系统。当前角色/).waitFor();
    const sider = page.locator('.ant-layout-sider');
    for (const group of ['志愿填报', '系统管理', '系统监控', '系统工具']) {
      await sider.getByText(group, { exact: true }).waitFor();
    }
    // The token is the Admin-Token cookie, valid for 15 days.
    const cookie = (await page.context().cookies()).find((c) => c.name === 'Admin-Token');
    expect(cookie?.value).toBeTruthy();
    const days = ((cookie?.expires ?? 0) * 1000 - Date.now()) / 86400000;
    expect(days).toBeGreaterThan(14.9);
    expect(days).toBeLessThan(15.1);
    // Opening a group and a page shows its screen (every seeded page is built: no 建设中).
    await sider.getByText('财务管理', { exact: true }).click();
    await sider.getByText('账户余额', { exact: true }).click();
    await page.waitForURL('**/finance/balance');
    await page.getByText('可开票金额').first().waitFor();
    expect(await page.getByText('建设中').count()).toBe(0);
    fs.mkdirSync(screenshotDir, { recursive: true });
    await page.goto('/index');
    await page.getByText(/欢迎使用志愿填报管理系统。当前角色/).waitFor();
    await page.screenshot({ path: path.join(screenshotDir, 'home-basic.png') });
    await page.context().close();
  });

  it('refreshing a deep menu route lands on the same page after the menu loads', async () => {
    const page = await newPage(browser);
    await signIn(page, 'admin', 'admin123');
    await page.goto('/system/log/operlog');
    const tab = page.locator('.zy-tags-view [role=tab]', { hasText: '操作日志' });
    await tab.waitFor();
    await page.reload();
    await tab.waitFor();
    expect(new URL(page.url()).pathname).toBe('/system/log/operlog');
    await page.context().close();
  });

  it('a wrong password shows the server message and stays on /login', async () => {
    const page = await newPage(browser);
    await page.goto('/login');
    await page.getByPlaceholder('账号 / 手机号').fill('operator');
    await page.getByPlaceholder('密码').fill('wrong-password');
    await page.getByRole('button', { name: /登\s*录/ }).click();
    await page.getByText(/账号或密码错误/).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.context().close();
  });

  it('an expert sees only their menus; a known admin page is refused', async () => {
    const page = await newPage(browser);
    await signIn(page, 'expert', 'expert123');
    const sider = page.locator('.ant-layout-sider');
    await sider.getByText('志愿填报', { exact: true }).waitFor();
    await expect(sider.getByText('系统管理', { exact: true }).count()).resolves.toBe(0);
    await page.goto('/system/user');
    await page.waitForURL('**/405');
    await page.context().close();
  });

  it('registers a new account which can then sign in, and logout returns to the sign-in page', async () => {
    const page = await newPage(browser);
    await page.goto('/register');
    await page.getByPlaceholder('账号').fill('newstudent');
    await page.getByPlaceholder('姓名（选填）').fill('新同学');
    await page.getByPlaceholder('密码', { exact: true }).fill('secret123');
    await page.getByPlaceholder('确认密码').fill('secret123');
    await page.getByRole('button', { name: /注\s*册/ }).click();
    await page.waitForURL('**/login');
    await signIn(page, 'newstudent', 'secret123');
    await page.getByText('新同学').first().waitFor();
    await page.getByRole('button', { name: '用户菜单' }).click();
    await page.getByText('退出登录').click();
    await page.getByText('确定退出系统吗？').waitFor();
    await page.getByRole('button', { name: /确\s*定/ }).click();
    await page.waitForURL('**/login**');
    await page.context().close();
  });
});
