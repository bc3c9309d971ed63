import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Db, Dialect } from '../db/connection.js';
import type { Entity, Field, Kind } from './model.js';

/**
 * Data access for schema entities. Table and column names come from the schema files (checked by the meta-schema to
 * be plain snake_case names), so queries are written as raw SQL over a Kysely instance without the CamelCasePlugin:
 * rows come back with their real snake_case column names.
 */

export type Q = Kysely<unknown>;

/** The engine's view of the database: the same connection(s), no name mapping. */
export function engineDb(db: Db): Q {
  return db.kysely.withoutPlugins() as unknown as Q;
}

export type Row = Record<string, unknown>;

/**
 * `alias.column`, quoted as Kysely quotes identifiers on both dialects. The names come from the schemas and the code,
 * never from a request; each is built once and kept (a list request used to parse and build a dozen references).
 */
export function col(alias: string, column: string): RawBuilder<unknown> {
  const key = `${alias}.${column}`;
  let ref = columnRefs.get(key);
  if (!ref) {
    ref = sql.raw(`${quoteId(alias)}.${quoteId(column)}`);
    columnRefs.set(key, ref);
  }
  return ref;
}
const columnRefs = new Map<string, RawBuilder<unknown>>();
const quoteId = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** SQL column type of a kind. Integers are 64-bit (epoch milliseconds fit). */
export function sqlType(kind: Kind, dialect: Dialect): 'text' | 'bigint' | 'integer' | 'real' | 'double precision' {
  switch (kind) {
    case 'integer':
      return 'bigint';
    case 'boolean':
      return 'integer';
    case 'number':
      return dialect === 'postgres' ? 'double precision' : 'real';
    default:
      return 'text';
  }
}

/** "Only rows not soft-deleted" for an entity with x-softDelete, else nothing. */
export function aliveCondition(entity: Entity, alias = 't'): RawBuilder<unknown> | null {
  const sd = entity.softDelete;
  return sd ? sql`${col(alias, sd.column)} = ${sd.active}` : null;
}

export function andAll(conditions: Array<RawBuilder<unknown> | null | undefined>): RawBuilder<unknown> {
  const list = conditions.filter((c): c is RawBuilder<unknown> => Boolean(c));
  return list.length ? sql`${sql.join(list, sql` and `)}` : sql`1 = 1`;
}

/** SELECT list of an entity: every stored column plus the label of each x-relation (as __rel_<property>). */
export function selectList(entity: Entity, fields: Field[] = entity.fields): RawBuilder<unknown> {
  const whole = fields === entity.fields;
  const kept = whole ? selectLists.get(entity) : undefined;
  if (kept) return kept;
  const parts: RawBuilder<unknown>[] = fields.map((f) => col('t', f.column));
  if (entity.versioned) parts.push(col('t', 'version'));
  const list = sql.join(parts);
  if (whole) selectLists.set(entity, list);
  return list;
}
/** An entity's whole select list, built once (query builders are immutable, so one can serve every request). */
const selectLists = new WeakMap<Entity, RawBuilder<unknown>>();

/** FROM clause with one LEFT JOIN per x-relation (alias r_<property>) when `labels`. */
export function fromClause(entity: Entity, entities: Map<string, Entity>, labels: boolean): FromClause {
  const byEntities = fromClauses.get(entity) ?? new WeakMap<Map<string, Entity>, FromClause[]>();
  fromClauses.set(entity, byEntities);
  const kept = byEntities.get(entities) ?? [];
  byEntities.set(entities, kept);
  const slot = labels ? 1 : 0;
  kept[slot] ??= buildFromClause(entity, entities, labels);
  return kept[slot];
}

type FromClause = { from: RawBuilder<unknown>; labelColumns: RawBuilder<unknown>[] };
/** Built once per entity, entity set and labels flag: a FROM clause depends on nothing else. */
const fromClauses = new WeakMap<Entity, WeakMap<Map<string, Entity>, FromClause[]>>();

function buildFromClause(entity: Entity, entities: Map<string, Entity>, labels: boolean): FromClause {
  const joins: RawBuilder<unknown>[] = [];
  const labelColumns: RawBuilder<unknown>[] = [];
  if (labels) {
    for (const f of entity.fields) {
      if (!f.relation) continue;
      const target = entities.get(f.relation.schema);
      if (!target) continue;
      const key = target.byName.get(f.relation.key ?? target.pk.name);
      const label = target.byName.get(f.relation.label);
      if (!key || !label) continue;
      const alias = `r_${f.name.toLowerCase()}`;
      const alive = aliveCondition(target, alias);
      joins.push(
        sql`left join ${sql.table(target.table)} as ${sql.id(alias)} on ${col(alias, key.column)} = ${col('t', f.column)}${alive ? sql` and ${alive}` : sql``}`,
      );
      labelColumns.push(sql`${col(alias, label.column)} as ${sql.id(`__rel_${f.name}`)}`);
    }
  }
  return { from: sql`${sql.table(entity.table)} as t ${sql.join(joins, sql` `)}`, labelColumns };
}

export async function insertRow(k: Q, entity: Entity, values: Row): Promise<number> {
  const columns = Object.keys(values);
  const res = await sql<Row>`insert into ${sql.table(entity.table)} (${sql.join(columns.map((c) => sql.id(c)))})
    values (${sql.join(columns.map((c) => values[c]))}) returning ${sql.id(entity.pk.column)}`.execute(k);
  return Number(res.rows[0][entity.pk.column]);
}

/** Many rows in as few statements as the parameter limits allow (bulk seeding, imports, benches). */
export async function insertRows(k: Q, entity: Entity, rows: Row[]): Promise<void> {
  if (!rows.length) return;
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const perStatement = Math.max(1, Math.floor(30000 / columns.length));
  for (let i = 0; i < rows.length; i += perStatement) {
    const chunk = rows.slice(i, i + perStatement);
    const tuples = chunk.map((r) => sql`(${sql.join(columns.map((c) => r[c] ?? null))})`);
    await sql`insert into ${sql.table(entity.table)} (${sql.join(columns.map((c) => sql.id(c)))}) values ${sql.join(tuples)}`.execute(k);
  }
}

export async function updateRow(k: Q, entity: Entity, id: number, values: Row, expectedVersion?: number): Promise<number> {
  const sets = Object.entries(values).map(([c, v]) => sql`${sql.id(c)} = ${v}`);
  if (entity.versioned) sets.push(sql`${sql.id('version')} = ${sql.id('version')} + 1`);
  if (!sets.length) return 1;
  const versionCheck = entity.versioned && expectedVersion !== undefined ? sql` and ${sql.id('version')} = ${expectedVersion}` : sql``;
  const alive = entity.softDelete ? sql` and ${sql.id(entity.softDelete.column)} = ${entity.softDelete.active}` : sql``;
  const res = await sql`update ${sql.table(entity.table)} set ${sql.join(sets)} where ${sql.id(entity.pk.column)} = ${id}${versionCheck}${alive}`.execute(k);
  return Number(res.numAffectedRows ?? 0);
}

/** One stored row by primary key (not soft-deleted), with relation labels when `entities` is given. */
export async function findRow(k: Q, entity: Entity, id: number, entities?: Map<string, Entity>): Promise<Row | undefined> {
  const { from, labelColumns } = fromClause(entity, entities ?? new Map(), Boolean(entities));
  const select = labelColumns.length ? sql`${selectList(entity)}, ${sql.join(labelColumns)}` : selectList(entity);
  const res = await sql<Row>`select ${select} from ${from} where ${andAll([sql`${col('t', entity.pk.column)} = ${id}`, aliveCondition(entity)])}`.execute(k);
  return res.rows[0];
}

/** Primary keys of rows whose `field` equals `value` (not soft-deleted), other than `exceptId`. */
export async function idsWhere(k: Q, entity: Entity, field: Field, value: unknown, exceptId?: number): Promise<number[]> {
  const res = await sql<Row>`select ${col('t', entity.pk.column)} from ${sql.table(entity.table)} as t where ${andAll([
    sql`${col('t', field.column)} = ${value}`,
    exceptId !== undefined ? sql`${col('t', entity.pk.column)} <> ${exceptId}` : null,
    aliveCondition(entity),
  ])}`.execute(k);
  return res.rows.map((r) => Number(r[entity.pk.column]));
}

export async function countWhere(k: Q, table: string, where: RawBuilder<unknown>): Promise<number> {
  const res = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)} as t where ${where}`.execute(k);
  return Number(res.rows[0]?.n ?? 0);
}

/** Does a table exist (in the current schema on PostgreSQL)? */
export async function tableExists(k: Q, dialect: Dialect, table: string): Promise<boolean> {
  return (await tableColumns(k, dialect, table)).size > 0;
}

/** Column name → declared SQL type of a table; empty when the table does not exist. */
export async function tableColumns(k: Q, dialect: Dialect, table: string): Promise<Map<string, string>> {
  const res =
    dialect === 'postgres'
      ? await sql<{ name: string; type: string }>`select column_name as name, data_type as type from information_schema.columns
          where table_schema = current_schema() and table_name = ${table}`.execute(k)
      : await sql<{ name: string; type: string }>`select name, type from pragma_table_info(${table})`.execute(k);
  return new Map(res.rows.map((r) => [r.name, r.type]));
}
