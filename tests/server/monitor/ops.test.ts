import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normaliseSql } from '../../../server/db/sqlStats.js';
import { backends, startServer, type TestServer } from '../harness.js';

/** 数据监控, 服务监控 and the operator endpoints /health, /ready, /metrics (token-protected). */

describe.each(backends)('monitoring endpoints (%s)', (backend) => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startServer(backend, { metricsToken: 'm-secret', jobs: { enabled: false } });
    token = await server.login('admin', 'admin123');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('/health and /ready answer UP once migrations are done', async () => {
    const health = await server.app.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({ status: 'UP' });
    const ready = await server.app.inject({ method: 'GET', url: '/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'UP', database: 'UP' });
  });

  it('/metrics needs the configured token and speaks Prometheus text', async () => {
    expect((await server.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    expect((await server.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer wrong' } })).statusCode).toBe(401);
    await server.call('GET', '/dev-api/system/dict/data/type/sys_user_sex', { token });
    await server.call('GET', '/dev-api/system/dict/data/type/sys_user_sex', { token });
    const res = await server.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer m-secret' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toContain('zy_http_requests_total{method="GET",route="/dev-api/system/dict/data/type/:dictType",status="200"} 2');
    expect(res.body).toContain('zy_http_request_duration_seconds_bucket');
    expect(res.body).toMatch(/zy_cache_hit_ratio\{cache="dict"\} 0\.5/);
    expect(res.body).toContain('zy_job_runs_total');
  });

  it('数据监控 shows the database and normalised statements without values, and resets', async () => {
    await server.call('GET', '/dev-api/monitor/logininfor/list', { token, query: { userName: 'secret-value-xyz' } });
    const res = await server.call<{ dialect: string; database: Record<string, unknown>; frequent: Array<{ sql: string; count: number; meanMs: number }> }>(
      'GET',
      '/dev-api/monitor/druid',
      { token },
    );
    expect(res.body.code).toBe(200);
    expect(res.body.data?.dialect).toBe(backend);
    expect(String(res.body.data?.database.version)).not.toBe('');
    if (backend === 'sqlite') {
      const database = res.body.data?.database ?? {};
      expect(database.journalMode).toBe('wal');
      // The page cache in bytes (SQLite's cache_size is negative KiB or positive pages: -16000 was shown as is).
      const pages = Number(database.pageSize);
      expect(Number(database.cacheBytes)).toBeGreaterThanOrEqual(pages * 100);
      // The file by name only: the server's folders are not shown.
      expect(database.file).toBe('zhiyuan.sqlite');
      expect(res.raw).not.toContain(server.dataDir);
    } else expect(res.body.data?.database.pool).toMatchObject({ max: 10 });
    expect(res.raw).not.toContain('secret-value-xyz');
    expect(res.body.data?.frequent.length).toBeGreaterThan(0);
    expect((await server.call('DELETE', '/dev-api/monitor/druid/reset', { token })).body.msg).toBe('重置成功');
  });

  it('服务监控 lists this process with CPU, memory, heap, event loop and host facts', async () => {
    const res = await server.call<{ nodes: Array<Record<string, Record<string, unknown>>> }>('GET', '/dev-api/monitor/server', { token });
    expect(res.body.code).toBe(200);
    const self = res.body.data?.nodes[0];
    expect(self?.process.pid).toBe(process.pid);
    expect(Number(self?.memory.total)).toBeGreaterThan(0);
    expect(self?.eventLoop).toHaveProperty('p99Ms');
    expect(self?.host).toHaveProperty('hostname');
  });
});

describe('normalised SQL', () => {
  it('keeps no literal or parameter value', () => {
    expect(normaliseSql(`select * from t where a = $1 and b = 'x''y' and c in ($2, $3, $4) limit 20`)).toBe(
      'select * from t where a = ? and b = ? and c in (?, …) limit ?',
    );
  });
});

describe('metrics without a token configured', () => {
  it('/metrics does not exist', async () => {
    const server = await startServer('sqlite', { jobs: { enabled: false } });
    try {
      expect((await server.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await server.close();
    }
  });
});
