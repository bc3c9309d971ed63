import { beforeAll, describe, expect, it } from 'vitest';
import type { MenuSeed } from '../../../server/db/seed/menus.js';
import { seededMenus } from '../../../server/db/seed/schemaMenus.js';
import { buildEntity, endpointsOf, loadSchemas } from '../../../server/engine/index.js';
import { backends, type TestServer } from '../harness.js';
import { EngineApi, userWithPermissions } from './engineClient.js';
import { defineConformance, serveForSuite } from './suite.js';

/**
 * Generated from schemas/*.json: every schema gets the conformance suite (suite.ts) on SQLite, and on PostgreSQL when
 * TEST_DATABASE_URL is set. Then the RuoYi calls that belong to particular schemas, the OpenAPI document and the menu.
 */

const definitions = loadSchemas().map(buildEntity);
const byId = new Map(definitions.map((d) => [d.id, d]));

describe('schemas/*.json', () => {
  it('are all valid and cover the system entities', () => {
    expect([...byId.keys()].sort()).toEqual(
      expect.arrayContaining(['sys_config', 'sys_dept', 'sys_dict_data', 'sys_dict_type', 'sys_logininfor', 'sys_notice', 'sys_oper_log', 'sys_post']),
    );
  });

  /** Every permission string some seeded menu entry grants. */
  function allSeededPerms(): Set<string> {
    const out = new Set<string>();
    const walk = (list: MenuSeed[]) => {
      for (const m of list) {
        if (m.perms) out.add(m.perms);
        walk(m.children ?? []);
      }
    };
    walk(seededMenus());
    return out;
  }

  /** A page of the seeded menu by its directory path (x-menu.parent) and path. */
  function menuPage(parent: string, path: string): { page: MenuSeed; index: number } | undefined {
    let level = seededMenus();
    for (const dir of parent.split('/')) {
      const next = level.find((m) => m.type === 'M' && m.path === dir);
      if (!next) return undefined;
      level = next.children ?? [];
    }
    const index = level.findIndex((m) => m.type === 'C' && m.path === path);
    return index < 0 ? undefined : { page: level[index], index };
  }

  it.each(definitions.filter((d) => d.schema['x-menu']).map((d) => [d.id, d] as const))('%s: x-menu matches the seeded menu page and its buttons', (_id, d) => {
    const menu = d.schema['x-menu'] as NonNullable<(typeof d.schema)['x-menu']>;
    const found = menuPage(menu.parent, menu.path);
    expect(found, `${menu.parent}/${menu.path}`).toBeTruthy();
    const { page, index } = found as { page: MenuSeed; index: number };
    expect(page.component).toBe(menu.component);
    expect(page.perms).toBe(menu.perms ?? d.permissions.list);
    if (menu.title) expect(page.name).toBe(menu.title);
    if (menu.icon) expect(page.icon).toBe(menu.icon);
    if (menu.order !== undefined) expect(index + 1).toBe(menu.order);
    const grantable = new Set([page.perms, ...(page.children ?? []).map((c) => c.perms)]);
    for (const [action, perm] of Object.entries(d.permissions)) {
      // With x-menu.perms the list permission is another page's (工单管理 lists through 提交工单's): grantable there.
      if (menu.perms && action === 'list') expect(allSeededPerms().has(perm), `${action} → ${perm}（其他菜单）`).toBe(true);
      else expect(grantable.has(perm), `${action} → ${perm}`).toBe(true);
    }
  });

  it('schemas without x-menu share the permissions of a schema that has one', () => {
    for (const d of definitions.filter((x) => !x.schema['x-menu'])) {
      const owner = definitions.find((o) => o.schema['x-menu'] && o.permissions.list === d.permissions.list);
      expect(owner, d.id).toBeTruthy();
    }
  });
});

describe.each(backends)('schema engine conformance (%s)', (backend) => {
  const ctx = serveForSuite(backend);
  let s: TestServer;
  beforeAll(() => {
    ({ s } = ctx);
  });

  it('created the engine tables, added missing columns to hand-written ones and recorded them in sys_schema_state', async () => {
    const report = s.app.schemaEngine.report;
    expect(report.created).toEqual(expect.arrayContaining(['sys_config', 'sys_dict_type', 'sys_dict_data', 'sys_notice']));
    expect(report.added).toEqual(expect.arrayContaining(['sys_post.version', 'sys_dept.version', 'sys_dept.update_time']));
    expect(report.warnings).toEqual([]);
    const state = await s.app.db.kysely.selectFrom('sysSchemaState').selectAll().execute();
    const of = (table: string, column: string) => state.find((r) => r.tableName === table && r.columnName === column);
    expect(of('sys_config', 'config_key')).toMatchObject({ origin: 'created', property: 'configKey', kind: 'text', schemaId: 'sys_config' });
    expect(of('sys_post', 'version')).toMatchObject({ origin: 'added', kind: 'integer' });
    expect(of('sys_post', 'post_code')).toMatchObject({ origin: 'adopted' });
    expect(of('sys_dept', 'del_flag')).toMatchObject({ origin: 'adopted', property: '' });
    // A second start changes nothing and warns about nothing.
    await s.restart();
    expect(s.app.schemaEngine.report).toEqual({ created: [], added: [], seeded: {}, warnings: [] });
    ctx.admin = await s.login('admin', 'admin123');
    ctx.operator = await s.login('operator', 'operator123');
    ctx.nobody = await userWithPermissions(s, []);
  });

  it('seeded RuoYi configuration and dictionaries once, on first creation', async () => {
    const config = await new EngineApi(s, byId.get('sys_config') ?? definitions[0]).all(ctx.admin);
    expect(config.map((c) => c.configKey)).toEqual(
      expect.arrayContaining(['sys.index.skinName', 'sys.user.initPassword', 'sys.index.sideTheme', 'sys.account.captchaEnabled', 'sys.account.registerUser']),
    );
    const types = (await s.call<Array<{ dictType: string }>>('GET', '/dev-api/system/dict/type/optionselect', { token: ctx.nobody })).body.data ?? [];
    // RuoYi's ten first, in order; business modules add their own after them (content: 9 at start).
    expect(types.map((t) => t.dictType).slice(0, 10)).toEqual([
      'sys_user_sex',
      'sys_show_hide',
      'sys_normal_disable',
      'sys_job_status',
      'sys_job_group',
      'sys_yes_no',
      'sys_notice_type',
      'sys_notice_status',
      'sys_oper_type',
      'sys_common_status',
    ]);
  });

  for (const d of definitions) defineConformance(() => ctx, d);

  describe('dictionary calls', () => {
    it('GET /system/dict/data/type/{dictType}: enabled entries sorted by dict_sort, for any signed-in user', async () => {
      const res = await s.call<Array<Record<string, unknown>>>('GET', '/dev-api/system/dict/data/type/sys_normal_disable', { token: ctx.nobody });
      expect(res.body.code).toBe(200);
      expect(res.body.data?.map((d) => [d.dictLabel, d.dictValue, d.listClass, d.isDefault])).toEqual([
        ['正常', '0', 'primary', 'Y'],
        ['停用', '1', 'danger', 'N'],
      ]);
      const oper = (await s.call<Array<Record<string, unknown>>>('GET', '/dev-api/system/dict/data/type/sys_oper_type', { token: ctx.nobody })).body.data ?? [];
      expect(oper.map((d) => d.dictLabel)).toEqual(['新增', '修改', '删除', '授权', '导出', '导入', '强退', '生成代码', '清空数据', '其他']);
      // A disabled entry disappears from the type call (the console's useDict) but stays in the admin list.
      const data = new EngineApi(s, byId.get('sys_dict_data') ?? definitions[0]);
      const sex = await data.all(ctx.admin, { dictType: 'sys_user_sex' });
      const unknown = sex.find((r) => r.dictValue === '2') as Record<string, unknown>;
      const upd = await data.update(ctx.admin, { ...unknown, status: '1' });
      expect(upd.code, upd.msg).toBe(200);
      const after = (await s.call<Array<Record<string, unknown>>>('GET', '/dev-api/system/dict/data/type/sys_user_sex', { token: ctx.nobody })).body.data ?? [];
      const seeded = ['男', '女', '未知'];
      expect(after.map((d) => String(d.dictLabel)).filter((l) => seeded.includes(l))).toEqual(['男', '女']);
      expect((await s.call('GET', '/dev-api/system/dict/data/type/sys_user_sex')).body.code).toBe(401);
    });

    it('a dictionary type in use cannot be deleted; renaming it carries its data along', async () => {
      const types = new EngineApi(s, byId.get('sys_dict_type') ?? definitions[0]);
      const data = new EngineApi(s, byId.get('sys_dict_data') ?? definitions[0]);
      const created = await types.create(ctx.admin, { dictName: '测试类型', dictType: 'test_kind' });
      const dictId = (created.data as Record<string, unknown>).dictId;
      expect((await data.create(ctx.admin, { dictType: 'test_kind', dictLabel: '甲', dictValue: 'a', dictSort: 1 })).code).toBe(200);
      expect((await data.create(ctx.admin, { dictType: 'no_such_type', dictLabel: '乙', dictValue: 'b', dictSort: 1 })).msg).toBe(
        "字典类型'no_such_type'不存在",
      );
      expect(await types.remove(ctx.admin, [dictId])).toMatchObject({ code: 500, msg: "'测试类型'已被字典数据使用，不允许删除" });
      const current = (await types.get(ctx.admin, dictId)).data as Record<string, unknown>;
      expect((await types.update(ctx.admin, { ...current, dictType: 'test_kind2' })).code).toBe(200);
      const moved = await data.all(ctx.admin, { dictType: 'test_kind2' });
      expect(moved.map((r) => [r.dictLabel, r.dictName])).toEqual([['甲', '测试类型']]);
      expect(await data.all(ctx.admin, { dictType: 'test_kind' })).toEqual([]);
      expect((await data.remove(ctx.admin, [moved[0].dictCode])).code).toBe(200);
      expect((await types.remove(ctx.admin, [dictId])).code).toBe(200);
    });

    it('refreshCache answers for the dict / config removers only', async () => {
      expect((await s.call('DELETE', '/dev-api/system/dict/type/refreshCache', { token: ctx.admin })).body).toEqual({ code: 200, msg: '刷新成功' });
      expect((await s.call('DELETE', '/dev-api/system/config/refreshCache', { token: ctx.admin })).body).toEqual({ code: 200, msg: '刷新成功' });
      expect((await s.call('DELETE', '/dev-api/system/config/refreshCache', { token: ctx.operator })).body.code).toBe(403);
    });
  });

  describe('config calls', () => {
    it('GET /system/config/configKey/{key} answers the value (as msg, RuoYi, and data)', async () => {
      const res = await s.call('GET', '/dev-api/system/config/configKey/sys.index.skinName', { token: ctx.nobody });
      expect(res.body).toEqual({ code: 200, msg: 'skin-blue', data: 'skin-blue' });
      expect((await s.call('GET', '/dev-api/system/config/configKey/no.such.key', { token: ctx.nobody })).body).toEqual({ code: 200, msg: '', data: '' });
    });

    it('operator may add and edit configs but gets 403 on remove and import, and nothing changes', async () => {
      const api = new EngineApi(s, byId.get('sys_config') ?? definitions[0]);
      const mine = await api.create(ctx.operator, { configName: '运营参数', configKey: 'op.test.key', configValue: '1' });
      expect(mine.code).toBe(200);
      const id = (mine.data as Record<string, unknown>).configId;
      expect((await api.remove(ctx.operator, [id])).msg).toBe('没有权限，请联系管理员授权（需要 system:config:remove）');
      expect((await api.get(ctx.operator, id)).code).toBe(200);
      const row = (await api.get(ctx.admin, id)).data as Record<string, unknown>;
      expect(row.createBy).toBe('operator');
    });
  });

  describe('notices', () => {
    it('rich text is sanitised on the server with an allow-list', async () => {
      const api = new EngineApi(s, byId.get('sys_notice') ?? definitions[0]);
      const html =
        '<p style="color: red" onclick="steal()">通知<script>alert(1)</script><img src="javascript:alert(1)" onerror="x()"><img src="https://x.test/a.png">' +
        '<a href="javascript:alert(2)">坏链接</a><a href="https://example.com">好链接</a><iframe src="https://evil.test"></iframe></p>';
      const res = await api.create(ctx.admin, { noticeTitle: '安全测试', noticeType: '1', noticeContent: html });
      expect(res.code).toBe(200);
      const stored = String(((await api.get(ctx.admin, (res.data as Record<string, unknown>).noticeId)).data as Record<string, unknown>).noticeContent);
      for (const bad of ['<script', 'onclick', 'onerror', 'javascript:', '<iframe', 'steal()']) expect(stored).not.toContain(bad);
      expect(stored).toContain('<p style="color:red">通知');
      expect(stored).toContain('<img src="https://x.test/a.png" />');
      expect(stored).toContain('<a href="https://example.com" rel="noopener noreferrer">好链接</a>');
    });
  });

  describe('posts and departments', () => {
    it('a post assigned to a user cannot be deleted', async () => {
      const api = new EngineApi(s, byId.get('sys_post') ?? definitions[0]);
      await s.app.db.kysely.insertInto('sysUserPost').values({ userId: 1, postId: 1 }).execute();
      expect(await api.remove(ctx.admin, [1])).toMatchObject({ code: 500, msg: '岗位已分配给用户，不允许删除' });
      expect((await api.get(ctx.admin, 1)).code).toBe(200);
    });

    it('a department with users cannot be deleted; deleting one marks it deleted (del_flag 2)', async () => {
      const api = new EngineApi(s, byId.get('sys_dept') ?? definitions[0]);
      expect(await api.remove(ctx.admin, [102])).toMatchObject({ code: 500, msg: '部门存在用户，不允许删除' });
      const made = await api.create(ctx.admin, { parentId: 101, deptName: '临时组', orderNum: 9 });
      const id = Number((made.data as Record<string, unknown>).deptId);
      expect(((await api.get(ctx.admin, id)).data as Record<string, unknown>).ancestors).toBe('0,100,101');
      expect((await api.remove(ctx.admin, [id])).code).toBe(200);
      expect((await api.get(ctx.admin, id)).code).toBe(404);
      const row = await s.app.db.kysely.selectFrom('sysDept').select('delFlag').where('deptId', '=', id).executeTakeFirst();
      expect(row?.delFlag).toBe('2');
      expect((await api.create(ctx.admin, { parentId: id, deptName: '孤儿', orderNum: 1 })).msg).toBe(`上级部门'${id}'不存在`);
    });

    it('moving a department moves its subtree ancestors', async () => {
      const api = new EngineApi(s, byId.get('sys_dept') ?? definitions[0]);
      const a = Number(((await api.create(ctx.admin, { parentId: 100, deptName: '甲', orderNum: 1 })).data as Record<string, unknown>).deptId);
      const b = Number(((await api.create(ctx.admin, { parentId: a, deptName: '乙', orderNum: 1 })).data as Record<string, unknown>).deptId);
      const current = (await api.get(ctx.admin, a)).data as Record<string, unknown>;
      expect((await api.update(ctx.admin, { ...current, parentId: 101 })).code).toBe(200);
      expect(((await api.get(ctx.admin, b)).data as Record<string, unknown>).ancestors).toBe(`0,100,101,${a}`);
      const rows = await api.all(ctx.admin, { deptName: '乙' });
      expect(rows.map((r) => r.parentName)).toEqual(['甲']);
    });
  });

  describe('login log', () => {
    it('unlock clears the password lock of a user (monitor:logininfor:unlock) and is logged', async () => {
      const db = s.app.db.kysely;
      await db
        .updateTable('sysUser')
        .set({ pwdFailCount: 3, lockUntil: Date.now() + 600_000 })
        .where('userName', '=', 'expert')
        .execute();
      expect((await s.call('GET', '/dev-api/monitor/logininfor/unlock/expert', { token: ctx.operator })).body.code).toBe(403);
      expect((await s.call('GET', '/dev-api/monitor/logininfor/unlock/expert', { token: ctx.admin })).body).toEqual({ code: 200, msg: '解锁成功' });
      const user = await db.selectFrom('sysUser').select(['pwdFailCount', 'lockUntil']).where('userName', '=', 'expert').executeTakeFirstOrThrow();
      expect(user).toEqual({ pwdFailCount: 0, lockUntil: null });
      expect(await s.login('expert', 'expert123')).toBeTruthy();
      expect((await s.call('GET', '/dev-api/monitor/logininfor/unlock/nobody_here', { token: ctx.admin })).body).toEqual({
        code: 500,
        msg: "用户'nobody_here'不存在",
      });
      const log = await db.selectFrom('sysOperLog').selectAll().where('method', '=', 'sys_logininfor.unlock').execute();
      expect(log.map((r) => r.status).sort()).toEqual([0, 1]);
    });
  });

  describe('OpenAPI', () => {
    it('GET /dev-api/tool/swagger/openapi.json documents every schema endpoint and every registered route with its permission', async () => {
      expect((await s.call('GET', '/dev-api/tool/swagger/openapi.json', { token: ctx.operator })).body.code).toBe(403);
      const res = await s.call('GET', '/dev-api/tool/swagger/openapi.json', { token: ctx.admin });
      const doc = JSON.parse(res.raw) as {
        openapi: string;
        paths: Record<string, Record<string, { 'x-permission': string; operationId: string }>>;
        components: { schemas: object };
      };
      expect(doc.openapi).toBe('3.1.0');
      const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      for (const d of definitions) {
        expect(doc.components.schemas).toHaveProperty(d.id);
        for (const e of endpointsOf(d))
          expect(doc.paths[openApiPath(e.url)]?.[e.method.toLowerCase()]?.['x-permission'], `${e.method} ${e.url}`).toBe(e.permission);
      }
      for (const r of s.app.routeRegistry) {
        expect(doc.paths[openApiPath(r.url)]?.[r.method.toLowerCase()]?.['x-permission'], `${r.method} ${r.url}`).toBe(r.permission);
      }
      const ids = Object.values(doc.paths).flatMap((p) => Object.values(p).map((o) => o.operationId));
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('every schema endpoint is registered with exactly its x-permissions entry', () => {
      for (const d of definitions) {
        for (const e of endpointsOf(d)) {
          const found = s.app.routeRegistry.find((r) => r.method === e.method && r.url === e.url);
          expect(found?.permission, `${e.method} ${e.url}`).toBe(e.permission);
        }
      }
    });
  });
});
