import { type ColumnDefinitionBuilder, sql } from 'kysely';
import type { Db, Dialect } from '../db/connection.js';
import type { Entity, Field, Kind } from './model.js';
import { prepareSeed } from './records.js';
import { engineDb, insertRows, type Q, sqlType, tableColumns } from './store.js';

/**
 * Tables from schemas, additively: a missing table is created, a missing column is added. Anything else (a column
 * whose type changed, a property that was removed) is only reported: changing or dropping data needs an explicit
 * migration in server/db/migrations. sys_schema_state remembers which columns the engine applied to which table.
 */

export interface SyncReport {
  /** Tables created now. */
  created: string[];
  /** Columns added now, as table.column. */
  added: string[];
  /** Rows seeded from x-seed, by table. */
  seeded: Record<string, number>;
  /** Differences the engine did not apply (explicit migration needed). */
  warnings: string[];
}

type Family = 'text' | 'integer' | 'number' | 'boolean' | 'other';

function family(dbType: string): Family {
  const t = dbType.toUpperCase();
  if (t === 'BOOLEAN' || t === 'BOOL') return 'boolean';
  if (t.includes('INT') || t.includes('SERIAL')) return 'integer';
  if (t.includes('CHAR') || t.includes('CLOB') || t.includes('TEXT')) return 'text';
  if (t.includes('REAL') || t.includes('FLOA') || t.includes('DOUB') || t.includes('NUMERIC') || t.includes('DECIMAL')) return 'number';
  return 'other';
}

const wanted: Record<Kind, Family> = { text: 'text', json: 'text', integer: 'integer', boolean: 'integer', number: 'number' };

interface Column {
  name: string;
  property: string;
  kind: Kind;
  build?: (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;
}

/** Every column an entity needs, in schema order: properties, then version, then the soft-delete flag. */
function columnsOf(entity: Entity): Column[] {
  const out: Column[] = entity.fields.map((f) => ({ name: f.column, property: f.name, kind: f.kind }));
  if (entity.versioned) out.push({ name: 'version', property: 'version', kind: 'integer', build: (c) => c.notNull().defaultTo(1) });
  const sd = entity.softDelete;
  if (sd) out.push({ name: sd.column, property: '', kind: 'text', build: (c) => c.notNull().defaultTo(sd.active) });
  return out;
}

/** Columns worth an index: sortable, searched (except like), tree parents and relation keys. */
function indexed(entity: Entity): Field[] {
  return entity.fields.filter(
    (f) => f !== entity.pk && (f.sortable || (f.search && f.search !== 'like') || f.relation || f === entity.tree?.parent) && f.kind !== 'json',
  );
}

/** A single-column, non-partial index on a plain column, as the database reports it. */
interface ColumnIndex {
  name: string;
  column: string;
  unique: boolean;
  /** Collation of the key ('' when the database reports none). */
  collation: string;
}

/** Every single-column index of a table over a plain column (expression and partial indexes are left out). */
export async function columnIndexes(k: Q, dialect: Dialect, table: string): Promise<ColumnIndex[]> {
  if (dialect === 'postgres') {
    const res = await sql<{ name: string; column: string; unique: boolean; collation: string | null }>`
      select i.relname as "name", a.attname as "column", x.indisunique as "unique", c.collname as "collation"
      from pg_index x
      join pg_class t on t.oid = x.indrelid
      join pg_namespace n on n.oid = t.relnamespace
      join pg_class i on i.oid = x.indexrelid
      join pg_attribute a on a.attrelid = t.oid and a.attnum = x.indkey[0]
      left join pg_collation c on c.oid = x.indcollation[0]
      where n.nspname = current_schema() and t.relname = ${table} and x.indnkeyatts = 1 and x.indpred is null
        and x.indexprs is null`.execute(k);
    return res.rows.map((r) => ({ name: r.name, column: r.column, unique: Boolean(r.unique), collation: r.collation ?? '' }));
  }
  const res = await sql<{ name: string; unique: number; partial: number; column: string | null; collation: string | null; keys: number }>`
    select il.name as "name", il."unique" as "unique", il.partial as "partial", max(ix.name) as "column", max(ix.coll) as "collation",
      count(*) as "keys"
    from pragma_index_list(${table}) as il, pragma_index_xinfo(il.name) as ix
    where ix.key = 1
    group by il.name, il."unique", il.partial`.execute(k);
  return res.rows
    .filter((r) => Number(r.keys) === 1 && Number(r.partial) === 0 && r.column)
    .map((r) => ({ name: r.name, column: r.column as string, unique: Number(r.unique) === 1, collation: r.collation ?? '' }));
}

/**
 * Indexes of an entity's table. A unique index backs x-unique where the engine owns the column (a new table or a
 * column added now, so no old duplicates exist); soft-deleted tables keep uniqueness in the server check only (deleted
 * rows may repeat values). A column never gets a second index: when a unique single-column index covers it (the
 * engine's or one a migration made), the engine creates no plain ix_ index for it and drops the one an earlier
 * version created; when an equivalent plain index exists under another name, none is added either.
 * On PostgreSQL the plain index of a text column is in collation "C" (the engine sorts by code point), the unique one
 * in the default collation (equality lookups: the x-unique check, key lookups); a unique text column is therefore
 * sorted without an index there, which only matters for large tables of unique keys.
 */
async function createIndexes(k: Q, dialect: Dialect, entity: Entity, freshColumns: Set<string>): Promise<void> {
  if (!entity.softDelete) {
    for (const f of entity.fields) {
      if (!f.unique || !freshColumns.has(f.column)) continue;
      await sql`create unique index if not exists ${sql.id(`ux_${entity.table}_${f.column}`)} on ${sql.table(entity.table)} (${sql.id(f.column)})`.execute(k);
    }
  }
  const existing = await columnIndexes(k, dialect, entity.table);
  for (const f of indexed(entity)) {
    const own = `ix_${entity.table}_${f.column}`;
    const onColumn = existing.filter((i) => i.column === f.column);
    if (onColumn.some((i) => i.unique)) {
      if (onColumn.some((i) => i.name === own)) await sql`drop index if exists ${sql.id(own)}`.execute(k);
      continue;
    }
    // Text sorts by code point on both databases (COLLATE "C" on PostgreSQL), so the index must use the same collation.
    const collate = dialect === 'postgres' && f.textColumn;
    const wantedCollation = collate ? 'C' : dialect === 'postgres' ? 'default' : 'BINARY';
    if (onColumn.some((i) => i.name !== own && (i.collation || wantedCollation) === wantedCollation)) continue;
    const expr = collate ? sql`(${sql.id(f.column)} collate "C")` : sql`(${sql.id(f.column)})`;
    await sql`create index if not exists ${sql.id(own)} on ${sql.table(entity.table)} ${expr}`.execute(k);
  }
}

async function recordState(k: Q, entity: Entity, columns: Column[], origin: Map<string, string>): Promise<void> {
  const now = Date.now();
  for (const c of columns) {
    // The recorded kind is what the engine applied: it changes only when the engine itself creates or adds the column.
    const kind = origin.has(c.name) ? sql`, kind = excluded.kind, origin = excluded.origin` : sql``;
    await sql`insert into sys_schema_state (table_name, column_name, property, kind, origin, schema_id, updated_at)
      values (${entity.table}, ${c.name}, ${c.property}, ${c.kind}, ${origin.get(c.name) ?? 'adopted'}, ${entity.id}, ${now})
      on conflict (table_name, column_name) do update set property = excluded.property, schema_id = excluded.schema_id,
        updated_at = excluded.updated_at${kind}`.execute(k);
  }
}

async function syncEntity(k: Q, dialect: Dialect, entity: Entity, report: SyncReport): Promise<void> {
  const columns = columnsOf(entity);
  const existing = await tableColumns(k, dialect, entity.table);
  const origin = new Map<string, string>();

  if (existing.size === 0) {
    let create = k.schema.createTable(entity.table);
    create =
      dialect === 'postgres'
        ? create.addColumn(entity.pk.column, 'serial', (c) => c.primaryKey())
        : create.addColumn(entity.pk.column, 'integer', (c) => c.primaryKey().autoIncrement());
    for (const c of columns) {
      if (c.name === entity.pk.column) continue;
      create = create.addColumn(c.name, sqlType(c.kind, dialect), c.build ?? ((b) => b));
    }
    await create.execute();
    for (const c of columns) origin.set(c.name, 'created');
    report.created.push(entity.table);
    await createIndexes(k, dialect, entity, new Set(columns.map((c) => c.name)));
    await recordState(k, entity, columns, origin);
    const seeds = entity.schema['x-seed'] ?? [];
    if (seeds.length) {
      await insertRows(
        k,
        entity,
        seeds.map((row) => prepareSeed(entity, row)),
      );
      report.seeded[entity.table] = seeds.length;
    }
    return;
  }

  const fresh = new Set<string>();
  for (const c of columns) {
    const dbType = existing.get(c.name);
    if (dbType === undefined) {
      await k.schema
        .alterTable(entity.table)
        .addColumn(c.name, sqlType(c.kind, dialect), c.build ?? ((b) => b))
        .execute();
      origin.set(c.name, 'added');
      fresh.add(c.name);
      report.added.push(`${entity.table}.${c.name}`);
      continue;
    }
    const have = family(dbType);
    const want = c.name === entity.pk.column ? 'integer' : wanted[c.kind];
    const field = entity.fields.find((f) => f.column === c.name);
    if (field) field.textColumn = have === 'text';
    if (have !== want && !(want === 'integer' && have === 'boolean' && c.kind === 'boolean')) {
      report.warnings.push(
        `${entity.file}: 表 ${entity.table} 的列 ${c.name}（属性 ${c.property}）在数据库中是 ${dbType}，schema 要求 ${c.kind}；` +
          '类型变更不会自动执行，请编写显式迁移（server/db/migrations）后再启动',
      );
    }
  }
  const recorded = await sql<{
    column_name: string;
    property: string;
  }>`select column_name, property from sys_schema_state where table_name = ${entity.table}`.execute(k);
  const names = new Set(columns.map((c) => c.name));
  for (const r of recorded.rows) {
    if (names.has(r.column_name)) continue;
    report.warnings.push(
      `${entity.file}: 表 ${entity.table} 的列 ${r.column_name}（原属性 ${r.property || r.column_name}）已不在 schema 中；` +
        '列和数据保留未动，删除列需要显式迁移（server/db/migrations）',
    );
  }
  await createIndexes(k, dialect, entity, fresh);
  await recordState(k, entity, columns, origin);
}

/**
 * Brings every entity's table up to its schema. On PostgreSQL an advisory lock serialises servers starting together;
 * each table is synced in its own transaction.
 */
export async function syncTables(db: Db, entities: Entity[]): Promise<SyncReport> {
  const report: SyncReport = { created: [], added: [], seeded: {}, warnings: [] };
  const k = engineDb(db);
  const run = async (conn: Q) => {
    for (const entity of entities) await conn.transaction().execute((trx) => syncEntity(trx, db.dialect, entity, report));
  };
  if (db.dialect === 'sqlite') {
    await run(k);
    return report;
  }
  await k.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(727275)`.execute(conn);
    try {
      await run(conn);
    } finally {
      await sql`select pg_advisory_unlock(727275)`.execute(conn);
    }
  });
  return report;
}
