import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin } from './api';
import { launchBrowser, newPage, screenshotDir, signIn } from './browser';

/**
 * The settings screens in Chromium against the real server: 平台设置 (a new platform title shows in the console's
 * sidebar and browser title at once and after a reload), 注册设置 (开放注册 off is saved, survives a reload and hides
 * 立即注册 on the sign-in page; a save over a concurrent change is refused with the server's message), 测评设置 and
 * 审核配置 (form from the field description, 重置). Everything changed is put back at the end.
 */

interface PlatformRow {
  title: string;
  expiredate: string;
}
interface SettingsState {
  values: Record<string, unknown>;
  version: number;
}

describe('settings screens in Chromium against the real server', () => {
  let browser: Browser;
  let token: string;
  let original: PlatformRow;

  beforeAll(async () => {
    browser = await launchBrowser();
    fs.mkdirSync(screenshotDir, { recursive: true });
    token = await apiLogin('admin', 'admin123');
    original = (await api<PlatformRow>('GET', '/dev-api/system/platform', { token })).data as PlatformRow;
  });
  afterAll(async () => {
    // Put back what the tests changed (other browser test files share this server).
    await api('PUT', '/dev-api/system/platform', { token, body: { title: original.title, expiredate: original.expiredate } });
    const reg = (await api<SettingsState>('GET', '/dev-api/system/settings/register', { token })).data as SettingsState;
    await api('PUT', '/dev-api/system/settings/register', { token, body: { ...reg.values, registerEnabled: true, version: reg.version } });
    await browser?.close();
  });

  it('平台设置: a new title shows in the sidebar and the browser title right after 保存, and after a reload', async () => {
    const page = await newPage(browser, 1366, 1100);
    await signIn(page, 'admin', 'admin123');
    await page.goto('/system/platform');
    await page.locator('.platform-settings').getByText('基本信息').waitFor();
    for (const card of ['图片', '地址', '授权']) await page.locator('.ant-card-head-title', { hasText: card }).first().waitFor();
    const titleInput = page.locator('#title');
    await expect(titleInput.inputValue()).resolves.toBe(original.title);
    await page.screenshot({ path: path.join(screenshotDir, 'system-platform.png'), fullPage: true });

    // A client-side check first: the title cannot be emptied.
    await titleInput.fill('   ');
    await page.getByRole('button', { name: /保\s*存/ }).click();
    await page.getByText('请输入平台名称').waitFor();

    const title = `志愿云平台E2E${Date.now() % 10000}`;
    await titleInput.fill(title);
    await page.getByRole('button', { name: /保\s*存/ }).click();
    await page.getByText('保存成功').waitFor();
    await expect.poll(() => page.locator('.ant-layout-sider').textContent(), { timeout: 10000 }).toContain(title);
    await expect.poll(() => page.title(), { timeout: 10000 }).toContain(title);
    expect((await api<PlatformRow>('GET', '/dev-api/system/platform', { token })).data?.title).toBe(title);

    await page.reload();
    await page.locator('.platform-settings').getByText('基本信息').waitFor();
    await expect(page.locator('#title').inputValue()).resolves.toBe(title);
    await expect.poll(() => page.locator('.ant-layout-sider').textContent(), { timeout: 10000 }).toContain(title);
    await page.context().close();
  });

  it('注册设置: 开放注册 off is saved, survives a reload and hides 立即注册; a stale save is refused with the server message', async () => {
    const page = await newPage(browser, 1366, 1000);
    await signIn(page, 'admin', 'admin123');
    await page.goto('/system/registerSettings');
    const screen = page.locator('[data-settings-group="register"]');
    await screen.getByText('注册默认角色').waitFor();
    await page.screenshot({ path: path.join(screenshotDir, 'system-register-settings.png'), fullPage: true });

    const open = screen.locator('#registerEnabled');
    await expect(open.getAttribute('aria-checked')).resolves.toBe('true');
    await open.click();
    await expect(open.getAttribute('aria-checked')).resolves.toBe('false');
    await screen.getByRole('button', { name: /保\s*存/ }).click();
    await page.getByText('保存成功').waitFor();
    await screen.getByText(/最后修改：admin/).waitFor();

    await page.reload();
    await screen.getByText('注册默认角色').waitFor();
    await expect(screen.locator('#registerEnabled').getAttribute('aria-checked')).resolves.toBe('false');

    // The sign-in page of a visitor no longer offers registration, and the API refuses it.
    const visitor = await newPage(browser);
    await visitor.goto('/login');
    await visitor.getByPlaceholder('账号 / 手机号').waitFor();
    await expect(visitor.getByText('立即注册').count()).resolves.toBe(0);
    const refused = await api('POST', '/dev-api/register', { body: { username: 'e2e_closed', password: 'secret12', confirmPassword: 'secret12' } });
    expect(refused).toEqual({ code: 500, msg: '当前系统没有开启注册功能！' });
    await visitor.context().close();

    // 重置 returns to what was loaded.
    await screen.locator('#registerEnabled').click();
    await expect(screen.locator('#registerEnabled').getAttribute('aria-checked')).resolves.toBe('true');
    await screen.getByRole('button', { name: /重\s*置/ }).click();
    await expect(screen.locator('#registerEnabled').getAttribute('aria-checked')).resolves.toBe('false');

    // Someone else saves meanwhile: this form's save is refused with the server's message and 重新加载 is offered.
    const cur = (await api<SettingsState>('GET', '/dev-api/system/settings/register', { token })).data as SettingsState;
    expect((await api('PUT', '/dev-api/system/settings/register', { token, body: { ...cur.values, version: cur.version } })).code).toBe(200);
    await screen.locator('#registerEnabled').click();
    await screen.getByRole('button', { name: /保\s*存/ }).click();
    const stale = screen.locator('.ant-alert-error');
    await stale.getByText('设置已在别处被修改，请刷新后再保存（未保存本次修改）').waitFor();
    await page.screenshot({ path: path.join(screenshotDir, 'system-register-settings-stale.png') });
    await stale.getByRole('button', { name: '重新加载' }).click();
    await stale.waitFor({ state: 'detached' });
    await expect(screen.locator('#registerEnabled').getAttribute('aria-checked')).resolves.toBe('false');

    // Open again through the screen.
    await screen.locator('#registerEnabled').click();
    await screen.getByRole('button', { name: /保\s*存/ }).click();
    await page.getByText('保存成功').first().waitFor();
    await expect.poll(async () => (await api<SettingsState>('GET', '/dev-api/system/settings/register', { token })).data?.values.registerEnabled).toBe(true);
    await page.context().close();
  });

  it('the register page follows 注册设置: SMS code field and the agreement to accept', async () => {
    const cur = (await api<SettingsState>('GET', '/dev-api/system/settings/register', { token })).data as SettingsState;
    const agreement = '<h3>用户注册协议</h3><p>注册即表示您同意本平台按照隐私政策处理您的个人信息。</p>';
    const set = await api<SettingsState>('PUT', '/dev-api/system/settings/register', {
      token,
      body: { ...cur.values, registerEnabled: true, smsRequired: true, agreement, version: cur.version },
    });
    expect(set.code).toBe(200);
    const page = await newPage(browser);
    try {
      await page.goto('/register');
      await page.getByPlaceholder('短信验证码').waitFor();
      await expect(page.getByPlaceholder('手机号', { exact: true }).count()).resolves.toBe(1);
      await page.getByPlaceholder('账号').fill('e2e_agree');
      await page.getByPlaceholder('密码', { exact: true }).fill('secret123');
      await page.getByPlaceholder('确认密码').fill('secret123');
      await page.getByRole('button', { name: /^注\s*册$/ }).click();
      await page.getByText('请输入手机号').waitFor();
      await page.getByText('请输入短信验证码').waitFor();
      await page.getByText('请阅读并同意用户注册协议').waitFor();
      await page.getByRole('button', { name: '《用户注册协议》' }).click();
      const dialog = page.locator('.ant-modal').filter({ hasText: '用户注册协议' });
      await dialog.getByText('注册即表示您同意本平台按照隐私政策处理您的个人信息。').waitFor();
      // Let the opening animation finish before the picture.
      await expect.poll(() => page.evaluate(() => document.getAnimations().filter((x) => x.playState === 'running').length)).toBe(0);
      await page.screenshot({ path: path.join(screenshotDir, 'register-agreement.png') });
    } finally {
      await page.context().close();
      const now = (await api<SettingsState>('GET', '/dev-api/system/settings/register', { token })).data as SettingsState;
      await api('PUT', '/dev-api/system/settings/register', { token, body: { ...now.values, smsRequired: false, agreement: '', version: now.version } });
    }
  });

  it('测评设置 and 审核配置: forms from the field description, client checks, saved values', async () => {
    const page = await newPage(browser, 1366, 1000);
    await signIn(page, 'admin', 'admin123');

    await page.goto('/system/evaluationSettings');
    const ev = page.locator('[data-settings-group="evaluation"]');
    await ev.getByText('每人测评次数上限').waitFor();
    await ev.getByText('报告说明').waitFor();
    await page.screenshot({ path: path.join(screenshotDir, 'system-evaluation-settings.png'), fullPage: true });
    await ev.locator('#maxAttempts').fill('8');
    await ev.getByRole('button', { name: /保\s*存/ }).click();
    await page.getByText('保存成功').waitFor();
    await expect.poll(async () => (await api<SettingsState>('GET', '/dev-api/system/settings/evaluation', { token })).data?.values.maxAttempts).toBe(8);

    await page.goto('/system/auditConfiguration');
    const au = page.locator('[data-settings-group="audit"]');
    await au.getByText('审核人角色').first().waitFor();
    await page.screenshot({ path: path.join(screenshotDir, 'system-audit-configuration.png'), fullPage: true });
    // Removing the only reviewer role while review is on is refused before anything is sent.
    await au.locator('.ant-select-selection-item-remove').first().click();
    await au.getByRole('button', { name: /保\s*存/ }).click();
    await au.getByText('请至少选择一个审核人角色').waitFor();
    await au.getByRole('button', { name: /重\s*置/ }).click();
    await expect(au.getByText('请至少选择一个审核人角色').count()).resolves.toBe(0);
    await au.locator('#reviewTimeoutHours').fill('12');
    await au.getByRole('button', { name: /保\s*存/ }).click();
    await page.getByText('保存成功').waitFor();
    const audit = (await api<SettingsState>('GET', '/dev-api/system/settings/audit', { token })).data as SettingsState;
    expect(audit.values).toMatchObject({ reviewTimeoutHours: 12, reviewerRoleKeys: ['leader'], submitNeedsReview: true });
    await page.context().close();
  });
});
