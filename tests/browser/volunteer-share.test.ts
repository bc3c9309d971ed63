import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin } from './api';
import { baseURL, launchBrowser, newPage, screenshotDir } from './browser';
import { openFilling, openTool } from './volunteerSteps';

/**
 * The share link opened by a visitor who never signed in (server-rendered /share/zy), the 工具箱 tools on the
 * admission data, and the school detail's 历年分数线 tab.
 */
describe('volunteer share page, toolbox and school detail', () => {
  let browser: Browser;
  let expertToken = '';
  beforeAll(async () => {
    browser = await launchBrowser();
    fs.mkdirSync(screenshotDir, { recursive: true });
    expertToken = await apiLogin('expert', 'expert123');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('a visitor without a session opens the share link and sees the plan; a forged link gets a clear page', async () => {
    // A page envelope carries rows at the top level.
    const list = (await api('POST', '/dev-api/api/index/subscriber', { token: expertToken, body: { name: '王五' } })) as unknown as {
      rows: Array<{ studentId: number; name: string }>;
    };
    const studentId = list.rows.find((s) => s.name === '王五')?.studentId;
    expect(studentId).toBeTypeOf('number');
    const link = await api<{ url: string }>('POST', '/appv2/api/index/shareZY', { token: expertToken, body: { studentId, expireHours: 24 } });
    expect(link.code).toBe(200);

    const visitor = await newPage(browser, 1280, 800);
    await visitor.goto(link.data?.url ?? '');
    // The page names the exam year the family fills: the year after the newest loaded lines (2027 on 2026's).
    const newestLines = Math.max(
      ...fs.readdirSync(new URL('../../server/db/seed/data/gaokao-shandong/', import.meta.url)).map((n) => Number(/^toudang-(\d{4})\.csv$/.exec(n)?.[1] ?? 0)),
    );
    const examYear = newestLines + 1;
    await visitor.getByRole('heading', { name: `王五 的${examYear}年高考志愿方案（只读）` }).waitFor();
    expect(visitor.url()).toContain('/share/zy');
    expect(await visitor.locator('tbody tr').count()).toBeGreaterThan(0);
    expect(await visitor.getByRole('columnheader', { name: `${examYear}年估计` }).count()).toBe(1);
    expect(await visitor.getByRole('columnheader', { name: '投档线（年份 · 最低分 · 最低位次）' }).count()).toBe(1);
    await visitor.screenshot({ path: path.join(screenshotDir, 'volunteer-share.png'), fullPage: true });

    await visitor.goto('/share/zy?token=forged');
    await visitor.getByRole('heading', { name: '分享链接无效或已被取消' }).waitFor();
    await visitor.context().close();
  });

  it('the 工具箱 tools that needed plan data work: 招生计划, 选科查询, 同分去向', async () => {
    const page = await newPage(browser, 1280, 860);
    // The site takes the session from its framing console by postMessage; stand in for the console here.
    const frameFor = (tool: string) => openTool(page, tool, expertToken);

    const plans = await frameFor('plan-general');
    await plans.getByRole('heading', { name: '各年招生计划（投档计划数）' }).waitFor();
    await plans.getByRole('columnheader', { name: '专业代号' }).waitFor();
    await expect.poll(() => plans.locator('#r tbody tr').count()).toBe(20);
    await page.screenshot({ path: path.join(screenshotDir, 'volunteer-toolbox-plans.png') });

    // The browser server holds no subject requirements: import a few through the administrator's import path.
    const lines = await fetch(`${baseURL()}/toolbox/api/plans?pageSize=6`, { headers: { authorization: `Bearer ${expertToken}` } });
    const rows = ((await lines.json()) as { data: { rows: Array<{ schoolCode: string; majorCode: string | null; majorName: string }> } }).data.rows;
    const csv = [
      'schoolCode,majorCode,major,subjectRequirement',
      ...rows.map((r, i) => `${r.schoolCode},${r.majorCode ?? String(i + 1).padStart(2, '0')},"${r.majorName}",${i % 2 ? '不限' : '物理、化学'}`),
    ].join('\n');
    const imported = await api('POST', '/dev-api/volunteer/admission/import', {
      token: await apiLogin('admin', 'admin123'),
      body: { province: '山东', kind: 'subjects', year: 2025, csv },
    });
    expect(imported.code, imported.msg).toBe(200);

    const subjects = await frameFor('subject-selection');
    for (const s of ['历史', '地理', '思想政治']) await subjects.getByLabel(s, { exact: true }).check();
    await subjects.getByRole('button', { name: '查询' }).click();
    await subjects.getByRole('columnheader', { name: '能否报考' }).waitFor();
    await expect.poll(() => subjects.getByText('不可报', { exact: true }).count()).toBeGreaterThan(0);
    await page.screenshot({ path: path.join(screenshotDir, 'volunteer-toolbox-subjects.png') });

    const same = await frameFor('same-score');
    await same.getByPlaceholder('如 600').fill('600');
    await same.getByRole('button', { name: '查询去向' }).click();
    await same.getByText(/^最低分 600 分的专业，历年共 \d+ 个$/).waitFor();
    await page.screenshot({ path: path.join(screenshotDir, 'volunteer-toolbox-same-score.png') });
    await page.context().close();
  });

  it('the school detail shows the lines of every year as a chart and a table per major, and no empty tab', async () => {
    const page = await newPage(browser, 1440, 900);
    await openFilling(page, '王五');
    await page
      .locator('.zy-options-table .ant-table-row')
      .first()
      .getByTitle(/（院校详情）$/)
      .click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('tab', { name: '历年分数线' }).click();
    await dialog.getByRole('img', { name: '历年分数线走势图' }).locator('svg').waitFor();
    expect(await dialog.getByRole('tab', { name: /暂无/ }).count()).toBe(0);
    expect(await dialog.getByText(/^暂无.*数据$/).count()).toBe(0);
    await page.screenshot({ path: path.join(screenshotDir, 'volunteer-school.png') });
    await page.context().close();
  });
});
