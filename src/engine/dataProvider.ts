import { type AppEndpoint, type EntitySchema, type RestEndpoint, VERSION_FIELD } from '@common/engine/types';
import type { Envelope } from '@common/http/envelope';
import type { BaseKey, BaseRecord, CrudFilter, CrudSort, DataProvider, MetaQuery, Pagination } from '@refinedev/core';
import dayjs from 'dayjs';
import { RequestError, readAhead, request } from '@/api/request';
import { baseType } from './resource';

/**
 * The one Refine data provider of the schema engine (docs/schemas.md "Endpoints"). Every call goes through the signed
 * http client, so §8 code handling (toasts, session expiry, decryption of code-20000 answers) applies unchanged.
 *
 * rest (RuoYi):  getList GET {base}/list · getOne GET {base}/{id} · create POST {base} · update PUT {base}
 *                deleteOne / deleteMany DELETE {base}/{id1,id2}
 * app:           the same bodies as POST {base}/{actions.list | info | save | remove}
 *
 * getList: pagination → pageNum / pageSize (default 20); the first sorter on an x-sortable property → orderByColumn /
 * isAsc (asc | desc); filters only on properties that declare x-search, by the declared op — like / eq send the value
 * as is, dateRange sends params[beginTime] / params[endTime] (YYYY-MM-DD), range sends params[beginX] / params[endX].
 * update sends the primary key and `version` (optimistic lock).
 */

export type SchemaLookup = (resource: string) => EntitySchema | undefined;

export const DEFAULT_PAGE_SIZE = 20;

function schemaOf(lookup: SchemaLookup, resource: string, meta?: MetaQuery): EntitySchema {
  const schema = lookup(resource) ?? (meta?.schema as EntitySchema | undefined);
  if (!schema) throw new RequestError(`未知的资源：${resource}`, 0);
  return schema;
}

const empty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** A date-ish search value as RuoYi sends it: 'YYYY-MM-DD' (strings pass through). */
function dayText(v: unknown): unknown {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v === 'string') return v;
  if (dayjs.isDayjs(v) || v instanceof Date || typeof v === 'number') return dayjs(v as Date).format('YYYY-MM-DD');
  return v;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The list query of one getList call (also what 导出 posts). */
export function listQuery(
  schema: EntitySchema,
  { pagination, sorters, filters }: { pagination?: Pagination; sorters?: CrudSort[]; filters?: CrudFilter[] },
): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  const params: Record<string, unknown> = {};
  const preset = schema['x-filter'] ?? {};
  if (pagination?.mode !== 'off' && pagination?.mode !== 'client') {
    // A module's route may name its paging otherwise (x-endpoint.paging, e.g. page / limit).
    const names = schema['x-endpoint'].paging ?? {};
    query[names.page ?? 'pageNum'] = pagination?.currentPage ?? 1;
    query[names.size ?? 'pageSize'] = pagination?.pageSize ?? DEFAULT_PAGE_SIZE;
  }
  const sorter = sorters?.find((s) => schema.properties[s.field]?.['x-sortable']);
  if (sorter) {
    query.orderByColumn = sorter.field;
    query.isAsc = sorter.order === 'asc' ? 'asc' : 'desc';
  }
  for (const filter of filters ?? []) {
    if (!('field' in filter) || filter.field in preset) continue;
    const op = schema.properties[filter.field]?.['x-search']?.op;
    if (!op || empty(filter.value)) continue;
    const value = filter.value as unknown;
    if (op === 'like' || op === 'eq' || op === 'subtree') {
      query[filter.field] = typeof value === 'string' ? value.trim() : value;
      if (query[filter.field] === '') delete query[filter.field];
      continue;
    }
    // Ranges: [from, to] (either may be empty), or gte / lte filters carrying one end each.
    const pair: unknown[] = Array.isArray(value) ? value : filter.operator === 'lte' || filter.operator === 'lt' ? [undefined, value] : [value, undefined];
    const [from, to] = op === 'dateRange' ? pair.map(dayText) : pair;
    const begin = op === 'dateRange' ? 'beginTime' : `begin${capitalise(filter.field)}`;
    const end = op === 'dateRange' ? 'endTime' : `end${capitalise(filter.field)}`;
    if (!empty(from)) params[begin] = from;
    if (!empty(to)) params[end] = to;
  }
  if (Object.keys(params).length > 0) query.params = params;
  // x-filter: the resource's preset rows, sent with every list and export call (the search form never shows them).
  Object.assign(query, preset);
  return query;
}

/** The writable properties of a record (no readOnly ones, nothing the schema does not declare). */
export function writableBody(schema: EntitySchema, values: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(schema.properties)) {
    if (prop.readOnly) continue;
    if (name in values && values[name] !== undefined) body[name] = values[name];
  }
  return body;
}

/** The body of an update: writable properties, the primary key, and `version` unless x-version is false. */
export function updateBody(schema: EntitySchema, id: BaseKey, values: Record<string, unknown>, meta?: MetaQuery): Record<string, unknown> {
  const body = writableBody(schema, values);
  const pk = schema['x-primaryKey'];
  body[pk] = baseType(schema.properties[pk] ?? {}) === 'integer' && /^\d+$/.test(String(id)) ? Number(id) : id;
  if (schema['x-version'] !== false) body[VERSION_FIELD] = values[VERSION_FIELD] ?? meta?.[VERSION_FIELD];
  return body;
}

/**
 * Keys a server hook reads beyond the schema's properties (e.g. a role's `menuIds`, server/system/roleHooks.ts):
 * create / update pass `meta.extraBody` through unchanged.
 */
function extraBody(meta?: MetaQuery): Record<string, unknown> {
  const extra = meta?.extraBody;
  return extra && typeof extra === 'object' && !Array.isArray(extra) ? (extra as Record<string, unknown>) : {};
}

/** Records get an `id` alias of their primary key (Refine keys rows and caches by it). */
function withId(schema: EntitySchema, record: unknown): BaseRecord {
  const r = (record ?? {}) as BaseRecord;
  const pk = schema['x-primaryKey'];
  return r.id === undefined && r[pk] !== undefined ? { ...r, id: r[pk] } : r;
}

/** The value at a dot path ('data.list') of an answer. */
export function atPath(value: unknown, path: string): unknown {
  let v = value;
  for (const part of path.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined;
  return v;
}

/** Rows with nested `children` arrays → the flat rows (each without `children`), parents before their children. */
export function flattenTree(rows: unknown[]): unknown[] {
  const out: unknown[] = [];
  const walk = (list: unknown[]) => {
    for (const r of list) {
      if (!r || typeof r !== 'object' || !('children' in r)) {
        out.push(r);
        continue;
      }
      const { children, ...row } = r as Record<string, unknown>;
      out.push(row);
      if (Array.isArray(children)) walk(children);
    }
  };
  walk(rows);
  return out;
}

function rowsOf(env: Envelope, schema?: EntitySchema): { rows: unknown[]; total: number } {
  const answer = schema?.['x-endpoint'].answer;
  if (answer) {
    // A module's answer in another shape (x-endpoint.answer: dot paths, default rows / total).
    const found = atPath(env, answer.rows ?? 'rows');
    const rows = Array.isArray(found) ? found : [];
    const total = Number(atPath(env, answer.total ?? 'total') ?? rows.length);
    return { rows, total: Number.isFinite(total) ? total : rows.length };
  }
  if (Array.isArray(env.rows)) return { rows: env.rows, total: Number(env.total ?? env.rows.length) };
  if (Array.isArray(env.data)) return { rows: env.data, total: Number(env.total ?? env.data.length) };
  const inner = env.data as { rows?: unknown[]; list?: unknown[]; total?: number } | undefined;
  const rows = inner?.rows ?? inner?.list ?? [];
  return { rows, total: Number(inner?.total ?? env.total ?? rows.length) };
}

function appUrl(schema: EntitySchema, action: keyof AppEndpoint['actions']): string {
  const endpoint = schema['x-endpoint'] as AppEndpoint;
  const name = endpoint.actions?.[action];
  if (!name) throw new RequestError(`${schema.title}不支持此操作`, 0);
  return `${endpoint.base}/${name}`;
}

const isApp = (schema: EntitySchema) => schema['x-endpoint'].style === 'app';

/**
 * Where the file and bulk actions live: rest {base}/export | importTemplate | importData | clean (clean is a DELETE,
 * importTemplate a GET), app POST {base}/{actions.<name>}.
 */
export function actionEndpoint(
  schema: EntitySchema,
  action: 'export' | 'importTemplate' | 'importData' | 'clean',
): { url: string; method: 'get' | 'post' | 'delete' } {
  if (isApp(schema)) return { url: appUrl(schema, action), method: 'post' };
  const ep = schema['x-endpoint'] as RestEndpoint;
  const url = `${ep.base}/${(action === 'export' && ep.actions?.export) || action}`;
  return { url, method: action === 'clean' ? 'delete' : action === 'importTemplate' ? 'get' : 'post' };
}

/** The http call of one getList. */
function listRequest(schema: EntitySchema, args: Parameters<typeof listQuery>[1]) {
  const query = listQuery(schema, args);
  // A list only reads, whatever the module named its route (MoneyWallet/rechargeLog): never refused as a repeat.
  return isApp(schema)
    ? { url: appUrl(schema, 'list'), method: 'post' as const, data: query, options: { read: true } }
    : { url: `${schema['x-endpoint'].base}/${(schema['x-endpoint'] as RestEndpoint).actions?.list ?? 'list'}`, method: 'get' as const, params: query };
}

/**
 * Reads a list page ahead of its getList call with the same arguments (request.ts readAhead): a list page starts it
 * while it renders, and getList, called once the page is on screen, takes the answer instead of asking then.
 */
export function readListAhead(schema: EntitySchema, { pagination, sorters, filters }: Parameters<typeof listQuery>[1]): void {
  readAhead(listRequest(schema, { pagination: schema['x-tree'] ? { mode: 'off' } : pagination, sorters, filters }));
}

/** The data provider over a schema lookup (the registry of src/resources/ in the app, any list of schemas in tests). */
export function createDataProvider(lookup: SchemaLookup): DataProvider {
  return {
    getApiUrl: () => '',

    async getList({ resource, pagination, sorters, filters, meta }) {
      const schema = schemaOf(lookup, resource, meta);
      const tree = Boolean(schema['x-tree']);
      const env = await request(listRequest(schema, { pagination: tree ? { mode: 'off' } : pagination, sorters, filters }));
      const found = rowsOf(env, schema);
      // A tree answered nested (a module's menu tree: children arrays) is flattened; the list rebuilds it by parent.
      const rows = tree ? flattenTree(found.rows) : found.rows;
      const total = tree && rows.length !== found.rows.length ? rows.length : found.total;
      // x-header from "list": the figures are read from this answer (e.g. `counts`, `wallet` beside rows / total).
      const answer = schema['x-header']?.from === 'list' ? { answer: env } : {};
      return { data: rows.map((r) => withId(schema, r)) as never[], total, ...answer };
    },

    async getOne({ resource, id, meta }) {
      const schema = schemaOf(lookup, resource, meta);
      const pk = schema['x-primaryKey'];
      const env = isApp(schema)
        ? await request({ url: appUrl(schema, 'info'), method: 'post', data: { [pk]: id } })
        : await request({ url: `${schema['x-endpoint'].base}/${encodeURIComponent(String(id))}`, method: 'get' });
      return { data: withId(schema, env.data) as never };
    },

    async create({ resource, variables, meta }) {
      const schema = schemaOf(lookup, resource, meta);
      const body = { ...writableBody(schema, variables as Record<string, unknown>), ...extraBody(meta) };
      const env = isApp(schema)
        ? await request({ url: appUrl(schema, 'save'), method: 'post', data: body })
        : await request({ url: schema['x-endpoint'].base, method: 'post', data: body });
      return { data: withId(schema, env.data && typeof env.data === 'object' ? env.data : body) as never };
    },

    async update({ resource, id, variables, meta }) {
      const schema = schemaOf(lookup, resource, meta);
      const body = { ...updateBody(schema, id, variables as Record<string, unknown>, meta), ...extraBody(meta) };
      const env = isApp(schema)
        ? await request({ url: appUrl(schema, 'save'), method: 'post', data: body })
        : await request({ url: schema['x-endpoint'].base, method: 'put', data: body });
      return { data: withId(schema, env.data && typeof env.data === 'object' ? env.data : body) as never };
    },

    async deleteOne({ resource, id, meta }) {
      const schema = schemaOf(lookup, resource, meta);
      await remove(schema, [id]);
      return { data: withId(schema, { [schema['x-primaryKey']]: id }) as never };
    },

    async deleteMany({ resource, ids, meta }) {
      const schema = schemaOf(lookup, resource, meta);
      await remove(schema, ids);
      return { data: ids.map((id) => withId(schema, { [schema['x-primaryKey']]: id })) as never[] };
    },

    /**
     * `meta.read`: the call only reads, whatever its method or name (never refused as a repeat); `meta.envelope`: the
     * data is the whole answer rather than its `data` (x-header keys are dot paths from the answer's top).
     */
    async custom({ url, method, query, payload, headers, meta }) {
      const options = meta?.read ? { read: true } : undefined;
      const env = await request({ url, method, params: query as Record<string, unknown> | undefined, data: payload, headers, options });
      return { data: (meta?.envelope ? env : (env.data ?? env)) as never };
    },
  };
}

async function remove(schema: EntitySchema, ids: BaseKey[]): Promise<void> {
  const pk = schema['x-primaryKey'];
  if (isApp(schema)) {
    await request({ url: appUrl(schema, 'remove'), method: 'post', data: { ids, [pk]: ids.join(',') } });
    return;
  }
  await request({ url: `${schema['x-endpoint'].base}/${ids.map((id) => encodeURIComponent(String(id))).join(',')}`, method: 'delete' });
}

/** The app-style `change` action (status switches), or a rest update of the one field. */
export async function changeField(schema: EntitySchema, record: BaseRecord, field: string, value: unknown): Promise<void> {
  const pk = schema['x-primaryKey'];
  if (isApp(schema) && (schema['x-endpoint'] as AppEndpoint).actions?.change) {
    const body: Record<string, unknown> = { [pk]: record[pk], [field]: value };
    if (schema['x-version'] !== false) body[VERSION_FIELD] = record[VERSION_FIELD];
    await request({ url: appUrl(schema, 'change'), method: 'post', data: body });
    return;
  }
  const body = updateBody(schema, record[pk] as BaseKey, { ...record, [field]: value });
  if (isApp(schema)) await request({ url: appUrl(schema, 'save'), method: 'post', data: body });
  else await request({ url: schema['x-endpoint'].base, method: 'put', data: body });
}
