import path from 'node:path';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { inject } from 'vitest';

/** Debian's Chromium with the flags this machine needs (no sandbox as root, no background networking). */
export async function launchBrowser(): Promise<Browser> {
  // Playwright gives every launch a fresh temporary profile (it refuses a --user-data-dir argument).
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export const baseURL = () => inject('baseURL');

export async function newPage(browser: Browser, width = 1366, height = 800): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height }, locale: 'zh-CN', baseURL: baseURL() });
  return context.newPage();
}

/** Signs in through the real sign-in form and waits for 首页. */
export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByPlaceholder('账号 / 手机号').fill(username);
  await page.getByPlaceholder('密码').fill(password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await page.waitForURL('**/index');
}

export const screenshotDir = path.resolve(import.meta.dirname, '../../docs/screenshots');

/** A row's action: its own button, or the item under 更多 when the list folds the row's extra actions (EntityList). */
export async function rowAction(page: Page, row: Locator, name: string): Promise<void> {
  const direct = row.getByRole('button', { name, exact: true });
  if ((await direct.count()) > 0) return direct.first().click();
  const titled = row.getByTitle(name, { exact: true });
  if ((await titled.count()) > 0) return titled.first().click();
  await row.getByRole('button', { name: '更多' }).click();
  await page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').getByRole('button', { name }).first().click();
}
