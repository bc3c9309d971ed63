import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { ApiError, Code, ok, page } from '../http/envelope.js';
import type { EngineEnv } from './context.js';
import { type Entity, type Field, rowToRecord, toDb } from './model.js';
import { aliveCondition, andAll, col, type Row } from './store.js';

/**
 * Publishing (x-publish) and the public read API (x-public), docs/schemas.md. A row is public when its status
 * property holds the published value and now lies within its optional schedule [start, end] (an empty bound is
 * open). The app and the server-rendered site read rows only through `publishedRows` / `publishedRow`, so an
 * unpublished or out-of-schedule row never leaves the server on a public path.
 */

export interface PublishedQuery {
  /** Equality filters on properties declared `x-search: { op: "eq" }` (others are ignored). */
  where?: Record<string, unknown>;
  limit?: number;
  now?: number;
}

function publishedCondition(entity: Entity, now: number) {
  const pub = entity.schema['x-publish'];
  if (!pub) throw new Error(`${entity.id} 没有 x-publish`);
  const status = entity.byName.get(pub.status);
  const start = pub.start ? entity.byName.get(pub.start) : undefined;
  const end = pub.end ? entity.byName.get(pub.end) : undefined;
  if (!status) throw new Error(`${entity.id}: x-publish.status`);
  return andAll([
    sql`${col('t', status.column)} = ${toDb(status, pub.published)}`,
    start ? sql`(${col('t', start.column)} is null or ${col('t', start.column)} <= ${now})` : null,
    end ? sql`(${col('t', end.column)} is null or ${col('t', end.column)} >= ${now})` : null,
    aliveCondition(entity),
  ]);
}

/** The public order: the drag-sort property first (ascending), then the schema's default order, then the key. */
function publicOrder(entity: Entity) {
  const parts = [];
  const drag = entity.schema['x-dragSort'] ? entity.byName.get(entity.schema['x-dragSort']) : undefined;
  if (drag) parts.push(sql`${col('t', drag.column)} asc`);
  const dir = entity.sort.desc ? sql`desc` : sql`asc`;
  if (entity.sort.field !== drag) parts.push(sql`${col('t', entity.sort.field.column)} ${dir}`);
  parts.push(sql`${col('t', entity.pk.column)} ${dir}`);
  return sql.join(parts);
}

/** Only the declared public fields (x-public.fields, always with the primary key), else every answered field. */
export function publicRecord(entity: Entity, row: Row, now = Date.now()): Record<string, unknown> {
  const record = entity.hooks?.present ? entity.hooks.present(rowToRecord(entity, row), now) : rowToRecord(entity, row);
  delete record.version;
  const fields = entity.schema['x-public']?.fields;
  if (!fields) return record;
  const out: Record<string, unknown> = { [entity.pk.name]: record[entity.pk.name] };
  for (const f of fields) out[f] = record[f];
  return out;
}

export async function publishedRows(env: EngineEnv, entity: Entity, q: PublishedQuery = {}): Promise<Row[]> {
  const now = q.now ?? Date.now();
  const limit = Math.min(Math.max(1, q.limit ?? entity.schema['x-public']?.limit ?? 50), 500);
  const extra = [];
  for (const [name, value] of Object.entries(q.where ?? {})) {
    const f = entity.byName.get(name);
    if (value === undefined || value === null || value === '') continue;
    if (f?.search !== 'eq') continue; // only declared equality filters
    extra.push(sql`${col('t', (f as Field).column)} = ${toDb(f as Field, value)}`);
  }
  const res = await sql<Row>`select * from ${sql.table(entity.table)} as t where ${andAll([publishedCondition(entity, now), ...extra])}
    order by ${publicOrder(entity)} limit ${limit}`.execute(env.k);
  return res.rows;
}

export async function publishedRow(env: EngineEnv, entity: Entity, id: number, now = Date.now()): Promise<Row | undefined> {
  if (!Number.isSafeInteger(id)) return undefined;
  const res = await sql<Row>`select * from ${sql.table(entity.table)} as t
    where ${andAll([sql`${col('t', entity.pk.column)} = ${id}`, publishedCondition(entity, now)])}`.execute(env.k);
  return res.rows[0];
}

/** The public API path of an entity with x-public. */
export const publicBase = (entity: Entity) => `/appv2/api/public/${entity.schema['x-public']?.name}`;

/**
 * GET /appv2/api/public/<name>/list (?<eq search field>=…&limit=) and /<name>/<id>: published, in-schedule rows
 * only, the declared fields only, no sign-in (permission 'public').
 */
export function registerPublicApi(app: FastifyInstance, env: EngineEnv): void {
  for (const entity of env.entities.values()) {
    if (!entity.schema['x-public']) continue;
    const base = publicBase(entity);
    app.get(`${base}/list`, { config: { permission: 'public', write: false } }, async (request) => {
      const query = (request.query ?? {}) as Record<string, unknown>;
      const limit = query.limit === undefined ? undefined : Number(query.limit);
      if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 500)) throw new ApiError(Code.BAD_REQUEST, '每次最多取 500 条');
      const rows = await publishedRows(env, entity, { where: query, limit });
      return page(
        rows.map((r) => publicRecord(entity, r)),
        rows.length,
      );
    });
    app.get<{ Params: { id: string } }>(`${base}/:id`, { config: { permission: 'public', write: false } }, async (request) => {
      const row = await publishedRow(env, entity, Number(request.params.id));
      if (!row) throw new ApiError(Code.NOT_FOUND, '数据不存在或未发布');
      return ok(publicRecord(entity, row));
    });
  }
}
