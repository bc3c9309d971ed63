import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerJobHandler, unregisterJobHandler } from '../../../server/monitor/handlers.js';
import { backends, startServer, type TestServer } from '../harness.js';

/**
 * 定时任务 (server/monitor/): refusals in Chinese, 执行一次 and its log, pausing, a dead process's run marked failed, and
 * exactly-once firing with two server processes on one PostgreSQL schema.
 */

const JOB = '/dev-api/monitor/job';
const LOG = '/dev-api/monitor/jobLog';
const FAST = { jobs: { enabled: true, tickMs: 100, leaseMs: 600, graceMs: 0 } };

let release: () => void = () => {};
const hang = new Promise<void>((resolve) => {
  release = resolve;
});

registerJobHandler<{ fail?: boolean }>({
  name: 'test.echo',
  title: '测试：回声',
  paramsSchema: { properties: { fail: { type: 'boolean', title: '失败' } } },
  run: (_ctx, params) => {
    if (params.fail) throw new Error('按要求失败');
    return '回声完成';
  },
});
registerJobHandler({
  name: 'test.hang',
  title: '测试：卡住',
  // Ignores the shutdown signal, like a process killed in the middle of a run.
  run: async () => {
    await hang;
    return '结束';
  },
});

afterAll(() => {
  release();
  unregisterJobHandler('test.echo');
  unregisterJobHandler('test.hang');
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  let v = await read();
  while (!done(v) && Date.now() < until) {
    await sleep(100);
    v = await read();
  }
  return v;
}

function jobBody(over: Record<string, unknown> = {}) {
  return {
    jobName: '测试任务',
    jobGroup: 'DEFAULT',
    handlerName: 'test.echo',
    handlerParams: '{}',
    cronExpression: '0 0 3 * * ?',
    misfirePolicy: '3',
    concurrent: '1',
    status: '0',
    ...over,
  };
}

interface LogRow {
  jobLogId: number;
  status: string;
  jobMessage: string | null;
  exceptionInfo: string | null;
  fireTime: number | null;
  triggerType: string;
  owner: string;
}

describe.each(backends)('定时任务 (%s)', (backend) => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startServer(backend, FAST);
    token = await server.login('admin', 'admin123');
  });
  afterAll(async () => {
    await server?.close();
  });

  async function create(over: Record<string, unknown> = {}) {
    return server.call<{ jobId: number }>('POST', JOB, { token, body: jobBody(over) });
  }
  async function logs(jobId: number): Promise<LogRow[]> {
    const res = await server.call('GET', `${LOG}/list`, { token, query: { jobId, pageSize: 500 } });
    expect(res.body.code).toBe(200);
    return res.body.rows as LogRow[];
  }

  it('lists the built-in jobs and the registered handlers', async () => {
    const list = await server.call('GET', `${JOB}/list`, { token });
    expect(list.body.code).toBe(200);
    const names = (list.body.rows as Array<{ handlerName: string }>).map((r) => r.handlerName);
    expect(names).toEqual(expect.arrayContaining(['purgeExpiredSessions', 'purgeRequestNonces', 'reviewTimeoutReminder', 'dailyFigures']));
    const handlers = await server.call<Array<{ name: string; title: string }>>('GET', `${JOB}/handlers`, { token });
    expect(handlers.body.data?.map((h) => h.name)).toEqual(expect.arrayContaining(['purgeExpiredSessions', 'dailyFigures', 'test.echo']));
  });

  it('refuses a handler that is not registered, a bad cron expression and bad parameters, in Chinese', async () => {
    const unknown = await create({ jobName: '乱调用', handlerName: 'java.lang.Runtime.exec' });
    expect(unknown.body).toMatchObject({ code: 500, msg: "新增任务'乱调用'失败，处理器'java.lang.Runtime.exec'不存在，请从列表中选择" });
    const cron = await create({ jobName: '坏表达式', cronExpression: '61 * * * * ?' });
    expect(cron.body).toMatchObject({ code: 500, msg: "新增任务'坏表达式'失败，Cron表达式不正确" });
    const params = await create({ jobName: '坏参数', handlerParams: '{"fail": "是"}' });
    expect(params.body.code).toBe(500);
    expect(params.body.msg).toContain("新增任务'坏参数'失败，任务参数有误");
    const notJson = await create({ jobName: '坏参数', handlerParams: 'rm -rf /' });
    expect(notJson.body.msg).toBe('新增任务\'坏参数\'失败，任务参数必须是 JSON 对象，例如 {"days": 30}');
    const list = await server.call('GET', `${JOB}/list`, { token, query: { jobName: '坏' } });
    expect(list.body.total).toBe(0);
  });

  it('shows the next five fire times of an expression and refuses an invalid one', async () => {
    const next = await server.call<number[]>('GET', `${JOB}/cronNext`, { token, query: { cronExpression: '0 0/10 * * * ?' } });
    expect(next.body.code).toBe(200);
    const times = next.body.data ?? [];
    expect(times).toHaveLength(5);
    for (let i = 1; i < 5; i++) expect(times[i] - times[i - 1]).toBe(10 * 60 * 1000);
    const bad = await server.call('GET', `${JOB}/cronNext`, { token, query: { cronExpression: 'every day' } });
    expect(bad.body).toMatchObject({ code: 500, msg: 'Cron表达式不正确' });
  });

  it('执行一次 runs the job and logs success or the failure with its error', async () => {
    const ok = await create({ jobName: '回声', status: '1' });
    const jobId = ok.body.data?.jobId as number;
    expect((await server.call('PUT', `${JOB}/run`, { token, body: { jobId } })).body.code).toBe(200);
    let rows = await waitFor(
      () => logs(jobId),
      (r) => r.length === 1 && r[0].status !== '2',
    );
    expect(rows[0]).toMatchObject({ status: '0', jobMessage: '回声完成', triggerType: 'manual' });

    const failing = await create({ jobName: '失败', status: '1', handlerParams: '{"fail": true}' });
    const failId = failing.body.data?.jobId as number;
    await server.call('PUT', `${JOB}/run`, { token, body: { jobId: failId } });
    rows = await waitFor(
      () => logs(failId),
      (r) => r.length === 1 && r[0].status !== '2',
    );
    expect(rows[0].status).toBe('1');
    expect(rows[0].exceptionInfo).toContain('按要求失败');
    const missing = await server.call('PUT', `${JOB}/run`, { token, body: { jobId: 999999 } });
    expect(missing.body).toMatchObject({ code: 500, msg: '任务不存在或已被删除' });
  });

  it('fires every second while running and stops firing once paused', async () => {
    const res = await create({ jobName: '每秒', cronExpression: '* * * * * ?', concurrent: '0' });
    const jobId = res.body.data?.jobId as number;
    const running = await waitFor(
      () => logs(jobId),
      (r) => r.length >= 2,
      6000,
    );
    expect(running.length).toBeGreaterThanOrEqual(2);
    expect(running.every((r) => r.triggerType === 'cron')).toBe(true);
    const paused = await server.call('PUT', `${JOB}/changeStatus`, { token, body: { jobId, status: '1' } });
    expect(paused.body).toMatchObject({ code: 200, msg: '暂停成功' });
    const audit = await server.app.db.kysely
      .selectFrom('sysOperLog')
      .select(['title', 'status', 'operName'])
      .where('method', '=', 'sys_job.changeStatus')
      .execute();
    expect(audit).toEqual([{ title: '定时任务', status: 0, operName: 'admin' }]);
    await sleep(300); // a firing claimed just before the pause may still log
    const atPause = (await logs(jobId)).length;
    await sleep(2200);
    expect((await logs(jobId)).length).toBe(atPause);
  });

  it('a run whose process died is marked failed after restart (lease expired), not running forever', async () => {
    const res = await create({ jobName: '卡住', handlerName: 'test.hang', status: '1' });
    const jobId = res.body.data?.jobId as number;
    await server.call('PUT', `${JOB}/run`, { token, body: { jobId } });
    const started = await waitFor(
      () => logs(jobId),
      (r) => r.length === 1,
    );
    expect(started[0].status).toBe('2');
    await server.restart(); // the old process stops renewing its lease and never finishes the row
    token = await server.login('admin', 'admin123');
    const after = await waitFor(
      () => logs(jobId),
      (r) => r[0]?.status === '1',
      5000,
    );
    expect(after[0].status).toBe('1');
    expect(after[0].exceptionInfo).toBe('执行进程已中断（租约到期未续约），本次执行视为失败');
  });
});

describe.skipIf(!backends.includes('postgres'))('定时任务: two server processes on one PostgreSQL schema', () => {
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    a = await startServer('postgres', FAST);
    b = await startServer('postgres', FAST, a);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('runs each firing of an every-second job exactly once', async () => {
    const tokenA = await a.login('admin', 'admin123');
    const tokenB = await b.login('admin', 'admin123'); // starts the second process's runner
    const res = await a.call<{ jobId: number }>('POST', JOB, {
      token: tokenA,
      body: jobBody({ jobName: '双进程', cronExpression: '* * * * * ?', concurrent: '0' }),
    });
    const jobId = res.body.data?.jobId as number;
    await sleep(4500);
    await b.call('PUT', `${JOB}/changeStatus`, { token: tokenB, body: { jobId, status: '1' } });
    await sleep(300);
    const list = await a.call('GET', `${LOG}/list`, { token: tokenA, query: { jobId, pageSize: 500 } });
    const rows = list.body.rows as LogRow[];
    expect(rows.length).toBeGreaterThanOrEqual(3);
    const firings = new Set(rows.map((r) => r.fireTime));
    expect(firings.size).toBe(rows.length); // no firing ran twice
    for (const r of rows) expect(r.fireTime! % 1000).toBe(0);
  });
});
