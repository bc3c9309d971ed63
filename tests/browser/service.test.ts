import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signTimer } from '../../server/security/protocol';
import { api, apiLogin } from './api';
import { launchBrowser, newPage, screenshotDir, signIn } from './browser';

/**
 * 服务中心 in Chromium against the real server: every page is a working screen for admin (posters generated, an app's
 * public detail); 济南门店's leader submits a 会员卡退款 work order with an attachment, headquarters (admin) handles
 * it, the card shows 已作废, the store balance shows the refund and the submitter sees the reply.
 */

const PAGES: Array<[string, string, string]> = [
  ['/serviceCenter/appStore', '智能志愿填报', 'service-appStore'],
  ['/serviceCenter/helpGuide', '会员卡退款怎么申请', 'service-helpGuide'],
  ['/serviceCenter/marketingGallery', '院校录取海报', 'service-marketingGallery'],
  ['/serviceCenter/resourceDownload', '2026 年志愿填报服务手册', 'service-resourceDownload'],
  ['/serviceCenter/submitWorkOrder', '我的工单', 'service-submitWorkOrder'],
  ['/serviceCenter/workOrder', '工单类型', 'service-workOrder'],
];

const PNG_1PX = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const PRICE_EXPERIENCE = 9_900;
const yuan = (fen: number) => (fen / 100).toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** 发卡 answers NDJSON (progress lines, then the envelope): one experience card for the signed-in store. */
async function releaseOneCard(token: string): Promise<string> {
  const pem = fs.readFileSync(path.join(inject('dataDir'), 'keys', 'request-public.pem'), 'utf8');
  const res = await fetch(`${inject('baseURL')}/dev-api/card/release`, {
    method: 'POST',
    headers: { ...signTimer(pem), 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ kind: 3, card_num: 1, vip_price: PRICE_EXPERIENCE }),
  });
  const last = JSON.parse((await res.text()).trim().split('\n').at(-1) as string) as { code: number; msg: string; data: { cardNoFirst: string } };
  if (last.code !== 200) throw new Error(last.msg);
  return last.data.cardNoFirst;
}

async function storeBalance(token: string): Promise<number> {
  const res = await api<{ storeBalance: number }>('GET', '/dev-api/card/release/info?storeId=2', { token });
  return Number(res.data?.storeBalance);
}

describe('服务中心 in Chromium', () => {
  let browser: Browser;
  let admin: Page;
  let store: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    fs.mkdirSync(screenshotDir, { recursive: true });
    admin = await newPage(browser, 1440, 900);
    await signIn(admin, 'admin', 'admin123');
    store = await newPage(browser, 1440, 900);
    await signIn(store, 'store2leader', 'store2leader123');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('every page under 服务中心 is a working screen for admin', async () => {
    for (const [url, text, shot] of PAGES) {
      await admin.goto(url);
      await admin.getByText(text).first().waitFor({ timeout: 15000 });
      expect(await admin.getByText('建设中').count(), url).toBe(0);
      await admin.screenshot({ path: path.join(screenshotDir, `${shot}.png`), fullPage: true });
    }
  });

  it('营销图库 draws a school poster as PNG; 帮助指南 reads an article', async () => {
    // A poster from our own school and admission data, as PNG.
    await admin.goto('/serviceCenter/marketingGallery');
    await admin.locator('.ant-select', { hasText: '输入院校名称或代码搜索' }).click();
    await admin.locator('.ant-select-item-option').first().click();
    await admin.getByRole('button', { name: '生成海报' }).click();
    await admin.getByAltText('院校录取海报').waitFor({ timeout: 20000 });
    await admin.screenshot({ path: path.join(screenshotDir, 'service-poster.png'), fullPage: true });
    // 帮助指南: an article read in its drawer (the view is counted).
    await admin.goto('/serviceCenter/helpGuide');
    await admin.locator('.ant-table-row', { hasText: '会员卡退款怎么申请' }).getByRole('button', { name: /阅读/ }).click();
    await admin.getByText('阅读 1 次').waitFor();
    await admin.screenshot({ path: path.join(screenshotDir, 'service-help-read.png'), fullPage: true });
  });

  it('提交工单 shows a customer form; an app has a public detail page', async () => {
    // 提交工单: a customer form (修改分数) with the store's customer picker.
    await admin.goto('/serviceCenter/submitWorkOrder');
    await admin.getByText('修改分数', { exact: true }).first().click();
    await admin.getByText('新分数').waitFor();
    await admin.screenshot({ path: path.join(screenshotDir, 'service-submit-score.png'), fullPage: true });
    // An app's public detail page.
    await admin.goto('/appDetail?appId=1');
    await admin.getByText('按分数与位次生成冲稳保志愿方案').waitFor();
    await admin.screenshot({ path: path.join(screenshotDir, 'service-appDetail.png'), fullPage: true });
  });

  it('a store submits a card refund with an attachment; headquarters handles it; card voided, balance refunded, reply seen', async () => {
    const storeToken = await apiLogin('store2leader', 'store2leader123');
    const cardNo = await releaseOneCard(storeToken);
    const before = await storeBalance(storeToken);

    await store.goto('/serviceCenter/submitWorkOrder');
    await store.getByText('我的工单').waitFor();
    await store.getByText('会员卡退款', { exact: true }).first().click();
    await store.getByLabel('卡号').fill(cardNo);
    await store.getByLabel('申请说明').fill('家长放弃报名，申请退回卡费');
    await store.locator('input[type=file]').setInputFiles({ name: '退款凭证.png', mimeType: 'image/png', buffer: PNG_1PX });
    await store.locator('.ant-upload-list-item-name', { hasText: '.png' }).waitFor();
    await store.getByText('正在上传文件，请稍候...').waitFor({ state: 'hidden' });
    await store.screenshot({ path: path.join(screenshotDir, 'service-submit-form.png'), fullPage: true });
    await store.getByRole('button', { name: '提交工单' }).click();
    await store.getByText(/提交成功，工单号 GD\d+/).waitFor();
    const row = store.locator('.ant-table-row', { hasText: `卡号 ${cardNo}` });
    await row.getByText('待处理').waitFor();

    await admin.goto('/serviceCenter/workOrder');
    const hqRow = admin.locator('.ant-table-row', { hasText: `卡号 ${cardNo}` });
    await hqRow.waitFor();
    // Headquarters filters by 门店 (the submitting store keeps its order in the list).
    await admin.locator('.engine-search .ant-form-item', { hasText: '门店' }).locator('.ant-select').click();
    await admin.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: '济南门店' }).click();
    await admin.getByRole('button', { name: /(^|\s)搜\s*索$/ }).click(); // not 隐藏搜索 (the list's right toolbar)
    await hqRow.waitFor();
    await admin.screenshot({ path: path.join(screenshotDir, 'service-workOrder-pending.png'), fullPage: true });
    await hqRow.getByRole('button', { name: '处理', exact: true }).click();
    await admin.getByPlaceholder('回复内容（选填，提交人可见）').fill('已核实，卡费已退回门店余额');
    await admin.getByRole('button', { name: '确认处理' }).click();
    await admin.getByText('处理成功').first().waitFor();
    await hqRow.getByRole('button', { name: '详情' }).click();
    await admin.getByText('处理记录').waitFor();
    await admin
      .getByText(/已作废，已退回门店余额 99\.00 元/)
      .first()
      .waitFor();
    await admin.screenshot({ path: path.join(screenshotDir, 'service-workOrder-detail.png'), fullPage: true });

    // The card shows 已作废 and the balance the refund.
    const after = await storeBalance(storeToken);
    expect(after - before).toBe(PRICE_EXPERIENCE);
    await store.goto('/card/two');
    await store.getByLabel('卡号').fill(cardNo);
    await store.getByRole('button', { name: /(^|\s)搜\s*索$/ }).click(); // not 隐藏搜索 (the list's right toolbar)
    await store.locator('.ant-table-row', { hasText: cardNo }).getByText('已作废').waitFor();
    await store.goto('/card/release');
    await store.getByText(yuan(after)).first().waitFor();

    // The submitter sees the status and the reply.
    await store.goto('/serviceCenter/submitWorkOrder');
    const mine = store.locator('.ant-table-row', { hasText: `卡号 ${cardNo}` });
    await mine.getByText('已处理').waitFor();
    await mine.getByText('已核实，卡费已退回门店余额').waitFor();
    await store.screenshot({ path: path.join(screenshotDir, 'service-mine.png'), fullPage: true });
  });
});
