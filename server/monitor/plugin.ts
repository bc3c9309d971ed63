import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type CacheLayer, cachePrefixFor, createCache } from '../cache/index.js';
import { registerBuiltinJobs } from './builtinJobs.js';
import { Metrics } from './metrics.js';
import { JobRunner } from './runner.js';
import { ServerProbe } from './serverInfo.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The cache layer (server/cache/): memory, or Redis with REDIS_URL. */
    cache: CacheLayer;
    /** This process's job runner (server/monitor/runner.ts). */
    jobs: JobRunner;
    metrics: Metrics;
    serverProbe: ServerProbe;
  }
  interface FastifyRequest {
    monitorStart?: bigint;
  }
}

/**
 * Writes that change what a cache holds: any non-GET request under one of these paths clears that cache, after the
 * handler has answered (and its transaction committed) and before the answer leaves — so the caller's next read and
 * every other process's see the change. Refused writes clear too (harmless: the next read reloads).
 */
const INVALIDATES: Array<[prefix: string, cache: string]> = [
  ['/dev-api/system/dict/', 'dict'],
  ['/dev-api/system/config', 'config'],
  ['/dev-api/system/menu', 'menu'],
  ['/dev-api/system/role', 'menu'],
  ['/dev-api/api/auth/menuSave', 'menu'],
  ['/dev-api/api/auth/menuDel', 'menu'],
  ['/dev-api/system/platform', 'platform'],
  ['/dev-api/system/settings/', 'platform'],
];

/** How often each process refreshes its row of sys_monitor_node (服务监控 lists rows fresher than 3 × this). */
export const NODE_HEARTBEAT_MS = 10_000;

function cachePrefix(app: FastifyInstance): string {
  return cachePrefixFor(app.config);
}

function routeOf(request: FastifyRequest): string {
  return request.routeOptions?.url ?? 'unmatched';
}

/**
 * The monitoring core, registered first so every later route sees it: the cache, SQL statistics (already collected by
 * the database layer), request metrics, the job runner and this process's 服务监控 heartbeat.
 */
async function monitorCore(app: FastifyInstance) {
  const cache = createCache(app.config.redisUrl, cachePrefix(app), app.config.cacheEnabled !== false);
  const metrics = new Metrics(cache);
  const jobsConfig = app.config.jobs ?? {};
  const runner = new JobRunner(
    app.db,
    app.log,
    {
      tickMs: jobsConfig.tickMs ?? 1000,
      leaseMs: jobsConfig.leaseMs ?? 30_000,
      graceMs: jobsConfig.graceMs ?? 5000,
    },
    app.config,
  );
  runner.onRun = (handler, status, ms) => {
    metrics.jobRuns.inc({ handler, status: status === '0' ? 'success' : 'failure' });
    metrics.jobDuration.observe({ handler }, ms / 1000);
  };
  const probe = new ServerProbe(runner.owner, app.config.dataDir);
  registerBuiltinJobs();

  app.decorate('cache', cache);
  app.decorate('metrics', metrics);
  app.decorate('jobs', runner);
  app.decorate('serverProbe', probe);

  // Callback-style hooks where nothing is awaited: an async hook costs a promise and a microtask turn per request.
  app.addHook('onRequest', (request, _reply, done) => {
    request.monitorStart = process.hrtime.bigint();
    done();
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      const path = request.url.split('?')[0];
      const names = new Set(INVALIDATES.filter(([prefix]) => path.startsWith(prefix)).map(([, name]) => name));
      for (const name of names) {
        try {
          await cache.clear(name);
        } catch (err) {
          request.log.error({ err }, '缓存失效失败');
        }
      }
    }
    const route = routeOf(request);
    if (reply.statusCode >= 500) metrics.errors.inc({ route, code: String(reply.statusCode) });
    else if (typeof payload === 'string' && payload.startsWith('{"code":')) {
      const code = /^\{"code":(\d+)/.exec(payload)?.[1];
      if (code && code !== '200') metrics.errors.inc({ route, code });
    }
    return payload;
  });

  app.addHook('onResponse', (request, reply, done) => {
    const route = routeOf(request);
    if (route !== '/metrics') {
      metrics.requests.inc({ method: request.method, route, status: String(reply.statusCode) });
      if (request.monitorStart) metrics.latency.observe({ method: request.method, route }, Number(process.hrtime.bigint() - request.monitorStart) / 1e9);
    }
    done();
  });

  let heartbeat: NodeJS.Timeout | null = null;
  const beat = async () => {
    const info = JSON.stringify(probe.snapshot());
    const now = Date.now();
    await app.db.kysely
      .insertInto('sysMonitorNode')
      .values({ nodeId: runner.owner, info, updateTime: now })
      .onConflict((oc) => oc.column('nodeId').doUpdateSet({ info, updateTime: now }))
      .execute();
    // Rows of processes gone for a day are of no use to anyone.
    await app.db.kysely
      .deleteFrom('sysMonitorNode')
      .where('updateTime', '<', now - 24 * 3600 * 1000)
      .execute();
  };

  app.addHook('onReady', async () => {
    await beat().catch((err) => app.log.warn({ err }, '服务监控心跳写入失败'));
    heartbeat = setInterval(() => void beat().catch(() => {}), NODE_HEARTBEAT_MS);
    heartbeat.unref();
    if (jobsConfig.enabled !== false) await runner.start();
  });

  app.addHook('onClose', async () => {
    if (heartbeat) clearInterval(heartbeat);
    await runner.stop();
    probe.stop();
    await app.db.kysely
      .deleteFrom('sysMonitorNode')
      .where('nodeId', '=', runner.owner)
      .execute()
      .catch(() => {});
    await cache.close();
  });
}

export const monitorCorePlugin = fp(monitorCore, { name: 'monitor-core' });
