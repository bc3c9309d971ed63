import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntity, checkSchemas, type Entity, type EntitySchema } from '../../../server/engine/index.js';
import { backends, type TestServer } from '../harness.js';
import { EngineApi, readXlsx, tempSchemasDir, writeSchema } from './engineClient.js';
import { defineConformance, serveForSuite } from './suite.js';

/**
 * Module-served resources (`x-endpoint.module`) and preset filters (`x-filter`), docs/schemas.md: a schema file over
 * a route a module already serves (在线用户, the monitor module's spec routes) adds no route and no table, is handed to
 * the console like any schema, and gets the reduced conformance suite; an engine-served schema with `x-filter` lists,
 * exports, reads and writes only its preset rows, whatever the client asks. Then what the meta-schema refuses.
 */

/** tests/fixtures/module_online.json: 在线用户 over the monitor module's own routes. */
const online = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../fixtures/module_online.json'), 'utf8')) as EntitySchema;

/** An engine-served table with a preset: the open tickets (status '0') of a table that also holds closed ones. */
const OPEN_TICKETS: EntitySchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'test_open_ticket',
  title: '待处理工单',
  type: 'object',
  'x-table': 'test_ticket',
  'x-primaryKey': 'ticketId',
  'x-endpoint': { style: 'rest', base: '/dev-api/test/openTicket' },
  'x-permissions': {
    list: 'test:ticket:list',
    query: 'test:ticket:query',
    add: 'test:ticket:add',
    edit: 'test:ticket:edit',
    remove: 'test:ticket:remove',
    export: 'test:ticket:export',
  },
  'x-filter': { status: '0' },
  required: ['subject'],
  properties: {
    ticketId: { type: 'integer', title: '工单编号', readOnly: true, 'x-list': { order: 1 }, 'x-sortable': true },
    subject: { type: 'string', title: '标题', minLength: 1, maxLength: 50, 'x-list': { order: 2 }, 'x-search': { op: 'like' } },
    status: { type: 'string', title: '状态', enum: ['0', '1'], default: '0', 'x-list': { order: 3 }, 'x-search': { op: 'eq' } },
  },
};

describe.each(backends)('module-served resource and x-filter (%s)', (backend) => {
  // More sessions than one page of one row: the module list pages for real.
  const ctx = serveForSuite(backend, [online, OPEN_TICKETS], (c) => c.s.login('admin', 'admin123'));
  let s: TestServer;
  beforeAll(() => {
    ({ s } = ctx);
  });

  it('the module-served schema makes no table and no route: the monitor module keeps its two', async () => {
    const entity = s.app.schemaEngine.entities.get('module_online');
    expect(entity?.moduleServed).toBe(true);
    expect(s.app.schemaEngine.report.created).toContain('test_ticket');
    expect(s.app.routeRegistry.filter((r) => r.url.startsWith('/dev-api/monitor/online')).map((r) => `${r.method} ${r.url} ${r.permission}`)).toEqual([
      'GET /dev-api/monitor/online/list monitor:online:list',
      'DELETE /dev-api/monitor/online/:tokenId monitor:online:forceLogout',
    ]);
  });

  it('OpenAPI documents the module routes under the schema and the module permissions', async () => {
    const doc = JSON.parse((await s.call('GET', '/dev-api/tool/swagger/openapi.json', { token: ctx.admin })).raw) as {
      paths: Record<string, Record<string, { 'x-permission': string; 'x-schema'?: string; summary: string }>>;
      components: { schemas: Record<string, unknown> };
    };
    // Named after a module-served schema over these routes (this fixture, or the repository's own 在线用户 schema).
    const served = (id: string | undefined) => Boolean(id && s.app.schemaEngine.entities.get(id)?.moduleServed);
    const list = doc.paths['/dev-api/monitor/online/list'].get;
    const remove = doc.paths['/dev-api/monitor/online/{tokenId}'].delete;
    expect(list['x-permission']).toBe('monitor:online:list');
    expect(remove['x-permission']).toBe('monitor:online:forceLogout');
    expect(served(list['x-schema']) && served(remove['x-schema']), `${list['x-schema']} / ${remove['x-schema']}`).toBe(true);
    expect(list.summary).toContain('在线用户列表');
    expect(doc.components.schemas).toHaveProperty('module_online');
  });

  it('is handed to a console built without it, only to users who may list it', async () => {
    const known = 'sys_config';
    const forAdmin = await s.call<EntitySchema[]>('GET', '/dev-api/engine/schemas', { token: ctx.admin, query: { known } });
    expect(forAdmin.body.data?.find((x) => x.$id === 'module_online')?.['x-endpoint']).toEqual(online['x-endpoint']);
    const forNobody = await s.call<EntitySchema[]>('GET', '/dev-api/engine/schemas', { token: ctx.nobody, query: { known } });
    expect(forNobody.body.data?.some((x) => x.$id === 'module_online')).toBe(false);
  });

  for (const schema of [online, OPEN_TICKETS]) defineConformance(() => ctx, buildEntity({ file: `${schema.$id}.json`, schema }));

  it('x-filter: rows outside the preset are neither listed, exported, read, changed nor deleted', async () => {
    const api = new EngineApi(s, s.app.schemaEngine.entities.get('test_open_ticket') as Entity);
    const db = s.app.db.kysely;
    await sql`insert into test_ticket (subject, status, version) values ('已关闭的工单', '1', 1)`.execute(db);
    const closedRow = await sql<{ id: number | string }>`select max(ticket_id) as id from test_ticket where status = '1'`.execute(db);
    const closedId = Number(closedRow.rows[0]?.id);
    const made = await api.create(ctx.admin, { subject: '新工单', status: '1' });
    expect(made.code, made.msg).toBe(200);
    const id = Number((made.data as Record<string, unknown>).ticketId);
    // Created through the resource: one of its rows, whatever status was sent.
    expect(((await api.get(ctx.admin, id)).data as Record<string, unknown>).status).toBe('0');
    const asked = await api.list(ctx.admin, { pageSize: 500, status: '1' });
    const rows = asked.rows as Array<Record<string, unknown>>;
    expect(rows.map((r) => r.status)).not.toContain('1');
    expect(rows.map((r) => Number(r.ticketId))).toContain(id);
    expect(rows.map((r) => Number(r.ticketId))).not.toContain(closedId);
    const sheet = await readXlsx((await api.export(ctx.admin, { status: '1' })).rawBuffer);
    expect(sheet.length - 1).toBe(asked.total);
    expect((await api.get(ctx.admin, closedId)).msg).toBe('没有权限访问待处理工单数据！');
    expect((await api.update(ctx.admin, { ticketId: closedId, subject: '改', version: 1 })).code).not.toBe(200);
    expect((await api.remove(ctx.admin, [closedId])).code).not.toBe(200);
    const stored = (await sql<{ subject: string; status: string }>`select subject, status from test_ticket where ticket_id = ${closedId}`.execute(db)).rows[0];
    expect(stored).toEqual({ subject: '已关闭的工单', status: '1' });
  });
});

describe('meta-schema: module-served, x-filter, call actions, x-header', () => {
  let dir: string;
  afterAll(async () => {
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  /** The problems of these schemas alone, as "field message". */
  async function problemsOf(...list: EntitySchema[]): Promise<string[]> {
    if (dir) await fs.rm(dir, { recursive: true, force: true });
    dir = await tempSchemasDir();
    for (const schema of list) await writeSchema(dir, schema);
    return checkSchemas(dir).problems.map((p) => `${p.field} ${p.message}`);
  }

  it('the fixtures pass; a module-served schema may leave out x-table and key rows by text', async () => {
    expect(await problemsOf(online, OPEN_TICKETS)).toEqual([]);
  });

  it('x-table is required unless the module serves the routes; answer / paging only with module', async () => {
    const { 'x-table': _table, ...noTable } = OPEN_TICKETS;
    expect(await problemsOf(noTable as EntitySchema)).toEqual(['x-table 缺失（必填；只有 x-endpoint.module 的 schema 可以不写）']);
    const mapped = { ...OPEN_TICKETS, 'x-endpoint': { style: 'rest', base: '/dev-api/test/openTicket', answer: { rows: 'data.list' } } } as EntitySchema;
    expect(await problemsOf(mapped)).toEqual(['x-endpoint.answer 只适用于模块提供接口的 schema（x-endpoint.module: true）']);
  });

  it('engine-only keys, typos and relations to a module-served schema are refused', async () => {
    const seeded = { ...online, 'x-seed': [{ userName: 'a' }] } as EntitySchema;
    expect(await problemsOf(seeded)).toContain('x-seed 模块提供接口的 schema（x-endpoint.module）不支持此键：它只由引擎自己的接口和表实现');
    const typo = { ...online, 'x-endpoint': { ...online['x-endpoint'], answr: { rows: 'x' } } } as unknown as EntitySchema;
    expect((await problemsOf(typo)).join('\n')).toContain('x-endpoint.answr 不是可识别的键');
    const pointing = {
      ...OPEN_TICKETS,
      properties: { ...OPEN_TICKETS.properties, tokenId: { type: 'string', title: '会话', 'x-relation': { schema: 'module_online', label: 'userName' } } },
    } as EntitySchema;
    expect(await problemsOf(online, pointing)).toContain('properties.tokenId.x-relation.schema module_online 由模块提供接口（没有引擎的表），不能作为关联目标');
  });

  it('x-filter names properties with values of their type', async () => {
    const bad = { ...OPEN_TICKETS, 'x-filter': { status: 0, nope: '1' } } as unknown as EntitySchema;
    expect(await problemsOf(bad)).toEqual(['x-filter.status 取值 0 与类型 string 不符', 'x-filter.nope 指向不存在的属性 nope']);
  });

  it('call actions: module url, call-only keys, known properties, {ids} with a selection', async () => {
    const call = { key: 'pass', label: '通过', kind: 'call', url: '/appv2/api/x/pass', body: { id: '{ticketId}' }, when: { status: ['0'] } };
    const good = { ...OPEN_TICKETS, 'x-rowActions': [call], 'x-toolbar': [{ ...call, when: undefined, body: { ids: '{ids}' }, selection: 'multiple' }] };
    expect(await problemsOf(good as EntitySchema)).toEqual([]);
    const bad = {
      ...OPEN_TICKETS,
      'x-rowActions': [
        { ...call, url: '/site/x', body: { id: '{nope}' }, when: { missing: ['1'] } },
        { key: 'open', label: '打开', kind: 'open', url: '/site/', confirm: '确定？' },
      ],
      'x-toolbar': [{ key: 'all', label: '全部', kind: 'call', url: '/dev-api/x', body: { ids: '{ids}', id: '{ticketId}' } }],
    };
    expect(await problemsOf(bad as unknown as EntitySchema)).toEqual([
      'x-rowActions.0.url call 的地址必须以 /dev-api/ 或 /appv2/ 开头',
      'x-rowActions.0.when.missing 指向不存在的属性 missing',
      'x-rowActions.0.body {nope} 指向不存在的属性',
      'x-rowActions.1.confirm 只适用于 kind: "call"',
      'x-toolbar.0.selection 使用 {ids} 需要 selection',
      'x-toolbar.0.body 工具栏按钮没有行数据，不能引用 {ticketId}（可用 {ids}）',
    ]);
  });

  it('x-header needs a module url and figures with known renders', async () => {
    const good = { ...OPEN_TICKETS, 'x-header': { url: '/appv2/api/wallet/info', figures: [{ key: 'data.balance', title: '账户余额', render: 'money' }] } };
    expect(await problemsOf(good as EntitySchema)).toEqual([]);
    const bad = { ...OPEN_TICKETS, 'x-header': { url: 'wallet', figures: [{ key: 'data.balance', title: '余额', render: 'yuan' }] } };
    expect(await problemsOf(bad as unknown as EntitySchema)).toEqual([
      'x-header.url 格式不正确（应匹配 ^/(dev-api|appv2)/）',
      'x-header.figures.0.render 取值不合法（允许：money, text, count）',
    ]);
  });

  it('x-header reads a route or the list answer (from: "list"), exactly one of the two; a figure may carry a tip', async () => {
    const figures = [{ key: 'wallet.balanceFen', title: '账户余额', render: 'money', tip: '用于发卡、账户续费' }];
    const header = (h: Record<string, unknown>) => ({ ...OPEN_TICKETS, 'x-header': { ...h, figures } }) as unknown as EntitySchema;
    expect(await problemsOf(header({ from: 'list' }))).toEqual([]);
    expect(await problemsOf(header({ url: '/appv2/api/wallet/info', params: ['status'] }))).toEqual([]);
    expect(await problemsOf(header({}))).toEqual(['x-header 需要 url（图表数据的接口）或 from: "list"（取自列表的应答），二者必选其一']);
    expect(await problemsOf(header({ url: '/appv2/api/wallet/info', from: 'list' }))).toEqual(['x-header url 与 from 只能写一个']);
    expect(await problemsOf(header({ from: 'list', method: 'POST', params: ['status'] }))).toEqual([
      'x-header.method 只适用于 url',
      'x-header.params 只适用于 url',
    ]);
    expect((await problemsOf(header({ from: 'rows' }))).join('\n')).toContain('x-header.from');
    const emptyTip = { ...OPEN_TICKETS, 'x-header': { from: 'list', figures: [{ key: 'a', title: '甲', tip: '' }] } } as unknown as EntitySchema;
    expect((await problemsOf(emptyTip)).join('\n')).toContain('x-header.figures.0.tip');
  });

  it('an action may name a path below base (账户余额: tableList/export), not a full url', async () => {
    const app = (actions: Record<string, string>) =>
      ({
        ...online,
        'x-endpoint': { style: 'app', base: '/appv2/api/TestWallet', module: true, actions },
        'x-permissions': { list: 'test:wallet:list', export: 'test:wallet:export' },
      }) as unknown as EntitySchema;
    expect(await problemsOf(app({ list: 'tableList', export: 'tableList/export' }))).toEqual([]);
    expect((await problemsOf(app({ list: 'tableList', export: '/tableList/export' }))).join('\n')).toContain('x-endpoint.actions.export 格式不正确');
  });
});
