import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChanceRow } from '../../src/api/volunteer';
import { api, apiLogin } from './api';
import { launchBrowser, newPage, screenshotDir, signIn } from './browser';

/**
 * Acceptance of issue 23 in the console: late 2026, an expert plans a 山东 物化生 student for the 2027 exam. The new
 * student defaults to the exam after the newest loaded admission year; 智能填报 fills the plan from that year's
 * catalogue; the plan saves; the PDF names the exam year, each choice's 院校代码 and the catalogue year's 专业代号, and
 * a year beside every line figure. The years come from the data the server loads, the codes from the server's plan
 * answer and the official 投档表 file, never from this test.
 */

// The data folder the server imports at start (server/volunteer/import/history.ts): its newest 投档表 is the catalogue.
const dataDir = path.resolve(import.meta.dirname, '../../server/db/seed/data/gaokao-shandong');
const lineYears = fs
  .readdirSync(dataDir)
  .map((n) => /^toudang-(\d{4})\.csv$/.exec(n)?.[1])
  .filter((y): y is string => y != null)
  .map(Number)
  .sort((a, b) => b - a);
const catalogueYear = lineYears[0];
const examYear = catalogueYear + 1;

/** The catalogue year's 投档表 rows by 院校代码 + 专业代号 → 专业名称 (as printed). */
function officialLines(year: number): Map<string, string> {
  const [head, ...rows] = fs
    .readFileSync(path.join(dataDir, `toudang-${year}.csv`), 'utf8')
    .trim()
    .split('\n');
  const cols = head.split(',');
  const at = (name: string) => cols.indexOf(name);
  const [school, code, major] = [at('schoolCode'), at('majorCode'), at('major')];
  return new Map(rows.map((r) => r.split(',')).map((c) => [`${c[school]}|${c[code]}`, c[major].trim()]));
}

interface PlanItem {
  sort: number;
  lineId: number;
  schoolCode: string;
  schoolName: string | null;
  majorName: string | null;
  majorCode: string | null;
  year: number | null;
  minScore: number | null;
  minRank: number | null;
  stale: boolean;
}

describe(`an expert plans a 山东 student for the ${examYear} exam on the ${catalogueYear} catalogue`, () => {
  let browser: Browser;
  let page: Page;
  let studentId = 0;
  let planCount = 0;
  let name = '';
  beforeAll(async () => {
    browser = await launchBrowser();
    fs.mkdirSync(screenshotDir, { recursive: true });
    page = await newPage(browser, 1440, 900);
    await signIn(page, 'expert', 'expert123');
  });
  afterAll(async () => {
    await browser?.close();
  });

  // antd spaces out two-character labels (保 存) and an icon adds its own name (save 保存).
  const button = (scope: Page | Locator, label: string) => scope.getByRole('button', { name: new RegExp(`(^|\\s)${[...label].join('\\s*')}$`) });
  const planRows = () => page.locator('[data-testid=plan-row]');
  const figureOf = (year: number) => new RegExp(`${year} · \\d+分`);

  it(`the new student defaults to the ${examYear} exam and the filling page plans on the ${catalogueYear} catalogue`, async () => {
    expect(lineYears.length).toBeGreaterThan(1);
    // A retried test makes a new student rather than finding the one of the failed try.
    name = `二〇二七考生${String(Date.now()).slice(-5)}`;
    await page.goto('/volunteer/list');
    await page.locator('.ant-table-row').first().waitFor();
    await button(page, '新增学生').click();
    const dialog = page.locator('.ant-modal', { hasText: '新增学生' });
    await dialog.getByPlaceholder('请输入学生姓名').fill(name);
    await dialog.getByPlaceholder('0–750').fill('581');
    // The year is left empty: the form says which exam it defaults to.
    await dialog.getByPlaceholder(`默认 ${examYear}`).waitFor();
    await dialog.locator('.ant-form-item', { hasText: '选考科目' }).locator('.ant-select-selector').click();
    for (const s of ['物理', '化学', '生物']) await page.locator('.ant-select-item-option', { hasText: new RegExp(`^${s}$`) }).click();
    await page.keyboard.press('Escape');
    await expect(dialog.locator('.ant-form-item', { hasText: '考生省份' }).textContent()).resolves.toContain('山东');
    await button(dialog, '保存').click();
    await page.getByText('新增成功').waitFor();

    const row = page.locator('.ant-table-row', { hasText: name });
    await row.waitFor();
    // Every answer of the 录取率 list the page receives (the rows with their history years).
    const answers: ChanceRow[][] = [];
    page.on('response', async (r) => {
      if (!r.url().includes('/Filling/schoolEnrollChance')) return;
      const body = await r.json().catch(() => null);
      if (Array.isArray(body?.rows)) answers.push(body.rows);
    });
    await row.getByRole('button', { name: /^填\s*报$/ }).click();
    await page.waitForURL(/\/volunteer\/Filling\?studentId=\d+/);
    studentId = Number(new URL(page.url()).searchParams.get('studentId'));
    await page
      .getByLabel('高考年份')
      .filter({ hasText: `${examYear}年高考` })
      .waitFor();
    await page
      .getByLabel('招生目录年份')
      .filter({ hasText: `按${catalogueYear}年招生目录 · 估计${examYear}年录取` })
      .waitFor();

    // The 录取率 list: the probability is for the exam year, every line figure carries the catalogue year.
    const table = page.locator('.zy-options-table');
    const lineCells = table.locator('.ant-table-row .ant-table-cell:nth-child(3)');
    await lineCells.first().waitFor();
    await table.locator('.ant-table-thead').getByText(`${examYear}录取率`).waitFor();
    const cells = await lineCells.allTextContents();
    expect(cells.length).toBeGreaterThan(5);
    for (const c of cells) {
      expect(c).toMatch(new RegExp(`^${catalogueYear} · `));
      if (c.includes('估计位次')) expect(c).toMatch(new RegExp(`${examYear} 估计位次 [\\d,]+$`));
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(screenshotDir, 'volunteer-2027-chance-list.png') });

    // A line with earlier years: its history on hover gives each year of the same programme with its own year.
    // (The hardest rows come first; a new line's wider spread keeps it above the 5 % cut where an older one is
    // hidden, so the first page may hold 新增 lines only: the 稳 and 保 tabs are asked in turn.)
    const historyOf = (rows: ChanceRow[]) => rows.find((r) => (r.years?.length ?? 0) > 1 && r.majorName);
    await expect.poll(() => answers.length).toBeGreaterThan(0);
    let withHistory = historyOf(answers[answers.length - 1]);
    for (const tier of ['稳', '保']) {
      if (withHistory) break;
      const tab = page.locator('.ant-segmented-item', { hasText: new RegExp(`^${tier} `) });
      const answered = page.waitForResponse((r) => r.url().includes('/Filling/schoolEnrollChance') && (r.request().postDataJSON()?.tier ?? []).includes(tier));
      await tab.click();
      withHistory = historyOf((await (await answered).json()).rows ?? []);
    }
    if (!withHistory?.years) throw new Error('录取率列表中没有带往年数据的志愿');
    expect(withHistory.years[0].year).toBe(catalogueYear);
    const asked = page.waitForResponse(
      (r) => r.url().includes('/Filling/schoolEnrollChance') && r.request().postDataJSON()?.schoolName === withHistory.schoolName,
    );
    await page.getByLabel('院校名称').fill(withHistory.schoolName);
    await asked;
    const dated = (y: { year: number; minScore?: number | null; minRank?: number | null }) => {
      const figure = [y.minScore != null ? `${y.minScore}分` : null, y.minRank != null ? `${y.minRank.toLocaleString('zh-CN')}名` : null]
        .filter(Boolean)
        .join(' · ');
      return figure ? `${y.year} · ${figure}` : `${y.year} · 暂无分数`;
    };
    const historyRow = table
      .locator('.ant-table-row', { hasText: withHistory.majorName ?? '' })
      .filter({ hasText: dated(withHistory.years[0]) })
      .first();
    await historyRow.locator('.ant-table-cell:nth-child(3)').hover();
    const tip = page.locator('.ant-tooltip:not(.ant-tooltip-hidden)', { hasText: '历年录取' });
    await tip.waitFor();
    const shownYears = (await tip.textContent()) ?? '';
    for (const y of withHistory.years) expect(shownYears).toContain(dated(y));
    // No figure in the tooltip without its year.
    expect(shownYears.match(/\d+分/g)?.length).toBe(shownYears.match(/\d{4} · \d+分/g)?.length);
    await page.screenshot({ path: path.join(screenshotDir, 'volunteer-2027-chance-history.png') });
    await page.mouse.move(0, 0);
    await page.getByLabel('院校名称').clear();
  });

  it('智能填报 fills the plan from the catalogue; the plan saves with every figure beside its year', async () => {
    await button(page.locator('.zy-plan-editor'), '智能填报').click();
    const dialog = page.locator('.ant-modal', { hasText: '智能填报' });
    await button(dialog, '生成方案').click();
    const replace = dialog.getByRole('button', { name: /替换志愿表（\d+ 个）/ });
    await replace.waitFor();
    planCount = Number(((await replace.textContent()) ?? '').replace(/\D/g, ''));
    expect(planCount).toBeGreaterThan(30);
    // The proposal: probabilities for the exam year, figures of the catalogue year.
    await dialog.locator('.ant-table-thead').getByText(`${examYear}概率`).waitFor();
    const figures = await dialog.locator('.ant-table-row .ant-table-cell:nth-child(4)').allTextContents();
    expect(figures.length).toBeGreaterThan(5);
    for (const f of figures) expect(f).toMatch(figureOf(catalogueYear));
    await dialog.screenshot({ path: path.join(screenshotDir, 'volunteer-2027-autofill.png') });
    await replace.click();
    const result = page.locator('.ant-modal-confirm', { hasText: '智能填报结果' });
    await result.getByText(`写入 ${planCount} 个志愿`).waitFor();
    await result.locator('.ant-modal-confirm-btns .ant-btn').click();
    await expect.poll(() => planRows().count()).toBeGreaterThan(5);

    const saved = page.waitForResponse((r) => r.url().includes('/Subscriber/save'));
    await button(page.locator('.zy-plan-editor'), '保存').click();
    expect((await (await saved).json()).code).toBe(200);
    await page.getByText('保存成功').waitFor();
    await page.locator('.zy-plan-editor .ant-tag', { hasText: '草稿' }).waitFor();
    await page
      .getByLabel('志愿数')
      .filter({ hasText: new RegExp(`^${planCount}/96$`) })
      .waitFor();
    await page.locator('.zy-plan-tally').getByText(`录取概率为${examYear}年的估计`).waitFor();
    // Every rendered entry shows its figure with the year (the list scrolls: the rows in view are rendered).
    const shown = await planRows().allTextContents();
    expect(shown.length).toBeGreaterThan(5);
    for (const r of shown) expect(r).toMatch(figureOf(catalogueYear));
    await page.locator('.zy-plan-editor').screenshot({ path: path.join(screenshotDir, 'volunteer-2027-plan.png') });

    // The first entry's 录取率: the newest figures with their year, the estimate for the exam year, each history year.
    await planRows()
      .first()
      .getByRole('button', { name: /^录取率 / })
      .click();
    const chance = page.locator('.ant-modal', { hasText: '录取率 · ' });
    await chance.getByText(`${examYear}年录取概率`).waitFor();
    await chance.getByText(new RegExp(`^最近一年：${catalogueYear} · \\d+分`)).waitFor();
    const history = await chance.getByRole('list', { name: '历年录取' }).getByRole('listitem').allTextContents();
    expect(history[0]).toMatch(new RegExp(`^${catalogueYear} · `));
    for (const h of history) expect(h).toMatch(/^\d{4} · /);
    await chance.screenshot({ path: path.join(screenshotDir, 'volunteer-2027-chance-dialog.png') });
    await button(chance, '关闭').click();
    await chance.waitFor({ state: 'hidden' });

    // 方案报告 simulates the saved plan for the exam year: P(录取), P(滑档), where the student lands.
    await button(page.locator('.zy-plan-editor'), '方案报告').click();
    const report = page.locator('.ant-modal', { hasText: '志愿方案报告' });
    const simulation = report.getByTestId('plan-simulation');
    await simulation.getByText(new RegExp(`^${examYear}年整体模拟（[\\d,]+ 次平行投档）$`)).waitFor();
    await simulation.getByText('滑档', { exact: true }).waitFor();
    await report.screenshot({ path: path.join(screenshotDir, 'volunteer-2027-report.png') });
    await report.locator('.ant-modal-close').click();
    await report.waitFor({ state: 'hidden' });
  });

  it(`the PDF holds ${examYear}, each choice's 院校代码 and ${catalogueYear} 专业代号, and a year beside every line figure`, async () => {
    // What the server saved, and the official 投档表 of the catalogue year the codes must come from.
    const token = await apiLogin('expert', 'expert123');
    const info = await api<{ items: PlanItem[] }>('POST', '/appv2/api/index/zyInfo', { token, body: { studentId } });
    const items = info.data?.items ?? [];
    expect(items.length).toBe(planCount);
    const official = officialLines(catalogueYear);
    for (const it of items) {
      expect(it.stale).toBe(false);
      expect(it.year).toBe(catalogueYear);
      expect(it.majorCode).toMatch(/^\w+$/);
      expect(official.get(`${it.schoolCode}|${it.majorCode}`)).toBe(it.majorName);
    }

    await button(page.locator('.zy-plan-editor'), '更多').click();
    const downloading = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: '导出 PDF' }).click();
    const file = await downloading;
    expect(file.suggestedFilename()).toBe(`志愿方案-${name}.pdf`);
    const target = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'zy-pdf-')), 'plan.pdf');
    await file.saveAs(target);
    const text = execFileSync('pdftotext', [target, '-'], { encoding: 'utf8' });

    // The exam year the family fills, in the title and the header.
    expect(text).toContain(`${name} 的${examYear}年高考志愿方案`);
    expect(text).toMatch(new RegExp(`高考年份：\\s*${examYear}`));
    expect(text).toContain(`院校代码、专业代号按 ${catalogueYear} 年招生目录`);
    // Each choice: 院校代码 and its 专业代号 of the catalogue year.
    const schoolCodes = [...text.matchAll(/院校代码 ([^\s/]+)/g)].map((m) => m[1]);
    const majorCodes = [...text.matchAll(/专业代号 ([^\s/]+)/g)].map((m) => m[1]);
    expect(schoolCodes).toEqual(items.map((i) => i.schoolCode));
    expect(majorCodes).toEqual(items.map((i) => i.majorCode));
    // Every line figure has its year beside it: as many figures as dated figures, at least the catalogue year's per choice.
    const figures = [...text.matchAll(/(?:\d+分|最低分未知) · (?:[\d,]+名|位次未公布)/g)].length;
    const dated = [...text.matchAll(/\b(\d{4}) · (?:\d+分|最低分未知) · (?:[\d,]+名|位次未公布)/g)];
    expect(dated.length).toBe(figures);
    expect(dated.filter((m) => Number(m[1]) === catalogueYear).length).toBeGreaterThanOrEqual(planCount);
    for (const m of dated) expect(lineYears).toContain(Number(m[1]));
    // Each choice's catalogue-year figure as the server has it.
    for (const it of items) {
      if (it.minScore != null && it.minRank != null) expect(text).toContain(`${catalogueYear} · ${it.minScore}分 · ${it.minRank.toLocaleString('en-US')}名`);
    }
    // The estimates name the exam year.
    expect([...text.matchAll(new RegExp(`${examYear} 录取概率`, 'g'))].length).toBe(planCount);
  });
});
