import fs from 'node:fs';
import path from 'node:path';
import archiver from 'archiver';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Generated, type Kysely, sql } from 'kysely';
import { FORM_MODES, GEN_SEARCH_OPS, type GenColumn, type GenQuery, type GenTable, PROPERTY_TYPES } from '../../common/gen/tables.js';
import type { EngineEnv } from '../engine/context.js';
import { logged } from '../engine/context.js';
import { DEFAULT_SCHEMAS_DIR } from '../engine/metaSchema.js';
import { BusinessType } from '../engine/operlog.js';
import { engineDb } from '../engine/store.js';
import { Code, fail, ok, page } from '../http/envelope.js';
import { isInternalTable, listDbColumns, listDbTables, tableExists } from './introspect.js';
import { initColumn, initTable, WIDGETS_BY_TYPE } from './model.js';
import { generateSchema } from './schemaFromTable.js';

/**
 * 代码生成 (RuoYi /tool/gen/*): import database tables, edit how each becomes a schema file, preview / download the
 * schema JSON, and — only with GEN_WRITE=1 (development) — write it into the schemas folder. docs/schemas.md "代码生成".
 */

export const GEN_PERM = {
  list: 'tool:gen:list',
  query: 'tool:gen:query',
  edit: 'tool:gen:edit',
  import: 'tool:gen:import',
  remove: 'tool:gen:remove',
  preview: 'tool:gen:preview',
  code: 'tool:gen:code',
} as const;

type Row<T> = { [K in keyof T]: K extends 'tableId' | 'columnId' ? Generated<number> : T[K] };
interface GenDb {
  genTable: Row<GenTable>;
  genTableColumn: Row<GenColumn>;
}

const TITLE = '代码生成';
const MAX_PAGE = 500;
const BASE = '/dev-api/tool/gen';

const pageQuery = {
  type: 'object',
  properties: {
    pageNum: { type: 'integer', title: '页码', minimum: 1 },
    pageSize: { type: 'integer', title: '每页条数', minimum: 1, maximum: MAX_PAGE },
    tableName: { type: 'string', title: '表名称', maxLength: 100 },
    tableComment: { type: 'string', title: '表描述', maxLength: 200 },
  },
} as const;
/** As it arrives: the page may be left out (page 1 of 10). */
type PageQuery = Partial<GenQuery>;

const idParams = { type: 'object', required: ['tableId'], properties: { tableId: { type: 'integer', title: '表编号', minimum: 1 } } } as const;

const flag = { type: 'string', enum: ['0', '1'] } as const;
const optText = (title: string, maxLength: number) => ({ type: ['string', 'null'], title, maxLength }) as const;
const editBody = {
  type: 'object',
  required: ['tableId', 'version', 'tableComment', 'entityName', 'permissionPrefix', 'endpointBase'],
  properties: {
    tableId: { type: 'integer', title: '表编号', minimum: 1 },
    version: { type: 'integer', title: '版本号' },
    tableComment: { type: 'string', title: '表描述', minLength: 1, maxLength: 100 },
    entityName: { type: 'string', title: '实体名称', minLength: 1, maxLength: 64 },
    menuParent: optText('上级菜单', 100),
    menuPath: optText('路由地址', 100),
    menuTitle: optText('菜单名称', 50),
    menuIcon: optText('菜单图标', 100),
    permissionPrefix: { type: 'string', title: '权限前缀', minLength: 1, maxLength: 100 },
    endpointBase: { type: 'string', title: '接口地址', minLength: 1, maxLength: 200 },
    formMode: { type: 'string', title: '表单方式', enum: [...FORM_MODES] },
    formWidth: { type: 'integer', title: '表单宽度', minimum: 300, maximum: 3000 },
    formColumns: { type: 'integer', title: '表单列数', enum: [1, 2] },
    treeParent: optText('树父编码字段', 64),
    treeLabel: optText('树名称字段', 64),
    remark: optText('备注', 500),
    columns: {
      type: 'array',
      title: '字段信息',
      maxItems: 500,
      items: {
        type: 'object',
        required: ['columnId'],
        properties: {
          columnId: { type: 'integer', title: '字段编号' },
          columnComment: { type: 'string', title: '字段描述', minLength: 1, maxLength: 100 },
          propertyName: { type: 'string', title: '属性名称', minLength: 1, maxLength: 64 },
          propertyType: { type: 'string', title: '属性类型', enum: [...PROPERTY_TYPES] },
          isRequired: { ...flag, title: '必填' },
          isInsert: { ...flag, title: '插入' },
          isEdit: { ...flag, title: '编辑' },
          isList: { ...flag, title: '列表' },
          isSearch: { ...flag, title: '查询' },
          searchOp: { type: 'string', title: '查询方式', enum: [...GEN_SEARCH_OPS] },
          isSortable: { ...flag, title: '排序' },
          dictType: { type: ['string', 'null'], title: '字典类型', maxLength: 100 },
          widget: { type: 'string', title: '显示类型', enum: [...new Set(Object.values(WIDGETS_BY_TYPE).flat())] },
          sort: { type: 'integer', title: '排序号' },
        },
      },
    },
  },
} as const;

type ColumnEdit = Partial<Omit<GenColumn, 'columnId' | 'tableId' | 'dictType'>> & { columnId: number; dictType?: string | null };
type TableEdit = Partial<GenTable> & { tableId: number; version: number; columns?: ColumnEdit[] };

const TABLE_FIELDS = [
  'tableComment',
  'entityName',
  'menuParent',
  'menuPath',
  'menuTitle',
  'menuIcon',
  'permissionPrefix',
  'endpointBase',
  'formMode',
  'formWidth',
  'formColumns',
  'treeParent',
  'treeLabel',
  'remark',
] as const;
const COLUMN_FIELDS = [
  'columnComment',
  'propertyName',
  'propertyType',
  'isRequired',
  'isInsert',
  'isEdit',
  'isList',
  'isSearch',
  'searchOp',
  'isSortable',
  'dictType',
  'widget',
  'sort',
] as const;

const clean = (v: unknown) => (typeof v === 'string' ? v.trim() : v);
const contains = (value: string, needle?: string) => !needle?.trim() || value.toLowerCase().includes(needle.trim().toLowerCase());
const TABLE_NAME = /^[a-z][a-z0-9_]*$/;

function paged<T>(rows: T[], q: PageQuery) {
  const size = q.pageSize ?? 10;
  const num = q.pageNum ?? 1;
  return page(rows.slice((num - 1) * size, num * size), rows.length);
}

export async function genRoutes(app: FastifyInstance) {
  const db = app.db.kysely as unknown as Kysely<GenDb>;
  const k = engineDb(app.db);
  const dialect = app.db.dialect;
  const schemasDir = () => app.schemaEngine?.dir ?? app.config.schemasDir ?? DEFAULT_SCHEMAS_DIR;
  const env = (): EngineEnv => ({ k, dialect, entities: app.schemaEngine?.entities ?? new Map(), dictsAvailable: false });
  const log = <T>(
    request: FastifyRequest,
    businessType: (typeof BusinessType)[keyof typeof BusinessType],
    method: string,
    param: unknown,
    run: () => Promise<T>,
  ) => logged(env(), request, { title: TITLE, businessType, method: `gen.${method}`, param }, run);

  const loadTable = async (tableId: number, q: Kysely<GenDb> = db) => {
    const table = (await q.selectFrom('genTable').selectAll().where('tableId', '=', tableId).executeTakeFirst()) as GenTable | undefined;
    if (!table) throw fail('数据不存在或已被删除', Code.NOT_FOUND);
    const columns = (await q
      .selectFrom('genTableColumn')
      .selectAll()
      .where('tableId', '=', tableId)
      .orderBy('sort')
      .orderBy('columnId')
      .execute()) as GenColumn[];
    return { table, columns };
  };
  const generate = async (tableId: number) => {
    const { table, columns } = await loadTable(tableId);
    return generateSchema(table, columns, schemasDir());
  };

  /** Tables that have a schema already (served by the engine): generating them again would clash. */
  const schemaTables = () => new Set([...(app.schemaEngine?.entities.values() ?? [])].map((e) => e.table));

  /** Database tables that may be imported: not internal, not imported yet, not served by a schema. */
  async function importable() {
    const imported = new Set((await db.selectFrom('genTable').select('tableName').execute()).map((r) => r.tableName));
    const withSchema = schemaTables();
    return (await listDbTables(k, dialect)).filter((t) => !isInternalTable(t.tableName) && !imported.has(t.tableName) && !withSchema.has(t.tableName));
  }

  // 代码生成列表: the imported tables.
  app.get<{ Querystring: PageQuery }>(
    `${BASE}/list`,
    { config: { permission: GEN_PERM.list, write: false }, schema: { querystring: pageQuery } },
    async (request) => {
      const q = request.query;
      const rows = (await db.selectFrom('genTable').selectAll().orderBy('tableId', 'desc').execute()).filter(
        (t) => contains(t.tableName, q.tableName) && contains(t.tableComment, q.tableComment),
      );
      return { ...paged(rows, q), genWrite: app.config.genWrite };
    },
  );

  // 导入表: database tables not imported yet.
  app.get<{ Querystring: PageQuery }>(
    `${BASE}/db/list`,
    { config: { permission: GEN_PERM.list, write: false }, schema: { querystring: pageQuery } },
    async (request) => {
      const q = request.query;
      const rows = (await importable()).filter((t) => contains(t.tableName, q.tableName) && contains(t.tableComment, q.tableComment));
      return paged(rows, q);
    },
  );

  app.post<{ Querystring: { tables?: string }; Body: { tables?: string } | undefined }>(
    `${BASE}/importTable`,
    {
      config: { permission: GEN_PERM.import, write: true },
      schema: { querystring: { type: 'object', properties: { tables: { type: 'string', title: '表名称', maxLength: 5000 } } } },
    },
    (request) => {
      const raw = request.query.tables ?? (typeof request.body?.tables === 'string' ? request.body.tables : '');
      const names = [...new Set(raw.split(',').map((s) => s.trim()))].filter(Boolean);
      return log(request, BusinessType.IMPORT, 'importTable', { tables: names.join(',') }, async () => {
        if (!names.length) throw fail('请选择要导入的表');
        const imported = new Set((await db.selectFrom('genTable').select('tableName').execute()).map((r) => r.tableName));
        const available = new Set((await listDbTables(k, dialect)).map((t) => t.tableName));
        const comments = new Map((await listDbTables(k, dialect)).map((t) => [t.tableName, t.tableComment]));
        const withSchema = schemaTables();
        const plans: Array<{ name: string; columns: Awaited<ReturnType<typeof listDbColumns>> }> = [];
        for (const name of names) {
          if (imported.has(name)) throw fail(`导入失败：表'${name}'已导入`);
          if (!available.has(name)) throw fail(`导入失败：表'${name}'不存在`);
          if (isInternalTable(name)) throw fail(`导入失败：表'${name}'是系统内部表，不能生成`);
          if (withSchema.has(name)) throw fail(`导入失败：表'${name}'已有 schema 文件，无需生成`);
          if (!TABLE_NAME.test(name)) throw fail(`导入失败：表名'${name}'不合法（只支持小写字母、数字和下划线）`);
          const columns = await listDbColumns(k, dialect, name);
          const bad = columns.find((c) => !TABLE_NAME.test(c.name));
          if (bad) throw fail(`导入失败：表'${name}'的列名'${bad.name}'不合法（只支持小写字母、数字和下划线）`);
          if (columns.filter((c) => c.pk).length !== 1 || !columns.some((c) => c.autoIncrement)) {
            throw fail(`导入失败：表'${name}'没有单列自增整数主键（schema 引擎需要）`);
          }
          plans.push({ name, columns });
        }
        const now = Date.now();
        const userName = request.auth?.userName ?? null;
        await db.transaction().execute(async (trx) => {
          for (const p of plans) {
            const row = await trx
              .insertInto('genTable')
              .values({ ...initTable(p.name, comments.get(p.name) ?? ''), createBy: userName, createTime: now, updateBy: null, updateTime: null, version: 1 })
              .returning('tableId')
              .executeTakeFirstOrThrow();
            await trx
              .insertInto('genTableColumn')
              .values(p.columns.map((c) => ({ ...initColumn(c), tableId: row.tableId })))
              .execute();
          }
        });
        return ok({ imported: plans.length }, '导入成功');
      });
    },
  );

  // 修改: the table and its columns.
  app.get<{ Params: { tableId: number } }>(
    `${BASE}/:tableId`,
    { config: { permission: GEN_PERM.query, write: false }, schema: { params: idParams } },
    async (request) => {
      const { table, columns } = await loadTable(request.params.tableId);
      return ok({ info: { ...table, columns }, rows: columns });
    },
  );

  app.put<{ Body: TableEdit }>(`${BASE}`, { config: { permission: GEN_PERM.edit, write: true }, schema: { body: editBody } }, (request) => {
    const b = request.body;
    return log(request, BusinessType.UPDATE, 'edit', b, async () => {
      const { columns: before } = await loadTable(b.tableId);
      const byId = new Map(before.map((c) => [c.columnId, c]));
      for (const c of b.columns ?? []) if (!byId.has(c.columnId)) throw fail(`字段编号 ${c.columnId} 不属于该表`);
      await checkDicts(
        (b.columns ?? [])
          .filter((c) => clean(c.dictType))
          .map((c) => ({ column: byId.get(c.columnId)?.columnName ?? '', dictType: String(clean(c.dictType)) })),
      );
      const now = Date.now();
      const version = await db.transaction().execute(async (trx) => {
        const set: Record<string, unknown> = {};
        for (const f of TABLE_FIELDS) {
          if (b[f] === undefined) continue;
          const v = clean(b[f]);
          set[f] = v === '' && !['tableComment', 'entityName', 'permissionPrefix', 'endpointBase'].includes(f) ? null : v;
        }
        const res = await trx
          .updateTable('genTable')
          .set({ ...set, updateBy: request.auth?.userName ?? null, updateTime: now, version: sql<number>`version + 1` })
          .where('tableId', '=', b.tableId)
          .where('version', '=', b.version)
          .executeTakeFirst();
        if (Number(res.numUpdatedRows) !== 1) throw fail('数据已被他人修改，请刷新后重试');
        for (const c of b.columns ?? []) {
          const cs: Record<string, unknown> = {};
          for (const f of COLUMN_FIELDS) if (c[f] !== undefined) cs[f] = f === 'dictType' ? String(clean(c[f]) ?? '') : clean(c[f]);
          if (Object.keys(cs).length)
            await trx.updateTable('genTableColumn').set(cs).where('columnId', '=', c.columnId).where('tableId', '=', b.tableId).execute();
        }
        // Refused here (and rolled back) when the result would not be a loadable schema.
        const after = await loadTable(b.tableId, trx);
        generateSchema(after.table, after.columns, schemasDir());
        return after.table.version;
      });
      return ok({ tableId: b.tableId, version }, '修改成功');
    });
  });

  async function checkDicts(wanted: Array<{ column: string; dictType: string }>) {
    if (!wanted.length || !(await tableExists(k, dialect, 'sys_dict_type'))) return;
    const types = [...new Set(wanted.map((w) => w.dictType))];
    const found = new Set(
      (await sql<{ dict_type: string }>`select dict_type from sys_dict_type where dict_type in (${sql.join(types)})`.execute(k)).rows.map((r) => r.dict_type),
    );
    const missing = wanted.find((w) => !found.has(w.dictType));
    if (missing) throw fail(`字段'${missing.column}'的字典类型'${missing.dictType}'不存在`);
  }

  app.delete<{ Params: { tableIds: string } }>(
    `${BASE}/:tableIds`,
    {
      config: { permission: GEN_PERM.remove, write: true },
      schema: { params: { type: 'object', properties: { tableIds: { type: 'string', title: '表编号', pattern: '^\\d+(,\\d+)*$', maxLength: 2000 } } } },
    },
    (request) => {
      const ids = request.params.tableIds.split(',').map(Number);
      return log(request, BusinessType.DELETE, 'remove', { tableIds: request.params.tableIds }, async () => {
        const deleted = await db.transaction().execute(async (trx) => {
          await trx.deleteFrom('genTableColumn').where('tableId', 'in', ids).execute();
          const res = await trx.deleteFrom('genTable').where('tableId', 'in', ids).executeTakeFirst();
          return Number(res.numDeletedRows);
        });
        if (!deleted) throw fail('数据不存在或已被删除');
        return ok({ deleted }, '删除成功');
      });
    },
  );

  // 预览: the schema JSON keyed by its file name.
  app.get<{ Params: { tableId: number } }>(
    `${BASE}/preview/:tableId`,
    { config: { permission: GEN_PERM.preview, write: false }, schema: { params: idParams } },
    async (request) => {
      const g = await generate(request.params.tableId);
      return ok({ [g.fileName]: g.text });
    },
  );

  // 下载: the .json file.
  app.get<{ Params: { tableId: number } }>(
    `${BASE}/download/:tableId`,
    { config: { permission: GEN_PERM.code, write: false }, schema: { params: idParams } },
    async (request, reply) => {
      const g = await generate(request.params.tableId);
      const name = encodeURIComponent(`${g.schema.$id}.json`);
      // Not application/json: the console reads a JSON answer to a download as an error envelope.
      return reply
        .header('content-type', 'application/schema+json; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"; filename*=UTF-8''${name}`)
        .header('download-filename', name)
        .header('access-control-expose-headers', 'download-filename, content-disposition')
        .send(g.text);
    },
  );

  // 批量生成 (RuoYi batchGenCode?tables=a,b): the schema files of several imported tables in one .zip (schemas/<entity>.json).
  app.get<{ Querystring: { tables?: string } }>(`${BASE}/batchGenCode`, { config: { permission: GEN_PERM.code, write: false } }, async (request, reply) => {
    const names = [
      ...new Set(
        String(request.query.tables ?? '')
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean),
      ),
    ];
    if (!names.length) throw fail('请选择要生成的表', 400);
    if (names.length > 100) throw fail('一次最多生成 100 张表', 400);
    const rows = await db.selectFrom('genTable').select(['tableId', 'tableName']).where('tableName', 'in', names).execute();
    const missing = names.filter((n) => !rows.some((r) => r.tableName === n));
    if (missing.length) throw fail(`表 ${missing.join('、')} 尚未导入`);
    // Every schema is generated (and checked) before the first byte is sent: a bad one refuses the whole batch.
    const files = [];
    for (const name of names) files.push(await generate((rows.find((r) => r.tableName === name) as { tableId: number }).tableId));
    const zip = archiver('zip', { zlib: { level: 6 } });
    for (const g of files) zip.append(g.text, { name: g.fileName });
    void zip.finalize();
    const name = encodeURIComponent(`schemas_${Date.now()}.zip`);
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="${name}"; filename*=UTF-8''${name}`)
      .header('download-filename', name)
      .header('access-control-expose-headers', 'download-filename, content-disposition')
      .send(zip);
  });

  // 生成代码: writes schemas/<entity>.json — development mode only (GEN_WRITE=1).
  app.get<{ Params: { tableId: number }; Querystring: { overwrite?: string } }>(
    `${BASE}/genCode/:tableId`,
    {
      config: { permission: GEN_PERM.code, write: true },
      schema: { params: idParams, querystring: { type: 'object', properties: { overwrite: { type: 'string', title: '覆盖', enum: ['0', '1'] } } } },
    },
    (request) =>
      log(request, BusinessType.OTHER, 'genCode', { tableId: request.params.tableId, overwrite: request.query.overwrite ?? '0' }, async () => {
        if (!app.config.genWrite) throw fail('仅开发模式可写入 schemas/ 目录（服务端设置 GEN_WRITE=1 后重启）；当前请使用“下载”取得文件');
        const g = await generate(request.params.tableId);
        const dir = path.resolve(schemasDir());
        const target = path.resolve(dir, `${g.schema.$id}.json`);
        if (path.dirname(target) !== dir) throw fail('文件路径不合法');
        if (!fs.existsSync(dir)) throw fail('schemas 目录不存在');
        if (fs.existsSync(target) && request.query.overwrite !== '1') throw fail(`文件 ${g.fileName} 已存在，确认覆盖后再生成`, Code.ERROR, { exists: true });
        const tmp = `${target}.${process.pid}.${Date.now()}.tmp`;
        fs.writeFileSync(tmp, g.text);
        fs.renameSync(tmp, target);
        return ok({ fileName: g.fileName }, `已写入 ${g.fileName}，重启服务后生效`);
      }),
  );

  // 同步: re-reads the table's columns; the settings of columns still there are kept.
  app.get<{ Params: { tableName: string } }>(
    `${BASE}/synchDb/:tableName`,
    {
      config: { permission: GEN_PERM.edit, write: true },
      schema: { params: { type: 'object', properties: { tableName: { type: 'string', title: '表名称', maxLength: 100 } } } },
    },
    (request) => {
      const name = request.params.tableName;
      return log(request, BusinessType.UPDATE, 'synchDb', { tableName: name }, async () => {
        const table = await db.selectFrom('genTable').select(['tableId']).where('tableName', '=', name).executeTakeFirst();
        if (!table) throw fail(`表'${name}'未导入`);
        const dbColumns = await listDbColumns(k, dialect, name);
        if (!dbColumns.length) throw fail('同步数据失败，原表结构不存在');
        await db.transaction().execute(async (trx) => {
          const existing = await trx.selectFrom('genTableColumn').selectAll().where('tableId', '=', table.tableId).execute();
          const byName = new Map(existing.map((c) => [c.columnName, c]));
          for (const c of dbColumns) {
            const fresh = initColumn(c);
            const old = byName.get(c.name);
            if (!old) {
              await trx
                .insertInto('genTableColumn')
                .values({ ...fresh, tableId: table.tableId })
                .execute();
              continue;
            }
            const typeChanged = old.propertyType !== fresh.propertyType && old.columnType !== fresh.columnType;
            await trx
              .updateTable('genTableColumn')
              .set({
                columnType: fresh.columnType,
                isPk: fresh.isPk,
                isNullable: fresh.isNullable,
                maxLength: fresh.maxLength,
                sort: fresh.sort,
                ...(typeChanged ? { propertyType: fresh.propertyType, widget: fresh.widget, searchOp: fresh.searchOp } : {}),
              })
              .where('columnId', '=', old.columnId)
              .execute();
          }
          const gone = existing.filter((c) => !dbColumns.some((d) => d.name === c.columnName)).map((c) => c.columnId);
          if (gone.length) await trx.deleteFrom('genTableColumn').where('columnId', 'in', gone).execute();
          await trx
            .updateTable('genTable')
            .set({ updateTime: Date.now(), updateBy: request.auth?.userName ?? null, version: sql<number>`version + 1` })
            .where('tableId', '=', table.tableId)
            .execute();
        });
        return ok(undefined, '同步成功');
      });
    },
  );
}
