import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin } from './api';
import { launchBrowser, newPage, screenshotDir, signIn } from './browser';

/**
 * 备忘录, 监控总览 and 用户资料 (issue 27) in Chromium against the real server. 备忘录: a note added through the form
 * is listed; a note whose 提醒时间 has passed shows under 到期提醒 and on 首页 (到期备忘) until 完成. 监控总览: every card
 * shows real figures with its reading time and links to its page. 用户资料: find a user, reset the password, and the
 * user signs in with the new one. Screenshots: system-memo.png, monitor-overview.png, system-user-data.png.
 */
describe('备忘录, 监控总览 and 用户资料 in Chromium against the real server', () => {
  let browser: Browser;
  let page: Page;
  const tag = Date.now().toString(36);

  beforeAll(async () => {
    browser = await launchBrowser();
    fs.mkdirSync(screenshotDir, { recursive: true });
    page = await newPage(browser);
    await signIn(page, 'admin', 'admin123');
  });
  afterAll(async () => {
    await browser?.close();
  });

  const rows = () => page.locator('.engine-list[data-resource="sys_memo"] .ant-table-tbody tr.ant-table-row');

  it('备忘录: add a note; a due note shows under 到期提醒 and on 首页 until 完成', async () => {
    await page.goto('/center/memo');
    await page.locator('.engine-list[data-resource="sys_memo"]').waitFor();

    // A note through the form, with a 提醒时间 in the past (due at once).
    const title = `回访张同学家长${Date.now().toString(36)}`;
    await page.getByRole('button', { name: /新\s*增/ }).click();
    const dialog = page.locator('.ant-modal').filter({ hasText: '新增备忘' });
    await dialog.waitFor();
    await dialog.getByPlaceholder('请输入标题').fill(title);
    await dialog.getByPlaceholder('请输入内容').fill('确认 2026 年志愿方案的第二轮修改意见');
    const remind = dialog.getByPlaceholder('请选择提醒时间');
    await remind.click();
    await remind.fill('2026-01-05 09:30:00');
    await remind.press('Enter');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await page.getByText('新增成功').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await rows().filter({ hasText: title }).waitFor();

    // It is due: 到期提醒 lists it with 完成.
    const due = page.getByTestId('memo-due');
    const item = due.locator('.ant-list-item').filter({ hasText: title });
    await item.waitFor();
    await expect(item.textContent()).resolves.toContain('提醒时间：2026-01-05 09:30');
    await page.screenshot({ path: path.join(screenshotDir, 'system-memo.png') });

    // 首页 shows the 到期备忘 tile with the count; its click opens 备忘录.
    await page.goto('/index');
    const tile = page.locator('[data-todo="memo"]');
    await tile.waitFor();
    expect(Number(await tile.locator('[data-count]').textContent())).toBeGreaterThanOrEqual(1);
    await tile.click();
    await page.waitForURL('**/center/memo');
    await item.waitFor();

    // 完成: gone from 到期提醒 and the list shows 已完成 是.
    await item.getByRole('button', { name: /完\s*成/ }).click();
    await page.getByText('已标记完成').waitFor();
    await expect.poll(() => page.getByTestId('memo-due').locator('.ant-list-item').filter({ hasText: title }).count()).toBe(0);
    await expect.poll(async () => ((await rows().filter({ hasText: title }).textContent()) ?? '').includes('是')).toBe(true);
    const token = await apiLogin('admin', 'admin123');
    const stored = await api<{ rows: Array<{ title: string }> }>('GET', '/dev-api/system/memo/due', { token });
    expect(stored.data?.rows.map((r) => r.title)).not.toContain(title);
  });

  it('监控总览: every card shows real figures, its reading time and a link to its page', async () => {
    await page.goto('/monitor/overview');
    const cards = ['overview-server', 'overview-database', 'overview-cache', 'overview-online', 'overview-jobs', 'overview-errors'];
    for (const id of cards) {
      const card = page.getByTestId(id);
      await card.waitFor();
      await expect(card.textContent()).resolves.toMatch(/读取时间：\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
      expect(['ok', 'warning', 'error']).toContain(await card.getAttribute('data-status'));
    }
    await expect(page.getByTestId('overview-server').textContent()).resolves.toMatch(/CPU 使用率\s*[\d.]+%（\d+ 核）/);
    await expect(page.getByTestId('overview-database').textContent()).resolves.toMatch(/数据库大小\s*[\d.]+ (KB|MB|GB)/);
    await expect(page.getByTestId('overview-online').textContent()).resolves.toMatch(/在线会话\s*[1-9]\d* 个/);
    await page.screenshot({ path: path.join(screenshotDir, 'monitor-overview.png'), fullPage: true });
    await page.getByTestId('overview-server').getByRole('link', { name: '查看详情' }).click();
    await page.waitForURL('**/monitor/server');
  });

  it('用户资料: find a user, reset the password; the user signs in with the new one', async () => {
    // A fresh account (the seeded ones keep their passwords for the other tests), found by its phone number.
    const token = await apiLogin('admin', 'admin123');
    const account = `ud_${tag}`;
    const mobile = `139${String(Date.now()).slice(-8)}`;
    const created = await api('POST', '/dev-api/system/user', {
      token,
      body: { userName: account, nickName: '资料测试员', password: 'init123', deptId: 102, mobile, status: '0', sex: '2' },
    });
    expect(created.code, created.msg).toBe(200);

    await page.goto('/system/userData');
    const search = page.getByPlaceholder('请输入账号、姓名或手机号');
    await search.fill(mobile.slice(-8));
    await search.press('Enter');
    const hit = page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: account });
    await expect.poll(() => page.locator('.ant-table-tbody tr.ant-table-row').count()).toBe(1);
    await hit.click();
    const detail = page.getByTestId('user-data-detail');
    await detail.getByText('运营部').waitFor();
    await expect(detail.textContent()).resolves.toContain('最后登录时间');
    await page.screenshot({ path: path.join(screenshotDir, 'system-user-data.png') });

    const password = `np${tag}`.slice(0, 20);
    await detail.getByRole('button', { name: '重置密码' }).click();
    const dialog = page.locator('.ant-modal').filter({ hasText: `请输入"${account}"的新密码` });
    await dialog.waitFor();
    await dialog.getByPlaceholder('请输入新密码').fill(password);
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await page.getByText(`修改成功，新密码是：${password}`).waitFor();
    await dialog.waitFor({ state: 'detached' });
    const other = await newPage(browser);
    await signIn(other, account, password);
    await other.close();

    // One's own account points to 个人中心 instead of 重置密码.
    await search.fill('admin');
    await search.press('Enter');
    await page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: '系统管理员' }).first().click();
    await detail.getByRole('link', { name: /前往个人中心/ }).click();
    await page.waitForURL('**/user/profile');
  });
});
