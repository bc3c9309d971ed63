import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin } from './api';
import { launchBrowser, newPage, screenshotDir, signIn } from './browser';

/**
 * 系统监控 (issue 13) in Chromium against the real server: every page works, a job is added, run and logged, and
 * 在线用户 forces a session out.
 */
describe('系统监控', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchBrowser();
    fs.mkdirSync(screenshotDir, { recursive: true });
    page = await newPage(browser, 1440, 900);
    await signIn(page, 'admin', 'admin123');
  });
  afterAll(async () => {
    await browser?.close();
  });

  const shot = (name: string) => page.screenshot({ path: path.join(screenshotDir, `monitor-${name}.png`) });
  const noPlaceholder = async () => expect(await page.getByText('建设中').count()).toBe(0);

  it('定时任务: the form refuses a bad cron, shows the next five fire times, saves; 执行一次 and 调度日志 show the run', async () => {
    // Unique per try (a retried test finds the job of the first try).
    const jobName = `浏览器测试任务${Date.now() % 100000}`;
    await page.goto('/monitor/job');
    await page.getByText('清理过期会话').waitFor();
    await noPlaceholder();
    await shot('job');

    await page.getByRole('button', { name: /新\s*增/ }).click();
    const dialog = page.getByRole('dialog', { name: '添加任务' });
    await dialog.waitFor();
    await dialog.getByLabel('任务名称').fill(jobName);
    await dialog.getByLabel('处理器').click();
    await page.getByTitle('每日统计（dailyFigures）').click();
    await dialog.getByLabel('cron表达式').fill('61 * * * * ?');
    await dialog.getByText('Cron表达式不正确').waitFor();
    await dialog.getByLabel('cron表达式').fill('0 0/30 * * * ?');
    await dialog.getByText('最近5次运行时间').waitFor();
    expect(await dialog.locator('.job-next-times .ant-typography div').count()).toBe(5);
    await shot('job-form');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await page.getByText('新增成功').waitFor();
    const row = page.locator('.ant-table-row:visible', { hasText: jobName });
    await row.waitFor();

    await row.getByRole('button', { name: '更多' }).click();
    await page.getByRole('button', { name: '执行一次' }).click();
    await page.getByRole('button', { name: /确\s*定/ }).click();
    await page.getByText('执行成功，结果请查看调度日志').waitFor();
    await row.getByRole('button', { name: '更多' }).click();
    await page.getByRole('button', { name: '调度日志' }).click();
    await page.waitForURL('**/monitor/job-log/index/*');
    // Open tabs stay mounted (hidden): only the visible table counts.
    const logRow = page.locator('.ant-table-row:visible', { hasText: jobName });
    await logRow.waitFor();
    await expect.poll(async () => (await logRow.textContent())?.includes('成功'), { timeout: 10000 }).toBe(true);
    await noPlaceholder();
    await shot('job-log');
  });

  it('在线用户: lists the live sessions, searches by 登录地址 / 用户名称, and 强退 signs one session out', async () => {
    // A session of its own to force out (other test files may have operator sessions open: only this one goes).
    const token = await apiLogin('operator', 'operator123');
    const tokenId = crypto.createHash('sha256').update(token).digest('hex');
    expect((await api('POST', '/dev-api/api/auth/getRuleList', { token })).code).toBe(200);

    await page.goto('/monitor/online');
    const list = page.locator('.engine-list[data-resource="sys_user_online"]');
    for (const title of ['会话编号', '登录名称', '所属部门', '主机', '登录地点', '浏览器', '操作系统', '登录时间'])
      await list.locator('.ant-table-thead th', { hasText: title }).first().waitFor();
    // This browser's own session is listed.
    await list.locator('.ant-table-row', { hasText: 'admin' }).first().waitFor();
    await noPlaceholder();
    await shot('online');

    await list.getByPlaceholder('请输入登录地址').fill('127.0.0.1');
    await list.getByPlaceholder('请输入用户名称').fill('operator');
    await list.getByRole('button', { name: /(^|\s)搜\s*索$/ }).click(); // not 隐藏搜索 (the list's right toolbar)
    const row = list.locator('.ant-table-row', { hasText: tokenId });
    await row.waitFor();
    await expect.poll(() => list.locator('.ant-table-row', { hasText: 'admin' }).count()).toBe(0);

    await row.getByRole('button', { name: '强退' }).click();
    const confirm = page.locator('.ant-modal', { hasText: '是否确认强退名称为"operator"的用户？' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: /强\s*退/ }).click();
    await page.getByText('强退成功').first().waitFor();
    await expect.poll(() => row.count()).toBe(0);
    expect(await api('POST', '/dev-api/api/auth/getRuleList', { token })).toEqual({ code: 401, msg: '登录状态已失效（已退出或被强制下线），请重新登录' });
  });

  it('缓存监控 and 缓存列表 show the cache names, keys and a value', async () => {
    await page.goto('/monitor/cache');
    await page.getByText('缓存命中').waitFor();
    await page.getByText('字典数据（dict）').waitFor();
    await noPlaceholder();
    await shot('cache');

    await page.goto('/monitor/cacheList');
    await page.locator('.ant-table-row:visible', { hasText: '字典数据' }).click();
    const keyCard = page.locator('.ant-card:visible', { hasText: '键名列表' });
    await keyCard.locator('.ant-table-row').first().click();
    await expect.poll(() => page.locator('textarea:visible').inputValue()).toContain('dictLabel');
    await noPlaceholder();
    await shot('cache-list');
  });

  it('数据监控 and 服务监控 show the database, SQL statistics and the server process', async () => {
    await page.goto('/monitor/druid');
    await page.getByText('最频繁的语句').waitFor();
    await page.getByText('WAL 大小').waitFor();
    expect(await page.locator('.ant-table-row:visible').count()).toBeGreaterThan(0);
    await noPlaceholder();
    await shot('druid');

    await page.goto('/monitor/server');
    await page.getByText('Node.js 进程信息').waitFor();
    await page.getByText('事件循环延迟(平均/P99/最大)').waitFor();
    await noPlaceholder();
    await shot('server');
  });
});
