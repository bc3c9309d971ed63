import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthorityMatrix } from '../../../common/system/authority.js';
import { backends, startServer, type TestServer } from '../harness.js';

/**
 * 权限 (server/system/authority.ts): the role × menu matrix, and a change saved through 角色管理's own update of
 * sys_role (menuIds): what 角色管理 then shows, what the role's users may then do, the super admin role, lost updates,
 * one transaction per save, the operation log, the permission.
 */

const MATRIX = '/dev-api/system/authority/matrix';
const SAVE = '/dev-api/system/authority';
const EXPERT = 3;
const forbidden = (permission: string) => ({ code: 403, msg: `没有权限，请联系管理员授权（需要 ${permission}）` });

describe.each(backends)('权限 (%s)', (backend) => {
  let s: TestServer;
  let admin: string;

  const matrix = async () => {
    const res = await s.call<AuthorityMatrix>('GET', MATRIX, { token: admin });
    expect(res.body.code).toBe(200);
    return res.body.data as AuthorityMatrix;
  };
  const menuIdsOf = async (perms: string[]) =>
    (await s.app.db.kysely.selectFrom('sysMenu').select('menuId').where('perms', 'in', perms).execute()).map((m) => m.menuId);
  const systemDir = async () =>
    (await s.app.db.kysely.selectFrom('sysMenu').select('menuId').where('menuName', '=', '系统管理').where('menuType', '=', 'M').executeTakeFirstOrThrow())
      .menuId;
  const held = async (roleId: number) =>
    (await s.app.db.kysely.selectFrom('sysRoleMenu').select('menuId').where('roleId', '=', roleId).orderBy('menuId').execute()).map((r) => r.menuId);
  const lastLog = async () =>
    s.app.db.kysely.selectFrom('sysOperLog').selectAll().where('method', '=', 'sys_role.authority').orderBy('operId', 'desc').executeTakeFirst();

  beforeAll(async () => {
    s = await startServer(backend);
    admin = await s.login('admin', 'admin123');
  });
  afterAll(async () => {
    await s?.close();
  });

  it('answers every role and menu with the grants of each role', async () => {
    const m = await matrix();
    expect(m.roles.map((r) => [r.roleName, r.admin])).toEqual([
      ['超级管理员', true],
      ['机构负责人', false],
      ['志愿专家', false],
      ['运营人员', false],
      ['普通用户', false],
    ]);
    expect(m.menus.find((x) => x.perms === 'system:authority:edit')).toMatchObject({ menuName: '修改', menuType: 'F' });
    expect(m.menus.find((x) => x.perms === 'system:organization:list')).toMatchObject({ menuName: '组织机构', menuType: 'C' });
    expect([...(m.grants[String(EXPERT)] ?? [])].sort((a, b) => a - b)).toEqual(await held(EXPERT));
    expect(m.grants[String(EXPERT)]).toEqual(expect.arrayContaining(await menuIdsOf(['volunteer:filling:list'])));
  });

  it('a saved change is what 角色管理 then shows and what the role’s users may then do', async () => {
    const expert = await s.login('expert', 'expert123');
    expect((await s.call('GET', '/dev-api/system/config/list', { token: expert })).body).toEqual(forbidden('system:config:list'));
    const m = await matrix();
    const role = m.roles.find((r) => r.roleId === EXPERT);
    const before = m.grants[String(EXPERT)] ?? [];
    const added = [await systemDir(), ...(await menuIdsOf(['system:config:list']))];
    const menuIds = [...new Set([...before, ...added])];
    const res = await s.call('PUT', SAVE, { token: admin, body: { changes: [{ roleId: EXPERT, version: role?.version, menuIds }] } });
    expect(res.body).toEqual({ code: 200, msg: '保存成功', data: [{ roleId: EXPERT, version: Number(role?.version) + 1 }] });

    // 角色管理 shows the new set, and the expert may now read 参数设置 (from the next request on).
    const shown = await s.call<{ menuIds: number[]; version: number }>('GET', `/dev-api/system/role/${EXPERT}`, { token: admin });
    expect(shown.body.data?.menuIds).toEqual([...menuIds].sort((a, b) => a - b));
    expect(shown.body.data?.version).toBe(Number(role?.version) + 1);
    expect((await s.call('GET', '/dev-api/system/config/list', { token: expert })).body.code).toBe(200);
    const log = await lastLog();
    expect(log).toMatchObject({ title: '权限', status: 0 });

    // Taking it away again works the same way.
    const back = await s.call('PUT', SAVE, { token: admin, body: { changes: [{ roleId: EXPERT, version: Number(role?.version) + 1, menuIds: before }] } });
    expect(back.body.code).toBe(200);
    expect((await s.call('GET', '/dev-api/system/config/list', { token: expert })).body).toEqual(forbidden('system:config:list'));
  });

  it('refuses a change made on an old version, the super admin role, unknown menus — and a refused save changes no role', async () => {
    const m = await matrix();
    const expert = m.roles.find((r) => r.roleId === EXPERT);
    const operator = m.roles.find((r) => r.roleKey === 'operator');
    const expertBefore = await held(EXPERT);
    const operatorBefore = await held(Number(operator?.roleId));
    const extra = await menuIdsOf(['system:post:list']);

    const stale = await s.call('PUT', SAVE, {
      token: admin,
      body: { changes: [{ roleId: EXPERT, version: Number(expert?.version) - 1, menuIds: [...expertBefore, ...extra] }] },
    });
    expect(stale.body).toEqual({ code: 500, msg: '数据已被他人修改，请刷新后重试' });

    // The operator's change comes first and is valid; the admin role after it is refused: neither is saved.
    const mixed = await s.call('PUT', SAVE, {
      token: admin,
      body: {
        changes: [
          { roleId: operator?.roleId, version: operator?.version, menuIds: [...operatorBefore, ...extra] },
          { roleId: 1, version: m.roles[0].version, menuIds: extra },
        ],
      },
    });
    expect(mixed.body).toEqual({ code: 500, msg: '不允许操作超级管理员角色' });
    expect(await held(Number(operator?.roleId))).toEqual(operatorBefore);
    expect(await held(1)).toEqual([]);
    expect(await lastLog()).toMatchObject({ title: '权限', status: 1, errorMsg: '不允许操作超级管理员角色' });

    const unknown = await s.call('PUT', SAVE, { token: admin, body: { changes: [{ roleId: EXPERT, version: expert?.version, menuIds: [999999] }] } });
    expect(unknown.body).toEqual({ code: 500, msg: "菜单'999999'不存在" });
    expect(await held(EXPERT)).toEqual(expertBefore);

    expect((await s.call('PUT', SAVE, { token: admin, body: {} })).body).toEqual({ code: 400, msg: '没有要保存的权限变更' });
    expect((await s.call('PUT', SAVE, { token: admin, body: { changes: [{ roleId: EXPERT, menuIds: [] }] } })).body).toEqual({
      code: 400,
      msg: '版本号不能为空',
    });
  });

  it('needs system:authority:list to read and system:authority:edit to save', async () => {
    const operator = await s.login('operator', 'operator123');
    expect((await s.call('GET', MATRIX, { token: operator })).body).toEqual(forbidden('system:authority:list'));
    expect((await s.call('PUT', SAVE, { token: operator, body: { changes: [{ roleId: EXPERT, version: 1, menuIds: [] }] } })).body).toEqual(
      forbidden('system:authority:edit'),
    );
  });
});
