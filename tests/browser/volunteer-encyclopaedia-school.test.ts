import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin } from './api';
import { launchBrowser, newPage, screenshotDir } from './browser';
import { openFilling, openTool } from './volunteerSteps';

/**
 * 院校百科 (issue 27, item 1): 院校详情 shows the 软科 2026 rank, the 双一流 (2022) disciplines and the 第四轮学科评估
 * (2017) grades; the tool cabinet's 院校排名, 学科评估 and 院校库 list real rows of the reference data.
 */
describe('school encyclopaedia', () => {
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

  it('院校详情 of 北京大学 shows its 软科 rank, 双一流 status and A+ disciplines, and no tab without data', async () => {
    const page = await newPage(browser, 1440, 900);
    await openFilling(page, '王五');
    // 王五 (630) has under 5 % at 北京大学: those lines are shown only when asked for.
    await page.getByRole('checkbox', { name: '含概率低于 5% 的' }).check();
    await page.getByLabel('院校名称').fill('北京大学');
    const link = page.locator('.zy-options-table').getByTitle('北京大学（院校详情）', { exact: true }).first();
    await link.waitFor();
    await link.click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('软科中国大学排名 2026：第 2 名').waitFor();

    await dialog.getByRole('tab', { name: '双一流学科' }).click();
    await dialog.getByText('第二轮“双一流”建设学科（2022年公布）').waitFor();
    await dialog.getByText(/自主确定建设学科并自行公布/).waitFor();

    await dialog.getByRole('tab', { name: '学科评估' }).click();
    await dialog.getByText('第四轮学科评估（2017年）：公布 49 个一级学科').waitFor();
    const aPlus = dialog.locator('.zy-evaluation-grade[data-grade="A+"]');
    await expect.poll(() => aPlus.textContent()).toContain('前2%或前2名');
    const aPlusNames = await aPlus.getByLabel('A+ 学科').locator('.ant-tag').allTextContents();
    expect(aPlusNames).toHaveLength(21);
    expect(aPlusNames).toEqual(expect.arrayContaining(['哲学', '数学', '化学']));
    // Tabs the data does not fill (硕博点, 院士 …) are left out, not shown as 暂无.
    for (const name of ['硕博点', '特色专业', '院系设置', '院士', '知名校友']) expect(await dialog.getByRole('tab', { name }).count()).toBe(0);
    await page.screenshot({ path: path.join(screenshotDir, 'volunteer-encyclopaedia-school.png') });
    await page.context().close();
  });

  const tool = (page: Page, name: string) => openTool(page, name, expertToken);

  it('the tool cabinet lists 院校排名 and 学科评估 from the data, and 院校库 opens a school', async () => {
    const page = await newPage(browser, 1280, 900);
    const rank = await tool(page, 'school-rank');
    await rank.getByText(/^软科中国大学排名 2026（主榜）/).waitFor();
    const rows = rank.locator('#r tbody tr');
    await expect.poll(() => rows.count()).toBe(20);
    expect(await rows.nth(0).locator('td').allTextContents()).toEqual(['1', '清华大学', '北京', '综合', '1087.1', '双一流985211']);
    expect(await rows.nth(1).locator('td').nth(1).textContent()).toBe('北京大学');
    // Filter: 山东's 理工 schools only.
    await rank.getByLabel('所在省份').selectOption('山东');
    await rank.getByLabel('类型').selectOption('理工');
    await rank.getByRole('button', { name: '查询' }).click();
    await expect.poll(async () => (await rows.locator('td:nth-child(3)').allTextContents()).every((p) => p === '山东')).toBe(true);
    expect(new Set(await rows.locator('td:nth-child(4)').allTextContents())).toEqual(new Set(['理工']));
    await page.screenshot({ path: path.join(screenshotDir, 'volunteer-toolbox-school-rank.png') });

    const review = await tool(page, 'subject-review');
    await review.getByLabel('一级学科').selectOption('0812');
    await review.getByLabel('评估等级').selectOption('A+');
    await review.getByRole('button', { name: '查看' }).click();
    await review.getByText(/^0812 计算机科学与技术：/).waitFor();
    const cs = review.locator('#r tbody tr');
    await expect
      .poll(async () => (await cs.locator('td:nth-child(3)').allTextContents()).sort())
      .toEqual(['中国科学院大学', '北京大学', '国防科技大学', '清华大学', '浙江大学'].sort());
    expect(new Set(await cs.locator('td:nth-child(2)').allTextContents())).toEqual(new Set(['前2%或前2名']));
    await review.getByPlaceholder('如 北京大学').fill('北京大学');
    await review.getByRole('button', { name: '查询院校' }).click();
    await review.locator('#sr tr.top', { hasText: '哲学' }).waitFor();
    await page.screenshot({ path: path.join(screenshotDir, 'volunteer-toolbox-subject-review.png') });

    const library = await tool(page, 'school-library');
    await library.getByPlaceholder('如 山东大学').fill('山东大学');
    await library.getByRole('button', { name: '查询' }).click();
    // The catalogue lists 山东大学 under several 院校代码 (A422 and the Y-codes of its special plans): the first opens.
    await library
      .locator('#r a.school-link', { hasText: /^山东大学$/ })
      .first()
      .click();
    await library.getByRole('heading', { name: '山东大学', level: 2 }).waitFor();
    await library.getByText(/^软科中国大学排名 2026：第 \d+ 名/).waitFor();
    await library.getByRole('heading', { name: '第四轮学科评估（2017年）' }).waitFor();
    await library.getByRole('heading', { name: '第二轮“双一流”建设学科（2022年公布）' }).waitFor();
    await library.getByRole('heading', { name: /^在山东的历年录取/ }).waitFor();
    await page.screenshot({ path: path.join(screenshotDir, 'volunteer-toolbox-school-library.png'), fullPage: true });
    await library.getByRole('button', { name: '返回列表' }).click();
    await library
      .locator('#r a.school-link', { hasText: /^山东大学$/ })
      .first()
      .waitFor();
    await page.context().close();
  });
});
