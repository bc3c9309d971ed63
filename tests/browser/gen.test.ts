import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin } from './api';
import { launchBrowser, newPage, screenshotDir, signIn } from './browser';

/**
 * 代码生成 in Chromium against the real server: import gk_school (a real table of the fresh database with no schema),
 * give one column a title on the edit page, see that title in the previewed schema JSON, and download the .json.
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

  it('imports a table, edits a column title, previews the schema with it and downloads the .json', async () => {
    const token = await apiLogin('admin', 'admin123');
    const offered = (await api('GET', '/dev-api/tool/gen/db/list?pageSize=500', { token })) as unknown as { rows: Array<{ tableName: string }> };
    const names = offered.rows.map((r) => r.tableName);
    expect(names).toContain('gk_school');
    expect(names).not.toContain('sys_config'); // has a schema already

    const page = await newPage(browser);
    await signIn(page, 'admin', 'admin123');
    await page.goto('/tool/gen');
    const list = page.locator('.gen-list');
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

    // 编辑: the 字段信息 tab, one column's 字段描述.
    await row.getByRole('button', { name: /编\s*辑/ }).click();
    await page.waitForURL(/\/tool\/gen-edit\/index\/\d+$/);
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
    const listed = page.locator('.gen-list .ant-table-tbody tr.ant-table-row').filter({ hasText: 'gk_school' });
    // The list (kept alive in its tab) reloads when shown again.
    await expect.poll(() => listed.textContent()).toContain('院校');
    await listed.getByRole('button', { name: /预\s*览/ }).click();
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
    await listed.getByRole('button', { name: /生成代码/ }).click();
    const gen = page.locator('.ant-modal').filter({ hasText: '写入 schemas/ 目录' });
    await gen.waitFor();
    await expect(gen.getByRole('button', { name: /写入 schemas\/ 目录/ }).isDisabled()).resolves.toBe(true);
    const [download] = await Promise.all([page.waitForEvent('download'), gen.getByRole('button', { name: /下载 \.json/ }).click()]);
    expect(download.suggestedFilename()).toBe('gk_school.json');
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'zy-gen-')), 'gk_school.json');
    await download.saveAs(file);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(schema);
    await page.close();
  });
});
