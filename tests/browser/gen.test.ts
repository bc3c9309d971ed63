import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin } from './api';
import { launchBrowser, newPage, screenshotDir, signIn } from './browser';

/**
 * 代码生成 in Chromium against the real server: import gk_school (a real table of the fresh database with no schema),
 * give one column a title on the edit page, see that title in the previewed schema JSON, download the .json, 同步 the
 * columns and delete the table again.
 */
describe('代码生成 in Chromium against the real server', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
    fs.mkdirSync(screenshotDir, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** A row button (its icon is part of its name): in the row, or under 更多 where the list folds the row's extras. */
  async function rowAction(page: Page, row: Locator, name: RegExp): Promise<void> {
    const direct = row.getByRole('button', { name });
    if ((await direct.count()) > 0) return direct.first().click();
    await row.getByRole('button', { name: /更多/ }).click();
    await page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').getByRole('button', { name }).first().click();
  }

  it('imports a table, edits a column title, previews the schema with it, downloads the .json, syncs and deletes it', async () => {
    const token = await apiLogin('admin', 'admin123');
    const offered = (await api('GET', '/dev-api/tool/gen/db/list?pageSize=500', { token })) as unknown as { rows: Array<{ tableName: string }> };
    const names = offered.rows.map((r) => r.tableName);
    expect(names).toContain('gk_school');
    expect(names).not.toContain('sys_config'); // has a schema already

    const page = await newPage(browser);
    await signIn(page, 'admin', 'admin123');
    await page.goto('/tool/gen');
    // The engine's list of schemas/gen/gen_table.json (module-served by the gen routes).
    const list = page.locator('.engine-list[data-resource="gen_table"]');
    await list.waitFor();

    // 导入: search the dialog for the table, pick it, 确定.
    await list.getByRole('button', { name: /导\s*入/ }).click();
    const dialog = page.locator('.ant-modal').filter({ hasText: '导入表' });
    await dialog.waitFor();
    await dialog.getByPlaceholder('请输入表名称').fill('gk_school');
    await dialog.getByRole('button', { name: /搜\s*索/ }).click();
    const candidate = dialog.locator('.ant-table-tbody tr.ant-table-row');
    await expect.poll(() => candidate.count()).toBe(1);
    await candidate.first().click();
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await page.getByText('导入成功').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    const row = list.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: 'gk_school' });
    await row.waitFor();
    await page.screenshot({ path: path.join(screenshotDir, 'gen-list.png') });

    // 修改: the 字段信息 tab, one column's 字段描述.
    await row.getByRole('button', { name: /修\s*改/ }).click();
    await page.waitForURL(/\/tool\/gen-edit\/index\/\d+$/);
    const tableId = page.url().split('/').at(-1);
    const editor = page.locator('.gen-edit');
    const comment = editor.getByLabel('name 字段描述', { exact: true });
    await comment.waitFor();
    await expect(comment.inputValue()).resolves.toBe('name');
    await comment.fill('院校名称');
    await editor.getByLabel('province 字段描述', { exact: true }).fill('所在省份');
    await page.screenshot({ path: path.join(screenshotDir, 'gen-edit.png') });
    await editor.getByRole('tab', { name: '生成信息' }).click();
    await expect(editor.getByLabel('接口地址', { exact: true }).inputValue()).resolves.toBe('/dev-api/gk/school');
    await editor.getByRole('tab', { name: '基本信息' }).click();
    await editor.getByLabel('表描述', { exact: true }).fill('院校');
    await editor.getByRole('button', { name: /提\s*交/ }).click();
    await page.getByText('修改成功').waitFor();
    await page.waitForURL(/\/tool\/gen$/);

    // 预览: the schema JSON carries the new titles.
    const listed = list.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: 'gk_school' });
    // The list (kept alive in its tab) reloads when shown again.
    await expect.poll(() => listed.textContent()).toContain('院校');
    await rowAction(page, listed, /预\s*览/);
    const preview = page.locator('.ant-modal').filter({ hasText: '代码预览' });
    const code = preview.locator('.gen-preview-code');
    await code.waitFor();
    const text = (await code.textContent()) ?? '';
    const schema = JSON.parse(text) as { $id: string; title: string; properties: Record<string, { title: string }> };
    expect(schema).toMatchObject({ $id: 'gk_school', title: '院校', properties: { name: { title: '院校名称' }, province: { title: '所在省份' } } });
    await expect(preview.getByRole('tab').first().textContent()).resolves.toBe('gk_school.json');
    await page.screenshot({ path: path.join(screenshotDir, 'gen-preview.png') });
    await preview.locator('.ant-modal-close').click();
    await preview.waitFor({ state: 'hidden' });

    // 生成代码 → 下载 .json (the server runs without GEN_WRITE: writing is offered disabled).
    await rowAction(page, listed, /生成代码/);
    const gen = page.locator('.ant-modal').filter({ hasText: '写入 schemas/ 目录' });
    await gen.waitFor();
    await gen.getByText(/仅开发模式可写入 schemas\/ 目录/).waitFor();
    await expect(gen.getByRole('button', { name: /写入 schemas\/ 目录/ }).isDisabled()).resolves.toBe(true);
    const [download] = await Promise.all([page.waitForEvent('download'), gen.getByRole('button', { name: /下载 \.json/ }).click()]);
    expect(download.suggestedFilename()).toBe('gk_school.json');
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'zy-gen-')), 'gk_school.json');
    await download.saveAs(file);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(schema);
    await gen.waitFor({ state: 'hidden' });

    // 同步 re-reads the table's columns (confirmed first).
    await rowAction(page, listed, /同\s*步/);
    const sync = page.locator('.ant-modal-confirm', { hasText: '确认要强制同步"gk_school"表结构吗？' });
    await sync.waitFor();
    await sync.getByRole('button', { name: /确\s*定/ }).click();
    await page.getByText('同步成功').first().waitFor();
    await sync.waitFor({ state: 'detached' });

    // 删除 asks by table number; then the table is gone from the list (and may be imported again).
    await listed.getByRole('button', { name: /删\s*除/ }).click();
    const remove = page.locator('.ant-modal-confirm', { hasText: `是否确认删除表编号为"${tableId}"的数据项？` });
    await remove.waitFor();
    await remove.getByRole('button', { name: /确\s*定/ }).click();
    await page.getByText('删除成功').first().waitFor();
    await expect.poll(() => listed.count()).toBe(0);
    await page.close();
  });
});
