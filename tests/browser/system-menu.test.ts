import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshotDir, signIn } from './browser';

/**
 * 菜单管理 (schema engine, schemas/system/sys_menu.json) and 菜单配置 (schemas/system/sys_menu_config.json, served by
 * menuConfig / menuSave / menuDel) in Chromium against the real server: the form shows the fields of the chosen
 * 菜单类型, the icon picker fills 图标 and the list draws it; a directory and a page added through the 菜单配置 dialogs
 * show in the sidebar after signing in again, a directory with children is refused deletion with the server's
 * message, and both are deleted again.
 */
describe('菜单管理 / 菜单配置 in Chromium against the real server', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
    fs.mkdirSync(screenshotDir, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
  });

  const ok = (dialog: Locator) => dialog.getByRole('button', { name: /确\s*定/ }).click();

  async function pickIcon(page: Page, dialog: Locator, name: string, screenshot?: string): Promise<void> {
    await dialog.getByPlaceholder(/点击选择图标|请选择图标/).click();
    const search = page.getByPlaceholder('请输入图标名称');
    await search.waitFor();
    await expect(page.getByRole('listbox', { name: '图标列表' }).getByRole('option').count()).resolves.toBeGreaterThan(20);
    if (screenshot) await page.screenshot({ path: path.join(screenshotDir, screenshot) });
    await search.fill(name.slice(0, 3));
    const option = page.getByRole('option', { name, exact: true });
    await option.waitFor();
    // The search narrows the grid to matching names.
    for (const text of await page.getByRole('listbox', { name: '图标列表' }).getByRole('option').allInnerTexts()) expect(text).toContain(name.slice(0, 3));
    await option.click();
    // CI (load from the other browser files on the same server) once saw this click leave the picker open with the
    // search text still typed, i.e. the option never got it, twice in a row; never reproduced alone. Say so, keep a
    // screenshot, and choose the same option by keyboard (a real user's other way in): the value is checked below.
    if (
      !(await search.waitFor({ state: 'hidden', timeout: 5000 }).then(
        () => true,
        () => false,
      ))
    ) {
      const file = path.join(screenshotDir, '..', '..', 'test-results', `icon-picker-${name}.png`);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      await page.screenshot({ path: file });
      console.warn(
        `图标选择: clicking 「${name}」 left the picker open (search ${JSON.stringify(await search.inputValue())}); choosing it by keyboard; screenshot ${file}`,
      );
      await option.focus();
      await page.keyboard.press('Enter');
      await search.waitFor({ state: 'hidden' });
    }
    await expect(dialog.getByPlaceholder(/点击选择图标|请选择图标/).inputValue()).resolves.toBe(name);
  }

  it('菜单管理: the form follows 菜单类型, the icon comes from the picker and shows in the tree list', async () => {
    const page = await newPage(browser);
    await signIn(page, 'admin', 'admin123');
    await page.goto('/system/menu');
    const list = page.locator('.engine-list[data-resource="sys_menu"]');
    await list.locator('.ant-table-row').first().waitFor();
    const headers = (await list.locator('.ant-table-thead th').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
    expect(headers).toEqual(['菜单名称', '图标', '排序', '权限标识', '组件路径', '状态', '创建时间', '操作']);
    // The seeded directories carry their icons.
    await list.locator('.ant-table-row', { hasText: '系统管理' }).getByRole('img', { name: '图标 system' }).waitFor();
    await page.screenshot({ path: path.join(screenshotDir, 'system-menu-list.png') });

    await list
      .getByRole('button', { name: /新\s*增/ })
      .first()
      .click();
    const dialog = page.locator('.ant-modal').filter({ hasText: '新增菜单' });
    await dialog.waitFor();
    // 目录: no 组件路径 / 权限标识; 菜单: both; 按钮: no 路由地址 / 图标.
    const label = (text: string) => dialog.locator('.ant-form-item-label', { hasText: new RegExp(`^${text}$`) });
    await expect(label('组件路径').count()).resolves.toBe(0);
    await expect(label('路由地址').count()).resolves.toBe(1);
    await dialog.getByText('菜单', { exact: true }).click();
    await expect.poll(() => label('组件路径').count()).toBe(1);
    await expect(label('权限标识').count()).resolves.toBe(1);
    await dialog.getByText('按钮', { exact: true }).click();
    await expect.poll(() => label('路由地址').count()).toBe(0);
    await expect(label('图标').count()).resolves.toBe(0);
    await dialog.getByText('目录', { exact: true }).click();
    await expect.poll(() => label('路由地址').count()).toBe(1);

    const name = `图标目录${Date.now() % 100000}`;
    await dialog.getByPlaceholder('请输入菜单名称').fill(name);
    await dialog.getByPlaceholder('请输入路由地址').fill(`iconDir${Date.now() % 100000}`);
    await pickIcon(page, dialog, 'star', 'system-menu-icon-picker.png');
    await page.screenshot({ path: path.join(screenshotDir, 'system-menu-form.png') });
    await ok(dialog);
    await page.getByText('新增成功').first().waitFor();
    await dialog.waitFor({ state: 'detached' });

    await page.locator('.engine-search').getByPlaceholder('请输入菜单名称').fill(name);
    await page
      .locator('.engine-search')
      .getByRole('button', { name: /搜\s*索/ })
      .click();
    const row = list.locator('.ant-table-row', { hasText: name });
    await row.getByRole('img', { name: '图标 star' }).waitFor();

    // 新增 on the row: a child of it (a page under a directory).
    await row.getByRole('button', { name: /新\s*增/ }).click();
    const child = page.locator('.ant-modal').filter({ hasText: '新增菜单' });
    await child.waitFor();
    await expect.poll(() => child.locator('.ant-select-selection-item').first().textContent()).toBe(name);
    await expect(child.locator('.ant-radio-wrapper-checked').first().textContent()).resolves.toBe('菜单');
    await child.getByRole('button', { name: /取\s*消/ }).click();
    await child.waitFor({ state: 'detached' });

    await row.getByRole('button', { name: /删\s*除/ }).click();
    await page
      .locator('.ant-modal-confirm')
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await page.getByText('删除成功').first().waitFor();
    await expect.poll(() => list.locator('.ant-table-row', { hasText: name }).count()).toBe(0);
    await page.context().close();
  });

  it('菜单配置: 添加目录 and 添加菜单 show in the sidebar after signing in again; deleted again', async () => {
    const page = await newPage(browser);
    await signIn(page, 'admin', 'admin123');
    await page.goto('/system/menuConfig');
    // The engine's list of schemas/system/sys_menu_config.json (module-served by menuConfig / menuSave / menuDel).
    const screen = page.locator('.engine-list[data-resource="sys_menu_config"]');
    await screen.locator('.ant-table-row', { hasText: '系统管理' }).waitFor();
    const tag = Date.now() % 100000;
    const dirName = `配置目录${tag}`;
    const pageName = `配置页面${tag}`;

    // 添加目录
    await screen.getByRole('button', { name: '添加目录' }).click();
    const dirDialog = page.locator('.ant-modal').filter({ hasText: '添加目录' });
    await dirDialog.waitFor();
    for (const text of ['上级目录', '目录名称', '路由地址', '图标', '排序', '显示状态'])
      await dirDialog.locator('.ant-form-item-label', { hasText: text }).first().waitFor();
    await expect(dirDialog.locator('.ant-select-selection-item').first().textContent()).resolves.toBe('主类目');
    // Required fields are checked before anything is sent.
    await ok(dirDialog);
    await dirDialog.getByText('目录名称不能为空').waitFor();
    await dirDialog.getByPlaceholder('请输入目录名称').fill(dirName);
    await dirDialog.getByPlaceholder('请输入路由地址').fill(`cfgDir${tag}`);
    await pickIcon(page, dirDialog, 'star');
    await dirDialog.getByPlaceholder('请输入排序').fill('99');
    await ok(dirDialog);
    await page.getByText('新增成功').first().waitFor();
    await dirDialog.waitFor({ state: 'hidden' });
    const dirRow = screen.locator('.ant-table-row', { hasText: dirName });
    await dirRow.getByRole('img', { name: '图标 star' }).waitFor();

    // 修改 opens the dialog of the row's type with its values; the change is saved and listed.
    await dirRow.getByRole('button', { name: /修\s*改/ }).click();
    const editDialog = page.locator('.ant-modal').filter({ hasText: '修改目录' });
    await editDialog.waitFor();
    await expect(editDialog.getByPlaceholder('请输入目录名称').inputValue()).resolves.toBe(dirName);
    await editDialog.getByPlaceholder('请输入排序').fill('98');
    await ok(editDialog);
    await page.getByText('修改成功').first().waitFor();
    await editDialog.waitFor({ state: 'hidden' });
    await dirRow.locator('td').filter({ hasText: /^98$/ }).waitFor();

    // 添加菜单 under it
    await screen.getByRole('button', { name: '添加菜单' }).click();
    const pageDialog = page.locator('.ant-modal').filter({ hasText: '添加菜单' });
    await pageDialog.waitFor();
    for (const text of ['上级目录', '菜单名称', '路由地址', '组件路径', '权限字符', '图标', '排序', '是否缓存', '显示状态'])
      await pageDialog.locator('.ant-form-item-label', { hasText: text }).first().waitFor();
    await pageDialog.locator('.ant-select-selector').first().click();
    await page.keyboard.type(dirName);
    await page.locator('.ant-select-tree-node-content-wrapper', { hasText: dirName }).click();
    await pageDialog.getByPlaceholder('请输入菜单名称').fill(pageName);
    await pageDialog.getByPlaceholder('请输入路由地址').fill(`cfgPage${tag}`);
    await pageDialog.getByPlaceholder('请输入组件路径').fill('system/config/index');
    await pageDialog.getByPlaceholder('请输入权限标识').fill(`cfg:page${tag}:list`);
    await pickIcon(page, pageDialog, 'edit');
    await page.screenshot({ path: path.join(screenshotDir, 'system-menu-config-dialog.png') });
    await ok(pageDialog);
    await page.getByText('新增成功').first().waitFor();
    await pageDialog.waitFor({ state: 'hidden' });
    await dirRow.locator('.ant-table-row-expand-icon').click();
    await screen.locator('.ant-table-row', { hasText: pageName }).waitFor();
    await page.screenshot({ path: path.join(screenshotDir, 'system-menu-config.png') });

    // Not in the sidebar yet; after signing out and in again it is.
    const sider = page.locator('.ant-layout-sider');
    await expect(sider.getByText(dirName, { exact: true }).count()).resolves.toBe(0);
    await page.getByRole('button', { name: '用户菜单' }).click();
    // The popover's own button, once it is shown (a click during its opening animation could miss).
    const logout = page.locator('.ant-popover:not(.ant-popover-hidden)').getByRole('button', { name: /退出登录/ });
    await logout.waitFor();
    await logout.click();
    await page.getByText('确定退出系统吗？').waitFor();
    await page.getByRole('button', { name: /确\s*定/ }).click();
    await page.waitForURL('**/login**');
    await signIn(page, 'admin', 'admin123');
    await sider.getByText(dirName, { exact: true }).click();
    await sider.getByText(pageName, { exact: true }).click();
    await page.waitForURL(`**/cfgDir${tag}/cfgPage${tag}`);
    await page.locator('.engine-list[data-resource="sys_config"]').waitFor();

    // A directory with a page cannot go first; the page, then the directory can.
    await page.goto('/system/menuConfig');
    await dirRow.waitFor();
    // Each confirm is found by its own text, and gone before the next one opens (a closing one still animates). A
    // refused delete keeps its dialog open with the server's reason, until 取消.
    const confirmDelete = async (name: string, refusal?: string) => {
      const confirm = page.locator('.ant-modal', { hasText: `是否确认删除名称为"${name}"的数据项？` });
      await confirm.waitFor();
      await confirm.getByRole('button', { name: /删\s*除/ }).click();
      if (refusal) {
        await confirm.getByText(refusal).waitFor();
        await confirm.getByRole('button', { name: /取\s*消/ }).click();
      }
      await confirm.waitFor({ state: 'detached' });
    };
    await dirRow.getByRole('button', { name: /删\s*除/ }).click();
    await confirmDelete(dirName, '存在子菜单,不允许删除');
    await dirRow.locator('.ant-table-row-expand-icon').click();
    const pageRow = screen.locator('.ant-table-row', { hasText: pageName });
    await pageRow.getByRole('button', { name: /删\s*除/ }).click();
    await confirmDelete(pageName);
    await page.getByText('删除成功').first().waitFor();
    await expect.poll(() => pageRow.count()).toBe(0);
    await page.getByText('删除成功').first().waitFor({ state: 'hidden' });
    await dirRow.getByRole('button', { name: /删\s*除/ }).click();
    await confirmDelete(dirName);
    await page.getByText('删除成功').first().waitFor();
    await expect.poll(() => dirRow.count()).toBe(0);
    await page.context().close();
  });
});
