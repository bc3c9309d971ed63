import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntitySchema } from '../../../common/engine/types.js';
import type { MenuSeed } from '../../../server/db/seed/menus.js';
import { menuTree } from '../../../server/db/seed/schemaMenus.js';
import { DEFAULT_SCHEMAS_DIR, loadSchemas } from '../../../server/engine/metaSchema.js';
import { backends, type RouteNode, startServer, type TestServer, walkRoutes } from '../harness.js';

/**
 * `x-menu` is the menu (issue 26): a schema file with `x-menu` gets its page and a button per permission in the
 * seeded menu, on a fresh database (seed) and on an installed one (start-up sync), with nothing else to edit.
 */

const RULES = '/dev-api/api/auth/getRuleList';

/** The schema a new developer writes (docs/schemas.md): a rest entity under 系统管理 with 查询 / 新增 / 修改 / 删除. */
const DEMO_FILE = path.resolve(import.meta.dirname, '../../fixtures/demo_supplier.json');
const DEMO_SUPPLIER = JSON.parse(fs.readFileSync(DEMO_FILE, 'utf8'));

const schemas = () => loadSchemas().map((l) => l.schema);
const dir = (tree: MenuSeed[], name: string) => tree.find((m) => m.type === 'M' && m.name === name) as MenuSeed;

describe('the seeded menu from the schemas', () => {
  it('puts a new schema page in the directory x-menu.parent names, at its order, with a button per permission', () => {
    const tree = menuTree([...schemas(), DEMO_SUPPLIER as unknown as EntitySchema]);
    const system = dir(tree, '系统管理').children ?? [];
    const page = system.find((m) => m.component === 'demo/supplier/index');
    expect(page).toMatchObject({ name: '供应商管理', type: 'C', path: 'supplier', icon: 'shopping', perms: 'demo:supplier:list', order: 20 });
    expect(page?.children?.map((b) => [b.name, b.perms])).toEqual([
      ['查询', 'demo:supplier:query'],
      ['新增', 'demo:supplier:add'],
      ['修改', 'demo:supplier:edit'],
      ['删除', 'demo:supplier:remove'],
    ]);
    expect(system.at(-1)).toBe(page); // after 日志管理 (14)
    // The pages the schemas already had keep their places among the bespoke ones.
    expect(system.map((m) => m.name).slice(0, 14)).toEqual([
      '用户管理',
      '角色管理',
      '菜单管理',
      '菜单配置',
      '部门管理',
      '岗位管理',
      '字典管理',
      '参数设置',
      '通知公告',
      '平台设置',
      '注册设置',
      '测评设置',
      '审核配置',
      '日志管理',
    ]);
  });

  it('a schema page keeps the bespoke buttons its permissions cannot say, one button per permission string', () => {
    const tree = menuTree(schemas());
    const log = (dir(tree, '系统管理').children ?? []).find((m) => m.name === '日志管理') as MenuSeed;
    expect(log.children?.map((p) => [p.name, (p.children ?? []).map((b) => b.name)])).toEqual([
      ['操作日志', ['查询', '删除', '导出']], // clean shares remove's string
      ['登录日志', ['删除', '导出', '账户解锁']],
    ]);
  });

  it('makes the directory a parent names when the seed has none (代码生成 lets one be named freely), last among its siblings', () => {
    const stray = { ...DEMO_SUPPLIER, 'x-menu': { ...DEMO_SUPPLIER['x-menu'], parent: 'demo/parts' } } as unknown as EntitySchema;
    const tree = menuTree([...schemas(), stray]);
    const made = tree.at(-1) as MenuSeed;
    expect(made).toMatchObject({ name: 'demo', path: 'demo', type: 'M' });
    expect(made.children?.map((m) => [m.type, m.path])).toEqual([['M', 'parts']]);
    expect(made.children?.[0].children?.map((m) => m.component)).toEqual(['demo/supplier/index']);
  });

  it('leaves out a bespoke directory that only schemas fill when they are gone', () => {
    const tree = menuTree(schemas().filter((s) => !s['x-menu']?.parent.startsWith('operation')));
    expect(tree.find((m) => m.name === '运营管理')).toBeUndefined();
    expect(tree.find((m) => m.name === '官网管理')).toBeDefined();
  });
});

describe.each(backends)('a schema file added to an install (%s)', (backend) => {
  let s: TestServer;
  let schemasDir: string;

  beforeAll(async () => {
    schemasDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zy-schemas-'));
    fs.cpSync(DEFAULT_SCHEMAS_DIR, schemasDir, { recursive: true });
    s = await startServer(backend, { schemasDir });
  });
  afterAll(async () => {
    await s?.close();
    fs.rmSync(schemasDir, { recursive: true, force: true });
  });

  const titlesOf = async (token: string) => {
    const titles: string[] = [];
    walkRoutes((await s.call<RouteNode[]>('POST', RULES, { token })).body.data as RouteNode[], (n) => titles.push(n.meta?.title ?? ''));
    return titles;
  };

  it('gets its API, its menu page and buttons at the next start; 超级管理员 sees it, other roles only when granted', async () => {
    const before = await s.login('admin', 'admin123');
    expect(await titlesOf(before)).not.toContain('供应商管理');

    fs.copyFileSync(DEMO_FILE, path.join(schemasDir, 'demo_supplier.json'));
    await s.restart();
    const admin = await s.login('admin', 'admin123');
    const added = await s.call('POST', '/dev-api/demo/supplier', { token: admin, body: { supplierName: '青岛纸业', contact: '王经理' } });
    expect(added.body.code).toBe(200);
    const list = await s.call('GET', '/dev-api/demo/supplier/list', { token: admin });
    expect((list.body as { rows: Array<{ supplierName: string }> }).rows.map((r) => r.supplierName)).toEqual(['青岛纸业']);

    const titles = await titlesOf(admin);
    expect(titles.slice(titles.indexOf('系统管理'))).toContain('供应商管理');
    const menus = (
      await s.call<Array<{ menuName: string; perms: string | null; component: string | null }>>('GET', '/dev-api/system/menu/list', { token: admin })
    ).body.data as Array<{ menuId: number; parentId: number; menuName: string; perms: string | null; component: string | null }>;
    const page = menus.find((m) => m.component === 'demo/supplier/index');
    expect(page).toMatchObject({ menuName: '供应商管理', perms: 'demo:supplier:list' });
    expect(menus.filter((m) => m.parentId === page?.menuId).map((m) => m.perms)).toEqual([
      'demo:supplier:query',
      'demo:supplier:add',
      'demo:supplier:edit',
      'demo:supplier:remove',
    ]);
    // 机构负责人 holds no demo:* grant: the page reaches other roles through 角色管理 only.
    const leader = await s.login('leader', 'leader123');
    expect(await titlesOf(leader)).not.toContain('供应商管理');

    // A console built before the file asks for the schemas it lacks: only those the user may list, no seed rows.
    const known = schemas().map((x) => x.$id);
    const lacking = async (token: string) =>
      ((await s.call<Array<{ $id: string }>>('GET', '/dev-api/engine/schemas', { token, query: { known: known.join(',') } })).body.data ?? []).map(
        (x) => x.$id,
      );
    expect(await lacking(admin)).toEqual(['demo_supplier']);
    expect(await lacking(leader)).toEqual([]);
    const all = (await s.call<Array<Record<string, unknown>>>('GET', '/dev-api/engine/schemas', { token: admin })).body.data ?? [];
    expect(all.length).toBe(known.length + 1);
    expect(all.filter((x) => 'x-seed' in x)).toEqual([]);
  });

  it('an entry an administrator deleted stays deleted at the next start', async () => {
    const admin = await s.login('admin', 'admin123');
    const menus = (await s.call('GET', '/dev-api/system/menu/list', { token: admin })).body.data as Array<{
      menuId: number;
      parentId: number;
      component: string | null;
    }>;
    const page = menus.find((m) => m.component === 'demo/supplier/index') as { menuId: number };
    for (const b of menus.filter((m) => m.parentId === page.menuId)) {
      expect((await s.call('DELETE', `/dev-api/system/menu/${b.menuId}`, { token: admin })).body.code).toBe(200);
    }
    expect((await s.call('DELETE', `/dev-api/system/menu/${page.menuId}`, { token: admin })).body.code).toBe(200);
    await s.restart();
    expect(await titlesOf(await s.login('admin', 'admin123'))).not.toContain('供应商管理');
  });
});
