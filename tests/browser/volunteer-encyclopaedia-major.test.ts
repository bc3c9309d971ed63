import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin } from './api';
import { launchBrowser, newPage, screenshotDir } from './browser';
import { openFilling, openTool } from './volunteerSteps';

/**
 * 专业百科 (issue 27, item 2): 专业详情 of 计算机科学与技术 shows the 2025 本科专业目录 facts and the Shandong lines
 * teaching it with their year and each school's 第四轮学科评估 (2017) grade; the tool cabinet's 专业库 browses the
 * catalogue and opens the same view; 职业库 and 诊断换算 say plainly that no data exists yet.
 */
describe('major encyclopaedia', () => {
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

  it('专业详情 of 计算机科学与技术 shows its catalogue facts and the Shandong schools with lines and grades', async () => {
    const page = await newPage(browser, 1440, 900);
    await openFilling(page, '王五');
    await page.getByRole('checkbox', { name: '含概率低于 5% 的' }).check();
    await page.getByLabel('专业名称').fill('计算机科学与技术');
    const link = page
      .locator('.zy-options-table')
      .getByTitle(/^计算机科学与技术（专业代号 \w+）（专业详情）$/)
      .first();
    await link.waitFor();
    await link.click();

    const dialog = page.getByRole('dialog', { name: '专业详情 · 计算机科学与技术' });
    const facts = dialog.getByTestId('major-facts');
    await facts.waitFor();
    const cell = (label: string) =>
      facts.locator('.ant-descriptions-item-label', { hasText: new RegExp(`^${label}$`) }).locator('+ .ant-descriptions-item-content');
    expect(await cell('专业代码').textContent()).toBe('080901');
    expect(await cell('门类').textContent()).toBe('工学（08）');
    expect(await cell('专业类').textContent()).toBe('计算机类（0809）');
    expect(await cell('学位授予门类').textContent()).toBe('工学 或 理学');
    expect(await cell('特设专业').textContent()).toBe('否');
    expect(await cell('国家控制布点专业').textContent()).toBe('否');
    expect(await cell('依据').textContent()).toBe('普通高等学校本科专业目录（2025年）');

    // Only modules with data are shown: 专业介绍, none of the seven empty ones.
    await dialog.getByText('专业介绍', { exact: true }).waitFor();
    for (const name of ['培养目标', '主要课程', '就业方向', '知名学者']) expect(await dialog.getByText(name, { exact: true }).count()).toBe(0);
    expect(await dialog.getByText(/（暂无）/).count()).toBe(0);

    // The lines: year on every figure (the newest loaded year), the grade column of 0812 (2017).
    const label = dialog.getByText(/^\d{4}年开设院校$/);
    await label.waitFor();
    const year = (await label.textContent())?.slice(0, 4);
    await dialog.getByRole('columnheader', { name: '计算机科学与技术学科评估（2017）' }).waitFor();
    const rows = dialog.locator('.ant-table-row');
    await expect
      .poll(async () => (await rows.locator('.ant-table-cell:nth-child(2)').allTextContents()).slice(0, 5).every((t) => t.startsWith(`${year} · `)))
      .toBe(true);
    // Published grades (discipline_eval_round4_2017.csv): 清华大学 and 中国科学院大学 A+, 南京大学 A.
    for (const [school, grade] of [
      ['清华大学', 'A+'],
      ['中国科学院大学', 'A+'],
      ['南京大学', 'A'],
    ])
      await rows
        .filter({ hasText: school })
        .first()
        .locator('.ant-tag', { hasText: new RegExp(`^${grade.replace('+', '\\+')}$`) })
        .waitFor();
    // 计算机类 lines lead to the major and say so.
    await dialog.getByText('按计算机类招生').first().waitFor();
    await page.screenshot({ path: path.join(screenshotDir, 'volunteer-encyclopaedia-major.png') });
    await page.context().close();
  });

  const tool = (page: Page, name: string) => openTool(page, name, expertToken);

  it('专业库 browses the 2025 catalogue by 门类 and 专业类 and opens a major with its Shandong schools and grades', async () => {
    const page = await newPage(browser, 1280, 900);
    const lib = await tool(page, 'major-library');
    await lib.getByText('普通高等学校本科专业目录（2025年），点击专业名称查看专业百科').waitFor();
    await lib.getByText('共 845 条，第 1/17 页').waitFor();
    await lib.getByLabel('门类').selectOption('08');
    await lib.getByLabel('专业类').selectOption('0809');
    const rows = lib.locator('#r tbody tr');
    await expect.poll(async () => new Set(await rows.locator('td:nth-child(4)').allTextContents())).toEqual(new Set(['计算机类']));
    expect(await rows.nth(0).locator('td').allTextContents()).toEqual(['080901', '计算机科学与技术', '工学', '计算机类', '工学 或 理学']);
    await page.screenshot({ path: path.join(screenshotDir, 'volunteer-toolbox-major-library.png') });

    await lib.locator('a.major-link', { hasText: /^计算机科学与技术$/ }).click();
    await lib.getByRole('heading', { name: '计算机科学与技术', level: 2 }).waitFor();
    const heading = lib.getByRole('heading', { name: /^山东开设院校（\d{4}年投档，\d+ 所）$/ });
    await heading.waitFor();
    const year = (await heading.textContent())?.match(/\d{4}/)?.[0];
    const schools = lib.locator('#major-detail tbody tr');
    expect(await lib.locator('#major-detail thead th').allTextContents()).toEqual([
      '院校',
      '投档专业（类）',
      `${year}年最低分`,
      `${year}年最低位次`,
      '计算机科学与技术学科评估（2017）',
    ]);
    expect(await schools.filter({ hasText: '中国科学院大学' }).first().locator('td').nth(4).textContent()).toBe('A+');
    await lib.locator('#major-detail tr', { hasText: '山东大学' }).first().locator('.grade', { hasText: 'B+' }).waitFor();
    await page.screenshot({ path: path.join(screenshotDir, 'volunteer-toolbox-major-encyclopaedia.png') });
    await page.context().close();
  });

  it('职业库 and 诊断换算 say that no data exists yet and what to use meanwhile, as a notice, not an error', async () => {
    const page = await newPage(browser, 1280, 700);
    const career = await tool(page, 'career-library');
    await career.getByRole('heading', { name: '暂无数据' }).waitFor();
    await career.getByText(/本系统目前没有这类数据，因此暂不提供/).waitFor();
    expect(await career.locator('.error').count()).toBe(0);
    await career.getByRole('link', { name: '专业库' }).waitFor();
    await page.screenshot({ path: path.join(screenshotDir, 'volunteer-toolbox-career-library.png') });

    const diagnosis = await tool(page, 'diagnosis');
    await diagnosis.getByText(/需要每次模拟考试的全省分数分布/).waitFor();
    await diagnosis.getByRole('link', { name: '一分一段' }).click();
    await diagnosis.getByRole('button', { name: '查询位次' }).waitFor();
    await page.context().close();
  });
});
