import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrgNode, OrgTree } from '../../common/system/organization';
import { api, apiLogin } from './api';
import { launchBrowser, newPage, screenshotDir, signIn } from './browser';

/**
 * 组织机构 and 权限 (issue 27) in Chromium against the real server. 组织机构: the tree of 总部 and the stores shows the
 * server's staff counts; a new account of 青岛门店 · 运营部 raises the counts and shows in the node's staff. 权限: ticking
 * a cell for a fresh role and saving is what 角色管理's menu tree then shows. Screenshots: system-organization.png,
 * system-authority.png.
 */
describe('组织机构 and 权限 in Chromium against the real server', () => {
  let browser: Browser;
  let admin: string;
  let page: Page;
  const tag = Date.now().toString(36);

  beforeAll(async () => {
    browser = await launchBrowser();
    fs.mkdirSync(screenshotDir, { recursive: true });
    admin = await apiLogin('admin', 'admin123');
    page = await newPage(browser);
    await signIn(page, 'admin', 'admin123');
  });
  afterAll(async () => {
    await browser?.close();
  });

  const orgNode = (key: string) => page.locator(`.org-tree .org-node[data-key="${key}"]`);
  const find = (nodes: OrgNode[], key: string): OrgNode | undefined => {
    for (const n of nodes) {
      if (n.key === key) return n;
      const inner = find(n.children ?? [], key);
      if (inner) return inner;
    }
    return undefined;
  };
  const serverTree = async () => ((await api<OrgTree>('GET', '/dev-api/system/organization/tree', { token: admin })).data as OrgTree).nodes;

  it('组织机构 shows 总部 and every store with their departments and staff counts; a node lists its staff', async () => {
    const before = find(await serverTree(), 'store:3')?.staff ?? 0;
    const userName = `org_e2e_${tag}`;
    const created = await api('POST', '/dev-api/system/user', {
      token: admin,
      body: { userName, nickName: `青岛运营${tag}`, password: 'secret123', deptId: 102, storeId: 3, status: '0', sex: '2', roleIds: [4], postIds: [] },
    });
    expect(created.code, created.msg).toBe(200);
    const nodes = await serverTree();
    expect(find(nodes, 'store:3')?.staff).toBe(before + 1);

    await page.goto('/system/organization');
    await orgNode('store:1').waitFor();
    // Every store the server has, with its count (in the node and below).
    for (const n of nodes) await expect.poll(() => orgNode(n.key).textContent()).toContain(n.name);
    for (const key of ['store:1', 'store:2', 'store:3', 'dept:1:100', 'dept:1:101', 'dept:3:102']) {
      const n = find(nodes, key);
      expect(n, key).toBeDefined();
      await expect.poll(() => orgNode(key).locator('.org-node-staff').textContent()).toBe(`${n?.staff} 人`);
    }
    expect(await orgNode('store:1').textContent()).toContain('总部');

    // 总部 is chosen first: its scope and role mix.
    const detail = page.locator('.org-detail');
    await detail.getByText('门店范围：总部员工可查看所有门店的数据').waitFor();
    await expect.poll(() => detail.locator('.org-detail-staff').textContent()).toBe(String(find(nodes, 'store:1')?.staff));

    // 青岛门店 › 运营部 lists the new account.
    await orgNode('dept:3:102').click();
    await detail.getByText('门店范围：').waitFor({ state: 'detached' });
    const staff = page.locator('.org-staff .ant-table-tbody tr.ant-table-row');
    await staff.filter({ hasText: userName }).waitFor();
    expect(await staff.count()).toBe(find(nodes, 'dept:3:102')?.staff);
    await expect.poll(() => staff.filter({ hasText: userName }).textContent()).toContain('运营人员');
    await page.screenshot({ path: path.join(screenshotDir, 'system-organization.png'), animations: 'disabled' }); // colours settled, not mid-transition

    // 青岛门店 itself: its scope is its own store.
    await orgNode('store:3').click();
    await detail.getByText('门店范围：本门店员工只能查看本门店的数据').waitFor();
  });

  it('权限 ticks a cell for a role, saves, and 角色管理 shows the role with that menu', async () => {
    const mark = Date.now().toString(36); // its own on a retry
    const roleName = `权限矩阵${mark}`;
    const created = await api<{ roleId: number }>('POST', '/dev-api/system/role', {
      token: admin,
      body: { roleName, roleKey: `authority_${mark}`, roleSort: 20, status: '0', menuIds: [] },
    });
    expect(created.code, created.msg).toBe(200);
    const roleId = Number(created.data?.roleId);

    await page.goto('/system/authority');
    const matrix = page.locator('.authority-matrix');
    await matrix.locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
    // Only the 通知公告 rows (and the directory above them).
    await page.locator('.authority-keyword input').fill('通知公告');
    await page.locator('.authority-keyword input').press('Enter');
    const cell = matrix.getByRole('checkbox', { name: `${roleName} 通知公告`, exact: true });
    await cell.waitFor();
    await expect.poll(() => matrix.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: '参数设置' }).count()).toBe(0);
    expect(await cell.isChecked()).toBe(false);
    await cell.check();
    // Linked: the directory above is ticked with it; the save button counts one changed role.
    expect(await matrix.getByRole('checkbox', { name: `${roleName} 系统管理`, exact: true }).isChecked()).toBe(true);
    const save = page.getByRole('button', { name: /保存（1 个角色有修改）/ });
    await save.waitFor();
    await page.screenshot({ path: path.join(screenshotDir, 'system-authority.png'), animations: 'disabled' }); // colours settled, not mid-transition
    await save.click();
    await page.getByText('保存成功').waitFor();
    await save.waitFor({ state: 'detached' });

    // 角色管理 → 修改: the role's menu tree has 通知公告 ticked.
    const role = await api<{ menuIds: number[] }>('GET', `/dev-api/system/role/${roleId}`, { token: admin });
    expect(role.data?.menuIds.length).toBeGreaterThanOrEqual(2);
    await page.goto('/system/role');
    const row = page.locator('.engine-list .ant-table-tbody tr.ant-table-row').filter({ hasText: roleName });
    await row.waitFor();
    await row
      .getByRole('button', { name: /修\s*改/ })
      .first()
      .click();
    const dialog = page.locator('.ant-modal').filter({ hasText: '修改角色' });
    await dialog.locator('.check-tree-menu .ant-tree-title').first().waitFor();
    await dialog.getByText('展开/折叠').click();
    const notice = dialog.locator('.check-tree-menu .ant-tree-treenode').filter({ has: page.getByText('通知公告', { exact: true }) });
    await notice.locator('.ant-tree-checkbox-checked').waitFor();
    const config = dialog.locator('.check-tree-menu .ant-tree-treenode').filter({ has: page.getByText('参数设置', { exact: true }) });
    expect(await config.locator('.ant-tree-checkbox-checked').count()).toBe(0);
    await dialog.getByRole('button', { name: /取\s*消/ }).click();

    expect((await api('DELETE', `/dev-api/system/role/${roleId}`, { token: admin })).code).toBe(200);
  });
});
