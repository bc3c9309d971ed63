import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020, { type ErrorObject } from 'ajv/dist/2020.js';
import { ACTIONS, APP_ACTIONS, AUDIT_KINDS, type EntitySchema, LIST_RENDERS, type PropertySchema, SEARCH_OPS, UI_WIDGETS } from '../../common/engine/types.js';
import type { LoadedSchema } from './types.js';
import { createRecordAjv, fieldErrors, recordJsonSchema } from './validate.js';

/**
 * The meta-schema of schemas/*.json: JSON Schema 2020-12 for one record plus our `x-` extensions (docs/schemas.md).
 * `loadSchemas` checks every file against it, then checks what a meta-schema cannot say (cross references: the
 * primary key exists, a relation points at a loaded schema, …). Any problem stops the server start and
 * `npm run schema:check`; each message names the file and the field.
 */

/** Where the schema files live unless SCHEMAS_DIR / config.schemasDir says otherwise. */
export const DEFAULT_SCHEMAS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../schemas');

export const FORMATS = ['email', 'uri', 'url', 'date', 'date-time', 'mobile'] as const;
const SCALAR_TYPES = ['string', 'integer', 'number', 'boolean', 'array'];

const PERMISSION = { type: 'string', pattern: '^[A-Za-z]+(:[A-Za-z]+)+$' };
const NAME = { type: 'string', pattern: '^[a-z][A-Za-z0-9]*$' };
const SQL_NAME = { type: 'string', pattern: '^[a-z][a-z0-9_]*$' };
const closed = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', additionalProperties: false, required, properties });

/**
 * A schema-declared button: opens a URL (relative to the site, `{prop}` filled from the row), shows its QR code,
 * (`preview`) opens it with a short-lived draft-preview token the server signs for that row (server/content/preview.ts),
 * or (`call`) calls a module route — a workflow step whose state machine stays in the module (docs/schemas.md).
 */
const VALUE = { type: ['string', 'integer', 'number', 'boolean'] };
/** Row values a button depends on: property → the values it is shown for. */
const WHEN = { type: 'object', minProperties: 1, additionalProperties: { type: 'array', minItems: 1, items: VALUE } };
const DECLARED_ACTION = closed(
  {
    key: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_-]*$' },
    label: { type: 'string', minLength: 1 },
    kind: { enum: ['open', 'qrcode', 'preview', 'call'] },
    url: { type: 'string', pattern: '^(/|https?://)' },
    permission: PERMISSION,
    method: { enum: ['POST', 'PUT', 'DELETE'] },
    body: { type: 'object', additionalProperties: { type: ['string', 'integer', 'number', 'boolean', 'null'] } },
    when: WHEN,
    confirm: { type: 'string', minLength: 1 },
    comment: closed(
      {
        field: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_]*$' },
        title: { type: 'string', minLength: 1 },
        required: { type: 'boolean' },
        maxLength: { type: 'integer', minimum: 1 },
        placeholder: { type: 'string', minLength: 1 },
        okText: { type: 'string', minLength: 1 },
      },
      ['field', 'title'],
    ),
    danger: { type: 'boolean' },
    selection: { enum: ['single', 'multiple'] },
  },
  ['key', 'label', 'kind', 'url'],
);

/** Keys only a `call` action takes (an `open` / `qrcode` / `preview` button with one of them is a mistake). */
const CALL_KEYS = ['method', 'body', 'when', 'confirm', 'comment', 'danger', 'selection'] as const;

/** A dot path into an answer (`data.list`, `rows`). */
const DOT_PATH = { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*$' };
const PARAM_NAME = { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_]*$' };

const propertyMeta = closed(
  {
    type: { type: ['string', 'array'], items: { type: 'string' } },
    title: { type: 'string', minLength: 1 },
    description: { type: 'string' },
    $comment: { type: 'string' },
    readOnly: { type: 'boolean' },
    writeOnly: { type: 'boolean' },
    enum: { type: 'array', minItems: 1 },
    default: true,
    format: { enum: [...FORMATS] },
    minLength: { type: 'integer', minimum: 0 },
    maxLength: { type: 'integer', minimum: 1 },
    minimum: { type: 'number' },
    maximum: { type: 'number' },
    exclusiveMinimum: { type: 'number' },
    exclusiveMaximum: { type: 'number' },
    multipleOf: { type: 'number', exclusiveMinimum: 0 },
    pattern: { type: 'string', minLength: 1 },
    items: closed({ type: { enum: ['string', 'integer', 'number'] }, enum: { type: 'array', minItems: 1 }, maxLength: { type: 'integer', minimum: 1 } }, [
      'type',
    ]),
    minItems: { type: 'integer', minimum: 0 },
    maxItems: { type: 'integer', minimum: 1 },
    examples: { type: 'array', minItems: 1 },
    'x-list': closed({
      order: { type: 'integer' },
      width: { type: 'integer', minimum: 20, maximum: 2000 },
      fixed: { enum: ['left', 'right'] },
      render: { enum: [...LIST_RENDERS] },
      permission: PERMISSION,
    }),
    'x-search': closed({ op: { enum: [...SEARCH_OPS] }, title: { type: 'string', minLength: 1 }, permission: PERMISSION }, ['op']),
    'x-sortable': { type: 'boolean' },
    'x-dict': SQL_NAME,
    'x-relation': closed({ schema: { type: 'string', minLength: 1 }, label: NAME, key: NAME, as: NAME }, ['schema', 'label']),
    'x-ui': {
      type: 'object',
      properties: {
        widget: { enum: [...UI_WIDGETS] },
        hidden: { type: 'boolean' },
        placeholder: { type: 'string' },
        span: { type: 'integer', minimum: 1, maximum: 24 },
      },
    },
    'x-unique': { type: 'boolean' },
    'x-audit': { enum: [...AUDIT_KINDS] },
    'x-enumLabels': { type: 'object', minProperties: 1, additionalProperties: { type: 'string', minLength: 1 } },
    'x-enumColors': { type: 'object', minProperties: 1, additionalProperties: { type: 'string', pattern: '^[a-z]+$' } },
  },
  ['type', 'title'],
);

export const META_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://zhiyuan.example/meta/entity-schema.json',
  ...closed(
    {
      $schema: { const: 'https://json-schema.org/draft/2020-12/schema' },
      $id: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9_]*$' },
      $comment: { type: 'string' },
      title: { type: 'string', minLength: 1 },
      description: { type: 'string' },
      type: { const: 'object' },
      required: { type: 'array', items: { type: 'string' }, uniqueItems: true },
      properties: { type: 'object', minProperties: 1, propertyNames: { pattern: '^[a-z][A-Za-z0-9]*$' }, additionalProperties: propertyMeta },
      'x-table': SQL_NAME,
      'x-primaryKey': NAME,
      'x-endpoint': closed(
        {
          style: { enum: ['rest', 'app'] },
          base: { type: 'string', pattern: '^/(dev-api|appv2)(/[A-Za-z0-9_-]+)+$' },
          // A route name, or a path below base (账户余额's export: tableList/export).
          actions: closed(Object.fromEntries(APP_ACTIONS.map((a) => [a, { type: 'string', pattern: '^[A-Za-z0-9_]+(/[A-Za-z0-9_]+)*$' }]))),
          module: { type: 'boolean' },
          answer: closed({ rows: DOT_PATH, total: DOT_PATH }),
          paging: closed({ page: PARAM_NAME, size: PARAM_NAME }),
        },
        ['style', 'base'],
      ),
      'x-permissions': closed(Object.fromEntries(ACTIONS.map((a) => [a, PERMISSION]))),
      'x-item-title': { type: 'string', minLength: 1, maxLength: 20 },
      'x-menu': closed(
        {
          parent: { type: 'string', pattern: '^[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*$' },
          path: { type: 'string', pattern: '^[A-Za-z0-9_-]+$' },
          component: { type: 'string', pattern: '^[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*$' },
          title: { type: 'string', minLength: 1 },
          icon: { type: 'string' },
          order: { type: 'integer', minimum: 0 },
          perms: PERMISSION,
        },
        ['parent', 'path', 'component'],
      ),
      'x-form': closed({ mode: { enum: ['dialog', 'page'] }, width: { type: 'integer', minimum: 300, maximum: 3000 }, columns: { enum: [1, 2] } }),
      'x-sort': closed({ default: NAME, order: { enum: ['asc', 'desc'] } }, ['default', 'order']),
      'x-tree': closed(
        { parent: NAME, label: NAME, ancestors: NAME, childrenMessage: { type: 'string', minLength: 1 }, selfParentMessage: { type: 'string', minLength: 1 } },
        ['parent', 'label'],
      ),
      'x-sensitive': { type: 'boolean' },
      'x-version': { type: 'boolean' },
      'x-publish': closed({ status: NAME, published: { type: ['string', 'integer', 'boolean'] }, start: NAME, end: NAME }, ['status', 'published']),
      'x-public': closed(
        {
          name: { type: 'string', pattern: '^[a-zA-Z][A-Za-z0-9]*$' },
          fields: { type: 'array', items: NAME, minItems: 1 },
          limit: { type: 'integer', minimum: 1, maximum: 500 },
        },
        ['name'],
      ),
      'x-singleton': { type: 'boolean' },
      'x-owner': NAME,
      'x-dragSort': NAME,
      'x-rowActions': { type: 'array', items: DECLARED_ACTION },
      'x-toolbar': { type: 'array', items: DECLARED_ACTION },
      'x-filter': { type: 'object', minProperties: 1, additionalProperties: VALUE },
      'x-rowActionsInline': { type: 'boolean' },
      'x-rowWhen': closed({ edit: WHEN, remove: WHEN }),
      // url or from: exactly one, checked in semanticProblems (a clearer message than ajv's oneOf).
      'x-header': closed(
        {
          url: { type: 'string', pattern: '^/(dev-api|appv2)/' },
          from: { enum: ['list'] },
          method: { enum: ['GET', 'POST'] },
          params: { type: 'array', items: NAME, uniqueItems: true },
          figures: {
            type: 'array',
            minItems: 1,
            items: closed(
              { key: DOT_PATH, title: { type: 'string', minLength: 1 }, render: { enum: ['money', 'text', 'count'] }, tip: { type: 'string', minLength: 1 } },
              ['key', 'title'],
            ),
          },
        },
        ['figures'],
      ),
      'x-children': {
        type: 'array',
        minItems: 1,
        items: closed({ schema: { type: 'string', minLength: 1 }, foreignKey: NAME, title: { type: 'string' } }, ['schema', 'foreignKey']),
      },
      'x-softDelete': closed({ column: SQL_NAME, deleted: { type: 'string' }, active: { type: 'string' } }, ['column', 'deleted', 'active']),
      'x-referencedBy': {
        type: 'array',
        items: closed(
          { table: SQL_NAME, column: SQL_NAME, where: { type: 'string', pattern: "^[a-z_]+ (=|!=|<>) '[^']*'$" }, message: { type: 'string', minLength: 1 } },
          ['table', 'column', 'message'],
        ),
      },
      'x-seed': { type: 'array', items: { type: 'object' } },
    },
    ['$id', 'title', 'type', 'x-primaryKey', 'x-endpoint', 'x-permissions', 'properties'],
  ),
};

export interface SchemaProblem {
  file: string;
  field: string;
  message: string;
}

/** Thrown when schema files are wrong; `problems` lists every one, the message joins them one per line. */
export class SchemaError extends Error {
  constructor(public readonly problems: SchemaProblem[]) {
    super(problems.map(formatProblem).join('\n'));
    this.name = 'SchemaError';
  }
}

export const formatProblem = (p: SchemaProblem) => `${p.file}: ${p.field ? `${p.field} ` : ''}${p.message}`;

let metaValidator: ReturnType<Ajv2020['compile']> | undefined;
function meta() {
  if (!metaValidator) {
    const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
    metaValidator = ajv.compile(META_SCHEMA);
  }
  return metaValidator;
}

const dotted = (pointer: string) =>
  pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
const join = (a: string, b: string) => (a ? `${a}.${b}` : b);

/** One meta-schema error in Chinese, with the dotted path of the offending field. */
function metaProblem(file: string, e: ErrorObject): SchemaProblem | null {
  const at = dotted(e.instancePath);
  const p = e.params as Record<string, unknown>;
  if ((e as { propertyName?: string }).propertyName) return null; // reported once through 'propertyNames'
  switch (e.keyword) {
    case 'enum':
      return { file, field: at, message: `取值不合法（允许：${(p.allowedValues as unknown[]).join(', ')}）` };
    case 'const':
      return { file, field: at, message: `取值不合法（应为 ${JSON.stringify(p.allowedValue)}）` };
    case 'type':
      return { file, field: at, message: `类型不正确（应为 ${p.type}）` };
    case 'required':
      return { file, field: join(at, String(p.missingProperty)), message: '缺失（必填）' };
    case 'additionalProperties':
      return { file, field: join(at, String(p.additionalProperty)), message: '不是可识别的键（拼写错误？允许的键见 docs/schemas.md）' };
    case 'propertyNames':
      return { file, field: join(at, String(p.propertyName)), message: '属性名不合法（应为小驼峰：字母开头，只含字母和数字）' };
    case 'pattern':
      return { file, field: at, message: `格式不正确（应匹配 ${p.pattern}）` };
    case 'minLength':
      return { file, field: at, message: '不能为空' };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
      return { file, field: at, message: `取值超出范围（${p.comparison} ${p.limit}）` };
    case 'minItems':
    case 'minProperties':
      return { file, field: at, message: `至少需要 ${p.limit} 项` };
    case 'uniqueItems':
      return { file, field: at, message: '不能有重复项' };
    default:
      return { file, field: at, message: e.message ?? '不符合要求' };
  }
}

/** Non-null column types of a property: ['string'] for "string" or ["string","null"]. */
export function baseTypes(prop: PropertySchema): { types: string[]; nullable: boolean } {
  const all = Array.isArray(prop.type) ? prop.type : [prop.type];
  return { types: all.filter((t) => t !== 'null'), nullable: all.includes('null') };
}

const isTimeField = (prop: PropertySchema) =>
  prop['x-audit'] === 'createTime' ||
  prop['x-audit'] === 'updateTime' ||
  prop['x-search']?.op === 'dateRange' ||
  prop['x-list']?.render === 'date' ||
  prop['x-list']?.render === 'datetime';

/** Cross-reference checks the meta-schema cannot express. `all` holds every schema of the set (for relations). */
function semanticProblems(file: string, s: EntitySchema, all: Map<string, EntitySchema>): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  const add = (field: string, message: string) => out.push({ file, field, message });
  const props = s.properties;
  const expectedId = path.basename(file, '.json');
  if (s.$id !== expectedId) add('$id', `应与文件名一致（${expectedId}）`);

  const served = isModuleServed(s);
  const pk = props[s['x-primaryKey']];
  if (!pk) add('x-primaryKey', `指向不存在的属性 ${s['x-primaryKey']}`);
  else {
    // A module's rows may be keyed by text (在线用户: the session's token id); the engine's own tables auto-increment.
    if (served ? !['integer', 'string'].includes(baseTypes(pk).types[0] ?? '') : pk.type !== 'integer')
      add(`properties.${s['x-primaryKey']}.type`, served ? '主键必须是 integer 或 string' : '主键必须是 integer（自增）');
    if (!pk.readOnly) add(`properties.${s['x-primaryKey']}.readOnly`, '主键必须是 readOnly（由服务端生成）');
  }
  if (!served && !s['x-table']) add('x-table', '缺失（必填；只有 x-endpoint.module 的 schema 可以不写）');
  const ep0 = s['x-endpoint'];
  const perms0 = s['x-permissions'];
  if (!served)
    for (const key of ['answer', 'paging'] as const) if (ep0[key]) add(`x-endpoint.${key}`, '只适用于模块提供接口的 schema（x-endpoint.module: true）');
  if (served) {
    // What only the engine's own routes and tables do: a module-served schema cannot promise it.
    for (const key of ['x-seed', 'x-softDelete', 'x-referencedBy', 'x-publish', 'x-public', 'x-owner', 'x-dragSort'] as const)
      if (s[key] !== undefined) add(key, '模块提供接口的 schema（x-endpoint.module）不支持此键：它只由引擎自己的接口和表实现');
  }
  for (const [name, value] of Object.entries(s['x-filter'] ?? {})) {
    const prop = props[name];
    // A module's route may take parameters that are no column (提交工单: mine=1): sent as they are.
    if (!prop) {
      if (!served) add(`x-filter.${name}`, `指向不存在的属性 ${name}`);
    } else {
      const t = baseTypes(prop).types[0];
      const fits =
        t === 'integer'
          ? Number.isInteger(value)
          : t === 'number'
            ? typeof value === 'number'
            : t === 'boolean'
              ? typeof value === 'boolean'
              : typeof value === 'string';
      if (!fits) add(`x-filter.${name}`, `取值 ${JSON.stringify(value)} 与类型 ${t} 不符`);
    }
  }
  for (const [action, when] of Object.entries(s['x-rowWhen'] ?? {})) {
    if (!perms0[action as 'edit' | 'remove']) add(`x-rowWhen.${action}`, `没有声明 x-permissions.${action}`);
    for (const name of Object.keys(when ?? {})) if (!served && !props[name]) add(`x-rowWhen.${action}.${name}`, `指向不存在的属性 ${name}`);
  }
  const header = s['x-header'];
  if (header) {
    if (header.url === undefined && header.from === undefined) add('x-header', '需要 url（图表数据的接口）或 from: "list"（取自列表的应答），二者必选其一');
    else if (header.url !== undefined && header.from !== undefined) add('x-header', 'url 与 from 只能写一个');
    // from: "list" reads the list's own answer, which already carries every applied search value.
    else if (header.from !== undefined) for (const key of ['method', 'params'] as const) if (header[key] !== undefined) add(`x-header.${key}`, '只适用于 url');
    for (const name of header.params ?? []) if (!props[name]) add('x-header.params', `指向不存在的属性 ${name}`);
  }
  for (const list of ['x-rowActions', 'x-toolbar'] as const) {
    for (const [i, a] of (s[list] ?? []).entries()) {
      const at = `${list}.${i}`;
      if (a.kind !== 'call') {
        for (const key of CALL_KEYS) if (a[key] !== undefined) add(`${at}.${key}`, '只适用于 kind: "call"');
        continue;
      }
      if (!/^\/(dev-api|appv2)\//.test(a.url)) add(`${at}.url`, 'call 的地址必须以 /dev-api/ 或 /appv2/ 开头');
      if (list === 'x-rowActions' && a.selection) add(`${at}.selection`, '只适用于 x-toolbar');
      if (list === 'x-toolbar' && a.when) add(`${at}.when`, '只适用于 x-rowActions（按行的取值显示）');
      for (const name of Object.keys(a.when ?? {})) if (!served && !props[name]) add(`${at}.when.${name}`, `指向不存在的属性 ${name}`);
      if (a.comment && a.body && a.comment.field in a.body) add(`${at}.comment.field`, `与 body 的键 ${a.comment.field} 重复`);
      const names = [...JSON.stringify(a.body ?? {}).matchAll(/\{([A-Za-z][A-Za-z0-9]*)\}/g), ...(a.confirm ?? '').matchAll(/\{([A-Za-z][A-Za-z0-9]*)\}/g)].map(
        (m) => m[1],
      );
      for (const name of names) {
        if (name === 'ids' && list === 'x-toolbar') {
          if (!a.selection) add(`${at}.selection`, '使用 {ids} 需要 selection');
        } else if (list === 'x-toolbar') add(`${at}.body`, `工具栏按钮没有行数据，不能引用 {${name}}（可用 {ids}）`);
        else if (!served && !props[name] && name !== 'version') add(`${at}.body`, `{${name}} 指向不存在的属性`);
      }
    }
  }
  const owner = s['x-owner'];
  if (owner !== undefined) {
    const prop = props[owner];
    if (!prop) add('x-owner', `指向不存在的属性 ${owner}`);
    else if (baseTypes(prop).types[0] !== 'integer' || !prop.readOnly) add('x-owner', `${owner} 必须是 readOnly 的 integer 属性（由服务端填写为当前用户编号）`);
    // Imports update rows by their unique keys and 清空 deletes every row: neither asks whose rows they are.
    for (const action of ['import', 'clean'] as const) if (s['x-permissions']?.[action]) add(`x-permissions.${action}`, '有 x-owner 的实体不支持导入和清空');
  }
  if (s['x-version'] !== false && props.version) add('properties.version', 'version 是保留字段（乐观锁）；如需自定义请设置 x-version: false');
  for (const [i, r] of (s.required ?? []).entries()) {
    if (!props[r]) add(`required.${i}`, `指向不存在的属性 ${r}`);
    else if (props[r].readOnly) add(`required.${i}`, `${r} 是 readOnly，不能是必填项`);
  }

  let dateRanges = 0;
  for (const [name, prop] of Object.entries(props)) {
    const at = `properties.${name}`;
    const { types } = baseTypes(prop);
    const typeList = Array.isArray(prop.type) ? prop.type : [prop.type];
    if (typeList.some((t) => !SCALAR_TYPES.includes(t) && t !== 'null')) add(`${at}.type`, `取值不合法（允许：${SCALAR_TYPES.join(', ')}，可加 null）`);
    else if (types.length !== 1) add(`${at}.type`, '必须恰好有一个非 null 类型');
    const type = types[0];
    if (type === 'array' && !prop.items) add(`${at}.items`, 'array 类型需要 items');
    if (prop.readOnly && prop.writeOnly) add(at, 'readOnly 与 writeOnly 不能同时为 true');
    if (prop.enum) {
      for (const v of prop.enum) {
        const ok =
          v === null ? typeList.includes('null') : type === 'integer' ? Number.isInteger(v) : type === 'number' ? typeof v === 'number' : typeof v === type;
        if (!ok) add(`${at}.enum`, `枚举值 ${JSON.stringify(v)} 与类型 ${type} 不符`);
      }
    }
    if (prop.pattern) {
      try {
        new RegExp(prop.pattern, 'u');
      } catch {
        add(`${at}.pattern`, '不是合法的正则表达式');
      }
    }
    const audit = prop['x-audit'];
    if (audit) {
      const want = audit.endsWith('Time') ? 'integer' : 'string';
      if (type !== want) add(`${at}.x-audit`, `${audit} 需要 ${want} 类型`);
      if (!prop.readOnly) add(`${at}.readOnly`, '审计字段由服务端填写，必须是 readOnly');
    }
    const op = prop['x-search']?.op;
    if (op === 'like' && type !== 'string') add(`${at}.x-search.op`, 'like 只适用于 string');
    if (op === 'range' && type !== 'integer' && type !== 'number') add(`${at}.x-search.op`, 'range 只适用于 integer / number');
    if (op === 'dateRange') {
      dateRanges++;
      if (type !== 'integer') add(`${at}.x-search.op`, 'dateRange 只适用于 integer（毫秒时间戳）');
    }
    if (op && type === 'array') add(`${at}.x-search`, 'array 字段不能搜索');
    if (prop['x-sortable'] && type === 'array') add(`${at}.x-sortable`, 'array 字段不能排序');
    for (const key of ['x-enumLabels', 'x-enumColors'] as const) {
      if (!prop[key]) continue;
      if (!prop.enum) add(`${at}.${key}`, '需要 enum');
      else for (const v of Object.keys(prop[key] ?? {})) if (!prop.enum.some((e) => String(e) === v)) add(`${at}.${key}.${v}`, `${v} 不在 enum 中`);
    }
    if (prop['x-list']?.render === 'dict' && !prop['x-dict']) add(`${at}.x-list.render`, 'render: dict 需要 x-dict');
    if (prop['x-unique'] && type !== 'string' && type !== 'integer') add(`${at}.x-unique`, '只适用于 string / integer');
    if ((prop['x-list']?.render === 'date' || prop['x-list']?.render === 'datetime') && type !== 'integer') {
      add(`${at}.x-list.render`, `${prop['x-list']?.render} 需要 integer（毫秒时间戳）`);
    }
    if (isTimeField(prop) && type !== 'integer') add(`${at}.type`, '时间字段必须是 integer（毫秒时间戳）');
    const rel = prop['x-relation'];
    if (rel) {
      const target = all.get(rel.schema);
      if (!target) add(`${at}.x-relation.schema`, `指向不存在的 schema ${rel.schema}`);
      else {
        if (!target.properties[rel.label]) add(`${at}.x-relation.label`, `${rel.schema} 没有属性 ${rel.label}`);
        const key = rel.key ?? target['x-primaryKey'];
        if (!target.properties[key]) add(`${at}.x-relation.key`, `${rel.schema} 没有属性 ${key}`);
        const as = rel.as ?? rel.label;
        if (as !== name && props[as] && !rel.as) add(`${at}.x-relation`, `关联显示字段 ${as} 与本 schema 的属性同名，请用 as 另起名字`);
        else if (rel.as && props[rel.as]) add(`${at}.x-relation.as`, `${rel.as} 与本 schema 的属性同名`);
        if (op === 'subtree' && (!target['x-tree']?.ancestors || key !== target['x-primaryKey'])) {
          add(`${at}.x-search.op`, `subtree 需要关联到带 x-tree.ancestors 的树形 schema 的主键（${rel.schema} 不满足）`);
        }
      }
    }
    // The engine joins a relation's table into its own lists: only a module's list (which answers the label itself) may point at a module-served schema.
    if (!served && rel && all.get(rel.schema) && isModuleServed(all.get(rel.schema) as EntitySchema))
      add(`${at}.x-relation.schema`, `${rel.schema} 由模块提供接口（没有引擎的表），不能作为关联目标`);
    if (op === 'subtree' && !rel) add(`${at}.x-search.op`, 'subtree 只适用于 x-relation 字段（关联到树形 schema）');
  }
  if (dateRanges > 1) add('properties', '最多一个 dateRange 搜索字段（它固定使用 params[beginTime] / params[endTime]）');

  const sort = s['x-sort'];
  if (sort && !props[sort.default]) add('x-sort.default', `指向不存在的属性 ${sort.default}`);
  const tree = s['x-tree'];
  if (tree) {
    for (const key of ['parent', 'label', 'ancestors'] as const) {
      const name = tree[key];
      if (name && !props[name]) add(`x-tree.${key}`, `指向不存在的属性 ${name}`);
    }
    if (props[tree.parent] && baseTypes(props[tree.parent]).types[0] !== 'integer') add('x-tree.parent', '父节点字段必须是 integer');
    if (tree.ancestors && props[tree.ancestors] && !props[tree.ancestors].readOnly) add('x-tree.ancestors', '祖级列表由服务端维护，必须是 readOnly');
  }

  const ep = s['x-endpoint'];
  const perms = s['x-permissions'];
  if (ep.style === 'app') {
    const actions = ep.actions ?? {};
    if (!ep.actions) add('x-endpoint.actions', 'app 风格需要 actions');
    const need: Array<[keyof typeof perms, keyof typeof actions]> = [
      ['list', 'list'],
      ['query', 'info'],
      ['add', 'save'],
      ['remove', 'remove'],
    ];
    for (const [perm, action] of need)
      if (perms[perm] && !actions[action]) add(`x-endpoint.actions.${action}`, `声明了 ${perm} 权限，需要对应的 ${action} 动作名`);
    for (const action of Object.keys(actions) as Array<keyof typeof actions>) {
      const perm = APP_ACTION_PERMISSION[action];
      if (!perms[perm]) add(`x-endpoint.actions.${action}`, `动作 ${action} 需要 x-permissions.${perm}`);
    }
  } else if ('actions' in ep && ep.actions) {
    // A module's rest list (or export) may live at another path: GET {base}/{actions.list} (学生志愿 /api/index/subscriber).
    const names = Object.keys(ep.actions as object);
    if (!served) add('x-endpoint.actions', '只有 app 风格使用 actions（模块提供接口的 rest 风格可用 actions.list / actions.export 改路径）');
    else for (const name of names) if (name !== 'list' && name !== 'export') add(`x-endpoint.actions.${name}`, 'rest 风格只能改 list / export 的路径');
  }
  if (perms.clean && !perms.list) add('x-permissions.clean', 'clean 需要同时声明 list');

  if (s['x-softDelete'] && props[camel(s['x-softDelete'].column)]) add('x-softDelete.column', '软删除列不能同时是属性');
  const pub = s['x-publish'];
  if (pub) {
    if (!props[pub.status]) add('x-publish.status', `指向不存在的属性 ${pub.status}`);
    for (const key of ['start', 'end'] as const) {
      const name = pub[key];
      if (name && (!props[name] || baseTypes(props[name]).types[0] !== 'integer')) add(`x-publish.${key}`, `${name} 必须是 integer（毫秒时间戳）属性`);
    }
  }
  for (const name of s['x-public']?.fields ?? []) if (!props[name]) add('x-public.fields', `指向不存在的属性 ${name}`);
  if (s['x-public'] && !pub) add('x-public', '公开接口需要 x-publish（只公开已发布的行）');
  const drag = s['x-dragSort'];
  if (drag && (!props[drag] || baseTypes(props[drag]).types[0] !== 'integer')) add('x-dragSort', `${drag} 必须是 integer 属性`);
  if (drag && !perms.edit) add('x-dragSort', '拖动排序需要 x-permissions.edit');
  for (const [i, c] of (s['x-children'] ?? []).entries()) {
    const child = all.get(c.schema);
    if (!child) add(`x-children.${i}.schema`, `指向不存在的 schema ${c.schema}`);
    else if (!child.properties[c.foreignKey]) add(`x-children.${i}.foreignKey`, `${c.schema} 没有属性 ${c.foreignKey}`);
    else if (child.properties[c.foreignKey]['x-search']?.op !== 'eq')
      add(`x-children.${i}.foreignKey`, `${c.schema}.${c.foreignKey} 需要 x-search: { op: "eq" }`);
  }
  return out;
}

/** A module-served schema (x-endpoint.module): the module registers its routes; the engine registers none, syncs no table. */
export const isModuleServed = (s: Pick<EntitySchema, 'x-endpoint'>) => s['x-endpoint'].module === true;

/** Which x-permissions entry guards each app-style action. */
export const APP_ACTION_PERMISSION = {
  list: 'list',
  info: 'query',
  save: 'add',
  remove: 'remove',
  change: 'edit',
  export: 'export',
  importTemplate: 'import',
  importData: 'import',
  clean: 'clean',
  reorder: 'edit',
} as const;

const camel = (snake: string) => snake.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The file's name as shown in messages: relative to the working directory when inside it. */
function displayName(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : file;
}

/**
 * The schema files of a folder: `<dir>/*.json` and one level of module folders `<dir>/<module>/*.json`
 * (notes/module-layout.md), in path order. The entity name is the file name either way.
 */
export function schemaFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.json')) out.push(path.join(dir, entry.name));
    else if (entry.isDirectory() && !entry.name.startsWith('.')) {
      for (const f of fs.readdirSync(path.join(dir, entry.name))) if (f.endsWith('.json')) out.push(path.join(dir, entry.name, f));
    }
  }
  return out.sort();
}

/** What must be unique across schemas: a rest base, or each `base/action` of an app-style schema. */
function endpointKeys(schema: EntitySchema): string[] {
  const ep = schema['x-endpoint'];
  if (ep.style !== 'app') return [ep.base];
  return Object.values(ep.actions ?? {}).map((a) => `${ep.base}/${a}`);
}

/** Checks every schema file of a folder; returns the schemas and every problem found (none → all good). */
export function checkSchemas(dir: string = DEFAULT_SCHEMAS_DIR): { schemas: LoadedSchema[]; problems: SchemaProblem[] } {
  const problems: SchemaProblem[] = [];
  if (!fs.existsSync(dir)) return { schemas: [], problems: [{ file: displayName(dir), field: '', message: 'schema 目录不存在' }] };
  const parsed: LoadedSchema[] = [];
  for (const full of schemaFiles(dir)) {
    const file = displayName(full);
    let data: unknown;
    try {
      data = JSON.parse(fs.readFileSync(full, 'utf8'));
    } catch (err) {
      problems.push({ file, field: '', message: `不是合法的 JSON：${(err as Error).message}` });
      continue;
    }
    const validate = meta();
    if (!validate(data)) {
      for (const e of validate.errors ?? []) {
        const p = metaProblem(file, e);
        if (p && !problems.some((q) => q.file === p.file && q.field === p.field && q.message === p.message)) problems.push(p);
      }
      continue;
    }
    parsed.push({ file, schema: data as EntitySchema });
  }

  const byId = new Map(parsed.map((l) => [l.schema.$id, l.schema]));
  const seen = { table: new Map<string, string>(), base: new Map<string, string>() };
  for (const { file, schema } of parsed) {
    const before = problems.length;
    problems.push(...semanticProblems(file, schema, byId));
    const table = schema['x-table'];
    // Module-served schemas register nothing and make no table: several may document one table or call one route
    // (用户列表 / 回收站 with their x-filter); only the engine's own tables and routes must be unique.
    const served = isModuleServed(schema);
    if (!served && table) {
      if (seen.table.has(table)) problems.push({ file, field: 'x-table', message: `与 ${seen.table.get(table)} 重复` });
      else seen.table.set(table, file);
    }
    // App-style schemas may share a base (spec §7.7: ManagerClassroom/list, /classTypeList, /videoList are three
    // entities) as long as their action paths differ; a rest base is the whole route family, so it must be unique.
    for (const base of served ? [] : endpointKeys(schema)) {
      if (seen.base.has(base)) problems.push({ file, field: 'x-endpoint.base', message: `与 ${seen.base.get(base)} 重复` });
      else seen.base.set(base, file);
    }
    if (problems.length > before) continue;
    // The record schema itself must compile (standard JSON Schema keywords), and seed rows must pass it.
    try {
      const ajv = createRecordAjv();
      const validate = ajv.compile(recordJsonSchema(schema, 'seed'));
      for (const [i, row] of (schema['x-seed'] ?? []).entries()) {
        for (const key of Object.keys(row)) if (!schema.properties[key]) problems.push({ file, field: `x-seed.${i}.${key}`, message: '不是本 schema 的属性' });
        if (!validate(structuredClone(row))) {
          for (const e of fieldErrors(schema, validate.errors)) problems.push({ file, field: `x-seed.${i}.${e.property}`, message: e.message });
        }
      }
    } catch (err) {
      problems.push({ file, field: 'properties', message: `不是合法的 JSON Schema：${(err as Error).message}` });
    }
  }
  return { schemas: parsed, problems };
}

/**
 * The last good load of each folder, keyed by its files' names, sizes and times: a start reads the schemas twice (the
 * seeded menu, server/db/seed/schemaMenus.ts, then the engine), and checking them compiles a validator per schema
 * (about a second), so the second read reuses the first unless a file changed. Callers get their own copy.
 */
const loaded = new Map<string, { key: string; schemas: LoadedSchema[] }>();
const folderKey = (dir: string) =>
  schemaFiles(dir)
    .map((f) => {
      const st = fs.statSync(f);
      return `${f}:${st.size}:${st.mtimeMs}`;
    })
    .join('\n');

/** Loads and checks every schema of a folder; throws a SchemaError naming file and field when anything is wrong. */
export function loadSchemas(dir: string = DEFAULT_SCHEMAS_DIR): LoadedSchema[] {
  const key = fs.existsSync(dir) ? folderKey(dir) : '';
  const kept = loaded.get(dir);
  if (key && kept?.key === key) return structuredClone(kept.schemas);
  const { schemas, problems } = checkSchemas(dir);
  if (problems.length) throw new SchemaError(problems);
  if (key) loaded.set(dir, { key, schemas: structuredClone(schemas) });
  return schemas;
}
