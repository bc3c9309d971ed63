import type { MonitorOverview } from '@common/monitor/overview';
import type { SqlStatRow } from '@common/monitor/sqlStats';
import { request } from './request';

// ── 定时任务 (the list and form go through the schema engine: schemas/monitor/sys_job.json) ────────────────────────────────

export interface JobHandlerInfo {
  name: string;
  title: string;
  description: string;
  paramsSchema: { type: 'object'; properties: Record<string, { title?: string; type?: string; default?: unknown; minimum?: number; maximum?: number }> };
}

/** The registered handlers a job may name (处理器). */
export async function listJobHandlers(): Promise<JobHandlerInfo[]> {
  const env = await request<JobHandlerInfo[]>({ url: '/dev-api/monitor/job/handlers', method: 'get' });
  return env.data ?? [];
}

/** The next five fire times (epoch ms) of a cron expression; refused with a Chinese message when invalid. */
export async function cronNextTimes(cronExpression: string): Promise<number[]> {
  const env = await request<number[]>({ url: '/dev-api/monitor/job/cronNext', method: 'get', params: { cronExpression }, options: { silent: true } });
  return env.data ?? [];
}

/** 执行一次. */
export async function runJob(jobId: number): Promise<string> {
  const env = await request({ url: '/dev-api/monitor/job/run', method: 'put', data: { jobId } });
  return env.msg;
}

/** 暂停 ('1') / 恢复 ('0'). */
export async function changeJobStatus(jobId: number, status: '0' | '1'): Promise<string> {
  const env = await request({ url: '/dev-api/monitor/job/changeStatus', method: 'put', data: { jobId, status } });
  return env.msg;
}

// ── 缓存监控 / 缓存列表 ──────────────────────────────────────────────────────────────────────────────────────────────

export interface CacheNameStats {
  name: string;
  title: string;
  ttlMs: number;
  hits: number;
  misses: number;
  errors: number;
  hitRate: number;
  keys: number;
}

export interface CacheMonitor {
  backend: 'memory' | 'redis';
  prefix: string;
  names: CacheNameStats[];
  info: {
    entries?: number;
    approxBytes?: number;
    maxEntries?: number;
    info?: Record<string, string>;
    dbSize?: number;
    commandStats?: Array<{ name: string; calls: number }>;
  };
  process: { rss: number; heapUsed: number; heapTotal: number };
}

export async function getCacheMonitor(): Promise<CacheMonitor> {
  const env = await request<CacheMonitor>({ url: '/dev-api/monitor/cache', method: 'get' });
  return env.data as CacheMonitor;
}

export interface CacheNameRow {
  cacheName: string;
  remark: string;
  ttlSeconds: number;
}

export async function listCacheNames(): Promise<CacheNameRow[]> {
  return (await request<CacheNameRow[]>({ url: '/dev-api/monitor/cache/getNames', method: 'get' })).data ?? [];
}

export async function listCacheKeys(cacheName: string): Promise<string[]> {
  return (await request<string[]>({ url: `/dev-api/monitor/cache/getKeys/${encodeURIComponent(cacheName)}`, method: 'get' })).data ?? [];
}

export async function getCacheValue(cacheName: string, cacheKey: string): Promise<{ cacheName: string; cacheKey: string; cacheValue: string }> {
  const env = await request<{ cacheName: string; cacheKey: string; cacheValue: string }>({
    url: `/dev-api/monitor/cache/getValue/${encodeURIComponent(cacheName)}/${encodeURIComponent(cacheKey)}`,
    method: 'get',
  });
  return env.data as { cacheName: string; cacheKey: string; cacheValue: string };
}

export async function clearCacheName(cacheName: string): Promise<string> {
  return (await request({ url: `/dev-api/monitor/cache/clearCacheName/${encodeURIComponent(cacheName)}`, method: 'delete' })).msg;
}

export async function clearCacheKey(cacheName: string, cacheKey: string): Promise<string> {
  return (await request({ url: `/dev-api/monitor/cache/clearCacheKey/${encodeURIComponent(cacheName)}/${encodeURIComponent(cacheKey)}`, method: 'delete' }))
    .msg;
}

export async function clearCacheAll(): Promise<string> {
  return (await request({ url: '/dev-api/monitor/cache/clearCacheAll', method: 'delete' })).msg;
}

// ── 数据监控 ─────────────────────────────────────────────────────────────────────────────────────────────────────────

export interface DruidInfo {
  dialect: 'sqlite' | 'postgres';
  database: Record<string, unknown>;
  summary: { statements: number; count: number; errors: number; totalMs: number; dropped: number; since: number } | null;
  slowest: SqlStatRow[];
  frequent: SqlStatRow[];
}

export async function getDruid(): Promise<DruidInfo> {
  return (await request<DruidInfo>({ url: '/dev-api/monitor/druid', method: 'get' })).data as DruidInfo;
}

export async function resetDruid(): Promise<string> {
  return (await request({ url: '/dev-api/monitor/druid/reset', method: 'delete' })).msg;
}

// ── 服务监控 ─────────────────────────────────────────────────────────────────────────────────────────────────────────

export interface ServerNode {
  nodeId: string;
  time: number;
  cpu: { cores: number; model: string; loadavg: number[]; hostUsage: number; processUsage: number };
  memory: { total: number; free: number; used: number };
  process: {
    pid: number;
    node: string;
    rss: number;
    heapUsed: number;
    heapTotal: number;
    heapLimit: number;
    external: number;
    uptimeSec: number;
    startedAt: number;
    cwd: string;
    argv: string;
  };
  eventLoop: { meanMs: number; p50Ms: number; p99Ms: number; maxMs: number };
  host: { hostname: string; platform: string; arch: string; uptimeSec: number; ips: string[] };
  disk: { path: string; total: number; free: number; used: number } | null;
}

export async function getServerInfo(): Promise<{ self: ServerNode; nodes: ServerNode[] }> {
  return (await request<{ self: ServerNode; nodes: ServerNode[] }>({ url: '/dev-api/monitor/server', method: 'get' })).data as {
    self: ServerNode;
    nodes: ServerNode[];
  };
}

// ── 监控总览 (server/monitor/overview.ts) ────────────────────────────────────────────────────────────────────────────
/** Every monitor page's health figures in one answer (monitor:overview:list). */
export async function getMonitorOverview(): Promise<MonitorOverview> {
  const env = await request({ url: '/dev-api/monitor/overview', method: 'get' });
  return env.data as MonitorOverview;
}
