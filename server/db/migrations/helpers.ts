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
  /**
   * SQLite: run with foreign keys off (a table rebuild: dropping the old table would otherwise cascade into its
   * children); the migration's transaction still refuses to commit while `PRAGMA foreign_key_check` finds a problem.
   */
  sqliteForeignKeysOff?: boolean;
  up(db: Kysely<unknown>, dialect: Dialect): Promise<void>;
}
