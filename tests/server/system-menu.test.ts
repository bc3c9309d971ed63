import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userWithPermissions } from './engine/engineClient.js';
import { backends, type RouteNode, startServer, type TestServer } from './harness.js';

/**
 * 菜单管理 on the schema engine (schemas/system/sys_menu.json + server/system/menuHooks.ts) and the 菜单配置 routes
 * (server/system/menuRoutes.ts), which share RuoYi's rules (server/system/menuRules.ts).
 */

const BASE = '/dev-api/system/menu';
const RULES = '/dev-api/api/auth/getRuleList';
const MENU_CONFIG = '/dev-api/api/auth/menuConfig';
const MENU_SAVE = '/dev-api/api/auth/menuSave';
const forbidden = (permission: string) => ({ code: 403, msg: `没有权限，请联系管理员授权（需要 ${permission}）` });

interface Menu {
  menuId: number;
  parentId: number;
  parentName?: string | null;
  menuName: string;
  menuType: string;
  path: string;
  component: string | null;
  icon: string | null;
  perms: string | null;
  orderNum: number;
  status: string;
  version: number;
}

describe.each(backends)('菜单管理 (%s)', (backend) => {
  let s: TestServer;
  let admin: string;
  let n = 0;
  const uniq = (name: string) => `${name}${++n}`;

  beforeAll(async () => {
    s = await startServer(backend);
    admin = await s.login('admin', 'admin123');
  });
  afterAll(async () => {
    await s?.close();
  });

  const create = (body: Record<string, unknown>, token = admin) => s.call<{ menuId: number; version: number }>('POST', BASE, { token, body });
  const get = async (id: number) => (await s.call<Menu>('GET', `${BASE}/${id}`, { token: admin })).body.data as Menu;
  const update = (body: Record<string, unknown>) => s.call<{ menuId: number; version: number }>('PUT', BASE, { token: admin, body });
  const remove = (ids: number[]) => s.call('DELETE', `${BASE}/${ids.join(',')}`, { token: admin });
  const all = async (query: Record<string, string> = {}) => (await s.call('GET', `${BASE}/list`, { token: admin, query })).body.rows as Menu[];
  const count = async () => (await all()).length;
  const dir = async (name = uniq('目录')) => {
    const res = await create({ parentId: 0, menuName: name, menuType: 'M', path: `dir${n}`, icon: 'star', orderNum: 90 });
    expect(res.body, res.body.msg).toMatchObject({ code: 200, msg: '新增成功' });
    return res.body.data?.menuId as number;
  };

  it('creates a directory, a page and a button, reads, lists, searches, updates with version and deletes them', async () => {
    const dirId = await dir('测试目录');
    const page = await create({
      parentId: dirId,
      menuName: '测试页面',
      menuType: 'C',
      path: 'testPage',
      component: 'test/page/index',
      perms: 'test:page:list',
      icon: 'edit',
      orderNum: 1,
      isFrame: 1,
      isCache: 0,
      visible: '0',
      status: '0',
    });
    expect(page.body).toMatchObject({ code: 200, msg: '新增成功', data: { version: 1 } });
    const pageId = page.body.data?.menuId as number;
    // A button needs no route address.
    const button = await create({ parentId: pageId, menuName: '测试按钮', menuType: 'F', perms: 'test:page:add' });
    expect(button.body.code, button.body.msg).toBe(200);
    const buttonId = button.body.data?.menuId as number;

    expect(await get(pageId)).toMatchObject({
      menuId: pageId,
      parentId: dirId,
      menuName: '测试页面',
      menuType: 'C',
      path: 'testPage',
      component: 'test/page/index',
      perms: 'test:page:list',
      icon: 'edit',
      version: 1,
    });
    // A tree: the whole list with parents and their names; searched by name (contains) and status.
    const rows = await all();
    expect(rows.length).toBeGreaterThan(100);
    expect(rows.find((r) => r.menuId === buttonId)).toMatchObject({ parentId: pageId, parentName: '测试页面', path: '' });
    expect((await all({ menuName: '测试页' })).map((r) => r.menuName)).toEqual(['测试页面']);
    const disabled = await all({ status: '1' });
    expect(disabled.every((r) => r.status === '1')).toBe(true);

    const changed = await update({ ...(await get(pageId)), menuName: '测试页面2', icon: 'star' });
    expect(changed.body).toMatchObject({ code: 200, msg: '修改成功', data: { menuId: pageId, version: 2 } });
    expect(await get(pageId)).toMatchObject({ menuName: '测试页面2', icon: 'star', version: 2 });
    const stale = await update({ ...(await get(pageId)), version: 1, menuName: '过期' });
    expect(stale.body).toEqual({ code: 500, msg: '数据已被他人修改，请刷新后重试' });

    expect((await remove([buttonId])).body).toMatchObject({ code: 200, msg: '删除成功' });
    expect((await remove([pageId, dirId])).body).toMatchObject({ code: 200, msg: '删除成功' });
    expect((await s.call('GET', `${BASE}/${pageId}`, { token: admin })).body).toEqual({ code: 404, msg: '数据不存在或已被删除' });
  });

  describe('RuoYi rules (nothing is written when refused)', () => {
    it('a directory or page needs a route address; an external link an http(s) address', async () => {
      const before = await count();
      expect((await create({ parentId: 0, menuName: '无地址', menuType: 'M' })).body).toEqual({ code: 500, msg: '路由地址不能为空' });
      expect((await create({ parentId: 0, menuName: '空地址', menuType: 'C', path: '  ' })).body).toEqual({ code: 500, msg: '路由地址不能为空' });
      expect((await create({ parentId: 0, menuName: '外链', menuType: 'M', path: 'www.example.com', isFrame: 0 })).body).toEqual({
        code: 500,
        msg: "新增菜单'外链'失败，地址必须以http(s)://开头",
      });
      expect(await count()).toBe(before);
      const ok = await create({ parentId: 0, menuName: '外链', menuType: 'M', path: 'https://www.example.com', isFrame: 0 });
      expect(ok.body.code, ok.body.msg).toBe(200);
      const id = ok.body.data?.menuId as number;
      const res = await update({ ...(await get(id)), path: 'ftp://example.com' });
      expect(res.body).toEqual({ code: 500, msg: "修改菜单'外链'失败，地址必须以http(s)://开头" });
      expect((await get(id)).path).toBe('https://www.example.com');
      await remove([id]);
    });

    it('a name is unique among its siblings only', async () => {
      const a = await dir();
      const b = await dir();
      const first = await create({ parentId: a, menuName: '同名页面', menuType: 'C', path: 'same' });
      expect(first.body.code).toBe(200);
      expect((await create({ parentId: a, menuName: '同名页面', menuType: 'C', path: 'same2' })).body).toEqual({
        code: 500,
        msg: "新增菜单'同名页面'失败，菜单名称已存在",
      });
      // Under another parent the name is free.
      const other = await create({ parentId: b, menuName: '同名页面', menuType: 'C', path: 'same' });
      expect(other.body.code).toBe(200);
      const otherId = other.body.data?.menuId as number;
      // Moving it next to its namesake is refused.
      const moved = await update({ ...(await get(otherId)), parentId: a });
      expect(moved.body).toEqual({ code: 500, msg: "修改菜单'同名页面'失败，菜单名称已存在" });
      expect((await get(otherId)).parentId).toBe(b);
    });

    it('a menu cannot be its own parent or below itself, nor hang under a button or a missing menu', async () => {
      const top = await dir('父目录');
      const page = (await create({ parentId: top, menuName: '子页面', menuType: 'C', path: 'child' })).body.data?.menuId as number;
      const button = (await create({ parentId: page, menuName: '子按钮', menuType: 'F' })).body.data?.menuId as number;
      const self = await update({ ...(await get(top)), parentId: top });
      expect(self.body).toEqual({ code: 500, msg: "修改菜单'父目录'失败，上级菜单不能选择自己" });
      const below = await update({ ...(await get(top)), parentId: page });
      expect(below.body).toEqual({ code: 500, msg: '上级菜单不能是自己或自己的下级' });
      expect((await get(top)).parentId).toBe(0);
      expect((await create({ parentId: button, menuName: '按钮下的页面', menuType: 'C', path: 'x' })).body).toEqual({
        code: 500,
        msg: '按钮下不能再添加菜单',
      });
      expect((await create({ parentId: 987654, menuName: '孤儿', menuType: 'C', path: 'x' })).body).toEqual({
        code: 500,
        msg: "上级菜单'987654'不存在",
      });
    });

    it('refuses deleting a menu with children or one assigned to a role', async () => {
      const top = await dir();
      const page = (await create({ parentId: top, menuName: '有子菜单', menuType: 'C', path: 'kids' })).body.data?.menuId as number;
      expect((await remove([top])).body).toEqual({ code: 500, msg: '存在子菜单,不允许删除' });
      const granted = (await all()).find((m) => m.perms === 'system:config:edit') as Menu; // operator holds it
      expect((await remove([granted.menuId])).body).toEqual({ code: 500, msg: '菜单已分配,不允许删除' });
      expect(await get(granted.menuId)).toBeTruthy();
      // All or nothing: one assigned menu in the batch keeps the others too.
      expect((await remove([page, granted.menuId])).body).toEqual({ code: 500, msg: '菜单已分配,不允许删除' });
      expect(await get(page)).toBeTruthy();
    });
  });

  it('a new page granted to a role shows in that role’s menu after signing in again', async () => {
    const token = await userWithPermissions(s, []);
    const roleKey = (await s.call('POST', RULES, { token })).body.roles?.[0] as string;
    expect(roleKey).toMatch(/^r_/);
    expect((await s.call<RouteNode[]>('POST', RULES, { token })).body.data).toEqual([]);

    const top = await dir('新目录');
    const page = await create({
      parentId: top,
      menuName: '新页面',
      menuType: 'C',
      path: 'newPage',
      component: 'system/config/index',
      perms: 'test:new:list',
      icon: 'star',
    });
    const pageId = page.body.data?.menuId as number;
    const db = s.app.db.kysely;
    const role = await db.selectFrom('sysRole').select('roleId').where('roleKey', '=', roleKey).executeTakeFirstOrThrow();
    await db
      .insertInto('sysRoleMenu')
      .values([top, pageId].map((menuId) => ({ roleId: role.roleId, menuId })))
      .execute();

    const again = await s.login(`u_${roleKey.slice(2)}`, 'secret123');
    const rules = (await s.call<RouteNode[]>('POST', RULES, { token: again })).body;
    expect(rules.permissions).toEqual(['test:new:list']);
    const tree = rules.data as RouteNode[];
    expect(tree.map((r) => r.meta?.title)).toEqual(['新目录']);
    expect(tree[0].children?.[0]).toMatchObject({ path: 'newPage', component: 'system/config/index', meta: { title: '新页面', icon: 'star' } });
    // Granted now, so the page can no longer be deleted.
    expect((await remove([pageId])).body).toEqual({ code: 500, msg: '菜单已分配,不允许删除' });
  });

  it('菜单配置 (menuSave) and 菜单管理 share the rules and the version', async () => {
    const top = await dir('共享目录');
    const before = await get(top);
    const saved = await s.call('POST', MENU_SAVE, {
      token: admin,
      body: { menuId: top, parentId: 0, menuName: '共享目录', menuType: 'M', path: 'shared', orderNum: 3 },
    });
    expect(saved.body).toEqual({ code: 200, msg: '修改成功', data: { menuId: top } });
    // The open 菜单管理 edit is stale now.
    expect((await update({ ...before, menuName: '旧版本' })).body).toEqual({ code: 500, msg: '数据已被他人修改，请刷新后重试' });
    expect(await get(top)).toMatchObject({ path: 'shared', version: before.version + 1 });
    const dup = await s.call('POST', MENU_SAVE, { token: admin, body: { parentId: 0, menuName: '共享目录', menuType: 'M', path: 'x' } });
    expect(dup.body).toEqual({ code: 500, msg: "新增菜单'共享目录'失败，菜单名称已存在" });
    const self = await s.call('POST', MENU_SAVE, { token: admin, body: { menuId: top, parentId: top, menuName: '共享目录', menuType: 'M', path: 'x' } });
    expect(self.body).toEqual({ code: 500, msg: "修改菜单'共享目录'失败，上级菜单不能选择自己" });
    const child = await s.call('POST', MENU_SAVE, { token: admin, body: { parentId: top, menuName: '共享页面', menuType: 'C', path: 'p', component: 'a/b' } });
    expect(child.body.code).toBe(200);
    expect((await s.call('POST', '/dev-api/api/auth/menuDel', { token: admin, body: { menuId: top } })).body).toEqual({
      code: 601,
      msg: '存在子菜单,不允许删除',
    });
  });

  describe('permissions', () => {
    it('refuses every 菜单管理 action without its permission (403)', async () => {
      const nobody = await userWithPermissions(s, []);
      const id = (await all())[0].menuId;
      const body = { parentId: 0, menuName: '越权', menuType: 'M', path: 'x' };
      expect((await s.call('GET', `${BASE}/list`, { token: nobody })).body).toEqual(forbidden('system:menu:list'));
      expect((await s.call('GET', `${BASE}/${id}`, { token: nobody })).body).toEqual(forbidden('system:menu:query'));
      expect((await create(body, nobody)).body).toEqual(forbidden('system:menu:add'));
      expect((await s.call('PUT', BASE, { token: nobody, body: { ...body, menuId: id, version: 1 } })).body).toEqual(forbidden('system:menu:edit'));
      expect((await s.call('DELETE', `${BASE}/${id}`, { token: nobody })).body).toEqual(forbidden('system:menu:remove'));
      expect((await all()).map((m) => m.menuName)).not.toContain('越权');
    });

    it('菜单配置 lists for system:menu:config; saving needs system:menu:edit', async () => {
      const viewer = await userWithPermissions(s, ['system:menu:config']);
      const list = await s.call<Menu[]>('POST', MENU_CONFIG, { token: viewer });
      expect(list.body.code).toBe(200);
      expect((list.body.data as Menu[]).map((m) => m.menuName)).toContain('系统管理');
      expect((await s.call('POST', MENU_SAVE, { token: viewer, body: { parentId: 0, menuName: '越权', menuType: 'M', path: 'x' } })).body).toEqual(
        forbidden('system:menu:edit'),
      );
      const lister = await userWithPermissions(s, ['system:menu:list']);
      expect((await s.call('POST', MENU_CONFIG, { token: lister })).body).toEqual(forbidden('system:menu:config'));
      expect((await s.call('GET', `${BASE}/list`, { token: lister })).body.code).toBe(200);
    });
  });
});
