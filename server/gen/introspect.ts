import { sql } from 'kysely';
import type { DbTable } from '../../common/gen/tables.js';
import type { Dialect } from '../db/connection.js';
import type { Q } from '../engine/store.js';

/**
 * What the database holds (代码生成): its tables and their columns, read from SQLite's sqlite_master /
 * pragma_table_info or PostgreSQL's information_schema (the current schema only). Every query is parameterised.
 */

export interface DbColumn {
  name: string;
  /** The declared type as the database reports it (SQLite: as written in CREATE TABLE; PostgreSQL: data_type). */
  type: string;
  nullable: boolean;
  hasDefault: boolean;
  pk: boolean;
  /** A single-column integer key the database numbers itself (SQLite rowid alias, PostgreSQL serial / identity). */
  autoIncrement: boolean;
  comment: string;
  /** varchar(n) / character varying(n). */
  maxLength: number | null;
  position: number;
}

/** Tables the generator never offers: bookkeeping of migrations, of the schema engine and of the generator itself. */
export const INTERNAL_TABLES = new Set(['schema_migrations', 'sys_schema_state', 'gen_table', 'gen_table_column']);
export const isInternalTable = (name: string) => INTERNAL_TABLES.has(name) || name.startsWith('gen_') || name.startsWith('sqlite_');

export async function listDbTables(k: Q, dialect: Dialect): Promise<DbTable[]> {
  if (dialect === 'sqlite') {
    const res = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(k);
    return res.rows.map((r) => ({ tableName: r.name, tableComment: '' }));
  }
  const res = await sql<{ table_name: string; table_comment: string | null }>`
    select t.table_name, obj_description(format('%I.%I', t.table_schema, t.table_name)::regclass, 'pg_class') as table_comment
    from information_schema.tables t
    where t.table_schema = current_schema() and t.table_type = 'BASE TABLE'
    order by t.table_name`.execute(k);
  return res.rows.map((r) => ({ tableName: r.table_name, tableComment: r.table_comment ?? '' }));
}

export async function tableExists(k: Q, dialect: Dialect, table: string): Promise<boolean> {
  if (dialect === 'sqlite') {
    const res = await sql<{ n: number }>`select count(*) as n from sqlite_master where type = 'table' and name = ${table}`.execute(k);
    return Number(res.rows[0]?.n ?? 0) > 0;
  }
  const res = await sql<{ n: string | number }>`select count(*) as n from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name = ${table}`.execute(k);
  return Number(res.rows[0]?.n ?? 0) > 0;
}

const lengthOf = (type: string): number | null => {
  const m = /(?:char|character varying)\s*\((\d+)\)/i.exec(type);
  return m ? Number(m[1]) : null;
};

/** The columns of one table in their order; an empty list when the table does not exist. */
export async function listDbColumns(k: Q, dialect: Dialect, table: string): Promise<DbColumn[]> {
  if (dialect === 'sqlite') {
    const res = await sql<{ cid: number; name: string; type: string; not_null: number; dflt_value: string | null; pk: number }>`
      select cid, name, type, "notnull" as not_null, dflt_value, pk from pragma_table_info(${table}) order by cid`.execute(k);
    const pkCount = res.rows.filter((r) => r.pk > 0).length;
    return res.rows.map((r) => {
      const pk = r.pk > 0;
      // Only a lone INTEGER PRIMARY KEY is an alias of the rowid, numbered by SQLite.
      const autoIncrement = pk && pkCount === 1 && r.type.toUpperCase() === 'INTEGER';
      return {
        name: r.name,
        type: r.type || 'TEXT',
        nullable: !r.not_null && !pk,
        hasDefault: r.dflt_value !== null || autoIncrement,
        pk,
        autoIncrement,
        comment: '',
        maxLength: lengthOf(r.type),
        position: r.cid + 1,
      };
    });
  }
  const res = await sql<{
    column_name: string;
    data_type: string;
    character_maximum_length: number | null;
    is_nullable: string;
    column_default: string | null;
    is_identity: string;
    ordinal_position: number;
    column_comment: string | null;
    is_pk: boolean;
    pk_count: string | number;
  }>`
    select c.column_name, c.data_type, c.character_maximum_length, c.is_nullable, c.column_default, c.is_identity, c.ordinal_position,
      col_description(format('%I.%I', c.table_schema, c.table_name)::regclass, c.ordinal_position) as column_comment,
      exists (
        select 1 from information_schema.table_constraints tc
        join information_schema.key_column_usage ku
          on ku.constraint_name = tc.constraint_name and ku.table_schema = tc.table_schema and ku.table_name = tc.table_name
        where tc.constraint_type = 'PRIMARY KEY' and tc.table_schema = c.table_schema and tc.table_name = c.table_name
          and ku.column_name = c.column_name
      ) as is_pk,
      (
        select count(*) from information_schema.table_constraints tc
        join information_schema.key_column_usage ku
          on ku.constraint_name = tc.constraint_name and ku.table_schema = tc.table_schema and ku.table_name = tc.table_name
        where tc.constraint_type = 'PRIMARY KEY' and tc.table_schema = c.table_schema and tc.table_name = c.table_name
      ) as pk_count
    from information_schema.columns c
    where c.table_schema = current_schema() and c.table_name = ${table}
    order by c.ordinal_position`.execute(k);
  return res.rows.map((r) => {
    const integer = /int|serial/i.test(r.data_type);
    const numbered = r.is_identity === 'YES' || /^nextval\(/i.test(r.column_default ?? '');
    const type = r.character_maximum_length ? `${r.data_type}(${r.character_maximum_length})` : r.data_type;
    return {
      name: r.column_name,
      type,
      nullable: r.is_nullable === 'YES',
      hasDefault: r.column_default !== null || r.is_identity === 'YES',
      pk: r.is_pk,
      autoIncrement: r.is_pk && Number(r.pk_count) === 1 && integer && numbered,
      comment: r.column_comment ?? '',
      maxLength: r.character_maximum_length === null ? null : Number(r.character_maximum_length),
      position: Number(r.ordinal_position),
    };
  });
}
