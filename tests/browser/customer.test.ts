import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin } from './api';
import { launchBrowser, newPage, screenshotDir, signIn } from './browser';

/**
 * 会员卡 and 用户管理 in Chromium against the real server, signed in as leader: every page of both menus is a working
 * screen; 发卡 of 200 cards shows its progress; 发卡记录 downloads the list; 开卡 for a customer shows the card and
 * user type in 用户列表 and the expert then sees the student; the customer is recycled and restored.
 */

const PAGES: Array<[string, string, string]> = [
  ['/card/release', '门店余额（元）', 'card-release'],
  ['/card/record', '卡号段', 'card-record'],
  ['/card/date', '期间激活（张）', 'card-date'],
  ['/card/two', '未使用（', 'card-two'],
  ['/manage/userList', '用户类型', 'customer-userList'],
  ['/manage/recycle', '回收站中的用户 30 天后自动彻底删除', 'customer-recycle'],
  ['/manage/appraisal', '霍兰德代码', 'customer-appraisal'],
  ['/manage/clientData', '收件地址', 'customer-clientData'],
  ['/manage/memo', '备忘内容', 'customer-memo'],
  ['/manage/message', '未读消息', 'customer-message'],
];

describe('customers and membership cards in Chromium', () => {
  let browser: Browser;
  let page: Page;
  let token: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    fs.mkdirSync(screenshotDir, { recursive: true });
    token = await apiLogin('leader', 'leader123');
    page = await newPage(browser, 1440, 900);
    await signIn(page, 'leader', 'leader123');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('every page under 会员卡 and 用户管理 is a working screen for leader', async () => {
    for (const [url, text] of PAGES) {
      await page.goto(url);
      await page.getByText(text).first().waitFor({ timeout: 15000 });
      expect(await page.getByText('建设中').count(), url).toBe(0);
    }
  });

  it('发卡: 200 cards with progress, then 发卡记录 downloads the list', async () => {
    await page.goto('/card/release');
    await page.getByText('门店余额（元）').waitFor();
    await page.getByLabel('发卡数量').fill('200');
    await page.getByText('79,600.00 元').waitFor(); // 200 × 398.00
    await page.screenshot({ path: path.join(screenshotDir, 'card-release.png'), fullPage: true });
    await page
      .getByRole('button', { name: /发\s*卡/ })
      .last()
      .click();
    await page.locator('.ant-modal-confirm-title', { hasText: '确认发卡' }).waitFor();
    await page
      .locator('.ant-modal-confirm')
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await page.getByTestId('release-progress').waitFor();
    await page.getByText('正在制卡：200 / 200 张').waitFor({ timeout: 30000 });
    await page.getByText('发卡成功').first().waitFor();
    await page.screenshot({ path: path.join(screenshotDir, 'card-release-done.png'), fullPage: true });

    await page.goto('/card/record');
    const row = page.locator('.ant-table-row').first();
    await row.getByText('200', { exact: true }).waitFor();
    await page.screenshot({ path: path.join(screenshotDir, 'card-record.png'), fullPage: true });
    await row.getByRole('button', { name: /下\s*载/ }).click();
    await page.locator('.ant-modal-confirm-title', { hasText: '下载卡号列表' }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page
        .locator('.ant-modal-confirm')
        .getByRole('button', { name: /下\s*载/ })
        .click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^卡号列表_\d+-\d+\.xlsx$/);
    const file = await download.path();
    expect(fs.readFileSync(file).subarray(0, 2).toString()).toBe('PK');
  });

  it('开卡 shows the card and user type; the expert sees the student; recycle and restore', async () => {
    const cards = await api<never>('GET', '/dev-api/card/two/list?status=unused&storeId=1&pageSize=1', { token });
    const cardNo = ((cards as unknown as { rows: Array<{ cardNo: string }> }).rows ?? [])[0]?.cardNo;
    expect(cardNo).toBeTruthy();
    await page.goto('/manage/userList');
    await page.getByPlaceholder('请输入姓名').fill('孙七');
    await page.getByRole('button', { name: /搜\s*索/ }).click();
    const row = page.locator('.ant-table-row', { hasText: '孙七' }).first();
    await row.waitFor();
    await row.getByRole('button', { name: '开卡' }).click();
    const dialog = page.locator('.ant-modal', { hasText: '开卡 - 孙七' });
    await dialog.getByPlaceholder('本门店未使用的会员卡卡号').fill(cardNo);
    await dialog.locator('.ant-select').click();
    await page.locator('.ant-select-item-option', { hasText: '李老师' }).click();
    await page.screenshot({ path: path.join(screenshotDir, 'customer-openCard.png') });
    await dialog.getByRole('button', { name: /开\s*卡/ }).click();
    await page.getByText('开卡成功').waitFor();
    await row.getByText(cardNo).waitFor();
    await row.getByText('志愿卡用户').waitFor();
    await row.getByText('后台绑卡').waitFor();
    await page.screenshot({ path: path.join(screenshotDir, 'customer-userList.png'), fullPage: true });

    const expert = await newPage(browser, 1366, 800);
    await signIn(expert, 'expert', 'expert123');
    await expert.goto('/volunteer/list');
    await expert.locator('.ant-table-row', { hasText: '孙七' }).first().waitFor({ timeout: 15000 });
    await expert.context().close();

    await row.getByRole('button', { name: /删\s*除/ }).click();
    await page
      .locator('.ant-modal-confirm')
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await page.getByText('已移入回收站').waitFor();
    await page.goto('/manage/recycle');
    const recycled = page.locator('.ant-table-row', { hasText: '孙七' }).first();
    await recycled.waitFor();
    await page.screenshot({ path: path.join(screenshotDir, 'customer-recycle.png'), fullPage: true });
    await recycled.getByRole('button', { name: /恢\s*复/ }).click();
    await page
      .locator('.ant-modal-confirm')
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await page.getByText('恢复成功').waitFor();
    await page.goto('/manage/userList');
    await page.locator('.ant-table-row', { hasText: '孙七' }).first().waitFor();
  });

  it('screenshots of the other screens', async () => {
    for (const [url, text, name] of PAGES) {
      if (['card-release', 'card-record', 'customer-userList', 'customer-recycle'].includes(name)) continue;
      await page.goto(url);
      await page.getByText(text).first().waitFor();
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true });
    }
  });
});
