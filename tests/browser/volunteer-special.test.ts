import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshotDir, signIn } from './browser';

/**
 * Special plans and the student import in the console: the filling page tags each line with its 计划类型 and filters
 * by it (a 地方专项 line is not offered to 张三, who declared no 专项资格), and the students page imports an .xlsx.
 */
describe('volunteer special plans and student import', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchBrowser();
    fs.mkdirSync(screenshotDir, { recursive: true });
    page = await newPage(browser, 1440, 900);
    await signIn(page, 'expert', 'expert123');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('filters the options by 计划类型 and shows the tags; special plans need the student’s eligibility', async () => {
    await page.goto('/volunteer/list');
    const row = page.locator('.ant-table-row', { hasText: '张三' });
    await row.waitFor();
    // 填报, or 查看方案 once another file has submitted 张三's plan (the browser files share one server).
    await row.getByRole('button', { name: /填\s*报|查看方案/ }).click();
    await page.waitForURL(/\/volunteer\/Filling\?studentId=\d+/);
    await page.locator('.zy-options-table .ant-table-row').first().waitFor();

    const pick = async (label: RegExp) => {
      await page.getByRole('combobox', { name: '计划类型' }).click();
      await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: label }).first().click();
      await page.keyboard.press('Escape');
    };
    const asked = page.waitForRequest((r) => r.url().includes('/Filling/schoolEnrollChance') && (r.postDataJSON()?.planType ?? []).includes('中外合作'));
    await pick(/^中外合作（\d+）$/);
    expect((await asked).postDataJSON()).toMatchObject({ planType: ['中外合作'] });
    const first = page.locator('.zy-options-table .ant-table-row').first();
    await expect.poll(async () => (await first.textContent()) ?? '').toContain('中外合作');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(screenshotDir, 'volunteer-special-plans.png') });

    // 地方专项 needs the eligibility 张三 has not declared: nothing is offered.
    await pick(/^中外合作（\d+）$/); // a second click unticks it
    const local = page.waitForRequest((r) => r.url().includes('/Filling/schoolEnrollChance') && (r.postDataJSON()?.planType ?? []).includes('地方专项'));
    await pick(/^地方专项（\d+） · 需专项资格$/);
    await local;
    await page.getByText('共 0 条', { exact: true }).waitFor();
  });

  it('imports students from an .xlsx with the 导入 button', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('学生');
    ws.addRow(['姓名', '分数', '选考科目', '专项资格']);
    ws.addRow(['浏览器导入', 590, '物理、化学、地理', '地方专项']);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'zy-import-')), 'students.xlsx');
    await wb.xlsx.writeFile(file);

    await page.goto('/volunteer/list');
    await page.locator('.ant-table-row').first().waitFor();
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: /(^|\s)导\s*入$/ }).click();
    await (await chooser).setFiles(file);
    await page.getByText('导入成功，共 1 名学生').waitFor();
    await page.locator('.ant-table-row', { hasText: '浏览器导入' }).waitFor();
  });
});
