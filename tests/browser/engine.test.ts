import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin } from './api';
import { launchBrowser, newPage, screenshotDir, signIn } from './browser';

/**
 * The schema engine's generic screens in Chromium against the real server, on 参数设置 (schemas/system/sys_config.json):
 * create / search / edit / delete, the 系统内置 dictionary tag, column visibility across a reload, export to .xlsx
 * (same rows as the table), an import refused for one bad row (report shown, nothing written), and the operator role
 * (no system:config:remove) seeing no 删除.
 */
describe('schema engine: 参数设置 in Chromium against the real server', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
    fs.mkdirSync(screenshotDir, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
  });

  const rowsLocator = (page: Page) => page.locator('.engine-list .ant-table-tbody tr.ant-table-row');
  const headerTexts = async (page: Page) => (await page.locator('.engine-list .ant-table-thead th').allInnerTexts()).map((t) => t.trim()).filter(Boolean);

  async function openConfig(page: Page): Promise<void> {
    await page.goto('/system/config');
    await page.locator('.engine-list[data-resource="sys_config"]').waitFor();
    await rowsLocator(page).first().waitFor();
  }

  it('creates, searches, edits and deletes a record; 系统内置 shows its dictionary tag', async () => {
    const page = await newPage(browser);
    await signIn(page, 'admin', 'admin123');
    await openConfig(page);
    // Seeded rows are built-in (Y → 是, a primary tag).
    const seeded = rowsLocator(page).filter({ hasText: 'sys.index.skinName' });
    await expect(seeded.locator('.ant-tag').first().textContent()).resolves.toBe('是');
    expect(await headerTexts(page)).toEqual(['参数主键', '参数名称', '参数键名', '参数键值', '系统内置', '备注', '创建时间', '操作']);
    await page.screenshot({ path: path.join(screenshotDir, 'engine-list.png') });

    // 新增
    const key = `e2e.engine.${Date.now()}`;
    await page.getByRole('button', { name: /新\s*增/ }).click();
    const create = page.locator('.ant-modal').filter({ hasText: '新增参数设置' });
    await create.waitFor();
    await create.getByPlaceholder('请输入参数名称').fill('端到端参数');
    await create.getByPlaceholder('请输入参数键名').fill(key);
    await create.getByPlaceholder('请输入参数键值').fill('v1');
    await create.getByRole('button', { name: /确\s*定/ }).click();
    await page.getByText('新增成功').waitFor();
    await create.waitFor({ state: 'detached' });
    await page.getByText('新增成功').waitFor({ state: 'hidden' });

    // 搜索 by 参数键名 (like) → only the new row.
    await page.locator('.engine-search').getByPlaceholder('请输入参数键名').fill(key);
    await page
      .locator('.engine-search')
      .getByRole('button', { name: /搜\s*索/ })
      .click();
    await expect.poll(() => rowsLocator(page).count()).toBe(1);
    const row = rowsLocator(page).first();
    await expect(row.textContent()).resolves.toContain(key);
    await expect(row.locator('.ant-tag').textContent()).resolves.toBe('否');
    const id = ((await row.locator('td').nth(1).textContent()) ?? '').trim();
    expect(id).toMatch(/^\d+$/);

    // 修改
    await row.getByRole('button', { name: /修\s*改/ }).click();
    const edit = page.locator('.ant-modal').filter({ hasText: '修改参数设置' });
    await edit.waitFor();
    await expect(edit.getByPlaceholder('请输入参数键名').inputValue()).resolves.toBe(key);
    await edit.getByPlaceholder('请输入参数键值').fill('v2');
    await edit.getByText('是', { exact: true }).click();
    // Audit columns never filled (更新者 / 更新时间) stay out; the key and 创建时间 show disabled.
    await expect(edit.getByText('更新时间').count()).resolves.toBe(0);
    await expect(edit.locator('input[disabled]').count()).resolves.toBeGreaterThanOrEqual(2);
    await page.waitForTimeout(600); // the radio's click animation
    await page.screenshot({ path: path.join(screenshotDir, 'engine-edit.png') });
    await edit.getByRole('button', { name: /确\s*定/ }).click();
    await page.getByText('修改成功').waitFor();
    await edit.waitFor({ state: 'detached' });
    await expect.poll(() => row.textContent()).toContain('v2');
    await expect(row.locator('.ant-tag').textContent()).resolves.toBe('是');

    // 详情 (the key opens the show dialog for holders of system:config:query).
    await row.getByTitle('详情').click();
    const show = page.locator('.ant-modal').filter({ hasText: '参数设置详情' });
    await show.locator('.ant-descriptions').waitFor();
    await expect(show.locator('.ant-descriptions').textContent()).resolves.toContain(key);
    await show.getByRole('button', { name: /关\s*闭/ }).click();
    await show.waitFor({ state: 'detached' });

    // 删除 with the RuoYi confirmation.
    await row.getByRole('button', { name: /删\s*除/ }).click();
    await page.getByText(`是否确认删除参数设置编号为"${id}"的数据项？`).waitFor();
    await page
      .locator('.ant-modal-confirm')
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await page.getByText('删除成功').waitFor();
    await expect.poll(() => rowsLocator(page).count()).toBe(0);
    await page.context().close();
  });

  it('a stale version keeps the edit dialog open with the message', async () => {
    const token = await apiLogin('admin', 'admin123');
    const key = `e2e.stale.${Date.now()}`;
    const made = await api<{ configId: number }>('POST', '/dev-api/system/config', {
      token,
      body: { configName: '并发参数', configKey: key, configValue: 'a' },
    });
    expect(made.code).toBe(200);
    const page = await newPage(browser);
    await signIn(page, 'admin', 'admin123');
    await openConfig(page);
    await page.locator('.engine-search').getByPlaceholder('请输入参数键名').fill(key);
    await page
      .locator('.engine-search')
      .getByRole('button', { name: /搜\s*索/ })
      .click();
    await expect.poll(() => rowsLocator(page).count()).toBe(1);
    await rowsLocator(page)
      .first()
      .getByRole('button', { name: /修\s*改/ })
      .click();
    const edit = page.locator('.ant-modal').filter({ hasText: '修改参数设置' });
    await expect(edit.getByPlaceholder('请输入参数键名').inputValue()).resolves.toBe(key);
    // Someone else saves first.
    const id = made.data?.configId;
    const current = await api<{ version: number }>('GET', `/dev-api/system/config/${id}`, { token });
    const other = await api('PUT', '/dev-api/system/config', {
      token,
      body: { configId: id, configName: '并发参数', configKey: key, configValue: 'b', version: current.data?.version },
    });
    expect(other.code).toBe(200);
    await edit.getByPlaceholder('请输入参数键值').fill('c');
    await edit.getByRole('button', { name: /确\s*定/ }).click();
    await edit.locator('.ant-alert-message', { hasText: '数据已被他人修改，请刷新后重试' }).waitFor();
    await expect(edit.isVisible()).resolves.toBe(true);
    // Trying again from the same dialog is still refused: the version stays the one the edit started from.
    await edit.locator('.ant-alert-close-icon').click();
    await page.waitForTimeout(1100); // past the 1000 ms duplicate-submit window (§5)
    await edit.getByRole('button', { name: /确\s*定/ }).click();
    await edit.locator('.ant-alert-message', { hasText: '数据已被他人修改，请刷新后重试' }).waitFor();
    const stored = await api<{ configValue: string }>('GET', `/dev-api/system/config/${id}`, { token });
    expect(stored.data?.configValue).toBe('b');
    await api('DELETE', `/dev-api/system/config/${id}`, { token });
    await page.context().close();
  });

  it('hidden columns stay hidden after a reload', async () => {
    const page = await newPage(browser);
    await signIn(page, 'admin', 'admin123');
    await openConfig(page);
    expect(await headerTexts(page)).toContain('参数键值');
    await page.getByRole('button', { name: '显示/隐藏列' }).click();
    await page.locator('.ant-popover').getByRole('checkbox', { name: '参数键值' }).uncheck();
    await expect.poll(() => headerTexts(page)).not.toContain('参数键值');
    await page.reload();
    await rowsLocator(page).first().waitFor();
    const after = await headerTexts(page);
    expect(after).not.toContain('参数键值');
    expect(after).toContain('参数键名');
    await page.context().close();
  });

  it('导出 downloads an .xlsx holding the rows of the table', async () => {
    const page = await newPage(browser);
    await signIn(page, 'admin', 'admin123');
    await openConfig(page);
    const keys = await rowsLocator(page).evaluateAll((trs) => trs.map((tr) => (tr.querySelectorAll('td')[3]?.textContent ?? '').trim()));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /导\s*出/ }).click()]);
    expect(download.suggestedFilename()).toMatch(/^参数设置_\d+\.xlsx$/);
    const file = path.join(os.tmpdir(), `engine-export-${Date.now()}.xlsx`);
    await download.saveAs(file);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(file);
    const sheet = workbook.worksheets[0];
    const header = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
    expect(header).toEqual(['参数主键', '参数名称', '参数键名', '参数键值', '系统内置', '备注', '创建时间']);
    const keyColumn = header.indexOf('参数键名') + 1;
    const exported: string[] = [];
    sheet.eachRow((r, n) => {
      if (n > 1) exported.push(String(r.getCell(keyColumn).value ?? ''));
    });
    expect(exported).toEqual(keys);
    // Dictionary values are exported by label.
    const typeColumn = header.indexOf('系统内置') + 1;
    expect(['是', '否']).toContain(String(sheet.getRow(2).getCell(typeColumn).value));
    fs.rmSync(file, { force: true });
    await page.context().close();
  });

  it('an import with one bad row shows the report and writes nothing', async () => {
    const token = await apiLogin('admin', 'admin123');
    const prefix = `e2e.import.${Date.now()}`;
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('参数设置');
    sheet.addRow(['参数名称', '参数键名', '参数键值', '系统内置', '备注']);
    sheet.addRow(['导入好行', `${prefix}.good`, '1', '否', null]);
    sheet.addRow([null, `${prefix}.bad`, '2', '否', null]);
    const buffer = Buffer.from(await workbook.xlsx.writeBuffer());

    const page = await newPage(browser);
    await signIn(page, 'admin', 'admin123');
    await openConfig(page);
    await page.getByRole('button', { name: /导\s*入/ }).click();
    const dialog = page.locator('.ant-modal').filter({ hasText: '参数设置导入' });
    await dialog.getByText('是否更新已经存在的数据').waitFor();
    await dialog.getByText('下载模板').waitFor();
    await dialog
      .locator('input[type=file]')
      .setInputFiles({ name: 'config.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer });
    await dialog.getByText('config.xlsx').waitFor();
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    const report = dialog.locator('.import-report');
    await report.waitFor();
    const cells = await report.locator('tbody tr').first().locator('td').allInnerTexts();
    expect(cells[0]).toBe('3');
    expect(cells[1]).toBe('参数名称');
    expect(cells[2]).toContain('不能为空');
    await dialog
      .getByText(/未写入任何数据/)
      .first()
      .waitFor();
    // Nothing of the file was stored, not even the good row.
    const list = (await api('GET', `/dev-api/system/config/list?configKey=${encodeURIComponent(prefix)}`, { token })) as { total?: number };
    expect(list.total).toBe(0);
    await page.context().close();
  });

  it('operator (no system:config:remove) sees no 删除 but may add and edit', async () => {
    const page = await newPage(browser);
    await signIn(page, 'operator', 'operator123');
    await openConfig(page);
    await page.getByRole('button', { name: /新\s*增/ }).waitFor();
    expect(await page.getByRole('button', { name: /修\s*改/ }).count()).toBeGreaterThan(0);
    expect(await page.getByRole('button', { name: /删\s*除/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /导\s*出/ }).count()).toBe(1);
    await page.context().close();
  });
});
