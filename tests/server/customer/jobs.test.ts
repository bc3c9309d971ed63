import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startServer, type TestServer } from '../harness.js';

/** The customer module's scheduled work is seeded as jobs of 定时任务 and runs through the job runner. */
describe.each(backends)('customer jobs (%s)', (backend) => {
  let s: TestServer;
  let admin: string;
  beforeAll(async () => {
    s = await startServer(backend, { jobs: { enabled: true, tickMs: 100, leaseMs: 600, graceMs: 0 } });
    admin = await s.login('admin', 'admin123');
  });
  afterAll(async () => {
    await s?.close();
  });

  it('seeds 会员卡到期 and 回收站清理 as daily jobs whose 执行一次 runs the customer rules and logs the result', async () => {
    const list = await s.call('GET', '/dev-api/monitor/job/list', { token: admin, query: { pageSize: 100 } });
    const jobs = list.body.rows as Array<{ jobId: number; jobName: string; handlerName: string; cronExpression: string }>;
    const expiry = jobs.find((j) => j.handlerName === 'expireCards');
    const purge = jobs.find((j) => j.handlerName === 'purgeRecycledCustomers');
    expect(expiry).toMatchObject({ jobName: '会员卡到期', cronExpression: '0 10 0 * * ?' });
    expect(purge).toMatchObject({ jobName: '回收站清理', cronExpression: '0 30 3 * * ?' });
    for (const [job, message] of [
      [expiry, /^已将 \d+ 张会员卡置为已过期$/],
      [purge, /^已彻底删除 \d+ 位回收站客户$/],
    ] as const) {
      expect((await s.call('PUT', '/dev-api/monitor/job/run', { token: admin, body: { jobId: job?.jobId } })).body.code).toBe(200);
      let rows: Array<{ status: string; jobMessage: string | null }> = [];
      for (let i = 0; i < 100 && !(rows.length && rows[0].status !== '2'); i++) {
        await new Promise((r) => setTimeout(r, 100));
        rows = (await s.call('GET', '/dev-api/monitor/jobLog/list', { token: admin, query: { jobId: job?.jobId as number } })).body.rows as typeof rows;
      }
      expect(rows[0]?.status).toBe('0');
      expect(rows[0]?.jobMessage).toMatch(message);
    }
  });
});
