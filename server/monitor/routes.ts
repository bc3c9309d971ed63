import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { CACHE_NAMES } from '../cache/index.js';
import { migrations } from '../db/migrations/index.js';
import { BusinessType, type BusinessTypeCode, recordOperation } from '../engine/operlog.js';
import { engineDb } from '../engine/store.js';
import { fail, ok } from '../http/envelope.js';
import { cronProblem, nextFireTimes } from './cron.js';
import { listJobHandlers } from './handlers.js';
import { onlineRoutes } from './online.js';
import { overviewRoutes } from './overview.js';
import { NODE_HEARTBEAT_MS } from './plugin.js';
import { JOB_STATUS } from './tables.js';

const idParam = { type: 'object', properties: { jobId: { type: 'integer', title: '任务编号', minimum: 1 } }, required: ['jobId'] } as const;

/**
 * 系统监控 calls beyond the schema engine (docs/monitor.md): 定时任务 extras (执行一次, 状态修改, handlers, next fire
 * times), 缓存监控 / 缓存列表, 数据监控, 服务监控, and for operators /health, /ready and /metrics.
 */
export async function monitorRoutes(app: FastifyInstance) {
  const db = app.db;
  const k = db.kysely;

  /** Writes that change a job's state are in the operation log (操作日志), refused ones included. */
  async function audited<T>(request: FastifyRequest, businessType: BusinessTypeCode, method: string, param: unknown, run: () => Promise<T>): Promise<T> {
    const start = Date.now();
    try {
      const result = await run();
      await recordOperation(engineDb(db), request, { title: '定时任务', businessType, method, param, result, status: 0, costTime: Date.now() - start });
      return result;
    } catch (err) {
      const errorMsg = err instanceof Error ? err.message : String(err);
      await recordOperation(engineDb(db), request, { title: '定时任务', businessType, method, param, status: 1, errorMsg, costTime: Date.now() - start });
      throw err;
    }
  }

  // ── 定时任务 ───────────────────────────────────────────────────────────────────────────────────────────────────────
  /** The registered handlers (处理器 select of the job form, with their parameter schemas). */
  app.get('/dev-api/monitor/job/handlers', { config: { permission: 'monitor:job:list', write: false } }, async () => ok(listJobHandlers()));

  /** A cron expression's next five fire times (the form shows them while typing). */
  app.get<{ Querystring: { cronExpression?: string } }>(
    '/dev-api/monitor/job/cronNext',
    { config: { permission: 'monitor:job:list', write: false } },
    async (request) => {
      const expression = String(request.query.cronExpression ?? '');
      const problem = cronProblem(expression);
      if (problem) throw fail(problem);
      return ok(nextFireTimes(expression, 5));
    },
  );

  /** 执行一次: runs the job now in this process (also a paused one); answers when it has started. */
  app.put<{ Body: { jobId: number } }>(
    '/dev-api/monitor/job/run',
    { config: { permission: 'monitor:job:edit', write: true }, schema: { body: idParam } },
    (request) =>
      audited(request, BusinessType.OTHER, 'sys_job.run', request.body, async () => {
        const job = await k.selectFrom('sysJob').selectAll().where('jobId', '=', request.body.jobId).executeTakeFirst();
        if (!job) throw fail('任务不存在或已被删除');
        void app.jobs.fire(job, 'manual').catch((err) => request.log.error({ err }, '执行任务失败'));
        return ok(undefined, '执行成功，结果请查看调度日志');
      }),
  );

  /** 状态修改 (RuoYi changeStatus): 0 正常 resumes from now on, 1 暂停 stops every firing. */
  app.put<{ Body: { jobId: number; status: string } }>(
    '/dev-api/monitor/job/changeStatus',
    {
      config: { permission: 'monitor:job:edit', write: true },
      schema: {
        body: {
          type: 'object',
          required: ['jobId', 'status'],
          properties: { jobId: idParam.properties.jobId, status: { type: 'string', title: '状态', enum: ['0', '1'] } },
        },
      },
    },
    (request) =>
      audited(request, BusinessType.UPDATE, 'sys_job.changeStatus', request.body, async () => {
        const { jobId, status } = request.body;
        const job = await k.selectFrom('sysJob').select(['cronExpression']).where('jobId', '=', jobId).executeTakeFirst();
        if (!job) throw fail('任务不存在或已被删除');
        const next = status === JOB_STATUS.NORMAL ? (nextFireTimes(job.cronExpression, 1)[0] ?? null) : null;
        await k
          .updateTable('sysJob')
          .set((eb) => ({ status, nextFireTime: next, updateBy: request.auth?.userName ?? '', updateTime: Date.now(), version: eb('version', '+', 1) }))
          .where('jobId', '=', jobId)
          .execute();
        return ok(undefined, status === JOB_STATUS.NORMAL ? '恢复成功' : '暂停成功');
      }),
  );

  // ── 缓存监控 / 缓存列表 ────────────────────────────────────────────────────────────────────────────────────────────
  app.get('/dev-api/monitor/cache', { config: { permission: 'monitor:cache:list', write: false } }, async () => {
    const cache = app.cache;
    const names = await Promise.all(cache.stats().map(async (s) => ({ ...s, keys: (await cache.keys(s.name)).length })));
    return ok({ backend: cache.backend.kind, prefix: cache.prefix, names, info: await cache.backend.info(), process: process.memoryUsage() });
  });

  app.get('/dev-api/monitor/cache/getNames', { config: { permission: 'monitor:cache:list', write: false } }, async () =>
    ok(CACHE_NAMES.map((c) => ({ cacheName: c.name, remark: c.title, ttlSeconds: Math.round(c.ttlMs / 1000) }))),
  );

  const knownName = (name: string) => {
    if (!CACHE_NAMES.some((c) => c.name === name)) throw fail(`缓存名称'${name}'不存在`);
    return name;
  };

  app.get<{ Params: { cacheName: string } }>(
    '/dev-api/monitor/cache/getKeys/:cacheName',
    { config: { permission: 'monitor:cache:list', write: false } },
    async (request) => ok(await app.cache.keys(knownName(request.params.cacheName))),
  );

  app.get<{ Params: { cacheName: string; cacheKey: string } }>(
    '/dev-api/monitor/cache/getValue/:cacheName/:cacheKey',
    { config: { permission: 'monitor:cache:list', write: false } },
    async (request) => {
      const { cacheName, cacheKey } = request.params;
      const value = await app.cache.value(knownName(cacheName), cacheKey);
      if (value === undefined) throw fail('缓存键不存在或已过期');
      return ok({ cacheName, cacheKey, cacheValue: JSON.stringify(value, null, 2) });
    },
  );

  app.delete<{ Params: { cacheName: string } }>(
    '/dev-api/monitor/cache/clearCacheName/:cacheName',
    { config: { permission: 'monitor:cache:list', write: true } },
    async (request) => {
      await app.cache.clear(knownName(request.params.cacheName));
      return ok(undefined, '清理成功');
    },
  );

  app.delete<{ Params: { cacheName: string; cacheKey: string } }>(
    '/dev-api/monitor/cache/clearCacheKey/:cacheName/:cacheKey',
    { config: { permission: 'monitor:cache:list', write: true } },
    async (request) => {
      await app.cache.clearKey(knownName(request.params.cacheName), request.params.cacheKey);
      return ok(undefined, '清理成功');
    },
  );

  app.delete('/dev-api/monitor/cache/clearCacheAll', { config: { permission: 'monitor:cache:list', write: true } }, async () => {
    await app.cache.clearAll();
    return ok(undefined, '清理成功');
  });

  // ── 数据监控 ───────────────────────────────────────────────────────────────────────────────────────────────────────
  app.get('/dev-api/monitor/druid', { config: { permission: 'monitor:druid:list', write: false } }, async () => {
    const stats = db.sqlStats;
    const database = db.dialect === 'postgres' ? await postgresFacts() : sqliteFacts();
    return ok({
      dialect: db.dialect,
      database,
      summary: stats?.summary() ?? null,
      slowest: stats?.top('maxMs', 20) ?? [],
      frequent: stats?.top('count', 20) ?? [],
    });
  });

  app.delete('/dev-api/monitor/druid/reset', { config: { permission: 'monitor:druid:list', write: true } }, async () => {
    db.sqlStats?.reset();
    return ok(undefined, '重置成功');
  });

  async function postgresFacts() {
    const pool = db.pool;
    const version = (await sql<{ v: string }>`select version() as v`.execute(k)).rows[0]?.v ?? '';
    const conns = await sql<{
      state: string | null;
      n: number;
    }>`select state, count(*)::int as n from pg_stat_activity where datname = current_database() group by state`.execute(k);
    const size = (await sql<{ n: string }>`select pg_size_pretty(pg_database_size(current_database())) as n`.execute(k)).rows[0]?.n ?? '';
    const max = (await sql<{ setting: string }>`select setting from pg_settings where name = 'max_connections'`.execute(k)).rows[0]?.setting ?? '';
    return {
      version,
      databaseSize: size,
      maxConnections: Number(max),
      connections: conns.rows.map((r) => ({ state: r.state ?? '(后台)', count: Number(r.n) })),
      pool: pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: 10 } : null,
    };
  }

  function sqliteFacts() {
    const s = db.sqlite;
    const file = db.sqliteFile ?? '';
    const size = (f: string) => {
      try {
        return fs.statSync(f).size;
      } catch {
        return 0;
      }
    };
    const pragma = (name: string) => (s ? (s.pragma(name, { simple: true }) as unknown) : null);
    const pageSize = Number(pragma('page_size') ?? 0);
    // cache_size is a page count when positive and KiB when negative (SQLite's default -2000; ours -16000).
    const cacheSize = Number(pragma('cache_size') ?? 0);
    return {
      version: s ? (s.prepare('select sqlite_version() as v').get() as { v: string }).v : '',
      // The file's name only: the server's folders are nobody's business on a screen (docs/monitor.md).
      file: path.basename(file),
      fileSize: size(file),
      walSize: size(`${file}-wal`),
      journalMode: pragma('journal_mode'),
      pageSize: pragma('page_size'),
      pageCount: pragma('page_count'),
      freelistCount: pragma('freelist_count'),
      cacheBytes: cacheSize < 0 ? -cacheSize * 1024 : cacheSize * pageSize,
      synchronous: pragma('synchronous'),
    };
  }

  // ── 服务监控 ───────────────────────────────────────────────────────────────────────────────────────────────────────
  /** This process's live figures, and the latest of every other process that shares the database. */
  app.get('/dev-api/monitor/server', { config: { permission: 'monitor:server:list', write: false } }, async () => {
    const self = app.serverProbe.snapshot();
    const rows = await k
      .selectFrom('sysMonitorNode')
      .selectAll()
      .where('updateTime', '>=', Date.now() - 3 * NODE_HEARTBEAT_MS)
      .where('nodeId', '!=', self.nodeId)
      .orderBy('nodeId')
      .execute();
    const others = rows.map((r) => JSON.parse(r.info) as typeof self);
    return ok({ self, nodes: [self, ...others] });
  });

  // ── 监控总览: the figures above on one page (overview.ts) ──────────────────────────────────────────────────────────
  await overviewRoutes(app);
  await app.register(onlineRoutes); // 在线用户: the signed-in sessions, 强退 (online.ts)

  // ── For operators: liveness, readiness, Prometheus ────────────────────────────────────────────────────────────────
  app.get('/health', async () => ({ status: 'UP', uptimeSec: Math.round(process.uptime()) }));

  app.get('/ready', async (_request, reply) => {
    try {
      const done = await sql<{ name: string }>`select name from schema_migrations`.execute(k);
      const applied = new Set(done.rows.map((r) => r.name));
      const pending = migrations.filter((m) => !applied.has(m.name)).map((m) => m.name);
      if (pending.length) return reply.status(503).send({ status: 'DOWN', database: 'UP', pendingMigrations: pending });
      return { status: 'UP', database: 'UP', migrations: applied.size };
    } catch {
      return reply.status(503).send({ status: 'DOWN', database: 'DOWN' });
    }
  });

  app.get('/metrics', async (request, reply) => {
    const token = app.config.metricsToken;
    // No token configured: the endpoint does not exist (metrics are never public by accident).
    if (!token) return reply.status(404).send({ code: 404, msg: '资源不存在' });
    const given = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
    const a = crypto.createHash('sha256').update(given).digest();
    const b = crypto.createHash('sha256').update(token).digest();
    if (!given || !crypto.timingSafeEqual(a, b)) {
      return reply.status(401).header('www-authenticate', 'Bearer').send({ code: 401, msg: '需要有效的监控令牌（Authorization: Bearer <METRICS_TOKEN>）' });
    }
    reply.header('content-type', app.metrics.registry.contentType);
    return app.metrics.registry.metrics();
  });
}
