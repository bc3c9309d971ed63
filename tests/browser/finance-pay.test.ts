import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin } from './api';
import { launchBrowser, newPage, screenshotDir, signIn } from './browser';

/**
 * Finance payments in Chromium against the real server: a store (济南门店, store2leader) recharges online through the
 * sandbox provider and its balance moves, then buys cards with it; a family pays the store online and the collection wallet moves; the day's
 * reconciliation (headquarters, admin) shows no mismatch. 账户续费 and 优惠券 are working screens.
 */

interface Wallet {
  balanceFen: number;
  collectionFen: number;
}

const wallet = async (token: string) => (await api<Wallet>('POST', '/appv2/api/MoneyWallet/wallet', { token, body: {} })).data as Wallet;

/** Opens the sandbox payment page in its own tab (as the payer would) and presses 支付成功. */
async function payInSandbox(browser: Browser, payUrl: string, shot?: string): Promise<void> {
  const payer = await newPage(browser, 480, 760);
  await payer.goto(payUrl);
  await payer.getByText('模拟支付').first().waitFor();
  if (shot) await payer.screenshot({ path: path.join(screenshotDir, shot), fullPage: true });
  await payer.getByRole('button', { name: '支付成功' }).click();
  await payer.locator('.done', { hasText: '支付成功' }).waitFor();
  await payer.close();
}

describe('finance payments in Chromium', () => {
  let browser: Browser;
  let page: Page;
  let store: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    fs.mkdirSync(screenshotDir, { recursive: true });
    store = await apiLogin('store2leader', 'store2leader123');
    page = await newPage(browser, 1440, 900);
    await signIn(page, 'store2leader', 'store2leader123');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the store recharges through the sandbox provider and the balance moves', async () => {
    const before = await wallet(store);
    await page.goto('/finance/rechargeManage');
    await page.getByRole('button', { name: '在线充值' }).click();
    const dialog = page.locator('.ant-modal', { hasText: '在线充值' });
    await dialog.getByLabel('充值金额（元）').fill('123.45');
    await dialog.getByRole('button', { name: /去支付/ }).click();
    const pay = page.locator('.ant-modal', { hasText: '扫码支付' });
    await pay.getByAltText('支付二维码').waitFor();
    await pay.getByText('123.45').waitFor();
    await page.screenshot({ path: path.join(screenshotDir, 'finance-recharge-pay.png') });
    const href = await pay.getByRole('link', { name: '打开支付页面' }).getAttribute('href');
    await payInSandbox(browser, href as string, 'finance-sandbox.png');
    await pay.getByText('支付成功').first().waitFor({ timeout: 15000 });
    await pay.getByRole('button', { name: /完\s*成/ }).click();
    await page.locator('.ant-table-row').first().getByText('已到账').waitFor();
    await page.screenshot({ path: path.join(screenshotDir, 'finance-recharge.png'), fullPage: true });
    expect((await wallet(store)).balanceFen).toBe(before.balanceFen + 12_345);
  });

  it('the store buys cards with its balance: the release takes exactly their price', async () => {
    const before = await wallet(store);
    await page.goto('/card/release');
    await page.getByText('门店余额（元）').waitFor();
    await page.getByLabel('发卡数量').fill('2');
    await page.getByText('796.00 元').waitFor(); // 2 × 398.00
    await page
      .getByRole('button', { name: /发\s*卡/ })
      .last()
      .click();
    await page
      .locator('.ant-modal-confirm')
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await page.getByText('发卡成功').first().waitFor({ timeout: 30000 });
    expect((await wallet(store)).balanceFen).toBe(before.balanceFen - 79_600);
  });

  it('a family pays the store online and the collection wallet moves', async () => {
    const before = await wallet(store);
    const family = await apiLogin('admin', 'admin123');
    const order = await api<{ orderNo: string; payUrl: string }>('POST', '/appv2/api/AlipayTool/creatAliOrder', {
      token: family,
      body: { storeId: 2, amountFen: 29_900, subject: '志愿填报一对一服务', provider: 'sandbox' },
    });
    expect(order.code, order.msg).toBe(200);
    await payInSandbox(browser, order.data?.payUrl as string);
    await expect.poll(async () => (await wallet(store)).collectionFen, { timeout: 10000 }).toBe(before.collectionFen + 29_900);
  });

  it('账户续费 and 优惠券 are working screens; headquarters reconciles the day without a mismatch', async () => {
    await page.goto('/finance/renewal');
    await page.getByText('到期日期').first().waitFor();
    await page.getByRole('button', { name: '立即续费' }).click();
    await page.locator('.ant-modal', { hasText: '续费套餐' }).getByText('账户余额').waitFor();
    await page.screenshot({ path: path.join(screenshotDir, 'finance-renewal.png') });
    await page
      .locator('.ant-modal', { hasText: '续费套餐' })
      .getByRole('button', { name: /取\s*消/ })
      .click();

    const hq = await newPage(browser, 1440, 900);
    await signIn(hq, 'admin', 'admin123');
    await hq.goto('/finance/coupon');
    await hq.getByText('每人限领').first().waitFor();
    await hq
      .locator('.engine-list')
      .getByRole('button', { name: /新\s*增/ })
      .click();
    const add = hq.locator('.ant-modal', { hasText: '新增优惠券' });
    await add.getByLabel('名称').fill('开学季立减');
    await add.getByLabel('减免金额（元）').fill('50');
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toLocaleDateString('sv-SE');
    await add.getByPlaceholder('开始日期').click();
    await add.getByPlaceholder('开始日期').fill(day(0));
    await add.getByPlaceholder('结束日期').click();
    await add.getByPlaceholder('结束日期').fill(day(30));
    await add.getByPlaceholder('结束日期').press('Enter');
    await add.getByLabel('发放总量').fill('100');
    await add.getByRole('button', { name: /确\s*定/ }).click({ timeout: 5000 });
    await hq.locator('.ant-table-row', { hasText: '开学季立减' }).getByText('发放中').waitFor({ timeout: 10000 });
    await hq.screenshot({ path: path.join(screenshotDir, 'finance-coupon.png'), fullPage: true });
    // 停用 / 启用 are the schema's call steps, each shown by the batch's state.
    const batch = hq.locator('.ant-table-row', { hasText: '开学季立减' });
    await batch.getByRole('button', { name: '停用' }).click();
    await hq
      .locator('.ant-modal', { hasText: '确认停用"开学季立减"吗？停用后不能再领取，已领取的仍可在有效期内使用。' })
      .getByRole('button', { name: /停\s*用/ })
      .click();
    await batch.getByText('已停用').waitFor();
    await batch.getByRole('button', { name: '启用' }).waitFor();
    expect(await batch.getByRole('button', { name: '停用' }).count()).toBe(0);

    await hq.goto('/finance/reconcile');
    await hq.getByText('对账无差异').waitFor();
    await hq.getByRole('cell', { name: '济南门店' }).first().waitFor();
    await hq.screenshot({ path: path.join(screenshotDir, 'finance-reconcile.png'), fullPage: true });
    expect(await hq.getByText('建设中').count()).toBe(0);
    await hq.close();
  });
});
