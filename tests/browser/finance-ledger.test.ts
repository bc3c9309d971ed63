import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { yuanText } from '../../common/finance/checks';
import { signTimer } from '../../server/security/protocol';
import { api, apiLogin } from './api';
import { launchBrowser, newPage, screenshotDir, signIn } from './browser';

/**
 * The ledger side of 财务管理 in Chromium against the real server: the wallet pages are working screens for the store
 * (store2leader) and headquarters (admin); the store adds a bank account and applies for a withdrawal, headquarters
 * approves and pays it; the store applies for an invoice, headquarters issues it with a PDF, the store sees 已开票
 * and downloads it.
 */

const W = '/appv2/api/MoneyWallet';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <</Type /Catalog>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n', 'latin1');
interface Wallet {
  collectionFen: number;
  withdrawableFen: number;
  invoiceableFen: number;
  paidFen: number;
  invoicedFen: number;
}
const wallet = async (token: string) => (await api<Wallet>('POST', `${W}/wallet`, { token, body: {} })).data as Wallet;

/** 发卡 answers NDJSON; only its last line matters here. */
async function releaseCard(token: string, cards = 1): Promise<void> {
  const pem = fs.readFileSync(path.join(inject('dataDir'), 'keys', 'request-public.pem'), 'utf8');
  const res = await fetch(`${inject('baseURL')}/dev-api/card/release`, {
    method: 'POST',
    headers: { ...signTimer(pem), 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ kind: 3, card_num: cards, vip_price: 9_900 }),
  });
  const last = JSON.parse((await res.text()).trim().split('\n').pop() as string) as { code: number; msg: string };
  expect(last.code, last.msg).toBe(200);
}

/** A family pays the store online through the sandbox provider (the collection wallet then has money to withdraw). */
async function familyPays(browser: Browser, storeId: number, amountFen: number): Promise<void> {
  const family = await apiLogin('admin', 'admin123');
  const order = await api<{ payUrl: string }>('POST', '/appv2/api/AlipayTool/creatAliOrder', {
    token: family,
    body: { storeId, amountFen, subject: '志愿填报一对一服务', provider: 'sandbox' },
  });
  expect(order.code, order.msg).toBe(200);
  const payer = await newPage(browser, 480, 760);
  await payer.goto(order.data?.payUrl as string);
  await payer.getByRole('button', { name: '支付成功' }).click();
  await payer.locator('.done', { hasText: '支付成功' }).waitFor();
  await payer.close();
}

async function pick(page: Page, scope: ReturnType<Page['locator']>, label: string, option: string) {
  await scope.getByLabel(label).click();
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: option }).first().click();
}

describe('finance ledger in Chromium', () => {
  let browser: Browser;
  let store: Page;
  let hq: Page;
  let storeToken: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    fs.mkdirSync(screenshotDir, { recursive: true });
    storeToken = await apiLogin('store2leader', 'store2leader123');
    store = await newPage(browser, 1440, 900);
    await signIn(store, 'store2leader', 'store2leader123');
    hq = await newPage(browser, 1440, 900);
    await signIn(hq, 'admin', 'admin123');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('the store applies for a withdrawal; headquarters approves and pays it', async () => {
    await familyPays(browser, 2, 50_000);
    await store.goto('/finance/withdraw');
    // 银行账户 is a toolbar button of the generic 提现 list (schemas/finance/fin_withdrawal.json) opening the accounts.
    await store.getByRole('button', { name: '银行账户', exact: true }).click();
    await store.getByRole('button', { name: '新增银行账户' }).click();
    const bank = store.locator('.ant-modal', { hasText: '新增银行账户' });
    await bank.getByLabel('开户名').fill('济南门店');
    await bank.getByLabel('开户银行').fill('中国工商银行');
    await bank.getByLabel('银行卡号').fill('6222 0212 3456 7890 127');
    await bank.getByText('银行卡号校验失败，请核对卡号').waitFor();
    await bank.getByLabel('银行卡号').fill('6222 0212 3456 7890 128');
    await bank.getByRole('button', { name: /保\s*存/ }).click();
    await store.locator('.ant-table-row', { hasText: '6222 **** **** 0128' }).getByText('待核验').waitFor();

    await hq.goto('/finance/withdraw');
    await hq.getByRole('button', { name: '银行账户', exact: true }).click();
    await hq.locator('.ant-table-row', { hasText: '济南门店' }).getByRole('button', { name: '核验通过' }).first().click();
    await hq.locator('.ant-table-row', { hasText: '济南门店' }).getByText('已核验').first().waitFor();

    const before = await wallet(storeToken);
    await store.reload();
    await store.getByRole('button', { name: '申请提现' }).click();
    const apply = store.locator('.ant-modal', { hasText: '可提现金额' });
    await pick(store, apply, '到账银行账户', '0128');
    await apply.getByLabel('提现金额（元）').fill('100.50');
    await store.screenshot({ path: path.join(screenshotDir, 'finance-withdraw-apply.png') });
    await apply.getByRole('button', { name: /提\s*交/ }).click();
    await store.locator('.ant-table-row', { hasText: '100.50' }).getByText('待审核').waitFor();
    expect((await wallet(storeToken)).collectionFen).toBe(before.collectionFen - 10_050);

    await hq.reload();
    const row = hq.locator('.ant-table-row', { hasText: '100.50' }).first();
    await row.getByRole('button', { name: '通过' }).click();
    // The schema's 通过 step (kind "call"): its confirm dialog names the store and the amount.
    await hq
      .locator('.ant-modal', { hasText: '确定通过 济南门店 的 100.50 元提现申请吗？' })
      .getByRole('button', { name: /通\s*过/ })
      .click();
    await row.getByText('已通过').waitFor();
    await row.getByRole('button', { name: '打款' }).click();
    const pay = hq.locator('.ant-modal', { hasText: '确认打款' });
    await pay.getByLabel('银行流水号').fill('ICBC202611240001');
    await pay.getByRole('button', { name: '确认已打款' }).click();
    await row.getByText('已打款').waitFor();
    await hq.screenshot({ path: path.join(screenshotDir, 'finance-withdraw-review.png'), fullPage: true });

    // Headquarters picks the store in the 门店 search: the list and the wallet figures above it follow that store.
    await pick(hq, hq.locator('.engine-search'), '门店', '济南门店');
    await hq
      .locator('.engine-search')
      .getByRole('button', { name: /搜\s*索/ })
      .click();
    const withdrawable = `¥${yuanText((await wallet(storeToken)).withdrawableFen)}`;
    await expect
      .poll(() => hq.locator('.engine-header .ant-statistic', { hasText: '可提现金额' }).locator('.ant-statistic-content').textContent(), { timeout: 10000 })
      .toBe(withdrawable);

    // The home page's 待审核提现 links here with ?status=0: the list opens with that search applied and shown.
    const listed = hq.waitForRequest((r) => r.url().includes(`${W}/cashList`));
    await hq.goto('/finance/withdraw?status=0');
    expect((await listed).postDataJSON()).toMatchObject({ status: 0 });
    await hq.locator('.engine-search .ant-select-selection-item', { hasText: '待审核' }).waitFor();

    await store.reload();
    await store.locator('.ant-table-row', { hasText: '100.50' }).getByText('已打款').waitFor();
    // A store's staff see their own store only: no 门店 search, no 门店 column.
    expect(await store.locator('.engine-search .ant-form-item-label', { hasText: '门店' }).count()).toBe(0);
    expect(await store.locator('.ant-table-thead th', { hasText: /^门店$/ }).count()).toBe(0);
    await store.screenshot({ path: path.join(screenshotDir, 'finance-withdraw.png'), fullPage: true });
  });

  it('the store applies for an invoice; headquarters issues it with a PDF; the store sees 已开票 and downloads it', async () => {
    // Cards at 99.00 paid to headquarters from the balance are invoiceable. Other files share this store (a 会员卡退款
    // work order takes a payment back), so as many cards as it takes to have 99.00 to invoice, one at least.
    const before = await wallet(storeToken);
    await releaseCard(storeToken, 1 + Math.ceil(Math.max(0, before.invoicedFen - before.paidFen) / 9_900));
    const after = await wallet(storeToken);
    expect(after.paidFen).toBeGreaterThanOrEqual(before.paidFen + 9_900);
    expect(after.invoiceableFen).toBeGreaterThanOrEqual(9_900);
    await store.goto('/finance/invoice');
    await store.getByRole('button', { name: '发票抬头', exact: true }).click();
    await store.getByRole('button', { name: '新增发票抬头' }).click();
    const header = store.locator('.ant-modal', { hasText: '新增发票抬头' });
    await header.getByLabel('发票抬头').fill('济南某某教育咨询有限公司');
    await header.getByLabel('纳税人识别号').fill('91370100ma3c');
    await header.getByText('纳税人识别号应为 15、18 或 20 位数字或大写字母').waitFor();
    await header.getByLabel('纳税人识别号').fill('91370100MA3C4XXX1K');
    await header.getByRole('button', { name: /保\s*存/ }).click();
    await store.locator('.ant-table-row', { hasText: '91370100MA3C4XXX1K' }).waitFor();

    await store.reload();
    await store.getByRole('button', { name: '申请开票' }).click();
    const apply = store.locator('.ant-modal', { hasText: '可开票金额' });
    await pick(store, apply, '发票抬头', '济南某某教育咨询有限公司');
    await apply.getByLabel('开票金额（元）').fill('99');
    await apply.getByRole('button', { name: /提\s*交/ }).click();
    await store.locator('.ant-table-row', { hasText: '99.00' }).getByText('待开票').waitFor();

    await hq.goto('/finance/invoice');
    const row = hq.locator('.ant-table-row', { hasText: '济南某某教育咨询有限公司' }).first();
    await row.getByRole('button', { name: '开票' }).click();
    const issue = hq.locator('.ant-modal', { hasText: '开具发票' });
    await issue.getByLabel('发票号码').fill('24370000000000000001');
    await issue.locator('input[type=file]').setInputFiles({ name: 'invoice.pdf', mimeType: 'application/pdf', buffer: PDF });
    await hq.screenshot({ path: path.join(screenshotDir, 'finance-invoice-issue.png') });
    await issue.getByRole('button', { name: /开\s*票/ }).click();
    await row.getByText('已开票').waitFor();

    await store.reload();
    const mine = store.locator('.ant-table-row', { hasText: '99.00' }).first();
    await mine.getByText('已开票').waitFor();
    await store.screenshot({ path: path.join(screenshotDir, 'finance-invoice.png'), fullPage: true });
    const [download] = await Promise.all([store.waitForEvent('download'), mine.getByRole('button', { name: '下载发票' }).click()]);
    expect(download.suggestedFilename()).toBe('发票-24370000000000000001.pdf');
    const saved = await download.path();
    expect(
      fs
        .readFileSync(saved as string)
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });

  it('账户余额, 收款钱包 and 付款钱包 are working screens for the store and headquarters (after the flows, so they show them)', async () => {
    for (const [page, who] of [
      [store, 'store'],
      [hq, 'hq'],
    ] as const) {
      for (const [url, text, shot] of [
        ['/finance/balance', '账户余额', 'finance-balance'],
        ['/finance/collectionWallet', '可提现金额', 'finance-collection'],
        ['/finance/paymentWallet', '累计付款', 'finance-payment'],
      ]) {
        await page.goto(url);
        await page.locator('.ant-statistic-title', { hasText: text }).first().waitFor({ timeout: 15000 });
        await page.locator('.ant-table').first().waitFor();
        expect(await page.getByText('建设中').count(), url).toBe(0);
        if (who === 'store') await page.screenshot({ path: path.join(screenshotDir, `${shot}.png`), fullPage: true });
      }
    }
    // 账户余额 (schemas/finance/fin_balance_entry.json): the figures' tips, changes signed in yuan, 导出 as 资金流水.xlsx;
    // 门店 for headquarters; 付款钱包's note.
    await store.goto('/finance/balance');
    await store.locator('.engine-header-tip', { hasText: '用于发卡、账户续费' }).waitFor();
    await store
      .locator('.ant-table-row td', { hasText: /^[+-][\d,]+\.\d{2}$/ })
      .first()
      .waitFor();
    const [file] = await Promise.all([store.waitForEvent('download'), store.getByRole('button', { name: /导\s*出/ }).click()]);
    expect(file.suggestedFilename()).toBe('资金流水.xlsx');
    await hq.goto('/finance/balance');
    await hq.getByLabel('门店').waitFor();
    await store.goto('/finance/paymentWallet');
    await store.getByText('付款钱包记录门店从账户余额付给总部的每一笔款项（发卡、账户续费等）。').waitFor();
    await store.locator('.engine-header-tip', { hasText: '已扣除退款' }).waitFor();
  });
});
