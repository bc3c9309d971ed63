import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signTimer } from '../../server/security/protocol';
import { freePort } from '../processes.js';
import { launchBrowser, screenshotDir } from './browser';

/**
 * A new schema file is all a new screen takes (issue 26 item 1), tried as a new developer would: a copy of schemas/
 * plus tests/fixtures/demo_supplier.json (rest endpoint, x-menu under 系统管理, list/add/edit/remove permissions)
 * for a server of its own (SCHEMAS_DIR), on the console built without that schema. The API answers, 超级管理员's
 * menu has 系统管理 › 供应商管理, and its screen lists and adds a row. No file of the repository is touched.
 */

const root = path.resolve(import.meta.dirname, '../..');
const fixture = path.join(root, 'tests/fixtures/demo_supplier.json');

describe('a new schema file', () => {
  let server: ChildProcess | undefined;
  let browser: Browser;
  let baseURL = '';
  let dataDir = '';
  let schemasDir = '';

  beforeAll(async () => {
    schemasDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zy-schemas-'));
    fs.cpSync(path.join(root, 'schemas'), schemasDir, { recursive: true });
    fs.copyFileSync(fixture, path.join(schemasDir, 'demo_supplier.json'));
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zy-new-schema-'));
    const port = await freePort();
    baseURL = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: root,
      env: {
        ...process.env,
        STATIC_DIR: path.resolve(root, process.env.STATIC_DIR ?? 'dist'),
        SCHEMAS_DIR: schemasDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG: '0',
        DATABASE_URL: '',
        RATE_LOGIN_PER_MINUTE: '100000',
        RATE_PAGES_PER_MINUTE: '100000',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    // Start-up migrates, seeds and syncs every schema: 10–30 s on a busy 2-core machine.
    const until = Date.now() + 120_000;
    for (;;) {
      try {
        if ((await fetch(`${baseURL}/app-config.js`)).ok) break;
      } catch {
        // not up yet
      }
      if (Date.now() > until) throw new Error(`服务未启动：${baseURL}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    browser = await launchBrowser();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    server?.kill('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(schemasDir, { recursive: true, force: true });
  });

  /** A call signed like the console's (keys from this server's DATA_DIR). */
  async function api<T>(method: string, url: string, { token, body }: { token?: string; body?: unknown } = {}) {
    const pem = fs.readFileSync(path.join(dataDir, 'keys', 'request-public.pem'), 'utf8');
    const headers: Record<string, string> = { ...signTimer(pem), 'content-type': 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(`${baseURL}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return (await res.json()) as { code: number; msg: string; data?: T; rows?: T[]; total?: number };
  }

  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1366, height: 800 }, locale: 'zh-CN', baseURL });
    return context.newPage();
  }

  it('gets its API at once', async () => {
    const token = (await api<{ token: string }>('POST', '/dev-api/api/login/login', { body: { username: 'admin', password: 'admin123' } })).data?.token;
    expect(token).toBeTruthy();
    const list = await api('GET', '/dev-api/demo/supplier/list', { token });
    expect(list).toMatchObject({ code: 200, total: 0, rows: [] });
  });

  it('appears in 超级管理员’s menu under 系统管理, and its screen lists and adds a row', async () => {
    const page = await newPage();
    await page.goto('/login');
    await page.getByPlaceholder('账号 / 手机号').fill('admin');
    await page.getByPlaceholder('密码').fill('admin123');
    await page.getByRole('button', { name: /登\s*录/ }).click();
    await page.waitForURL('**/index');

    const sider = page.locator('.ant-layout-sider');
    await sider.getByText('系统管理', { exact: true }).click();
    await sider.getByText('供应商管理', { exact: true }).click();
    await page.waitForURL('**/system/supplier');
    const list = page.locator('.engine-list[data-resource="demo_supplier"]');
    await list.waitFor();
    const headers = (await list.locator('.ant-table-thead th').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
    expect(headers).toEqual(['供应商编号', '供应商名称', '联系人', '操作']);

    const name = `青岛纸业${Date.now() % 100000}`; // a retry adds another row
    await page.getByRole('button', { name: /新\s*增/ }).click();
    const create = page.locator('.ant-modal').filter({ hasText: '新增' });
    await create.getByPlaceholder('请输入供应商名称').fill(name);
    await create.getByPlaceholder('请输入联系人').fill('王经理');
    await create.getByRole('button', { name: /确\s*定/ }).click();
    await page.getByText('新增成功').waitFor();
    await create.waitFor({ state: 'detached' });
    const rows = list.locator('.ant-table-tbody tr.ant-table-row');
    await expect.poll(() => rows.filter({ hasText: name }).count()).toBe(1);
    await page.screenshot({ path: path.join(screenshotDir, 'new-schema-screen.png') });

    // A reload of the route opens the same screen (the schema comes from the server, not the build).
    await page.reload();
    await list.locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
    expect(await page.getByText('页面不存在').count()).toBe(0);
    await page.context().close();
  });
});
