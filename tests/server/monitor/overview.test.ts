import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MonitorOverview } from '../../../common/monitor/overview.js';
import { backends, startServer, type TestServer } from '../harness.js';

/** 监控总览 (GET /dev-api/monitor/overview): the monitor pages' figures in one answer, each card timed and coloured. */
describe.each(backends)('监控总览 (%s)', (backend) => {
  let s: TestServer;
  let admin: string;
  beforeAll(async () => {
    s = await startServer(backend, { jobs: { enabled: false } });
    admin = await s.login('admin', 'admin123');
  });
  afterAll(async () => {
    await s?.close();
  });

  const overview = async (token = admin) => {
    const res = await s.call<MonitorOverview>('GET', '/dev-api/monitor/overview', { token });
    expect(res.body.code, res.body.msg).toBe(200);
    return res.body.data as MonitorOverview;
  };

  it('answers every card with real figures and the time of its reading', async () => {
    const before = Date.now();
    await s.call('GET', '/dev-api/system/dict/data/type/sys_user_sex', { token: admin });
    const o = await overview();
    for (const card of [o.server, o.database, o.cache, o.online, o.jobs, o.errors]) {
      expect(card.time).toBeGreaterThanOrEqual(before);
      expect(['ok', 'warning', 'error']).toContain(card.status);
      expect(card.component).toMatch(/^monitor\//);
    }
    expect(o.server.cores).toBeGreaterThan(0);
    expect(o.server.memoryTotal).toBeGreaterThan(o.server.memoryUsed);
    expect(o.server.uptimeSec).toBeGreaterThanOrEqual(0);
    expect(o.server.nodes).toBeGreaterThanOrEqual(1);
    expect(o.database.dialect).toBe(backend);
    expect(o.database.sizeBytes).toBeGreaterThan(0);
    expect(o.database.executions).toBeGreaterThan(0);
    if (backend === 'postgres') expect(o.database.cacheHitRatio).toBeGreaterThan(0);
    else expect(o.database.cacheHitRatio).toBeNull();
    expect(o.cache.backend).toBe('memory');
    expect(o.cache.hits + o.cache.misses).toBeGreaterThan(0);
    expect(o.online.sessions).toBeGreaterThanOrEqual(1);
    expect(o.online.users).toBeGreaterThanOrEqual(1);
    expect(o.jobs.active + o.jobs.paused).toBeGreaterThan(0);
  });

  it('a failed job run and failed operations in the last 24 h turn their cards red / amber, with the reason', async () => {
    const k = s.app.db.kysely;
    const job = await k.selectFrom('sysJob').select(['jobId', 'jobName', 'jobGroup', 'handlerName']).executeTakeFirstOrThrow();
    const now = Date.now();
    await k
      .insertInto('sysJobLog')
      .values({
        ...job,
        handlerParams: null,
        triggerType: 'cron',
        jobMessage: '失败',
        status: '1',
        exceptionInfo: 'boom',
        owner: null,
        leaseUntil: null,
        fireTime: now,
        startTime: now - 1000,
        endTime: now,
        durationMs: 1000,
      })
      .execute();
    // A refused write (the operation log keeps it as failed) and a failed sign-in.
    const refused = await s.call('POST', '/dev-api/system/memo', { token: admin, body: { title: '' } });
    expect(refused.body.code).not.toBe(200);
    await s.call('POST', '/dev-api/login', { body: { username: 'admin', password: 'wrong-password' } });
    const o = await overview();
    expect(o.jobs.failed24h).toBe(1);
    expect(o.jobs).toMatchObject({ status: 'error', reason: '近 24 小时失败 1 次' });
    expect(o.errors.failedOperations24h).toBeGreaterThanOrEqual(1);
    expect(o.errors.status).toBe('warning');
    expect(o.errors.recent[0]).toMatchObject({ title: '备忘录', message: '标题不能为空' });
    expect(o.errors.recent[0].time).toBeGreaterThanOrEqual(now);
  });

  it('needs monitor:overview:list', async () => {
    const operator = await s.login('operator', 'operator123');
    const res = await s.call('GET', '/dev-api/monitor/overview', { token: operator });
    expect(res.body.code).toBe(403);
  });
});
