import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { CamelCasePlugin, Kysely, type LogEvent, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { ServerConfig } from '../config.js';
import { SqlStats } from './sqlStats.js';
import type { Database } from './types.js';

export type Dialect = 'sqlite' | 'postgres';
export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
  /** Statement statistics of this database (数据监控, server/db/sqlStats.ts). */
  sqlStats?: SqlStats;
  /** The PostgreSQL pool (数据监控 shows total / idle / waiting). */
  pool?: pg.Pool;
  /** The SQLite connection and file (数据监控 shows file, WAL and page figures). */
  sqlite?: SQLite.Database;
  sqliteFile?: string;
}

// BIGINT (epoch ms) comes back from pg as text by default; our values fit in a JS number.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

export async function openDatabase(config: ServerConfig): Promise<Db> {
  const plugins = [new CamelCasePlugin()];
  // Every statement (query builder and raw sql) is timed here for 数据监控; values never reach the statistics.
  const sqlStats = new SqlStats();
  const log = (event: LogEvent) => sqlStats.record(event.query.sql, event.queryDurationMillis, event.level === 'error');
  if (config.databaseUrl) {
    const schema = config.databaseSchema;
    const pool = new pg.Pool({
      connectionString: config.databaseUrl,
      max: 10,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    if (schema) {
      if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`DATABASE_SCHEMA 名称不合法: ${schema}`);
      await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    }
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins, log });
    return { kysely, dialect: 'postgres', close: () => kysely.destroy(), sqlStats, pool };
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  const file = path.join(config.dataDir, 'zhiyuan.sqlite');
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL'); // durable: a confirmed write survives a power cut
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  cachePreparedStatements(sqlite);
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }), plugins, log });
  return { kysely, dialect: 'sqlite', close: () => kysely.destroy(), sqlStats, sqlite, sqliteFile: file };
}

/** How many prepared statements the embedded database keeps; the console's queries are a few hundred texts. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely's SQLite driver prepares every query anew; preparing (parsing and planning the SQL) cost about a third of a
 * small list request's database time. Statements are kept by their SQL text and reused, least recently used first out.
 * A statement still being read by a stream (`busy`) is not handed out twice: that caller gets a fresh one. SQLite
 * re-plans a kept statement by itself when the schema changes.
 */
function cachePreparedStatements(sqlite: SQLite.Database): void {
  const prepare = sqlite.prepare.bind(sqlite);
  const kept = new Map<string, SQLite.Statement>();
  sqlite.prepare = ((source: string) => {
    const statement = kept.get(source);
    if (statement && !statement.busy) {
      kept.delete(source); // re-inserted below: the map's order is the use order
      kept.set(source, statement);
      return statement;
    }
    const fresh = prepare(source);
    if (!statement) {
      if (kept.size >= STATEMENT_CACHE_SIZE) kept.delete(kept.keys().next().value as string);
      kept.set(source, fresh);
    }
    return fresh;
  }) as SQLite.Database['prepare'];
}
