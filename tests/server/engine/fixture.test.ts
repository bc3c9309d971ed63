import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app.js';
import { loadConfig } from '../../../server/config.js';
import { buildEntity, checkSchemas, DEFAULT_SCHEMAS_DIR, type EntitySchema, insertSyntheticRows, SchemaError } from '../../../server/engine/index.js';
import { backends, type TestServer } from '../harness.js';
import { EngineApi, readXlsx, tempSchemasDir, userWithPermissions, writeSchema } from './engineClient.js';
import { defineConformance, serveForSuite } from './suite.js';

/**
 * A schema file that did not exist when the server was written: dropped into a (temporary) schemas folder, it
 * yields a table and a working API with no other code — checked by the same generated conformance suite. Then the
 * file evolves (a column added, a type changed, a property removed) and the engine applies only the additive part.
 */

const WIDGET: EntitySchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'test_widget',
  title: '测试部件',
  type: 'object',
  'x-table': 'test_widget',
  'x-primaryKey': 'widgetId',
  'x-endpoint': { style: 'rest', base: '/dev-api/test/widget' },
  'x-permissions': {
    list: 'test:widget:list',
    query: 'test:widget:query',
    add: 'test:widget:add',
    edit: 'test:widget:edit',
    remove: 'test:widget:remove',
    export: 'test:widget:export',
    import: 'test:widget:import',
  },
  'x-sort': { default: 'widgetId', order: 'desc' },
  required: ['widgetName', 'price'],
  properties: {
    widgetId: { type: 'integer', title: '部件编号', readOnly: true, 'x-list': { order: 1 } },
    widgetName: {
      type: 'string',
      title: '部件名称',
      minLength: 2,
      maxLength: 30,
      'x-unique': true,
      'x-list': { order: 2 },
      'x-search': { op: 'like' },
      'x-sortable': true,
    },
    price: {
      type: 'number',
      title: '单价',
      minimum: 0,
      maximum: 100000,
      'x-list': { order: 3, render: 'money' },
      'x-search': { op: 'range' },
      'x-sortable': true,
    },
    stock: { type: ['integer', 'null'], title: '库存', minimum: 0, 'x-list': { order: 4 }, 'x-sortable': true },
    enabled: { type: 'boolean', title: '启用', default: true, 'x-list': { order: 5, render: 'switch' }, 'x-search': { op: 'eq' } },
    level: { type: 'string', title: '等级', 'x-dict': 'sys_yes_no', default: 'N', 'x-list': { order: 6, render: 'dict' }, 'x-search': { op: 'eq' } },
    tags: { type: 'array', title: '标签', items: { type: 'string', maxLength: 20 }, maxItems: 5, 'x-list': { order: 7 } },
    secret: { type: ['string', 'null'], title: '密钥', writeOnly: true, maxLength: 50 },
    legacy: { type: ['string', 'null'], title: '旧字段', maxLength: 50 },
    createTime: {
      type: 'integer',
      title: '创建时间',
      readOnly: true,
      'x-audit': 'createTime',
      'x-list': { order: 8, render: 'datetime' },
      'x-search': { op: 'dateRange' },
      'x-sortable': true,
    },
    updateTime: { type: ['integer', 'null'], title: '更新时间', readOnly: true, 'x-audit': 'updateTime' },
  },
};

const BANNER: EntitySchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'test_banner',
  title: '测试栏目',
  type: 'object',
  'x-table': 'test_banner',
  'x-primaryKey': 'bannerId',
  'x-endpoint': {
    style: 'app',
    base: '/appv2/api/TestBanner',
    actions: {
      list: 'list',
      info: 'info',
      save: 'saveBanner',
      change: 'changeBanner',
      remove: 'delBanner',
      export: 'export',
      importTemplate: 'importTemplate',
      importData: 'importData',
    },
  },
  'x-permissions': {
    list: 'test:banner:list',
    query: 'test:banner:query',
    add: 'test:banner:add',
    edit: 'test:banner:edit',
    remove: 'test:banner:remove',
    export: 'test:banner:export',
    import: 'test:banner:import',
  },
  'x-sensitive': true,
  'x-tree': { parent: 'parentId', label: 'bannerName' },
  'x-sort': { default: 'sort', order: 'asc' },
  required: ['parentId', 'bannerName'],
  properties: {
    bannerId: { type: 'integer', title: '栏目编号', readOnly: true, 'x-list': { order: 1 } },
    parentId: { type: 'integer', title: '上级栏目', minimum: 0, default: 0, 'x-relation': { schema: 'test_banner', label: 'bannerName', as: 'parentName' } },
    bannerName: { type: 'string', title: '栏目名称', minLength: 1, maxLength: 40, 'x-unique': true, 'x-list': { order: 2 }, 'x-search': { op: 'like' } },
    sort: { type: 'integer', title: '排序', minimum: 0, default: 0, 'x-list': { order: 3 }, 'x-sortable': true },
    status: {
      type: 'string',
      title: '状态',
      enum: ['0', '1'],
      default: '0',
      'x-dict': 'sys_normal_disable',
      'x-list': { order: 4, render: 'dict' },
      'x-search': { op: 'eq' },
    },
    createTime: { type: 'integer', title: '创建时间', readOnly: true, 'x-audit': 'createTime', 'x-list': { order: 5, render: 'datetime' }, 'x-sortable': true },
  },
};

describe('meta-schema: a bad schema file is named with its field', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await tempSchemasDir();
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  const problemsOf = async (schema: unknown, name = 'test_widget') => {
    await fs.rm(dir, { recursive: true, force: true });
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, `${name}.json`), JSON.stringify(schema));
    return checkSchemas(dir).problems.map((p) => `${path.basename(p.file)}: ${p.field} ${p.message}`);
  };
  const widget = () => structuredClone(WIDGET) as unknown as Record<string, Record<string, Record<string, Record<string, unknown>>>>;

  it('an unknown render', async () => {
    const s = widget();
    s.properties.level['x-list'] = { render: 'colour' };
    expect(await problemsOf(s)).toEqual([
      'test_widget.json: properties.level.x-list.render 取值不合法（允许：text, dict, image, date, datetime, money, switch, link, ellipsis, video, color）',
    ]);
  });

  it('a misspelt extension, a missing key, a bad permission', async () => {
    const s = widget();
    s.properties.widgetName['x-serach'] = { op: 'like' };
    delete (s as Record<string, unknown>)['x-primaryKey'];
    (s['x-permissions'] as unknown as Record<string, string>).list = 'not a permission';
    expect((await problemsOf(s)).sort()).toEqual(
      [
        'test_widget.json: x-primaryKey 缺失（必填）',
        'test_widget.json: properties.widgetName.x-serach 不是可识别的键（拼写错误？允许的键见 docs/schemas.md）',
        'test_widget.json: x-permissions.list 格式不正确（应匹配 ^[A-Za-z]+(:[A-Za-z]+)+$）',
      ].sort(),
    );
  });

  it('cross references: primary key, sort, relation, search op, $id vs file name, seed rows', async () => {
    const s = widget() as unknown as EntitySchema;
    s['x-primaryKey'] = 'nope';
    s['x-sort'] = { default: 'missing', order: 'asc' };
    s.properties.stock['x-relation'] = { schema: 'sys_nothing', label: 'x' };
    s.properties.widgetName['x-search'] = { op: 'range' };
    s['x-seed'] = [{ widgetName: 'x', price: 1 }];
    expect(await problemsOf(s, 'other_name')).toEqual([
      'other_name.json: $id 应与文件名一致（other_name）',
      'other_name.json: x-primaryKey 指向不存在的属性 nope',
      'other_name.json: properties.widgetName.x-search.op range 只适用于 integer / number',
      'other_name.json: properties.stock.x-relation.schema 指向不存在的 schema sys_nothing',
      'other_name.json: x-sort.default 指向不存在的属性 missing',
    ]);
    const t = widget() as unknown as EntitySchema;
    t['x-seed'] = [{ widgetName: 'x', price: -1 }];
    expect(await problemsOf(t)).toEqual([
      'test_widget.json: x-seed.0.widgetName 部件名称长度不能少于 2 个字符',
      'test_widget.json: x-seed.0.price 单价不能小于 0',
    ]);
  });

  it('a subtree search needs a relation to a tree schema with ancestors', async () => {
    const s = widget() as unknown as EntitySchema;
    s.properties.stock['x-search'] = { op: 'subtree' };
    expect(await problemsOf(s)).toEqual(['test_widget.json: properties.stock.x-search.op subtree 只适用于 x-relation 字段（关联到树形 schema）']);
  });

  it('not JSON at all', async () => {
    await fs.writeFile(path.join(dir, 'broken.json'), '{ "title": ');
    expect(checkSchemas(dir).problems.some((p) => p.file.endsWith('broken.json') && p.message.startsWith('不是合法的 JSON'))).toBe(true);
  });

  it('stops the server start (buildApp rejects) with the file and field in the message', async () => {
    const s = widget();
    s.properties.level['x-list'] = { render: 'colour' };
    await problemsOf(s);
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'zy-bad-schema-'));
    try {
      const config = loadConfig({}, { dataDir, logger: false, seed: true, schemasDir: dir });
      const attempt = buildApp({ config, serveConsole: false });
      await expect(attempt).rejects.toBeInstanceOf(SchemaError);
      await expect(attempt).rejects.toThrow(/test_widget\.json: properties\.level\.x-list\.render 取值不合法/);
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });

  it('the repository schemas pass', () => {
    expect(checkSchemas(DEFAULT_SCHEMAS_DIR).problems).toEqual([]);
  });
});

describe.each(backends)('a new schema file makes a working table and API with no other code (%s)', (backend) => {
  const ctx = serveForSuite(backend, [WIDGET, BANNER]);
  let s: TestServer;
  let dir: string;
  beforeAll(() => {
    ({ s } = ctx);
    dir = ctx.schemasDir as string;
  });

  it('created both tables from the files', () => {
    expect(s.app.schemaEngine.report.created).toEqual(expect.arrayContaining(['test_widget', 'test_banner']));
    expect(s.app.routeRegistry.filter((r) => r.url.startsWith('/dev-api/test/widget')).length).toBe(9);
    expect(s.app.routeRegistry.filter((r) => r.url.startsWith('/appv2/api/TestBanner')).length).toBe(8);
  });

  for (const schema of [WIDGET, BANNER]) defineConformance(() => ctx, buildEntity({ file: `${schema.$id}.json`, schema }));

  it('x-sensitive answers are encrypted (code 20000); errors are not', async () => {
    const res = await s.call('POST', '/appv2/api/TestBanner/list', { token: ctx.admin, body: {} });
    expect(res.body.code).toBe(20000);
    expect(typeof res.body.data).toBe('string');
    const plain = s.decrypt<{ rows: unknown[]; total: number }>(res.body.data);
    expect(plain.total).toBe(plain.rows.length);
    expect((await s.call('POST', '/appv2/api/TestBanner/info', { token: ctx.admin, body: { bannerId: 'x' } })).body).toEqual({
      code: 400,
      msg: '栏目编号格式不正确',
    });
  });

  it('app style: change updates only the fields sent; save with a primary key needs the edit permission', async () => {
    const api = new EngineApi(s, s.app.schemaEngine.entities.get('test_banner') as never);
    const made = await api.create(ctx.admin, { parentId: 0, bannerName: '变更测试', sort: 3 });
    const id = (made.data as Record<string, unknown>).bannerId;
    const change = await s.call('POST', '/appv2/api/TestBanner/changeBanner', { token: ctx.admin, body: { bannerId: id, version: 1, status: '1' } });
    expect(change.body.code, change.body.msg).toBe(20000);
    const got = (await api.get(ctx.admin, id)).data as Record<string, unknown>;
    expect(got).toMatchObject({ bannerName: '变更测试', sort: 3, status: '1', version: 2 });
    await s.app.db.kysely
      .insertInto('sysMenu')
      .values({
        menuName: '测试新增',
        parentId: 0,
        orderNum: 1,
        path: '',
        component: null,
        query: null,
        routeName: null,
        isFrame: 1,
        isCache: 0,
        menuType: 'F',
        visible: '0',
        status: '0',
        perms: 'test:banner:add',
        icon: '#',
        activeMenu: null,
        affix: 0,
        createTime: Date.now(),
        remark: null,
      })
      .execute();
    const only = await userWithPermissions(s, ['test:banner:add']);
    const created = await s.call('POST', '/appv2/api/TestBanner/saveBanner', { token: only, body: { parentId: 0, bannerName: '只能新增' } });
    expect(created.body.code).toBe(20000);
    const edit = await s.call('POST', '/appv2/api/TestBanner/saveBanner', { token: only, body: { ...got, bannerName: '改名', version: 2 } });
    expect(edit.body).toEqual({ code: 403, msg: '没有权限，请联系管理员授权（需要 test:banner:edit）' });
  });

  it('writeOnly values are stored but never answered (get, list, export)', async () => {
    const api = new EngineApi(s, s.app.schemaEngine.entities.get('test_widget') as never);
    const made = await api.create(ctx.admin, { widgetName: '带密钥的', price: 9.5, secret: 's3cr3t-value', tags: ['a', 'b'] });
    const id = (made.data as Record<string, unknown>).widgetId;
    expect((await api.get(ctx.admin, id)).data).not.toHaveProperty('secret');
    const row = (await api.all(ctx.admin, { widgetName: '带密钥' }))[0];
    expect(row).toMatchObject({ widgetName: '带密钥的', price: 9.5, tags: ['a', 'b'], enabled: true, level: 'N' });
    expect(row).not.toHaveProperty('secret');
    const stored = await s.app.db.kysely
      .selectFrom('sysOperLog')
      .select('operParam')
      .where('method', '=', 'test_widget.add')
      .orderBy('operId', 'desc')
      .executeTakeFirstOrThrow();
    expect(stored.operParam).not.toContain('s3cr3t-value');
    expect(stored.operParam).toContain('******');
    const exported = await api.export(ctx.admin, { widgetName: '带密钥' });
    expect(exported.rawBuffer.includes(Buffer.from('s3cr3t-value'))).toBe(false);
  });

  it('refuses an import over 10 MB or of another type, and logs the refusal', async () => {
    const api = new EngineApi(s, s.app.schemaEngine.entities.get('test_widget') as never);
    const big = Buffer.concat([Buffer.from('部件名称,单价\r\n'), Buffer.alloc(10 * 1024 * 1024 + 10, 0x41)]);
    expect(await api.import(ctx.admin, big, 'big.csv')).toMatchObject({ code: 500, msg: '导入文件大小不能超过 10 MB，请分成几个文件导入' });
    expect(await api.import(ctx.admin, Buffer.from('x'), 'data.txt')).toMatchObject({ code: 500, msg: '文件格式不正确，请上传 .xlsx 或 .csv 文件' });
    expect(await api.import(ctx.admin, Buffer.from('not a zip'), 'data.xlsx')).toMatchObject({
      code: 500,
      data: [{ row: 0, field: '', message: '文件不是有效的 .xlsx 表格' }],
    });
    const log = await s.app.db.kysely.selectFrom('sysOperLog').selectAll().where('method', '=', 'test_widget.importData').where('status', '=', 1).execute();
    expect(log.map((r) => r.errorMsg)).toEqual(
      expect.arrayContaining(['导入文件大小不能超过 10 MB，请分成几个文件导入', '文件格式不正确，请上传 .xlsx 或 .csv 文件']),
    );
    expect(log.find((r) => r.errorMsg === '导入文件大小不能超过 10 MB，请分成几个文件导入')?.operParam).toContain('big.csv');
  });

  it('exports more rows than one batch in the requested order (ties and nulls across batch boundaries)', async () => {
    await insertSyntheticRows(s.app.db, 'test_widget', 2500, { schemasDir: dir });
    await sql`update test_widget set stock = case when widget_id % 3 = 0 then null else widget_id % 2 end`.execute(s.app.db.kysely);
    const rows = (await sql<{ widget_id: number; stock: number | null }>`select widget_id, stock from test_widget`.execute(s.app.db.kysely.withoutPlugins()))
      .rows;
    const api = new EngineApi(s, s.app.schemaEngine.entities.get('test_widget') as never);
    for (const isAsc of ['ascending', 'descending']) {
      const sign = isAsc === 'ascending' ? 1 : -1;
      const expected = [...rows]
        .sort((a, b) => {
          const an = a.stock === null;
          const bn = b.stock === null;
          const byStock = an || bn ? (an && bn ? 0 : an ? -1 : 1) : Number(a.stock) - Number(b.stock);
          return sign * (byStock || a.widget_id - b.widget_id);
        })
        .map((r) => Number(r.widget_id));
      const table = await readXlsx((await api.export(ctx.admin, { orderByColumn: 'stock', isAsc })).rawBuffer);
      expect(table.slice(1).map((r) => Number(r[0]))).toEqual(expected);
    }
  });

  it('evolving the file: a new property becomes a column; a type change or removed property is only reported', async () => {
    const api = new EngineApi(s, s.app.schemaEngine.entities.get('test_widget') as never);
    const made = await api.create(ctx.admin, { widgetName: '演进前', price: 1, legacy: '旧值' });
    const id = (made.data as Record<string, unknown>).widgetId;
    const next = structuredClone(WIDGET);
    next.properties.note = { type: ['string', 'null'], title: '备注', maxLength: 100, 'x-list': { order: 9 } };
    next.properties.stock = { ...next.properties.stock, type: ['string', 'null'] };
    delete next.properties.stock.minimum;
    delete next.properties.legacy;
    await writeSchema(dir, next);
    await s.restart();
    const report = s.app.schemaEngine.report;
    expect(report.created).toEqual([]);
    expect(report.added).toEqual(['test_widget.note']);
    expect(report.warnings).toHaveLength(2);
    expect(report.warnings[0]).toMatch(/表 test_widget 的列 stock（属性 stock）在数据库中是 .+，schema 要求 text；类型变更不会自动执行，请编写显式迁移/);
    expect(report.warnings[1]).toMatch(/表 test_widget 的列 legacy（原属性 legacy）已不在 schema 中；列和数据保留未动，删除列需要显式迁移/);
    const admin = await s.login('admin', 'admin123');
    const evolved = new EngineApi(s, s.app.schemaEngine.entities.get('test_widget') as never);
    const before = (await evolved.get(admin, id)).data as Record<string, unknown>;
    expect(before).toMatchObject({ widgetName: '演进前', note: null });
    expect(before).not.toHaveProperty('legacy');
    const upd = await evolved.update(admin, { ...before, note: '新列可写' });
    expect(upd.code, upd.msg).toBe(200);
    expect(((await evolved.get(admin, id)).data as Record<string, unknown>).note).toBe('新列可写');
    const kept = await s.app.db.kysely.selectFrom('sysSchemaState').selectAll().where('tableName', '=', 'test_widget').execute();
    expect(kept.find((r) => r.columnName === 'note')).toMatchObject({ origin: 'added', kind: 'text' });
    expect(kept.find((r) => r.columnName === 'stock')).toMatchObject({ origin: 'created', kind: 'integer' });
    expect(kept.find((r) => r.columnName === 'legacy')).toBeTruthy();
  });
});
