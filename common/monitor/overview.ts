/**
 * 监控总览 (GET /dev-api/monitor/overview, docs/monitor.md "监控总览"): the health figures of the monitor pages in one
 * answer. Every card carries the time of its reading (epoch ms), a status and the menu component of its page (the
 * console links the card when that page is in the user's menu). Sizes in bytes, ratios 0…1.
 */

/** ok 正常 · warning 注意 · error 异常. */
export type HealthStatus = 'ok' | 'warning' | 'error';

export interface OverviewCard {
  status: HealthStatus;
  /** Why the status is not ok, in Chinese (empty when ok). */
  reason: string;
  /** When these figures were read. */
  time: number;
  component: string;
}

export interface ServerCard extends OverviewCard {
  cpuUsage: number;
  cores: number;
  memoryUsed: number;
  memoryTotal: number;
  diskUsed: number | null;
  diskTotal: number | null;
  uptimeSec: number;
  /** Processes sharing the database that reported in the last 30 s (this one included). */
  nodes: number;
}

export interface DatabaseCard extends OverviewCard {
  dialect: 'sqlite' | 'postgres';
  sizeBytes: number | null;
  statements: number;
  executions: number;
  errors: number;
  /** Statements whose slowest run took at least slowMs. */
  slowStatements: number;
  slowMs: number;
  /** PostgreSQL's buffer cache hit ratio; null on SQLite (no such figure). */
  cacheHitRatio: number | null;
  /** Since when the statement figures are counted (process start or the last 重置). */
  since: number;
}

export interface CacheCard extends OverviewCard {
  backend: 'memory' | 'redis';
  keys: number;
  /** Memory the cache holds (approximate for the in-process cache; Redis used_memory). */
  memoryBytes: number | null;
  hits: number;
  misses: number;
  hitRate: number;
}

export interface OnlineCard extends OverviewCard {
  sessions: number;
  users: number;
}

export interface JobRunInfo {
  jobId: number;
  jobName: string;
  nextFireTime: number;
}

export interface JobsCard extends OverviewCard {
  active: number;
  paused: number;
  /** Failed runs (sys_job_log status 1) started in the last 24 h. */
  failed24h: number;
  runs24h: number;
  next: JobRunInfo[];
}

export interface ErrorInfo {
  title: string;
  message: string;
  time: number;
}

export interface ErrorsCard extends OverviewCard {
  /** Refused or failed operations (操作日志 status 1) in the last 24 h. */
  failedOperations24h: number;
  /** Failed sign-ins (登录日志 status 1) in the last 24 h. */
  failedLogins24h: number;
  recent: ErrorInfo[];
}

export interface MonitorOverview {
  time: number;
  server: ServerCard;
  database: DatabaseCard;
  cache: CacheCard;
  online: OnlineCard;
  jobs: JobsCard;
  errors: ErrorsCard;
}

/** Thresholds of the status colours: at or above warn 注意, at or above error 异常 (ratios). */
export const USAGE_WARN = 0.8;
export const USAGE_ERROR = 0.95;
/** A statement whose slowest run took this long counts as slow (ms). */
export const SLOW_STATEMENT_MS = 500;
