import fs from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { checkSchemas, DEFAULT_SCHEMAS_DIR, type EntitySchema } from '../../server/engine/index.js';
import { tempSchemasDir, userWithPermissions } from './engine/engineClient.js';
import { backends, startServer, type TestServer } from './harness.js';

/**
 * 代码生成 (server/gen/): a table made straight in the database is listed, imported, configured, previewed as a
 * schema file that passes the engine's meta-schema, downloaded, and — only with GEN_WRITE — written into the schemas
 * folder, after which the restarted server serves the new entity's API on the same table.
 */

const BASE = '/dev-api/tool/gen';
const forbidden = (permission: string) => ({ code: 403, msg: `没有权限，请联系管理员授权（需要 ${permission}）` });

interface GenColumn {
  columnId: number;
  columnName: string;
  columnComment: string;
  propertyName: string;
  propertyType: string;
  isPk: string;
  isRequired: string;
  isInsert: string;
  isEdit: string;
  isList: string;
  isSearch: string;
  searchOp: string;
  isSortable: string;
  dictType: string;
  widget: string;
}
interface GenInfo {
  info: Record<string, unknown> & { tableId: number; version: number; entityName: string };
  rows: GenColumn[];
}

describe('GEN_WRITE', () => {
  it('is off unless set to 1', () => {
    expect(loadConfig({}).genWrite).toBe(false);
    expect(loadConfig({ GEN_WRITE: '0' }).genWrite).toBe(false);
    expect(loadConfig({ GEN_WRITE: '1' }).genWrite).toBe(true);
  });
});

/** The files of a .zip by name (central directory → local entries, stored or deflated). */
function unzip(buf: Buffer): Record<string, string> {
  const end = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = buf.readUInt16LE(end + 10);
  let at = buf.readUInt32LE(end + 16);
  const out: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const method = buf.readUInt16LE(at + 10);
    const size = buf.readUInt32LE(at + 20);
    const nameLength = buf.readUInt16LE(at + 28);
    const skip = nameLength + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
    const name = buf.toString('utf8', at + 46, at + 46 + nameLength);
    const local = buf.readUInt32LE(at + 42);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(start, start + size);
    out[name] = (method === 8 ? zlib.inflateRawSync(data) : data).toString('utf8');
    at += 46 + skip;
  }
  return out;
}

describe.each(backends)('代码生成 (%s)', (backend) => {
  let s: TestServer;
  let dir: string;
  let admin: string;
  let tableId: number;

  const pk = backend === 'postgres' ? sql`item_id serial primary key` : sql`item_id integer primary key autoincrement`;
  const info = async () => (await s.call<GenInfo>('GET', `${BASE}/${tableId}`, { token: admin })).body.data as GenInfo;

  beforeAll(async () => {
    dir = await tempSchemasDir(DEFAULT_SCHEMAS_DIR);
    s = await startServer(backend, { schemasDir: dir });
    admin = await s.login('admin', 'admin123');
    const k = s.app.db.kysely;
    await sql`create table demo_item (${pk}, item_name varchar(50) not null, status text not null default '0', price real,
      remark text, create_time bigint, version integer not null default 1)`.execute(k);
    await sql`create table demo_nokey (code text, label text)`.execute(k);
    await sql`insert into demo_item (item_name, status, price, create_time) values (${'演示条目'}, ${'0'}, ${9.5}, ${Date.now()})`.execute(k);
  });
  afterAll(async () => {
    await s?.close();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('db/list offers the new tables, never internal ones or tables that already have a schema', async () => {
    const res = await s.call<never>('GET', `${BASE}/db/list`, { token: admin, query: { pageNum: 1, pageSize: 500 } });
    expect(res.body.code).toBe(200);
    const names = (res.body.rows as Array<{ tableName: string }>).map((r) => r.tableName);
    expect(names).toEqual(expect.arrayContaining(['demo_item', 'demo_nokey']));
    for (const internal of ['schema_migrations', 'gen_table', 'gen_table_column', 'sys_schema_state', 'sys_config', 'sys_dict_type']) {
      expect(names).not.toContain(internal);
    }
    expect(res.body.total).toBe(names.length);
    const searched = await s.call('GET', `${BASE}/db/list`, { token: admin, query: { tableName: 'DEMO_I' } });
    expect((searched.body.rows as Array<{ tableName: string }>).map((r) => r.tableName)).toEqual(['demo_item']);
    const tooBig = await s.call('GET', `${BASE}/db/list`, { token: admin, query: { pageSize: 501 } });
    expect(tooBig.body).toEqual({ code: 400, msg: '每页条数不能大于 500' });
  });

  it('imports a table; refuses a table without an auto-increment key, an unknown table, a second import', async () => {
    expect((await s.call('POST', `${BASE}/importTable`, { token: admin, query: { tables: '' } })).body).toEqual({ code: 500, msg: '请选择要导入的表' });
    expect((await s.call('POST', `${BASE}/importTable`, { token: admin, query: { tables: 'demo_nokey' } })).body).toEqual({
      code: 500,
      msg: "导入失败：表'demo_nokey'没有单列自增整数主键（schema 引擎需要）",
    });
    expect((await s.call('POST', `${BASE}/importTable`, { token: admin, query: { tables: 'demo_item,no_such' } })).body).toEqual({
      code: 500,
      msg: "导入失败：表'no_such'不存在",
    });
    expect((await s.call('POST', `${BASE}/importTable`, { token: admin, query: { tables: 'sys_config' } })).body.msg).toBe(
      "导入失败：表'sys_config'已有 schema 文件，无需生成",
    );
    // Nothing of the refused batch was written.
    expect((await s.call('GET', `${BASE}/list`, { token: admin })).body.total).toBe(0);

    const ok = await s.call('POST', `${BASE}/importTable`, { token: admin, query: { tables: 'demo_item' } });
    expect(ok.body).toMatchObject({ code: 200, msg: '导入成功' });
    const list = await s.call('GET', `${BASE}/list`, { token: admin, query: { tableName: 'demo' } });
    expect(list.body).toMatchObject({ code: 200, total: 1, genWrite: false });
    const row = (list.body.rows as Array<Record<string, unknown>>)[0];
    expect(row).toMatchObject({ tableName: 'demo_item', tableComment: 'demo_item', entityName: 'demo_item', permissionPrefix: 'demo:item', version: 1 });
    tableId = row.tableId as number;
    const names = ((await s.call('GET', `${BASE}/db/list`, { token: admin })).body.rows as Array<{ tableName: string }>).map((r) => r.tableName);
    expect(names).not.toContain('demo_item');
    // At once it is a double submit (spec §5, repeated by the server); after the window, the table is already imported.
    expect((await s.call('POST', `${BASE}/importTable`, { token: admin, query: { tables: 'demo_item' } })).body.msg).toBe('数据正在处理，请勿重复提交');
    await new Promise((r) => setTimeout(r, 1100));
    expect((await s.call('POST', `${BASE}/importTable`, { token: admin, query: { tables: 'demo_item' } })).body.msg).toBe("导入失败：表'demo_item'已导入");
    // The import is in the operation log.
    const logged = await s.app.db.kysely.selectFrom('sysOperLog').select(['title', 'status']).where('method', '=', 'gen.importTable').execute();
    expect(logged.map((l) => l.status).sort()).toEqual([0, 1, 1, 1, 1, 1]);
  });

  it('reads the table with its columns and sensible defaults', async () => {
    const { info: table, rows } = await info();
    expect(table).toMatchObject({ tableName: 'demo_item', endpointBase: '/dev-api/demo/item', menuParent: 'demo', menuPath: 'item', formMode: 'dialog' });
    expect(rows.map((c) => c.columnName)).toEqual(['item_id', 'item_name', 'status', 'price', 'remark', 'create_time', 'version']);
    const by = (n: string) => rows.find((c) => c.columnName === n) as GenColumn;
    expect(by('item_id')).toMatchObject({ isPk: '1', propertyName: 'itemId', propertyType: 'integer', isInsert: '0', isList: '1' });
    expect(by('item_name')).toMatchObject({ propertyName: 'itemName', propertyType: 'string', isRequired: '1', isSearch: '1', searchOp: 'like' });
    expect(by('status')).toMatchObject({ isRequired: '0', widget: 'radio', isSearch: '1', searchOp: 'eq' });
    expect(by('price')).toMatchObject({ propertyType: 'number', widget: 'number' });
    expect(by('remark')).toMatchObject({ widget: 'textarea', isList: '0' });
    expect(by('create_time')).toMatchObject({ propertyType: 'integer', isInsert: '0', searchOp: 'dateRange', isSortable: '1' });
    expect((await s.call('GET', `${BASE}/999999`, { token: admin })).body).toEqual({ code: 404, msg: '数据不存在或已被删除' });
  });

  const edits = (rows: GenColumn[]) =>
    rows.map((c) => {
      if (c.columnName === 'item_name') return { ...c, columnComment: '条目名称' };
      if (c.columnName === 'status') return { ...c, columnComment: '状态', dictType: 'sys_normal_disable', isList: '1', isSearch: '1' };
      if (c.columnName === 'price') return { ...c, columnComment: '单价', isList: '1', isSearch: '1', searchOp: 'range', isSortable: '1' };
      if (c.columnName === 'remark') return { ...c, columnComment: '备注', isList: '0' };
      if (c.columnName === 'create_time') return { ...c, columnComment: '创建时间' };
      if (c.columnName === 'item_id') return { ...c, columnComment: '条目编号' };
      return c;
    });

  it('saves basic, column and generation info with a version check; bad settings are refused and change nothing', async () => {
    const { info: table, rows } = await info();
    const body = { ...table, tableComment: '演示条目', menuTitle: '演示条目', columns: edits(rows) };

    const badDict = { ...body, columns: body.columns.map((c) => (c.columnName === 'status' ? { ...c, dictType: 'no_such_dict' } : c)) };
    expect((await s.call('PUT', BASE, { token: admin, body: badDict })).body).toEqual({ code: 500, msg: "字段'status'的字典类型'no_such_dict'不存在" });
    const badOp = { ...body, columns: body.columns.map((c) => (c.columnName === 'price' ? { ...c, searchOp: 'like' } : c)) };
    expect((await s.call('PUT', BASE, { token: admin, body: badOp })).body).toEqual({
      code: 500,
      msg: "生成配置有误：字段'price'的查询方式 like 只适用于字符串",
    });
    const badName = { ...body, entityName: '1bad name' };
    expect((await s.call('PUT', BASE, { token: admin, body: badName })).body.msg).toBe('生成配置有误：实体名称格式不正确（字母开头，只含字母、数字和下划线）');
    const clash = { ...body, endpointBase: '/dev-api/system/config' };
    expect((await s.call('PUT', BASE, { token: admin, body: clash })).body.msg).toBe(
      "生成的 schema 未通过校验：接口地址'/dev-api/system/config'已由 schemas/system/sys_config.json 使用",
    );
    const noComment = { ...body, tableComment: '' };
    expect((await s.call('PUT', BASE, { token: admin, body: noComment })).body).toEqual({ code: 400, msg: '表描述不能为空' });
    // Every refusal left the stored settings (and version) alone.
    const still = await info();
    expect(still.info.version).toBe(1);
    expect(still.rows.find((c) => c.columnName === 'item_name')?.columnComment).toBe('item_name');

    const saved = await s.call('PUT', BASE, { token: admin, body });
    expect(saved.body).toMatchObject({ code: 200, msg: '修改成功', data: { tableId, version: 2 } });
    const after = await info();
    expect(after.info).toMatchObject({ tableComment: '演示条目', version: 2 });
    expect(after.rows.find((c) => c.columnName === 'status')).toMatchObject({ columnComment: '状态', dictType: 'sys_normal_disable' });

    const stale = await s.call('PUT', BASE, { token: admin, body: { ...body, tableComment: '过期的修改' } });
    expect(stale.body).toEqual({ code: 500, msg: '数据已被他人修改，请刷新后重试' });
    expect((await info()).info).toMatchObject({ tableComment: '演示条目', version: 2 });
  });

  it('preview answers the schema JSON by file name, and it passes the meta-schema', async () => {
    const res = await s.call<Record<string, string>>('GET', `${BASE}/preview/${tableId}`, { token: admin });
    expect(res.body.code).toBe(200);
    const files = res.body.data as Record<string, string>;
    expect(Object.keys(files)).toEqual(['schemas/demo_item.json']);
    const schema = JSON.parse(files['schemas/demo_item.json']) as EntitySchema;
    expect(schema).toMatchObject({
      $id: 'demo_item',
      title: '演示条目',
      'x-table': 'demo_item',
      'x-primaryKey': 'itemId',
      'x-endpoint': { style: 'rest', base: '/dev-api/demo/item' },
      'x-permissions': { list: 'demo:item:list', edit: 'demo:item:edit' },
      'x-menu': { parent: 'demo', path: 'item', component: 'demo/item/index', title: '演示条目' },
      required: ['itemName'],
    });
    expect(schema['x-version']).toBeUndefined(); // the table has its own version column
    expect(schema.properties.version).toBeUndefined();
    expect(schema.properties.itemName).toMatchObject({ type: 'string', title: '条目名称', minLength: 1, maxLength: 50, 'x-search': { op: 'like' } });
    expect(schema.properties.status).toMatchObject({ title: '状态', 'x-dict': 'sys_normal_disable', 'x-list': { render: 'dict' }, 'x-search': { op: 'eq' } });
    expect(schema.properties.price).toMatchObject({ type: ['number', 'null'], 'x-search': { op: 'range' }, 'x-sortable': true });
    expect(schema.properties.remark['x-list']).toBeUndefined();
    expect(schema.properties.createTime).toMatchObject({ readOnly: true, 'x-audit': 'createTime', 'x-search': { op: 'dateRange' } });
    const check = await tempSchemasDir();
    try {
      await fs.writeFile(path.join(check, 'demo_item.json'), files['schemas/demo_item.json']);
      expect(checkSchemas(check).problems).toEqual([]);
    } finally {
      await fs.rm(check, { recursive: true, force: true });
    }
  });

  it('download gives the .json file as an attachment', async () => {
    const res = await s.call('GET', `${BASE}/download/${tableId}`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/schema+json; charset=utf-8');
    expect(res.headers['content-disposition']).toContain('attachment; filename="demo_item.json"');
    expect(res.headers['download-filename']).toBe('demo_item.json');
    const preview = await s.call<Record<string, string>>('GET', `${BASE}/preview/${tableId}`, { token: admin });
    expect(res.raw).toBe((preview.body.data as Record<string, string>)['schemas/demo_item.json']);
  });

  it('batchGenCode gives the schema files of several tables in one .zip; an unimported table refuses the batch', async () => {
    await sql`create table demo_other (${pk}, other_name text)`.execute(s.app.db.kysely);
    expect((await s.call('POST', `${BASE}/importTable`, { token: admin, query: { tables: 'demo_other' } })).body.code).toBe(200);
    const res = await s.call('GET', `${BASE}/batchGenCode`, { token: admin, query: { tables: 'demo_item,demo_other' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(String(res.headers['download-filename'])).toMatch(/^schemas_\d+\.zip$/);
    const files = unzip(res.rawBuffer);
    expect(Object.keys(files).sort()).toEqual(['schemas/demo_item.json', 'schemas/demo_other.json']);
    const preview = await s.call<Record<string, string>>('GET', `${BASE}/preview/${tableId}`, { token: admin });
    expect(files['schemas/demo_item.json']).toBe((preview.body.data as Record<string, string>)['schemas/demo_item.json']);
    expect(JSON.parse(files['schemas/demo_other.json']).properties.otherName).toBeTruthy();

    expect((await s.call('GET', `${BASE}/batchGenCode`, { token: admin, query: { tables: 'demo_item,demo_nokey' } })).body).toEqual({
      code: 500,
      msg: '表 demo_nokey 尚未导入',
    });
    expect((await s.call('GET', `${BASE}/batchGenCode`, { token: admin, query: { tables: '' } })).body).toEqual({ code: 400, msg: '请选择要生成的表' });
    const other = ((await s.call('GET', `${BASE}/list`, { token: admin, query: { tableName: 'demo_other' } })).body.rows as Array<{ tableId: number }>)[0];
    expect((await s.call('DELETE', `${BASE}/${other.tableId}`, { token: admin })).body.code).toBe(200);
  });

  it('synchDb picks up a new column and keeps the settings of the others', async () => {
    await sql`alter table demo_item add column note text`.execute(s.app.db.kysely);
    expect((await s.call('GET', `${BASE}/synchDb/demo_item`, { token: admin })).body).toEqual({ code: 200, msg: '同步成功' });
    const { info: table, rows } = await info();
    expect(table.version).toBe(3);
    expect(rows.map((c) => c.columnName)).toContain('note');
    expect(rows.find((c) => c.columnName === 'item_name')?.columnComment).toBe('条目名称');
    expect((await s.call('GET', `${BASE}/synchDb/no_such`, { token: admin })).body).toEqual({ code: 500, msg: "表'no_such'未导入" });
  });

  it('genCode is refused unless GEN_WRITE is on; then writes schemas/<entity>.json once (overwrite=1 to replace)', async () => {
    const target = path.join(dir, 'demo_item.json');
    const refused = await s.call('GET', `${BASE}/genCode/${tableId}`, { token: admin });
    expect(refused.body).toEqual({ code: 500, msg: '仅开发模式可写入 schemas/ 目录（服务端设置 GEN_WRITE=1 后重启）；当前请使用“下载”取得文件' });
    await expect(fs.access(target)).rejects.toThrow();

    s.config.genWrite = true; // what GEN_WRITE=1 sets (the same config object the server reads)
    const written = await s.call('GET', `${BASE}/genCode/${tableId}`, { token: admin });
    expect(written.body).toEqual({ code: 200, msg: '已写入 schemas/demo_item.json，重启服务后生效', data: { fileName: 'schemas/demo_item.json' } });
    const text = await fs.readFile(target, 'utf8');
    expect(JSON.parse(text)).toMatchObject({ $id: 'demo_item', properties: { itemName: { title: '条目名称' } } });
    // overwrite=0 (the default, spelled out): the same request at once would be a double submit (genCode writes).
    const again = await s.call('GET', `${BASE}/genCode/${tableId}`, { token: admin, query: { overwrite: 0 } });
    expect(again.body).toEqual({ code: 500, msg: '文件 schemas/demo_item.json 已存在，确认覆盖后再生成', exists: true });
    const over = await s.call('GET', `${BASE}/genCode/${tableId}`, { token: admin, query: { overwrite: 1 } });
    expect(over.body.code).toBe(200);
    expect((await fs.readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('the server restarted on that folder serves the new entity on the existing table', async () => {
    await s.restart();
    admin = await s.login('admin', 'admin123');
    expect(s.app.schemaEngine.entities.has('demo_item')).toBe(true);
    expect(s.app.schemaEngine.report.created).not.toContain('demo_item'); // adopted, not created
    const list = await s.call('GET', '/dev-api/demo/item/list', { token: admin, query: { itemName: '演示' } });
    expect(list.body).toMatchObject({ code: 200, total: 1 });
    expect((list.body.rows as Array<Record<string, unknown>>)[0]).toMatchObject({ itemName: '演示条目', status: '0', price: 9.5, version: 1 });
    const created = await s.call('POST', '/dev-api/demo/item', { token: admin, body: { itemName: '新条目', status: '1' } });
    expect(created.body).toMatchObject({ code: 200, msg: '新增成功' });
    const bad = await s.call('POST', '/dev-api/demo/item', { token: admin, body: { itemName: '', status: '9' } });
    expect(bad.body).toEqual({ code: 400, msg: '条目名称不能为空' });
    // Now it has a schema: no longer offered for import.
    const names = ((await s.call('GET', `${BASE}/db/list`, { token: admin })).body.rows as Array<{ tableName: string }>).map((r) => r.tableName);
    expect(names).not.toContain('demo_item');
  });

  it('every route answers 403 without its permission; tool:gen:list alone lists but cannot import', async () => {
    const nobody = await userWithPermissions(s, []);
    const calls: Array<[string, string, string]> = [
      ['GET', `${BASE}/list`, 'tool:gen:list'],
      ['GET', `${BASE}/db/list`, 'tool:gen:list'],
      ['POST', `${BASE}/importTable?tables=demo_nokey`, 'tool:gen:import'],
      ['GET', `${BASE}/${tableId}`, 'tool:gen:query'],
      ['PUT', BASE, 'tool:gen:edit'],
      ['DELETE', `${BASE}/${tableId}`, 'tool:gen:remove'],
      ['GET', `${BASE}/preview/${tableId}`, 'tool:gen:preview'],
      ['GET', `${BASE}/download/${tableId}`, 'tool:gen:code'],
      ['GET', `${BASE}/batchGenCode?tables=demo_item`, 'tool:gen:code'],
      ['GET', `${BASE}/genCode/${tableId}`, 'tool:gen:code'],
      ['GET', `${BASE}/synchDb/demo_item`, 'tool:gen:edit'],
    ];
    for (const [method, url, perm] of calls) {
      const res = await s.call(method, url, { token: nobody, body: method === 'PUT' ? {} : undefined });
      expect(res.body, `${method} ${url}`).toEqual(forbidden(perm));
    }
    const lister = await userWithPermissions(s, ['tool:gen:list']);
    expect((await s.call('GET', `${BASE}/list`, { token: lister })).body.code).toBe(200);
    expect((await s.call('POST', `${BASE}/importTable`, { token: lister, query: { tables: 'demo_nokey' } })).body).toEqual(forbidden('tool:gen:import'));
    // Every permission is grantable from the seeded menu.
    const perms = (await s.app.db.kysely.selectFrom('sysMenu').select('perms').where('perms', 'like', 'tool:gen:%').execute()).map((m) => m.perms);
    expect(perms.sort()).toEqual([
      'tool:gen:code',
      'tool:gen:edit',
      'tool:gen:import',
      'tool:gen:list',
      'tool:gen:preview',
      'tool:gen:query',
      'tool:gen:remove',
    ]);
  });

  it('deletes imported tables', async () => {
    expect((await s.call('DELETE', `${BASE}/abc`, { token: admin })).body).toEqual({ code: 400, msg: '表编号格式不正确' });
    expect((await s.call('DELETE', `${BASE}/${tableId}`, { token: admin })).body).toMatchObject({ code: 200, msg: '删除成功', data: { deleted: 1 } });
    await new Promise((r) => setTimeout(r, 1100)); // past the duplicate-submit window
    expect((await s.call('DELETE', `${BASE}/${tableId}`, { token: admin })).body).toEqual({ code: 500, msg: '数据不存在或已被删除' });
    expect((await s.call('GET', `${BASE}/${tableId}`, { token: admin })).body.code).toBe(404);
  });
});
