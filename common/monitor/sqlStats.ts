/**
 * 数据监控: one normalised SQL statement's figures (literals replaced by `?`, so no parameter value is ever kept), as
 * server/monitor/sqlStats.ts collects them and GET /dev-api/monitor/druid answers them. Times in ms, lastAt epoch ms.
 */
export interface SqlStat {
  sql: string;
  count: number;
  errors: number;
  totalMs: number;
  maxMs: number;
  lastMs: number;
  lastAt: number;
}

/** A statement as listed (slowest, most frequent): its figures and its mean time. */
export interface SqlStatRow extends SqlStat {
  meanMs: number;
}
