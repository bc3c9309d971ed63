import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import {
  type CacheCard,
  type DatabaseCard,
  type ErrorsCard,
  type HealthStatus,
  type JobsCard,
  type MonitorOverview,
  type OnlineCard,
  type ServerCard,
  SLOW_STATEMENT_MS,
  USAGE_ERROR,
  USAGE_WARN,
} from '../../common/monitor/overview.js';
import { ok } from '../http/envelope.js';
import { NODE_HEARTBEAT_MS } from './plugin.js';
import { JOB_STATUS, RUN_STATUS } from './tables.js';

/**
 * 监控总览 (docs/monitor.md "监控总览"): one read of the figures the monitor pages show — the same sources they read
 * (the server probe, SQL statistics, the cache layer, sessions, job logs, operation and sign-in logs), not a second
 * implementation — each card with its status, the reason for it and the time it was read.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** The worse of the usage ratios' status, with the first reason that made it so. */
function usageStatus(parts: Array<[label: string, ratio: number | null]>): { status: HealthStatus; reason: string } {
  let status: HealthStatus = 'ok';
  const reasons: string[] = [];
  for (const [label, ratio] of parts) {
    if (ratio === null) continue;
    const pct = `${label}使用率 ${(ratio * 100).toFixed(1)}%`;
    if (ratio >= USAGE_ERROR) {
      status = 'error';
      reasons.push(pct);
    } else if (ratio >= USAGE_WARN) {
      if (status === 'ok') status = 'warning';
      reasons.push(pct);
    }
  }
  return { status, reason: reasons.join('；') };
}

export async function overviewRoutes(app: FastifyInstance): Promise<void> {
  const db = app.db;
  const k = db.kysely;

  async function serverCard(): Promise<ServerCard> {
    const s = app.serverProbe.snapshot();
    const nodes = await k
      .selectFrom('sysMonitorNode')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('updateTime', '>=', Date.now() - 3 * NODE_HEARTBEAT_MS)
      .where('nodeId', '!=', s.nodeId)
      .executeTakeFirst();
    const health = usageStatus([
      ['CPU ', s.cpu.hostUsage],
      ['内存', s.memory.total ? s.memory.used / s.memory.total : null],
      ['磁盘', s.disk?.total ? s.disk.used / s.disk.total : null],
    ]);
    return {
      ...health,
      time: s.time,
      component: 'monitor/server/index',
      cpuUsage: s.cpu.hostUsage,
      cores: s.cpu.cores,
      memoryUsed: s.memory.used,
      memoryTotal: s.memory.total,
      diskUsed: s.disk?.used ?? null,
      diskTotal: s.disk?.total ?? null,
      uptimeSec: s.process.uptimeSec,
      nodes: 1 + Number(nodes?.n ?? 0),
    };
  }

  async function databaseCard(): Promise<DatabaseCard> {
    const stats = db.sqlStats;
    const summary = stats?.summary() ?? { statements: 0, count: 0, errors: 0, since: Date.now() };
    const slowStatements = (stats?.top('maxMs', Number.MAX_SAFE_INTEGER) ?? []).filter((r) => r.maxMs >= SLOW_STATEMENT_MS).length;
    let sizeBytes: number | null = null;
    let cacheHitRatio: number | null = null;
    if (db.dialect === 'postgres') {
      const row = (
        await sql<{ size: string; hit: string | null; read: string | null }>`select pg_database_size(current_database()) as size,
          (select blks_hit from pg_stat_database where datname = current_database()) as hit,
          (select blks_read from pg_stat_database where datname = current_database()) as read`.execute(k)
      ).rows[0];
      sizeBytes = Number(row?.size ?? 0);
      const hit = Number(row?.hit ?? 0);
      const read = Number(row?.read ?? 0);
      cacheHitRatio = hit + read > 0 ? hit / (hit + read) : null;
    } else if (db.sqliteFile) {
      const size = (f: string) => {
        try {
          return fs.statSync(f).size;
        } catch {
          return 0;
        }
      };
      sizeBytes = size(db.sqliteFile) + size(`${db.sqliteFile}-wal`);
    }
    const reasons: string[] = [];
    if (summary.errors > 0) reasons.push(`执行出错 ${summary.errors} 次`);
    if (slowStatements > 0) reasons.push(`慢语句 ${slowStatements} 条（≥ ${SLOW_STATEMENT_MS} ms）`);
    return {
      status: reasons.length ? 'warning' : 'ok',
      reason: reasons.join('；'),
      time: Date.now(),
      component: 'monitor/druid/index',
      dialect: db.dialect,
      sizeBytes,
      statements: summary.statements,
      executions: summary.count,
      errors: summary.errors,
      slowStatements,
      slowMs: SLOW_STATEMENT_MS,
      cacheHitRatio,
      since: summary.since,
    };
  }

  async function cacheCard(): Promise<CacheCard> {
    const cache = app.cache;
    const stats = cache.stats();
    const keys = (await Promise.all(stats.map((s) => cache.keys(s.name)))).reduce((n, list) => n + list.length, 0);
    const info = (await cache.backend.info()) as { approxBytes?: number; info?: Record<string, string> };
    const memoryBytes = info.approxBytes ?? (info.info?.used_memory ? Number(info.info.used_memory) : null);
    const hits = stats.reduce((n, s) => n + s.hits, 0);
    const misses = stats.reduce((n, s) => n + s.misses, 0);
    const errors = stats.reduce((n, s) => n + s.errors, 0);
    return {
      status: errors > 0 ? 'warning' : 'ok',
      reason: errors > 0 ? `缓存读写出错 ${errors} 次` : '',
      time: Date.now(),
      component: 'monitor/cache/index',
      backend: cache.backend.kind,
      keys,
      memoryBytes,
      hits,
      misses,
      hitRate: hits + misses ? hits / (hits + misses) : 0,
    };
  }

  async function onlineCard(): Promise<OnlineCard> {
    const now = Date.now();
    const row = await k
      .selectFrom('sysSession')
      .select((eb) => [eb.fn.countAll().as('sessions'), eb.fn.count('userId').distinct().as('users')])
      .where('revoked', '=', 0)
      .where('expireTime', '>', now)
      .executeTakeFirst();
    return { status: 'ok', reason: '', time: now, component: 'monitor/online/index', sessions: Number(row?.sessions ?? 0), users: Number(row?.users ?? 0) };
  }

  async function jobsCard(): Promise<JobsCard> {
    const now = Date.now();
    const counts = await k
      .selectFrom('sysJob')
      .select(['status', (eb) => eb.fn.countAll().as('n')])
      .groupBy('status')
      .execute();
    const count = (status: string) => Number(counts.find((c) => c.status === status)?.n ?? 0);
    const runs = await k
      .selectFrom('sysJobLog')
      .select(['status', (eb) => eb.fn.countAll().as('n')])
      .where('startTime', '>=', now - DAY_MS)
      .groupBy('status')
      .execute();
    const failed24h = Number(runs.find((r) => r.status === RUN_STATUS.FAILED)?.n ?? 0);
    const next = await k
      .selectFrom('sysJob')
      .select(['jobId', 'jobName', 'nextFireTime'])
      .where('status', '=', JOB_STATUS.NORMAL)
      .where('nextFireTime', 'is not', null)
      .orderBy('nextFireTime')
      .limit(3)
      .execute();
    return {
      status: failed24h > 0 ? 'error' : 'ok',
      reason: failed24h > 0 ? `近 24 小时失败 ${failed24h} 次` : '',
      time: now,
      component: 'monitor/job/index',
      active: count(JOB_STATUS.NORMAL),
      paused: count(JOB_STATUS.PAUSED),
      failed24h,
      runs24h: runs.reduce((n, r) => n + Number(r.n), 0),
      next: next.map((j) => ({ jobId: j.jobId, jobName: j.jobName, nextFireTime: Number(j.nextFireTime) })),
    };
  }

  async function errorsCard(): Promise<ErrorsCard> {
    const now = Date.now();
    const since = now - DAY_MS;
    const ops = await sql<{ n: number | string }>`select count(*) as n from sys_oper_log where status = 1 and oper_time >= ${since}`.execute(k);
    const logins = await sql<{ n: number | string }>`select count(*) as n from sys_logininfor where status = '1' and login_time >= ${since}`.execute(k);
    // Read through the camel-case plugin: the columns come back as errorMsg, operTime.
    const recent = await sql<{ title: string | null; errorMsg: string | null; operTime: number | string }>`select title, error_msg, oper_time
      from sys_oper_log where status = 1 and oper_time >= ${since} order by oper_time desc, oper_id desc limit 5`.execute(k);
    const failedOperations24h = Number(ops.rows[0]?.n ?? 0);
    const failedLogins24h = Number(logins.rows[0]?.n ?? 0);
    const reasons: string[] = [];
    if (failedOperations24h > 0) reasons.push(`近 24 小时操作失败 ${failedOperations24h} 次`);
    if (failedLogins24h > 0) reasons.push(`近 24 小时登录失败 ${failedLogins24h} 次`);
    return {
      status: reasons.length ? 'warning' : 'ok',
      reason: reasons.join('；'),
      time: now,
      component: 'monitor/operlog/index',
      failedOperations24h,
      failedLogins24h,
      recent: recent.rows.map((r) => ({ title: r.title ?? '', message: r.errorMsg ?? '', time: Number(r.operTime) })),
    };
  }

  app.get('/dev-api/monitor/overview', { config: { permission: 'monitor:overview:list', write: false } }, async () => {
    const [server, database, cache, online, jobs, errors] = await Promise.all([
      serverCard(),
      databaseCard(),
      cacheCard(),
      onlineCard(),
      jobsCard(),
      errorsCard(),
    ]);
    const answer: MonitorOverview = { time: Date.now(), server, database, cache, online, jobs, errors };
    return ok(answer);
  });
}
