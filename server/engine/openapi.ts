import fs from 'node:fs';
import type { AppAction, EngineAction } from '../../common/engine/types.js';
import type { RegisteredRoute } from '../http/context.js';
import { capitalise, type Entity, type Field } from './model.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './query.js';
import { recordJsonSchema, VERSION, VERSION_TITLE } from './validate.js';

/**
 * OpenAPI 3.1 for the whole API: every schema's endpoints with their record schemas, plus every hand-written route
 * of app.routeRegistry. Each operation carries its permission in `x-permission` (public / login / a permission).
 */

export type EndpointOp = 'list' | 'info' | 'create' | 'update' | 'save' | 'change' | 'remove' | 'export' | 'template' | 'import' | 'clean';

export interface EndpointDescriptor {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Fastify form (`:param`). */
  url: string;
  op: EndpointOp;
  action: EngineAction;
  permission: string;
}

/** The endpoints a schema offers (the same list the engine registers). */
export function endpointsOf(entity: Entity): EndpointDescriptor[] {
  // A module-served schema: the module registers (and documents, through app.routeRegistry) its own routes.
  if (entity.moduleServed) return [];
  const perms = entity.permissions;
  const ep = entity.schema['x-endpoint'];
  const base = ep.base;
  const out: EndpointDescriptor[] = [];
  const add = (method: EndpointDescriptor['method'], url: string, op: EndpointOp, action: EngineAction) => {
    const permission = perms[action];
    if (permission) out.push({ method, url, op, action, permission });
  };
  if (ep.style === 'rest') {
    add('GET', `${base}/list`, 'list', 'list');
    add('POST', `${base}/export`, 'export', 'export');
    add('GET', `${base}/importTemplate`, 'template', 'import');
    add('POST', `${base}/importTemplate`, 'template', 'import');
    add('POST', `${base}/importData`, 'import', 'import');
    add('DELETE', `${base}/clean`, 'clean', 'clean');
    add('GET', `${base}/:${entity.pk.name}`, 'info', 'query');
    add('POST', base, 'create', 'add');
    add('PUT', base, 'update', 'edit');
    add('DELETE', `${base}/:${entity.pk.name}s`, 'remove', 'remove');
    return out;
  }
  const table: Array<[AppAction, EndpointOp, EngineAction]> = [
    ['list', 'list', 'list'],
    ['info', 'info', 'query'],
    ['save', 'save', 'add'],
    ['change', 'change', 'edit'],
    ['remove', 'remove', 'remove'],
    ['export', 'export', 'export'],
    ['importTemplate', 'template', 'import'],
    ['importData', 'import', 'import'],
    ['clean', 'clean', 'clean'],
  ];
  for (const [action, op, perm] of table) {
    const name = ep.actions[action];
    if (name) add('POST', `${base}/${name}`, op, perm);
  }
  return out;
}

/**
 * The routes a module-served schema (x-endpoint.module) expects its module to have registered — what the console
 * calls for each declared action. The engine registers none of them; the OpenAPI document names them after the schema
 * and the generated suite checks each is there with exactly its permission (path parameters as `:id` / `:ids`).
 */
export function moduleEndpointsOf(entity: Entity): EndpointDescriptor[] {
  const perms = entity.permissions;
  const ep = entity.schema['x-endpoint'];
  const out: EndpointDescriptor[] = [];
  const add = (method: EndpointDescriptor['method'], url: string, op: EndpointOp, action: EngineAction) => {
    const permission = perms[action];
    if (permission) out.push({ method, url, op, action, permission });
  };
  if (ep.style === 'rest') {
    add('GET', `${ep.base}/${ep.actions?.list ?? 'list'}`, 'list', 'list');
    add('GET', `${ep.base}/:id`, 'info', 'query');
    add('POST', ep.base, 'create', 'add');
    add('PUT', ep.base, 'update', 'edit');
    add('DELETE', `${ep.base}/:ids`, 'remove', 'remove');
    add('POST', `${ep.base}/${ep.actions?.export ?? 'export'}`, 'export', 'export');
    add('POST', `${ep.base}/importData`, 'import', 'import');
    add('DELETE', `${ep.base}/clean`, 'clean', 'clean');
    return out;
  }
  const table: Array<[AppAction, EndpointOp, EngineAction]> = [
    ['list', 'list', 'list'],
    ['info', 'info', 'query'],
    ['save', 'save', 'add'],
    ['change', 'change', 'edit'],
    ['remove', 'remove', 'remove'],
    ['export', 'export', 'export'],
    ['importData', 'import', 'import'],
    ['clean', 'clean', 'clean'],
  ];
  for (const [action, op, perm] of table) {
    const name = ep.actions[action];
    if (name) add('POST', `${ep.base}/${name}`, op, perm);
  }
  return out;
}

/** Same route whatever its path parameters are called (`:tokenId` ≡ `:id`). */
export const sameRoute = (a: { method: string; url: string }, b: { method: string; url: string }) =>
  a.method === b.method && a.url.replace(/:[A-Za-z0-9_]+/g, ':_') === b.url.replace(/:[A-Za-z0-9_]+/g, ':_');

const MODULE_OP_TEXT: Record<EndpointOp, string> = {
  list: '列表',
  info: '详情',
  create: '新增',
  update: '修改',
  save: '保存',
  change: '修改',
  remove: '删除',
  export: '导出',
  template: '导入模板',
  import: '导入',
  clean: '清空',
};

type Json = Record<string, unknown>;

const toOpenApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function readVersion(): string {
  try {
    return (JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

function fieldSchema(f: Field): Json {
  const prop = f.prop;
  const copy: Json = { type: prop.type, title: prop.title };
  for (const key of [
    'description',
    'enum',
    'default',
    'format',
    'minLength',
    'maxLength',
    'minimum',
    'maximum',
    'pattern',
    'items',
    'readOnly',
    'writeOnly',
  ] as const) {
    if (prop[key] !== undefined) copy[key] = prop[key];
  }
  if (f.dict) copy['x-dict'] = f.dict;
  return copy;
}

/** The record as answered (no writeOnly), with the version and relation labels. */
function recordSchema(e: Entity): Json {
  const properties: Json = {};
  for (const f of e.fields) if (!f.writeOnly) properties[f.name] = fieldSchema(f);
  if (e.versioned) properties[VERSION] = { type: 'integer', title: VERSION_TITLE, readOnly: true };
  for (const f of e.fields) if (f.relation) properties[f.relation.as] = { type: ['string', 'null'], title: `${f.title}（显示名）`, readOnly: true };
  return { type: 'object', title: e.title, properties };
}

function inputSchema(e: Entity, mode: 'create' | 'update'): Json {
  const base = recordJsonSchema(e.schema, mode) as { properties: Json; required: string[] };
  const properties: Json = {};
  for (const [name, schema] of Object.entries(base.properties)) {
    const f = e.byName.get(name);
    const own = f ? fieldSchema(f) : (schema as Json);
    delete own.readOnly; // the primary key is sent on updates
    properties[name] = own;
  }
  return { type: 'object', title: `${e.title}（${mode === 'create' ? '新增' : '修改'}）`, properties, required: base.required };
}

function searchParameters(e: Entity): Json[] {
  const out: Json[] = [];
  for (const f of e.fields) {
    const s = { type: f.kind === 'integer' ? 'integer' : f.kind === 'number' ? 'number' : 'string' };
    if (f.search === 'eq' || f.search === 'like' || f.search === 'subtree') {
      const how = f.search === 'eq' ? '等于' : f.search === 'like' ? '包含' : '该节点及其全部下级';
      out.push({ name: f.name, in: 'query', required: false, description: `${f.title}（${how}）`, schema: s });
    } else if (f.search === 'range') {
      out.push({ name: `params[begin${capitalise(f.name)}]`, in: 'query', required: false, description: `${f.title} ≥`, schema: s });
      out.push({ name: `params[end${capitalise(f.name)}]`, in: 'query', required: false, description: `${f.title} ≤`, schema: s });
    } else if (f.search === 'dateRange') {
      const t = { type: 'string', examples: ['2026-01-01', '2026-01-01 08:00:00'] };
      out.push({ name: 'params[beginTime]', in: 'query', required: false, description: `${f.title}开始（UTC+8）`, schema: t });
      out.push({ name: 'params[endTime]', in: 'query', required: false, description: `${f.title}结束（含当天，UTC+8）`, schema: t });
    }
  }
  const sortable = e.fields.filter((f) => f.sortable).map((f) => f.name);
  if (sortable.length) {
    out.push({ name: 'orderByColumn', in: 'query', required: false, description: '排序列（只接受可排序的列）', schema: { type: 'string', enum: sortable } });
    out.push({ name: 'isAsc', in: 'query', required: false, description: '排序方向', schema: { type: 'string', enum: ['ascending', 'descending'] } });
  }
  return out;
}

const envelope = (data?: Json): Json => ({
  type: 'object',
  required: ['code', 'msg'],
  properties: { code: { type: 'integer' }, msg: { type: 'string' }, ...(data ? { data } : {}) },
});
const jsonAnswer = (schema: Json, description = '成功（code 200）或业务错误（code 400 / 403 / 500 …）') => ({
  200: { description, content: { 'application/json': { schema } } },
});
const xlsxAnswer = {
  200: {
    description: '.xlsx 文件；文件名在响应头 download-filename（URL 编码）',
    headers: { 'download-filename': { schema: { type: 'string' } } },
    content: { 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { schema: { type: 'string', contentEncoding: 'binary' } } },
  },
};

function entityOperation(e: Entity, d: EndpointDescriptor): Json {
  const name = e.id;
  const op: Json = {
    tags: [e.title],
    operationId: `${name}_${d.op}${d.method === 'POST' && d.op === 'template' ? '_post' : ''}`,
    'x-permission': d.permission,
    ...(e.sensitive ? { 'x-sensitive': true } : {}),
  };
  const pathParams = [...d.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    description: m[1].endsWith('s') && d.op === 'remove' ? `${e.pk.title}，多个用逗号分隔` : e.pk.title,
    schema: { type: 'string' },
  }));
  const jsonBody = (schema: Json) => ({ required: true, content: { 'application/json': { schema } } });
  switch (d.op) {
    case 'list':
      return {
        ...op,
        summary: `${e.title}列表`,
        description: e.tree
          ? '树形实体：不分页，返回全部匹配行（平铺，带父节点），rows 与 data 相同。'
          : `分页：pageNum（默认 1）、pageSize（默认 ${DEFAULT_PAGE_SIZE}，最大 ${MAX_PAGE_SIZE}）。`,
        parameters: [
          ...(e.tree
            ? []
            : [
                { name: 'pageNum', in: 'query', required: false, schema: { type: 'integer', minimum: 1, default: 1 } },
                { name: 'pageSize', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE } },
              ]),
          ...searchParameters(e),
        ],
        ...(d.method === 'POST' ? { requestBody: { required: false, content: { 'application/json': { schema: { type: 'object' } } } } } : {}),
        responses: jsonAnswer({
          type: 'object',
          properties: { code: { type: 'integer' }, msg: { type: 'string' }, rows: { type: 'array', items: ref(name) }, total: { type: 'integer' } },
        }),
      };
    case 'info':
      return {
        ...op,
        summary: `${e.title}详情`,
        parameters: pathParams,
        ...(d.method === 'POST' ? { requestBody: jsonBody({ type: 'object', properties: { [e.pk.name]: { type: 'integer' } } }) } : {}),
        responses: jsonAnswer(envelope(ref(name))),
      };
    case 'create':
      return { ...op, summary: `新增${e.title}`, requestBody: jsonBody(ref(`${name}_create`)), responses: jsonAnswer(envelope({ type: 'object' })) };
    case 'update':
    case 'change':
      return {
        ...op,
        summary: `修改${e.title}`,
        description: e.versioned ? '需要 version；版本过期时拒绝（数据已被他人修改，请刷新后重试），不做任何修改。' : undefined,
        requestBody: jsonBody(ref(`${name}_update`)),
        responses: jsonAnswer(envelope({ type: 'object' })),
      };
    case 'save':
      return {
        ...op,
        summary: `保存${e.title}（无主键新增，有主键修改）`,
        'x-permission-update': e.permissions.edit,
        requestBody: jsonBody({ oneOf: [ref(`${name}_create`), ref(`${name}_update`)] }),
        responses: jsonAnswer(envelope({ type: 'object' })),
      };
    case 'remove':
      return {
        ...op,
        summary: `删除${e.title}`,
        parameters: pathParams,
        ...(d.method === 'POST' ? { requestBody: jsonBody({ type: 'object', properties: { ids: { type: 'string' } } }) } : {}),
        responses: jsonAnswer(envelope()),
      };
    case 'export':
      return {
        ...op,
        summary: `导出${e.title}`,
        parameters: searchParameters(e).map((p) => ({ ...p, in: 'query' })),
        requestBody: {
          required: false,
          content: { 'application/x-www-form-urlencoded': { schema: { type: 'object' } }, 'application/json': { schema: { type: 'object' } } },
        },
        responses: xlsxAnswer,
      };
    case 'template':
      return { ...op, summary: `${e.title}导入模板`, responses: xlsxAnswer };
    case 'import':
      return {
        ...op,
        summary: `导入${e.title}`,
        description: '全部校验通过才在一个事务中写入；任何一行有错则不写入，code 500，data 为 [{row, field, message}]。',
        parameters: [{ name: 'updateSupport', in: 'query', required: false, schema: { type: 'string', enum: ['0', '1'] } }],
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                properties: { file: { type: 'string', contentEncoding: 'binary' }, updateSupport: { type: 'string' } },
                required: ['file'],
              },
            },
          },
        },
        responses: jsonAnswer(envelope()),
      };
    case 'clean':
      return { ...op, summary: `清空${e.title}`, responses: jsonAnswer(envelope()) };
  }
}

export function openApiDocument(entities: Entity[], registry: RegisteredRoute[]): Json {
  const paths: Record<string, Record<string, Json>> = {};
  const schemas: Json = {
    Envelope: envelope({}),
  };
  const documented = new Set<string>();
  for (const e of entities) {
    schemas[e.id] = recordSchema(e);
    schemas[`${e.id}_create`] = inputSchema(e, 'create');
    schemas[`${e.id}_update`] = inputSchema(e, 'update');
    for (const d of endpointsOf(e)) {
      const p = toOpenApiPath(d.url);
      paths[p] ??= {};
      paths[p][d.method.toLowerCase()] = entityOperation(e, d);
      documented.add(`${d.method} ${d.url}`);
    }
  }
  // A module's route that a module-served schema describes is documented under that schema (its record in components).
  const described = entities.filter((e) => e.moduleServed).flatMap((e) => moduleEndpointsOf(e).map((d) => ({ e, d })));
  for (const r of registry) {
    if (documented.has(`${r.method} ${r.url}`)) continue;
    const p = toOpenApiPath(r.url);
    const segments = r.url.split('/').filter(Boolean);
    const parameters = [...r.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
    const schemaOf = described.find((x) => sameRoute(x.d, r));
    paths[p] ??= {};
    paths[p][r.method.toLowerCase()] = {
      tags: [schemaOf ? schemaOf.e.title : segments.slice(0, 3).join('/')],
      summary: schemaOf ? `${schemaOf.e.title}${MODULE_OP_TEXT[schemaOf.d.op]}（模块接口，记录见 ${schemaOf.e.id}）` : `${r.method} ${r.url}`,
      ...(schemaOf ? { 'x-schema': schemaOf.e.id } : {}),
      operationId: `${r.method.toLowerCase()}_${segments.join('_').replace(/[^A-Za-z0-9_]/g, '')}`,
      'x-permission': r.permission,
      ...(r.sensitive ? { 'x-sensitive': true } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(r.permission === 'public' ? { security: [{ timer: [], authentication: [] }] } : {}),
      responses: jsonAnswer(ref('Envelope')),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: '志愿填报管理系统 API',
      version: readVersion(),
      description:
        '所有 /dev-api 与 /appv2 请求都要带 Timer 与 Authentication 协议头（docs/protocol.md）；除 x-permission 为 public 的接口外还要带 Authorization: Bearer <token>。' +
        '每个操作的 x-permission 是调用它需要的权限（login = 任何已登录用户）。',
    },
    servers: [{ url: '/' }],
    security: [{ timer: [], authentication: [], bearer: [] }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        timer: { type: 'apiKey', in: 'header', name: 'Timer' },
        authentication: { type: 'apiKey', in: 'header', name: 'Authentication' },
      },
      schemas,
    },
    paths,
  };
}
