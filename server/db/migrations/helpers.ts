import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

/** Auto-increment integer primary key that works on both SQLite and PostgreSQL. */
export function withId<T extends string>(table: CreateTableBuilder<T, never>, column: string, dialect: Dialect) {
  return dialect === 'postgres'
    ? table.addColumn(column, 'serial', (c) => c.primaryKey())
    : table.addColumn(column, 'integer', (c) => c.primaryKey().autoIncrement());
}

export const notNull = (c: ColumnDefinitionBuilder) => c.notNull();
export const text = 'text' as const;
/** Epoch milliseconds: BIGINT on PostgreSQL, INTEGER (64-bit) on SQLite. */
export const epoch = 'bigint' as const;

export interface Migration {
  name: string;
  up(db: Kysely<unknown>, dialect: Dialect): Promise<void>;
}
