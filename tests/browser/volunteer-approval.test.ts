import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin } from './api';
import { launchBrowser, newPage, screenshotDir, signIn } from './browser';

/**
 * The review side of the volunteer module as engine screens (schemas/volunteer/): 预约管理's 完成 is the schema's
 * workflow action (confirm, the module's route, the server's message, the list refreshed), and 领导审批's 专家列表
 * 查看学生 opens 学生列表 filtered by that expert.
 */
describe('志愿审核 / 领导审批 / 预约管理 in Chromium', () => {
  let browser: Browser;
  let leader: Page;
  const remark = `浏览器测试预约${Date.now()}`;

  beforeAll(async () => {
    browser = await launchBrowser();
    fs.mkdirSync(screenshotDir, { recursive: true });
    const token = await apiLogin('leader', 'leader123');
    const students = (await api('GET', '/dev-api/api/AdvanceApproval/students?name=%E5%BC%A0%E4%B8%89&pageNum=1&pageSize=10', { token })) as unknown as {
      rows: Array<{ studentId: number }>;
    };
    // A free slot some weeks ahead (an expert cannot hold two appointments at once).
    const appointTime = Date.now() + (20 + Math.floor(Math.random() * 300)) * 60 * 60 * 1000;
    const added = await api('POST', '/dev-api/api/appointment/add', { token, body: { studentId: students.rows[0].studentId, appointTime, remark } });
    expect(added.code, added.msg).toBe(200);
    leader = await newPage(browser, 1440, 900);
    await signIn(leader, 'leader', 'leader123');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('预约管理: 完成 asks, calls the module, shows its message and the row becomes 已完成', async () => {
    await leader.goto('/volunteer/appointment');
    const row = leader.locator('.ant-table-row', { hasText: remark });
    await row.getByText('待服务').waitFor();
    await row.getByRole('button', { name: /^完\s*成$/ }).click();
    const dialog = leader.locator('.ant-modal', { hasText: '标记为「已完成」' });
    await dialog.getByText('张三').waitFor();
    await dialog.getByRole('button', { name: /^完\s*成$/ }).click();
    await leader.getByText('修改成功').first().waitFor();
    await row.getByText('已完成').waitFor();
    // A finished appointment offers none of the pending row's steps.
    expect(await row.getByRole('button', { name: /^(完\s*成|取\s*消|改\s*约)$/ }).count()).toBe(0);
    await leader.screenshot({ path: path.join(screenshotDir, 'volunteer-appointment.png'), fullPage: true });
  });

  it('领导审批: 查看学生 of an expert opens 学生列表 filtered by that expert', async () => {
    await leader.goto('/volunteer/advanceApproval');
    await leader.getByRole('tab', { name: /专家列表（[1-9]\d*）/ }).click();
    const expertRow = leader.locator('.ant-table-row:visible', { hasText: '李老师' });
    await expertRow.getByRole('button', { name: /查看学生/ }).click();
    await leader.getByRole('tab', { name: '学生列表', selected: true }).waitFor();
    const rows = leader.locator('.ant-tabs-tabpane-active .ant-table-row');
    await rows.first().waitFor();
    await expect.poll(async () => (await rows.allInnerTexts()).every((t) => t.includes('李老师'))).toBe(true);
    await leader.locator('.ant-tabs-tabpane-active .ant-table-row', { hasText: '张三' }).waitFor();
    await leader.screenshot({ path: path.join(screenshotDir, 'volunteer-advance-approval-students.png'), fullPage: true });
  });
});
