import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanSimulationView } from '../../common/volunteer/planSimulation';
import type { AutofillProposal } from '../../src/api/volunteer';
import { launchBrowser, newPage, screenshotDir, signIn } from './browser';

/**
 * Acceptance of issue 24 in the console ("plans that land"): an expert auto-fills a 山东 物化生 student's plan for the
 * best place the student can safely reach, with the family's wishes (schools in 山东 or 江苏, 计算机类, 公办 only);
 * the proposal shows its simulated 滑档 and landing chart for the exam year. The expert then locks two choices of the
 * plan in their places and re-optimises the rest, and the figures move; the plan saves, 方案报告 draws the landing
 * chart, and the PDF prints the whole plan's simulation and each choice's 落点概率. The years come from the data the
 * server loads, the 计算机类 majors from the 本科专业目录 the server reads, never from this test.
 */

// The data folder the server imports at start (server/volunteer/import/history.ts): its newest 投档表 is the catalogue.
const dataDir = path.resolve(import.meta.dirname, '../../server/db/seed/data/gaokao-shandong');
const catalogueYear = Math.max(
  ...fs
    .readdirSync(dataDir)
    .map((n) => /^toudang-(\d{4})\.csv$/.exec(n)?.[1])
    .filter((y): y is string => y != null)
    .map(Number),
);
const examYear = catalogueYear + 1;

/** The 本科专业目录's majors of 计算机类 (0809) and the class name itself: what a 计算机类 line may be called. */
function computingNames(): Set<string> {
  const file = path.resolve(import.meta.dirname, '../../server/db/seed/data/china-reference/moe_undergrad_majors_2025.csv');
  const [head, ...rows] = fs.readFileSync(file, 'utf8').trim().split('\n');
  const cols = head.split(',');
  const [name, cls] = [cols.indexOf('major_name_zh'), cols.indexOf('major_class_code')];
  const names = rows.map((r) => r.split(',')).filter((c) => c[cls] === '0809');
  return new Set(['计算机类', ...names.map((c) => c[name])]);
}
/** The schools the server loads (schools.csv): 院校代码 → its province and 办学性质. */
function schoolTable(): Map<string, { province: string; ownership: string }> {
  const [head, ...rows] = fs.readFileSync(path.join(dataDir, 'schools.csv'), 'utf8').trim().split('\n');
  const cols = head.split(',');
  const [code, province, ownership] = [cols.indexOf('schoolCode'), cols.indexOf('province'), cols.indexOf('ownership')];
  return new Map(rows.map((r) => r.split(',')).map((c) => [c[code], { province: c[province], ownership: c[ownership] }]));
}
/** A printed line name without its notes: 计算机类(含双学士学位) → 计算机类. */
const baseName = (major: string | null) => (major ?? '').split(/[（(]/)[0].trim();

const PERCENT = String.raw`\d+(?:\.\d)?%`;
/** The proposal's Alert: 「2027年模拟 10,000 次平行投档：被录取 99.6%，滑档 0.4%；…」 with its figures. */
const alertPattern = new RegExp(
  `^${examYear}年模拟 ([\\d,]+) 次平行投档：被录取 (${PERCENT})，滑档 (${PERCENT})；录取落在冲 ${PERCENT}、稳 ${PERCENT}、保 ${PERCENT}$`,
);
const pct = (p: number) => `${(Math.round(p * 1000) / 10).toFixed(1)}%`;

describe(`an expert auto-fills a plan that lands for the ${examYear} exam`, () => {
  let browser: Browser;
  let page: Page;
  let name = '';
  let first: AutofillProposal;
  let firstAlert = '';
  let firstChart = '';
  /** The two choices locked (their places and lines in the first plan). */
  const locks = [10, 20];
  let lockedLines: number[] = [];
  let planCount = 0;
  /** The simulation of the plan saved (the re-optimised proposal's); set by the test that saves it. */
  let saved: PlanSimulationView | undefined;
  const savedSimulation = () => {
    if (!saved) throw new Error('方案尚未保存');
    return saved;
  };

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
  const editor = () => page.locator('.zy-plan-editor');
  const planRows = () => page.locator('[data-testid=plan-row]');
  const dialog = () => page.locator('.ant-modal', { hasText: '填报方式' });
  const field = (label: string) => dialog().locator('.ant-form-item', { hasText: label });
  /** The open dropdown of a select (antd keeps closed ones in the page, hidden). */
  const dropdown = () => page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
  const isAutofill = (r: { url(): string }) => r.url().includes('/Filling/schoolEnrollChance_auto');

  /**
   * A dialog taller than the window is drawn only where the window shows it (the rest of an element shot is blank), so
   * the window grows to hold it for the shot, then returns to the expert's size.
   */
  async function shoot(modal: Locator, file: string) {
    const height = await modal.locator('.ant-modal-content').evaluate((el) => el.scrollHeight);
    await page.setViewportSize({ width: 1440, height: Math.max(900, Math.ceil(height) + 240) });
    await modal.locator('.ant-modal-content').screenshot({ path: path.join(screenshotDir, file), animations: 'disabled' });
    await page.setViewportSize({ width: 1440, height: 900 });
  }

  /** Picks options of a multiple select by typing their start and clicking the matching option. */
  async function pick(label: string, options: Array<{ type: string; text: RegExp }>) {
    for (const o of options) {
      await field(label).locator('.ant-select-selector').click();
      await page.keyboard.type(o.type);
      await dropdown().locator('.ant-select-item-option', { hasText: o.text }).first().click();
    }
    // Closes the dropdown without Escape (which the Modal would take as 取消).
    await dialog().locator('.ant-modal-title').click();
    await dropdown().waitFor({ state: 'hidden' });
  }

  /** The landing preferences: 山东 + 江苏, 计算机类, 公办 only. */
  async function fillPreferences() {
    await field('填报方式').getByText('按录取去向优化（推荐）').waitFor();
    await expect.poll(() => field('填报方式').locator('.ant-radio-button-wrapper-checked').textContent()).toBe('按录取去向优化（推荐）');
    await pick('院校所在地区', [
      { type: '山东', text: /^山东（\d+）$/ },
      { type: '江苏', text: /^江苏（\d+）$/ },
    ]);
    await field('想学的专业类').locator('.ant-select-selector').click();
    await page.keyboard.type('计算机类');
    await dropdown()
      .locator('.ant-select-tree-title', { hasText: /^计算机类$/ })
      .click();
    await dialog().locator('.ant-modal-title').click();
    await dialog().getByRole('checkbox', { name: '只要公办院校' }).check();
    await expectPreferences();
  }

  /** The dialog shows the wishes: 山东 and 江苏, 计算机类, 只要公办院校 ticked. */
  async function expectPreferences() {
    const regions = async () => (await field('院校所在地区').locator('.ant-select-selection-item').allTextContents()).map((s) => s.replace(/（\d+）$/, ''));
    await expect.poll(regions).toEqual(['山东', '江苏']);
    await expect.poll(() => field('想学的专业类').locator('.ant-select-selection-item').allTextContents()).toEqual(['计算机类']);
    await expect(dialog().getByRole('checkbox', { name: '只要公办院校' }).isChecked()).resolves.toBe(true);
  }

  /** Scrolls the proposal's virtual table (by the wheel, as the expert does) until the row of that order number is drawn. */
  async function proposalRow(sort: number): Promise<Locator> {
    const rows = dialog().locator('.ant-table-row');
    const row = rows.filter({ has: page.locator('.ant-table-cell:first-child', { hasText: new RegExp(`^${sort}$`) }) });
    const firstDrawn = async () => Number(await rows.first().locator('.ant-table-cell').first().textContent());
    for (let i = 0; i < 60 && !(await row.isVisible()); i++) {
      const top = await firstDrawn();
      await dialog().locator('.ant-table-body, .ant-table-tbody-virtual').first().hover();
      await page.mouse.wheel(0, sort > top ? 100 : -100);
      await expect.poll(firstDrawn).not.toBe(top);
    }
    await row.waitFor();
    return row;
  }

  /** Generates the proposal; answers what the server sent, the Alert's text and the chart's bars as drawn. */
  async function generate(): Promise<{ proposal: AutofillProposal; alert: string; chart: string }> {
    const answered = page.waitForResponse(isAutofill);
    await button(dialog(), '生成方案').click();
    const body = await (await answered).json();
    expect(body.code).toBe(200);
    const proposal = body.data as AutofillProposal;
    await dialog()
      .getByRole('button', { name: /替换志愿表（\d+ 个）/ })
      .waitFor();
    const alert = ((await dialog().locator('.ant-alert', { hasText: '次平行投档' }).first().textContent()) ?? '').trim();
    expect(alert).toMatch(alertPattern);
    // The chart: SVG bars drawn in its box, its summary naming the exam year and 滑档.
    const chart = dialog().getByTestId('landing-chart');
    await expect.poll(() => chart.locator('svg path').count()).toBeGreaterThan(5);
    const summary = (await chart.locator('div[role=img]').getAttribute('aria-label')) ?? '';
    expect(summary).toMatch(new RegExp(`^${examYear}年模拟的落点分布：被录取 ${PERCENT}，滑档 ${PERCENT}`));
    // The bars' outlines: two plans with the same 滑档 and top choice still land differently over the choices.
    const bars = await chart.locator('svg path').evaluateAll((ps) => ps.map((p) => p.getAttribute('d')).join(' '));
    return { proposal, alert, chart: bars };
  }

  /** Writes the proposal over the plan (智能填报结果 confirms the count) and waits for the editor to list it. */
  async function replacePlan(count: number) {
    await dialog()
      .getByRole('button', { name: new RegExp(`替换志愿表（${count} 个）`) })
      .click();
    const result = page.locator('.ant-modal-confirm', { hasText: '智能填报结果' });
    await result.getByText(`写入 ${count} 个志愿`).waitFor();
    await result.locator('.ant-modal-confirm-btns .ant-btn').click();
    await result.waitFor({ state: 'hidden' });
    await expect.poll(() => planRows().count()).toBe(count);
  }

  it(`the new 物化生 student opens on the ${catalogueYear} catalogue`, async () => {
    // A retried test makes a new student rather than finding the one of the failed try.
    name = `落点考生${String(Date.now()).slice(-5)}`;
    await page.goto('/volunteer/list');
    await page.locator('.ant-table-row').first().waitFor();
    await button(page, '新增学生').click();
    const form = page.locator('.ant-modal', { hasText: '新增学生' });
    await form.getByPlaceholder('请输入学生姓名').fill(name);
    await form.getByPlaceholder('0–750').fill('590');
    await form.getByPlaceholder(`默认 ${examYear}`).waitFor();
    await form.locator('.ant-form-item', { hasText: '选考科目' }).locator('.ant-select-selector').click();
    for (const s of ['物理', '化学', '生物']) await page.locator('.ant-select-item-option', { hasText: new RegExp(`^${s}$`) }).click();
    await form.locator('.ant-modal-title').click();
    await button(form, '保存').click();
    await page.getByText('新增成功').waitFor();
    const row = page.locator('.ant-table-row', { hasText: name });
    await row.getByRole('button', { name: /^填\s*报$/ }).click();
    await page.waitForURL(/\/volunteer\/Filling\?studentId=\d+/);
    await page
      .getByLabel('招生目录年份')
      .filter({ hasText: `按${catalogueYear}年招生目录 · 估计${examYear}年录取` })
      .waitFor();
    await editor().getByText('志愿表还是空的').waitFor();
  });

  it('智能填报 with 山东/江苏, 计算机类 and 公办 only proposes such schools, mostly 计算机类, with its 滑档 and landing chart', async () => {
    await button(editor(), '智能填报').click();
    await fillPreferences();
    await shoot(dialog(), 'volunteer-landing-settings.png');
    const { proposal, alert, chart } = await generate();
    first = proposal;
    firstAlert = alert;
    firstChart = chart;

    // Every proposed school is in 山东 or 江苏 and 公办 (what the server answered, all rows, not only those drawn).
    expect(proposal.strategy).toBe('landing');
    planCount = proposal.items.length;
    expect(planCount).toBeGreaterThan(locks[1]);
    const schools = schoolTable();
    for (const it of proposal.items) {
      expect(['山东', '江苏']).toContain(it.province);
      expect(it.isPublic).toBe(1);
      expect(schools.get(it.schoolCode), it.schoolName).toEqual({ province: it.province, ownership: '公办' });
    }
    // A public school's 中外合作办学 programme may stay (the school is 公办), flagged for its fee.
    for (const it of proposal.items.filter((i) => i.ownership !== '公办')) {
      expect(it.cautions?.map((c) => c.kind) ?? [], `${it.schoolName} ${it.majorName}`).toContain('fee');
    }
    // Many choices are 计算机类 and carry 意向专业; a preferred line is one of the class's majors.
    const computing = computingNames();
    const preferred = proposal.items.filter((i) => i.preferred);
    expect(preferred.length).toBeGreaterThanOrEqual(Math.min(20, planCount / 3));
    for (const it of preferred) expect(computing, `${it.schoolName} ${it.majorName}`).toContain(baseName(it.majorName));
    expect(proposal.items.filter((i) => computing.has(baseName(i.majorName))).length).toBe(preferred.length);

    // The simulation is for the exam year and the Alert prints it as the server answered.
    const sim = proposal.simulation;
    if (!sim) throw new Error('智能填报没有返回整体模拟');
    expect(sim.year).toBe(examYear);
    expect(alert).toContain(`被录取 ${pct(sim.admitted)}，滑档 ${pct(sim.slide)}`);
    // The risk target (default 0.5 %) holds.
    expect(sim.slide).toBeLessThanOrEqual(0.005);
    // Why this order, in Chinese.
    const why = await dialog().locator('.zy-autofill-explanation li').allTextContents();
    expect(why.length).toBeGreaterThan(0);
    expect(why.join('')).toMatch(/[\u4e00-\u9fa5]/);
    await dialog().locator('.ant-table-thead').getByText(`${examYear}落点`).waitFor();

    // The rows drawn: the places, tags (意向专业 on the 计算机类 ones) and a landing figure for the year.
    const shown = dialog().locator('.ant-table-row');
    await shown.first().waitFor();
    for (const row of await shown.all()) {
      const sort = Number(await row.locator('.ant-table-cell').first().textContent());
      const item = proposal.items[sort - 1];
      expect(await row.locator('.ant-table-cell').nth(1).textContent()).toBe(item.schoolName);
      const tags = await row.locator('.ant-tag').allTextContents();
      expect(tags.includes('意向专业')).toBe(item.preferred === true);
      expect(await row.locator('.ant-table-cell').nth(6).textContent()).toMatch(/^(<0\.1%|\d+\.\d%|--)$/);
    }
    await shoot(dialog(), 'volunteer-landing-autofill.png');

    await replacePlan(planCount);
    lockedLines = locks.map((n) => proposal.items[n - 1].lineId);
    for (const n of locks) {
      const it = proposal.items[n - 1];
      await expect(
        planRows()
          .nth(n - 1)
          .getAttribute('aria-label'),
      ).resolves.toBe(`第${n}个志愿 ${[it.schoolName, it.majorName].filter(Boolean).join(' ')}`);
    }
  });

  it('locking the 10th and 20th choices and re-optimising keeps them in place and moves the figures', async () => {
    await button(editor(), '智能填报').click();
    // The dialog keeps the family's wishes: the rest of the plan is re-optimised for the same ones.
    await expectPreferences();
    await expect(field('锁定志愿').locator('label').textContent()).resolves.toContain(`当前志愿表 ${planCount} 个`);
    await pick(
      '锁定志愿',
      locks.map((n) => ({ type: `第${n}个`, text: new RegExp(`^第${n}个 `) })),
    );
    await expect.poll(() => field('锁定志愿').locator('.ant-select-selection-item').count()).toBe(2);
    const asked = page.waitForRequest(isAutofill);
    const { proposal, alert, chart } = await generate();
    // The request named the two lines at their places.
    expect((await asked).postDataJSON().locked).toEqual(locks.map((sort, i) => ({ lineId: lockedLines[i], sort })));

    // The locked lines stay at their places, marked 锁定, and only they are.
    locks.forEach((n, i) => {
      expect(proposal.items[n - 1].lineId).toBe(lockedLines[i]);
      expect(proposal.items[n - 1].locked).toBe(true);
    });
    expect(proposal.items.filter((i) => i.locked).length).toBe(2);
    for (const n of locks) {
      const row = await proposalRow(n);
      await row.locator('.ant-tag', { hasText: /^锁定$/ }).waitFor();
      expect(await row.locator('.ant-table-cell').nth(1).textContent()).toBe(first.items[n - 1].schoolName);
    }
    // A re-optimised plan around them: other lines and other simulated figures, in the Alert and the chart.
    expect(proposal.items.map((i) => i.lineId)).not.toEqual(first.items.map((i) => i.lineId));
    expect(alert).not.toBe(firstAlert);
    expect(chart).not.toBe(firstChart);
    for (const it of proposal.items) expect(['山东', '江苏']).toContain(it.province);
    await proposalRow(locks[0]);
    await shoot(dialog(), 'volunteer-landing-locked.png');

    planCount = proposal.items.length;
    await replacePlan(planCount);
    // The editor simulates the new list: the same figures the proposal showed, for the exam year, a landing per row.
    const sim = proposal.simulation;
    if (!sim) throw new Error('智能填报没有返回整体模拟');
    saved = sim;
    const summary = editor().getByTestId('plan-simulation-summary');
    await expect
      .poll(() => summary.textContent())
      .toMatch(new RegExp(`^${examYear}年模拟：被录取 ${pct(sim.admitted).replace('.', '\\.')} · 滑档 ${pct(sim.slide).replace('.', '\\.')} · 落在 `));
    await expect.poll(() => planRows().locator('[data-testid=plan-row-landing]').first().textContent()).toMatch(/^落点 (<0\.1%|\d+\.\d%)$/);
    for (const n of locks)
      await expect(
        planRows()
          .nth(n - 1)
          .getAttribute('data-line-id'),
      ).resolves.toBe(String(lockedLines[locks.indexOf(n)]));

    const answered = page.waitForResponse((r) => r.url().includes('/Subscriber/save'));
    await button(editor(), '保存').click();
    expect((await (await answered).json()).code).toBe(200);
    await page.getByText('保存成功').waitFor();
    await editor().locator('.ant-tag', { hasText: '草稿' }).waitFor();
    await editor().screenshot({ path: path.join(screenshotDir, 'volunteer-landing-plan.png') });
  });

  it('方案报告 draws the landing chart of the saved plan', async () => {
    await button(editor(), '方案报告').click();
    const report = page.locator('.ant-modal', { hasText: '志愿方案报告' });
    const simulation = report.getByTestId('plan-simulation');
    await simulation.getByText(new RegExp(`^${examYear}年整体模拟（[\\d,]+ 次平行投档）$`)).waitFor();
    await simulation.getByText(`${examYear}年模拟落点分布（录取落在各志愿的概率）`).waitFor();
    const chart = simulation.getByTestId('landing-chart');
    await expect.poll(() => chart.locator('svg path').count()).toBeGreaterThan(5);
    await expect(chart.locator('div[role=img]').getAttribute('aria-label')).resolves.toMatch(
      new RegExp(`^${examYear}年模拟的落点分布：被录取 ${PERCENT}，滑档 ${PERCENT}`),
    );
    // The saved plan simulated again by the server: the figures the proposal and the editor showed.
    const saved = savedSimulation();
    await expect(simulation.locator('.ant-statistic', { hasText: /^滑档/ }).textContent()).resolves.toBe(`滑档${pct(saved.slide)}`);
    await expect(simulation.locator('.ant-statistic', { hasText: /^被录取/ }).textContent()).resolves.toBe(`被录取${pct(saved.admitted)}`);
    await shoot(report, 'volunteer-landing-report.png');
    await report.locator('.ant-modal-close').click();
    await report.waitFor({ state: 'hidden' });
  });

  it('the PDF prints the whole plan’s simulation and each choice’s 落点概率', async () => {
    await button(editor(), '更多').click();
    const downloading = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: '导出 PDF' }).click();
    const file = await downloading;
    expect(file.suggestedFilename()).toBe(`志愿方案-${name}.pdf`);
    const target = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'zy-pdf-')), 'plan.pdf');
    await file.saveAs(target);
    const text = execFileSync('pdftotext', [target, '-'], { encoding: 'utf8' });
    // The whole plan: the saved plan's simulation, with the exam year and 滑档.
    const saved = savedSimulation();
    expect(text).toContain(
      `整体方案：按${examYear}年模拟 ${saved.draws.toLocaleString('en-US')} 次平行投档：被录取的概率 ${pct(saved.admitted)}，滑档 ${pct(saved.slide)}`,
    );
    // Each simulated choice's 落点概率 for the exam year, in plan order (below 0.1 % printed as such, not 0.0%).
    const shares = [...text.matchAll(new RegExp(`${examYear} 落点概率 (<0\\.1%|\\d+\\.\\d%)`, 'g'))].map((m) => m[1]);
    const expected = saved.choices.filter((c) => c.simulated).map((c) => (c.landing < 0.001 ? '<0.1%' : pct(c.landing)));
    expect(expected.length).toBeGreaterThan(planCount / 2);
    expect(shares).toEqual(expected);
  });
});
