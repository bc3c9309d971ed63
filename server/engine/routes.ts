import querystring from 'node:querystring';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { ImportProblem } from '../../common/engine/imports.js';
import type { AppAction, EngineAction } from '../../common/engine/types.js';
import type { AuthContext, RoutePermission } from '../http/context.js';
import { ApiError, Code, fail, ok, page } from '../http/envelope.js';
import { markBackground } from '../http/foreground.js';
import { allows } from '../security/access.js';
import { registerBuiltins } from './builtins.js';
import { type EngineEnv, logged, writeContext } from './context.js';
import { exportFileName, ImportTooLarge, readSheet, type SheetRow, Slicer, setDownloadHeaders, streamExport, templateBuffer } from './excel.js';
import type { HooksRegistry } from './hooks.js';
import { writeImport } from './importWrite.js';
import { DEFAULT_SCHEMAS_DIR, loadSchemas } from './metaSchema.js';
import { buildEntity, type Entity, linkSubtrees, rowToRecord } from './model.js';
import { BusinessType, type BusinessTypeCode, recordOperation } from './operlog.js';
import { presetValues, rowScope } from './owner.js';
import { registerPublicApi } from './publish.js';
import { filters, flattenParams, listPage, listQuery, ordering, paging, selectRows } from './query.js';
import { checkRecord, createRecord, DictLookup, deleteRecords, MISSING_MESSAGE, parseIds, readInput, updateRecord, type WriteContext } from './records.js';
import { reorderRecords } from './reorder.js';
import { parseLimits, SheetRefused } from './sheetReader.js';
import { engineDb, findRow, idsWhere } from './store.js';
import { type SyncReport, syncTables } from './sync.js';

/**
 * The schema engine as a Fastify plugin: loads and checks schemas/*.json (a bad file stops the start), brings the
 * tables up to date, and registers each schema's endpoints (docs/schemas.md) with their x-permissions.
 */

export interface SchemaEngine {
  dir: string;
  entities: Map<string, Entity>;
  report: SyncReport;
}

/** The engine as registered: also the database environment its routes use, for routes that extend a schema. */
export interface RegisteredEngine extends SchemaEngine {
  env: EngineEnv;
}

declare module 'fastify' {
  interface FastifyInstance {
    schemaEngine: RegisteredEngine;
  }
}

const secretKeysOf = (entity: Entity) => entity.fields.filter((f) => f.writeOnly).map((f) => f.name);
const bodyOf = (request: FastifyRequest) => (request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : {});
const queryOf = (request: FastifyRequest) => (request.query ?? {}) as Record<string, unknown>;
/** App-style actions that only read; every other action writes (save, remove, change, importData, clean, reorder). */
const APP_READS: ReadonlySet<AppAction> = new Set<AppAction>(['list', 'info', 'export', 'importTemplate']);

/** The rows this request may see: its owner's (x-owner) and its data scope (listScope hook); null: every row. */
async function scopeOf(env: EngineEnv, entity: Entity, request: FastifyRequest) {
  return rowScope(env.k, entity, request.auth ?? undefined);
}

/** A list answer: RuoYi's table page, or for a tree every matching row (flat, with parent ids) also as `data`. */
async function listAnswer(env: EngineEnv, entity: Entity, params: Record<string, unknown>, request: FastifyRequest) {
  const parsed = listQuery(entity, params, env.dialect);
  const scope = await scopeOf(env, entity, request);
  const q = scope ? { ...parsed, where: sql`${parsed.where} and ${scope}` } : parsed;
  if (entity.tree) {
    const rows = (await selectRows(env.k, entity, env.entities, q)).map((r) => rowToRecord(entity, r));
    return { ...page(rows, rows.length), data: rows };
  }
  if (entity.schema['x-singleton']) {
    // One record: the oldest row, whatever the filters or paging asked (rows written before the flag stay hidden).
    const oldest = listQuery(entity, entity.pk.sortable ? { orderByColumn: entity.pk.name, isAsc: 'asc' } : {}, env.dialect);
    const rows = (await selectRows(env.k, entity, env.entities, scope ? { ...oldest, where: sql`${oldest.where} and ${scope}` } : oldest, 1, 0)).map((r) =>
      rowToRecord(entity, r),
    );
    return page(rows, rows.length);
  }
  const { pageNum, pageSize } = paging(params);
  const found = await listPage(env.k, entity, env.entities, q, pageSize, (pageNum - 1) * pageSize);
  const now = Date.now();
  const present = entity.hooks?.present;
  return page(
    found.rows.map((r) => (present ? present(rowToRecord(entity, r), now) : rowToRecord(entity, r))),
    found.total,
  );
}

async function infoAnswer(env: EngineEnv, entity: Entity, raw: unknown, request: FastifyRequest) {
  const text = String(raw ?? '').trim();
  if (!/^\d{1,15}$/.test(text)) throw new ApiError(Code.BAD_REQUEST, `${entity.pk.title}格式不正确`);
  const row = await findRow(env.k, entity, Number(text), env.entities);
  if (!row) throw new ApiError(Code.NOT_FOUND, MISSING_MESSAGE);
  const scope = await scopeOf(env, entity, request);
  if (scope) {
    const visible = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(entity.table)} as t
      where ${sql.ref(`t.${entity.pk.column}`)} = ${Number(text)} and ${scope}`.execute(env.k);
    if (!Number(visible.rows[0]?.n ?? 0)) throw fail(`没有权限访问${entity.title}数据！`);
  }
  const record = rowToRecord(entity, row);
  const extra = entity.hooks?.decorate ? await entity.hooks.decorate({ k: env.k }, record) : {};
  return ok({ ...record, ...extra });
}

async function exportAnswer(env: EngineEnv, entity: Entity, request: FastifyRequest, reply: FastifyReply, params: Record<string, unknown>) {
  const started = Date.now();
  const entry = { title: entity.title, businessType: BusinessType.EXPORT, method: `${entity.id}.export`, param: params };
  let where: ReturnType<typeof filters>;
  let order: ReturnType<typeof ordering>;
  try {
    where = filters(entity, params, env.dialect);
    order = ordering(entity, params);
    const scope = await scopeOf(env, entity, request);
    if (scope) where = sql`${where} and ${scope}`;
  } catch (err) {
    return recordOperation(env.k, request, { ...entry, status: 1, errorMsg: (err as Error).message, costTime: Date.now() - started }).then(() => {
      throw err;
    });
  }
  return streamExport(reply, {
    k: env.k,
    dialect: env.dialect,
    entity,
    entities: env.entities,
    where,
    order,
    dicts: new DictLookup(env.dictsAvailable),
    onDone: (error, rows) =>
      recordOperation(env.k, request, {
        ...entry,
        result: error ? undefined : { rows },
        status: error ? 1 : 0,
        errorMsg: error?.message ?? null,
        costTime: Date.now() - started,
      }),
  });
}

async function templateAnswer(env: EngineEnv, entity: Entity, reply: FastifyReply) {
  const dicts = new DictLookup(env.dictsAvailable);
  const buffer = await templateBuffer(entity, async (f) => {
    if (!f.dict) return f.prop.enum ? `可选：${f.prop.enum.filter((v) => v !== null).join('、')}` : null;
    const entries = await dicts.entries(env.k, f.dict);
    return entries.length ? `可填：${entries.map((e) => e.label).join('、')}` : null;
  });
  setDownloadHeaders(reply, exportFileName(entity, '导入模板'));
  return reply.send(buffer);
}

class ImportRefused extends Error {
  constructor(public readonly problems: ImportProblem[]) {
    super('import refused');
  }
}

/** How many problems an import report lists (the count says how many there were in all). */
const REPORT_LIMIT = 100;

/**
 * importData: every row validated; all written in one transaction, or nothing and a report of the problems.
 * Caps (IMPORT_MAX_BYTES, IMPORT_MAX_ROWS) refuse an oversized file at once. The sheet is streamed and the rows are
 * parsed and checked *before* the write transaction, yielding to the event loop as they go, so other requests keep
 * being answered; the transaction then only writes (and a unique value taken meanwhile still fails it whole).
 */
async function importAnswer(env: EngineEnv, entity: Entity, request: FastifyRequest) {
  // The parameters are filled in as the upload is read; the log entry is written at the end, refusals included.
  const param: Record<string, unknown> = { updateSupport: false };
  const { importMaxBytes, importMaxRows } = request.server.config;
  return logged(env, request, { title: entity.title, businessType: BusinessType.IMPORT, method: `${entity.id}.importData`, param }, async () => {
    if (!request.isMultipart()) throw new ApiError(Code.BAD_REQUEST, '请选择要导入的文件（.xlsx 或 .csv）');
    const file = await request.file({ limits: { fileSize: importMaxBytes, files: 1 }, throwFileSizeLimit: false });
    if (!file) throw new ApiError(Code.BAD_REQUEST, '请选择要导入的文件（.xlsx 或 .csv）');
    const buffer = await file.toBuffer();
    markBackground(request); // from here on the import steps aside for other users' requests
    const field = file.fields.updateSupport as { value?: unknown } | undefined;
    const updateSupport = ['1', 'true'].includes(String(queryOf(request).updateSupport ?? field?.value ?? '0'));
    Object.assign(param, { fileName: file.filename, size: buffer.length, updateSupport });
    if (file.file.truncated) throw fail(`导入文件大小不能超过 ${formatMb(importMaxBytes)}，请分成几个文件导入`);
    if (!/\.(xlsx|csv)$/i.test(file.filename)) throw fail('文件格式不正确，请上传 .xlsx 或 .csv 文件');
    const ctx = writeContext(env, request);
    let sheet: Awaited<ReturnType<typeof readSheet>>;
    try {
      sheet = await readSheet(env.k, entity, buffer, file.filename, ctx.dicts, parseLimits(request.server.config, importMaxRows));
    } catch (err) {
      if (err instanceof ImportTooLarge) throw fail(`导入文件不能超过 ${importMaxRows} 行数据，请分成几个文件导入`);
      if (err instanceof SheetRefused) throw fail(err.message);
      throw err;
    }
    const { rows, problems } = sheet;
    if (!rows.length && !problems.length) throw fail('导入文件中没有数据行');
    try {
      const plans = await planImport(ctx, entity, rows, problems, updateSupport);
      if (problems.length) throw new ImportRefused(problems);
      const counts = await writeImport(env, request, entity, plans);
      return ok(counts, `导入成功，共 ${counts.total} 条`);
    } catch (err) {
      if (!(err instanceof ImportRefused)) throw err;
      const all = err.problems.sort((a, b) => a.row - b.row);
      const listed = all.slice(0, REPORT_LIMIT);
      const sample = listed
        .slice(0, 5)
        .map((p) => (p.row ? `第 ${p.row} 行 ${p.field}：${p.message}` : p.message))
        .join('；');
      throw fail(`导入失败，共 ${all.length} 处错误，未写入任何数据。${sample}${all.length > 5 ? '……' : ''}`, Code.ERROR, {
        data: listed,
        problemCount: all.length,
      });
    }
  });
}

/** Checks every row (outside any transaction, yielding as it goes) and decides insert or update for each. */
async function planImport(ctx: WriteContext, entity: Entity, rows: SheetRow[], problems: ImportProblem[], updateSupport: boolean) {
  const uniques = entity.writable.filter((f) => f.unique);
  const matchKey = uniques[0];
  const seen = new Map<string, number>();
  const plans: Array<{ values: Record<string, unknown>; id?: number }> = [];
  const slicer = new Slicer();
  for (const r of rows) {
    await slicer.tick();
    const { values, errors } = readInput(entity, 'create', r.cells);
    Object.assign(values, presetValues(entity)); // x-filter: imported rows are rows of this resource
    for (const e of errors) problems.push({ row: r.row, field: e.field, message: e.message });
    let id: number | undefined;
    if (updateSupport && matchKey && values[matchKey.name] !== undefined && values[matchKey.name] !== null) {
      id = (await idsWhere(ctx.k, entity, matchKey, values[matchKey.name]))[0];
    }
    for (const u of uniques) {
      const v = values[u.name];
      if (v === undefined || v === null) continue;
      const key = `${u.name}\u0000${String(v)}`;
      const first = seen.get(key);
      if (first !== undefined) problems.push({ row: r.row, field: u.title, message: `${u.title}'${String(v)}'与第 ${first} 行重复` });
      else seen.set(key, r.row);
    }
    if (!errors.length) {
      for (const e of await checkRecord(ctx, entity, values, id)) {
        if (!problems.some((p) => p.row === r.row && p.field === e.field)) problems.push({ row: r.row, field: e.field, message: e.message });
      }
    }
    if (id !== undefined) for (const key of Object.keys(values)) if (!(key in r.cells)) delete values[key];
    plans.push({ values, id });
  }
  return plans;
}

const formatMb = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

async function cleanAnswer(env: EngineEnv, entity: Entity, request: FastifyRequest) {
  return logged(env, request, { title: entity.title, businessType: BusinessType.CLEAN, method: `${entity.id}.clean`, param: {} }, async () => {
    const res = await sql`delete from ${sql.table(entity.table)}`.execute(env.k);
    return ok({ deleted: Number(res.numAffectedRows ?? 0) }, '清空成功');
  });
}

function requirePermission(request: FastifyRequest, permission: string | undefined): void {
  if (!permission) throw fail('此操作未开放');
  if (!allows(request.auth as AuthContext, permission)) throw new ApiError(Code.FORBIDDEN, `没有权限，请联系管理员授权（需要 ${permission}）`);
}

function registerEntity(app: FastifyInstance, env: EngineEnv, entity: Entity): void {
  const perms = entity.permissions;
  const base = entity.schema['x-endpoint'].base;
  // Every route says whether it writes (server/security/writeGuard.ts): by what it does, not by its permission, since
  // importTemplate shares the import permission and only reads.
  const cfg = (action: EngineAction, write: boolean) => ({ config: { permission: perms[action] as RoutePermission, sensitive: entity.sensitive, write } });
  const secretKeys = secretKeysOf(entity);
  const write = (action: string, businessType: BusinessTypeCode, param: unknown) => ({
    title: entity.title,
    businessType,
    method: `${entity.id}.${action}`,
    param,
    secretKeys,
  });
  const create = (request: FastifyRequest, body: unknown) =>
    logged(env, request, write('add', BusinessType.INSERT, body), async () => {
      const { id, version } = await env.k.transaction().execute((trx) => createRecord(writeContext(env, request, trx), entity, body));
      return ok({ [entity.pk.name]: id, ...(entity.versioned ? { version } : {}) }, '新增成功');
    });
  const update = (request: FastifyRequest, body: unknown, mode: 'update' | 'patch') =>
    logged(env, request, write(mode === 'update' ? 'edit' : 'change', BusinessType.UPDATE, body), async () => {
      const { id, version } = await env.k.transaction().execute((trx) => updateRecord(writeContext(env, request, trx), entity, body, mode));
      return ok({ [entity.pk.name]: id, ...(entity.versioned ? { version } : {}) }, '修改成功');
    });
  const remove = (request: FastifyRequest, raw: unknown) =>
    logged(env, request, write('remove', BusinessType.DELETE, { ids: raw }), async () => {
      const ids = parseIds(entity, raw);
      const deleted = await env.k.transaction().execute((trx) => deleteRecords(writeContext(env, request, trx), entity, ids));
      return ok({ deleted }, '删除成功');
    });

  const reorder = (request: FastifyRequest) =>
    logged(env, request, write('reorder', BusinessType.UPDATE, bodyOf(request)), async () => {
      const moved = await env.k.transaction().execute((trx) => reorderRecords(writeContext(env, request, trx), entity, bodyOf(request).ids));
      return ok({ moved }, '排序成功');
    });

  const ep = entity.schema['x-endpoint'];
  if (ep.style === 'rest') {
    if (perms.edit && entity.schema['x-dragSort']) app.put(`${base}/reorder`, cfg('edit', true), (request) => reorder(request));
    if (perms.list) app.get(`${base}/list`, cfg('list', false), (request) => listAnswer(env, entity, flattenParams(request.query), request));
    if (perms.export) {
      app.post(`${base}/export`, cfg('export', false), (request, reply) =>
        exportAnswer(env, entity, request, reply, flattenParams(request.query, request.body)),
      );
    }
    if (perms.import) {
      app.get(`${base}/importTemplate`, cfg('import', false), (_request, reply) => templateAnswer(env, entity, reply));
      app.post(`${base}/importTemplate`, cfg('import', false), (_request, reply) => templateAnswer(env, entity, reply));
      app.post(`${base}/importData`, cfg('import', true), (request) => importAnswer(env, entity, request));
    }
    if (perms.clean) app.delete(`${base}/clean`, cfg('clean', true), (request) => cleanAnswer(env, entity, request));
    if (perms.query) {
      app.get<{ Params: Record<string, string> }>(`${base}/:${entity.pk.name}`, cfg('query', false), (request) =>
        infoAnswer(env, entity, request.params[entity.pk.name], request),
      );
    }
    if (perms.add) app.post(base, cfg('add', true), (request) => create(request, request.body));
    if (perms.edit) app.put(base, cfg('edit', true), (request) => update(request, request.body, 'update'));
    if (perms.remove) {
      app.delete<{ Params: Record<string, string> }>(`${base}/:${entity.pk.name}s`, cfg('remove', true), (request) =>
        remove(request, request.params[`${entity.pk.name}s`]),
      );
    }
    return;
  }

  // App style: POST {base}/{action name} with JSON bodies.
  const actions = ep.actions;
  const route = (action: AppAction, permission: EngineAction, handler: (request: FastifyRequest, reply: FastifyReply) => unknown) => {
    const name = actions[action];
    if (name && perms[permission]) app.post(`${base}/${name}`, cfg(permission, !APP_READS.has(action)), handler as never);
  };
  const idOf = (request: FastifyRequest) => bodyOf(request)[entity.pk.name] ?? bodyOf(request).id ?? queryOf(request)[entity.pk.name] ?? queryOf(request).id;
  route('list', 'list', (request) => listAnswer(env, entity, flattenParams(request.query, request.body), request));
  route('info', 'query', (request) => infoAnswer(env, entity, idOf(request), request));
  route('save', 'add', (request) => {
    const body = bodyOf(request);
    if (body[entity.pk.name] === undefined || body[entity.pk.name] === null || body[entity.pk.name] === '') return create(request, body);
    requirePermission(request, perms.edit);
    return update(request, body, 'update');
  });
  route('change', 'edit', (request) => update(request, bodyOf(request), 'patch'));
  route('remove', 'remove', (request) => remove(request, bodyOf(request).ids ?? idOf(request)));
  route('export', 'export', (request, reply) => exportAnswer(env, entity, request, reply, flattenParams(request.query, request.body)));
  route('importTemplate', 'import', (_request, reply) => templateAnswer(env, entity, reply));
  route('importData', 'import', (request) => importAnswer(env, entity, request));
  route('clean', 'clean', (request) => cleanAnswer(env, entity, request));
  if (entity.schema['x-dragSort']) route('reorder', 'edit', (request) => reorder(request));
}

/** Loads the schemas and syncs their tables (also used by tools and benches that need the entities without HTTP). */
export async function prepareEngine(app: Pick<FastifyInstance, 'db' | 'config'>, hooks: HooksRegistry = {}): Promise<SchemaEngine> {
  const dir = app.config.schemasDir ?? DEFAULT_SCHEMAS_DIR;
  const entities = new Map(loadSchemas(dir).map((l) => [l.schema.$id, { ...buildEntity(l), hooks: hooks[l.schema.$id] }] as const));
  linkSubtrees(entities);
  // A module-served schema (x-endpoint.module) only documents its table: the module owns it.
  const report = await syncTables(
    app.db,
    [...entities.values()].filter((e) => !e.moduleServed),
  );
  return { dir, entities, report };
}

async function engineRoutes(app: FastifyInstance, options: { hooks?: HooksRegistry }): Promise<void> {
  const engine = await prepareEngine(app, options.hooks);
  for (const w of engine.report.warnings) app.log.warn(w);
  if (engine.report.created.length) app.log.info(`schema 引擎创建了表：${engine.report.created.join(', ')}`);
  if (engine.report.added.length) app.log.info(`schema 引擎新增了列：${engine.report.added.join(', ')}`);
  const env: EngineEnv = {
    k: engineDb(app.db),
    dialect: app.db.dialect,
    entities: engine.entities,
    dictsAvailable: [...engine.entities.values()].some((e) => e.table === 'sys_dict_data'),
  };
  app.decorate('schemaEngine', { ...engine, env });
  // Routes live in their own context: exports accept form-encoded search fields there (RuoYi's download helper).
  await app.register(async (child) => {
    if (!child.hasContentTypeParser('application/x-www-form-urlencoded')) {
      child.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
        done(null, querystring.parse(body as string));
      });
    }
    // Module-served schemas get no route: their module registers its own (spec routes) under the same permissions.
    for (const entity of engine.entities.values()) if (!entity.moduleServed) registerEntity(child, env, entity);
    registerBuiltins(child, env);
    registerPublicApi(child, env); // x-public: /appv2/api/public/<name>/… (published, in-schedule rows only)
  });
}

/** Registered without encapsulation (like fastify-plugin) so app.schemaEngine is visible to the whole app. */
export const schemaEngineRoutes = Object.assign(engineRoutes, { [Symbol.for('skip-override')]: true });
