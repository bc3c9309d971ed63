import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshotDir, signIn } from './browser';

/**
 * Volunteer planning end to end against the real server and the built console: an expert fills 张三's plan
 * (filters, ten options, drag reorder, save, submit), the leader approves it with a comment, the expert can no longer
 * edit, the history shows both actions, and the PDF carries the student's name and the first school.
 */
describe('volunteer planning', () => {
  let browser: Browser;
  let expert: Page;
  let firstSchool = '';
  beforeAll(async () => {
    browser = await launchBrowser();
    fs.mkdirSync(screenshotDir, { recursive: true });
    expert = await newPage(browser, 1440, 900);
    await signIn(expert, 'expert', 'expert123');
  });
  afterAll(async () => {
    await browser?.close();
  });

  // antd spaces out two-character labels (保 存) and an icon adds its own name (save 保存).
  const button = (page: Page, name: string) => page.getByRole('button', { name: new RegExp(`(^|\\s)${[...name].join('\\s*')}$`) });
  const planRows = (page: Page) => page.locator('[data-testid=plan-row]');
  const planOrder = (page: Page) => planRows(page).evaluateAll((rows) => rows.map((r) => r.getAttribute('data-line-id')));
  /** In-app navigation (as a menu click does): the pages of the open tabs stay mounted. */
  const inApp = (page: Page, to: string) =>
    page.evaluate((p) => {
      window.history.pushState({}, '', p);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, to);

  it('the expert opens 张三 from the student list, filters, adds ten options, reorders by drag and saves', async () => {
    const page = expert;
    await page.goto('/volunteer/list');
    const row = page.locator('.ant-table-row', { hasText: '张三' });
    await row.waitFor();
    await row.getByRole('button', { name: /填\s*报/ }).click();
    await page.waitForURL(/\/volunteer\/Filling\?studentId=\d+/);
    await page.locator('.zy-expert-crumb', { hasText: '张三（600分）' }).waitFor();
    await page.locator('.zy-options-table .ant-table-row').first().waitFor();

    // A filter builds the request: ticking 211 asks the server for 211 schools only.
    const filtered = page.waitForRequest((r) => r.url().includes('/Filling/schoolEnrollChance') && (r.postDataJSON()?.tags ?? []).includes('211'));
    // Visible only: the student list stays mounted, hidden, in its kept tab with its own 共 N 条.
    await page
      .getByText(/^共 [\d,]+ 条$/)
      .filter({ visible: true })
      .waitFor();
    const tag211 = page.getByRole('checkbox', { name: '211' });
    await tag211.click();
    await expect.poll(() => tag211.isChecked()).toBe(true);
    const sent = (await filtered).postDataJSON();
    expect(sent).toMatchObject({ studentId: expect.any(Number), tags: ['211'] });
    // The table is virtualised: only the visible rows exist; the count says how many matched.
    const total = page.getByText(/^共 [\d,]+ 条$/).filter({ visible: true });
    await total.waitFor();
    expect(Number(((await total.textContent()) ?? '').replace(/\D/g, ''))).toBeGreaterThan(10);
    const names = (await page.locator('.zy-options-table .ant-table-row').first().textContent()) ?? '';
    expect(names).toContain('211');

    // Ten options across the tiers: 3 冲, 4 稳, 3 保 (each tier tab asks the server for that tier).
    for (const [tier, n] of [
      ['冲', 3],
      ['稳', 4],
      ['保', 3],
    ] as const) {
      const tab = page.locator('.ant-segmented-item', { hasText: new RegExp(`^${tier} `) });
      const count = Number(((await tab.textContent()) ?? '').replace(/\D/g, ''));
      expect(count).toBeGreaterThanOrEqual(n);
      const asked = page.waitForRequest((r) => r.url().includes('/Filling/schoolEnrollChance') && (r.postDataJSON()?.tier ?? []).includes(tier));
      await tab.click();
      await asked;
      await page.getByText(`共 ${count.toLocaleString('zh-CN')} 条`, { exact: true }).waitFor();
      for (let i = 0; i < n; i++)
        await page
          .getByRole('button', { name: /^加入 / })
          .first()
          .click();
    }
    await expect.poll(() => planRows(page).count()).toBe(10);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByLabel('志愿数').filter({ hasText: '10/96' }).waitFor();
    await page.screenshot({ path: path.join(screenshotDir, 'volunteer-filling.png') });

    // Drag the first entry below the third.
    const before = await planOrder(page);
    const handle = await page.getByRole('button', { name: '拖动排序 第1个志愿' }).boundingBox();
    const target = await planRows(page).nth(2).boundingBox();
    if (!handle || !target) throw new Error('拖动目标不可见');
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    for (let step = 1; step <= 12; step++) {
      await page.mouse.move(
        handle.x + handle.width / 2,
        handle.y + handle.height / 2 + ((target.y + target.height / 2 - (handle.y + handle.height / 2)) * step) / 12,
      );
    }
    await page.mouse.up();
    await expect.poll(() => planOrder(page)).toEqual([before[1], before[2], before[0], ...before.slice(3)]);

    await button(page, '保存').click();
    await page.getByText('保存成功').waitFor();
    await page.locator('.zy-plan-editor .ant-tag', { hasText: '草稿' }).waitFor();
    expect(await planOrder(page)).toEqual([before[1], before[2], before[0], ...before.slice(3)]);
    firstSchool = ((await planRows(page).first().locator('strong').first().textContent()) ?? '').trim();
    expect(firstSchool).not.toBe('');
    await page.locator('.zy-plan-editor').screenshot({ path: path.join(screenshotDir, 'volunteer-plan.png') });
  });

  it('the expert submits; the plan becomes read-only', async () => {
    const page = expert;
    await button(page, '提交审核').click();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: '提交审核' }).click();
    await page.getByText('提交成功').waitFor();
    await page.locator('.zy-plan-editor .ant-tag', { hasText: '待审核' }).waitFor();
    await expect(page.getByRole('button', { name: /^拖动排序/ }).count()).resolves.toBe(0);
  });

  it('the leader approves with a comment in 志愿审核', async () => {
    const leader = await newPage(browser, 1440, 900);
    await signIn(leader, 'leader', 'leader123');
    await leader.goto('/volunteer/examine');
    const row = leader.locator('.ant-table-row', { hasText: '张三' });
    await row.waitFor();
    await row.getByRole('button', { name: /^通\s*过$/ }).click();
    const dialog = leader.locator('.ant-modal', { hasText: '审批通过' });
    await dialog.getByRole('textbox').fill('梯度合理，同意');
    await dialog.getByRole('button', { name: /^通\s*过$/ }).click();
    // The list of plans awaiting review no longer holds 张三.
    await expect.poll(() => leader.locator('.ant-table-row', { hasText: '张三' }).count()).toBe(0);
    await leader.context().close();
  });

  it('the expert can no longer edit, and the history shows the submission and the approval', async () => {
    const page = expert;
    await page.reload();
    await page.locator('.zy-plan-editor .ant-tag', { hasText: '已通过' }).waitFor();
    await page.getByText('审批意见：梯度合理，同意').waitFor();
    await expect(button(page, '保存').isDisabled()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: /^拖动排序/ }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: /^删除 第/ }).count()).resolves.toBe(0);
    await page.locator('.zy-options-table .ant-table-row').first().waitFor();
    await expect(
      page
        .getByRole('button', { name: /^加入 / })
        .first()
        .isDisabled(),
    ).resolves.toBe(true);

    await button(page, '更多').click();
    await page.getByRole('menuitem', { name: '操作记录' }).click();
    const dialog = page.locator('.ant-modal', { hasText: '操作记录' });
    await dialog.locator('[data-testid=history-item]').first().waitFor();
    const text = (await dialog.textContent()) ?? '';
    expect(text).toMatch(/提交/);
    expect(text).toMatch(/通过/);
    expect(text).toContain('梯度合理，同意');
    await dialog.locator('.ant-modal-close').click();
  });

  it('the PDF downloads and holds the student name and the first school', async () => {
    const page = expert;
    await button(page, '更多').click();
    const downloading = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: '导出 PDF' }).click();
    const file = await downloading;
    expect(file.suggestedFilename()).toBe('志愿方案-张三.pdf');
    const target = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'zy-pdf-')), 'plan.pdf');
    await file.saveAs(target);
    const text = execFileSync('pdftotext', [target, '-'], { encoding: 'utf8' });
    expect(text).toContain('张三');
    expect(text).toContain(firstSchool);
  });

  it('志愿保存 lists the same students as 学生志愿, with 详情 and the plan as Excel', async () => {
    const page = expert;
    // 学生志愿 stays open in its kept tab; 志愿保存 is a second page of the same list (which of the two pages answers a
    // button is tests/unit/volunteer/studentList.test.tsx's).
    await page.goto('/volunteer/list');
    await page.locator('.ant-table-row', { hasText: '张三' }).filter({ visible: true }).waitFor();
    await inApp(page, '/volunteer/savevolunteer');
    const row = page.locator('.engine-list[data-resource="vol_saved_plan"] .ant-table-row', { hasText: '张三' });
    await row.waitFor();
    // No 新增学生 / 导入 here: 志愿保存 only lists and exports.
    expect(
      await page
        .locator('.engine-list[data-resource="vol_saved_plan"]')
        .getByRole('button', { name: /新增学生|导\s*入/ })
        .count(),
    ).toBe(0);
    await row.getByRole('button', { name: /详\s*情/ }).click();
    const drawer = page.locator('.ant-drawer-content-wrapper').filter({ visible: true });
    await drawer.getByText('学生信息 · 张三').waitFor();
    await drawer.locator('.ant-drawer-close').click();
    await expect.poll(() => drawer.count()).toBe(0);
    const downloading = page.waitForEvent('download');
    await row.getByRole('button', { name: 'Excel' }).click();
    const file = await downloading;
    expect(file.suggestedFilename()).toBe('志愿方案-张三.xlsx');
    await page.screenshot({ path: path.join(screenshotDir, 'volunteer-saved.png') });
  });
});
