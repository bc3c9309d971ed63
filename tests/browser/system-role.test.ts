import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiLogin } from './api';
import { launchBrowser, newPage, rowAction, screenshotDir, signIn } from './browser';

/**
 * 角色管理 in Chromium against the real server: the admin creates a role with some menus ticked in the menu tree,
 * gives it to a user on the 分配用户 page (/system/role-auth/user/{roleId}), and that user signs in and sees exactly
 * those menus. Screenshots of the role dialog, the data scope dialog and the 分配用户 page go to docs/screenshots/.
 */
describe('角色管理 in Chromium against the real server', () => {
  let browser: Browser;
  const tag = Date.now().toString(36);
  const userName = `role_e2e_${tag}`;
  const roleName = `端到端角色${tag}`;
  const roleKey = `e2e_${tag}`;

  beforeAll(async () => {
    browser = await launchBrowser();
    fs.mkdirSync(screenshotDir, { recursive: true });
    // A self-registered account: it holds only the ordinary role, which has no menus.
    const reg = await api('POST', '/dev-api/register', { body: { username: userName, password: 'secret12', confirmPassword: 'secret12' } });
    expect(reg.code, reg.msg).toBe(200);
  });
  afterAll(async () => {
    await browser?.close();
  });

  const rows = (page: Page) => page.locator('.engine-list .ant-table-tbody tr.ant-table-row');
  const treeNode = (page: Page, title: string) => page.locator('.check-tree-menu .ant-tree-treenode').filter({ has: page.getByText(title, { exact: true }) });

  /** The sidebar's entries (directories and pages) after opening every directory. */
  async function sidebarEntries(page: Page): Promise<string[]> {
    const sider = page.locator('.ant-layout-sider');
    // The menu is rendered (hidden while it has no entries) once the routes are in.
    await sider.locator('.ant-menu').first().waitFor({ state: 'attached' });
    await page.waitForTimeout(300);
    for (const title of await sider.locator('.ant-menu-submenu-title').all()) {
      const open = await title.evaluate((el) => el.parentElement?.classList.contains('ant-menu-submenu-open') ?? false);
      if (!open) await title.click();
    }
    await page.waitForTimeout(400);
    return (await sider.locator('.ant-menu-submenu-title, .ant-menu-item').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
  }

  it('admin creates a role with menus ticked, assigns a user on 分配用户, and the user sees exactly those menus', async () => {
    const before = await newPage(browser);
    await signIn(before, userName, 'secret12');
    expect(await sidebarEntries(before)).not.toContain('系统管理');
    await before.context().close();

    const page = await newPage(browser);
    await signIn(page, 'admin', 'admin123');
    await page.goto('/system/role');
    await page.locator('.engine-list[data-resource="sys_role"]').waitFor();
    await rows(page).first().waitFor();
    expect(await rows(page).filter({ hasText: '超级管理员' }).count()).toBe(1);

    // 新增 → 添加角色 with the menu tree.
    await page.getByRole('button', { name: /新\s*增/ }).click();
    const dialog = page.locator('.ant-modal').filter({ hasText: '添加角色' });
    await dialog.waitFor();
    await dialog.getByPlaceholder('请输入角色名称').fill(roleName);
    await dialog.getByPlaceholder('请输入权限字符').fill(roleKey);
    await dialog.locator('.check-tree-menu .ant-tree-title').first().waitFor();
    await dialog.getByText('展开/折叠').click();
    await treeNode(page, '参数设置').locator('.ant-tree-checkbox').click();
    await treeNode(page, '通知公告').locator('.ant-tree-checkbox').click();
    // 父子联动: the page's buttons are ticked with it, 系统管理 is half-checked.
    await expect(treeNode(page, '参数设置').locator('.ant-tree-checkbox-checked').count()).resolves.toBe(1);
    await expect(treeNode(page, '系统管理').locator('.ant-tree-checkbox-indeterminate').count()).resolves.toBe(1);
    await treeNode(page, '参数设置').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(screenshotDir, 'system-role-form.png') });
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await page.getByText('新增成功').waitFor();
    await dialog.waitFor({ state: 'detached' });

    const row = rows(page).filter({ hasText: roleKey });
    await row.waitFor();
    const roleId = Number(((await row.locator('td').nth(1).textContent()) ?? '').trim());
    expect(roleId).toBeGreaterThan(5);

    // 数据权限: 自定数据权限 shows the department tree.
    await rowAction(page, row, '数据权限');
    const scope = page.locator('.ant-modal').filter({ hasText: '分配数据权限' });
    await scope.waitFor();
    await scope.locator('.ant-select-selector').click();
    await page.locator('.ant-select-item-option').filter({ hasText: '自定数据权限' }).click();
    await scope.locator('.check-tree-dept .ant-tree-title').first().waitFor();
    await scope.locator('.check-tree-dept .ant-tree-treenode').filter({ hasText: '专家部' }).locator('.ant-tree-checkbox').click();
    await page.screenshot({ path: path.join(screenshotDir, 'system-role-datascope.png') });
    await scope.getByRole('button', { name: /确\s*定/ }).click();
    await page.getByText('修改成功').waitFor();
    await scope.waitFor({ state: 'detached' });

    // 分配用户 → the hidden page, 添加用户 → 选择用户 → 确 定.
    await rowAction(page, row, '分配用户');
    await page.waitForURL(`**/system/role-auth/user/${roleId}`);
    const auth = page.locator('.role-auth-user');
    await auth.waitFor();
    await auth.getByText(`角色：${roleName}`).waitFor();
    await auth.getByRole('button', { name: '添加用户' }).click();
    const select = page.locator('.ant-modal').filter({ hasText: '选择用户' });
    await select.waitFor();
    await select.getByPlaceholder('请输入用户名称').fill(userName);
    await select.getByRole('button', { name: /搜\s*索/ }).click();
    const candidate = select.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: userName });
    await candidate.waitFor();
    await expect.poll(() => select.locator('.ant-table-tbody tr.ant-table-row').count()).toBe(1);
    await candidate.locator('.ant-checkbox-input').check();
    await select.getByRole('button', { name: /确\s*定/ }).click();
    await page.getByText('授权成功').waitFor();
    await select.waitFor({ state: 'detached' });
    const allocated = auth.locator('.ant-table-tbody tr.ant-table-row');
    await allocated.filter({ hasText: userName }).waitFor();
    expect(await allocated.count()).toBe(1);
    await page.screenshot({ path: path.join(screenshotDir, 'system-role-auth-user.png') });

    // The user signs in and sees exactly the ticked menus.
    const user = await newPage(browser);
    await signIn(user, userName, 'secret12');
    const entries = await sidebarEntries(user);
    expect(entries.filter((e) => e !== '首页')).toEqual(['系统管理', '参数设置', '通知公告']);
    await user.goto('/system/config');
    await user.locator('.engine-list[data-resource="sys_config"]').waitFor();
    const token = await apiLogin(userName, 'secret12');
    const rules = (await api('POST', '/dev-api/api/auth/getRuleList', { token })) as { permissions?: string[] };
    expect(rules.permissions).toEqual(expect.arrayContaining(['system:config:list', 'system:config:add', 'system:notice:list']));
    expect(rules.permissions?.some((p) => !p.startsWith('system:config:') && !p.startsWith('system:notice:'))).toBe(false);
    await user.context().close();

    // 取消授权 takes it away again.
    await allocated.filter({ hasText: userName }).getByRole('button', { name: '取消授权' }).click();
    await page
      .locator('.ant-modal-confirm')
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await page.getByText('取消授权成功').waitFor();
    await expect.poll(() => allocated.count()).toBe(0);
    await page.context().close();
  });
});
