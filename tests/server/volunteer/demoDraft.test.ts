import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../harness.js';
import { studentId } from './helpers.js';

/**
 * The demo's draft plan (王五, 物理·化学·地理) as `npm start` makes it: the seed, then the Shandong history loaded at
 * start (ADMISSION_HISTORY=1, as outside the tests). The draft used to be picked from the seed year's lines without
 * the subject rules, so on the 2026 catalogue it held 天津医科大学 临床医学 (needs 生物) and could not be submitted.
 */
describe('演示数据：王五的草稿方案可以直接提交', () => {
  let s: TestServer;
  let wang: number;
  const was = process.env.ADMISSION_HISTORY;

  beforeAll(async () => {
    process.env.ADMISSION_HISTORY = '1';
    s = await startServer('sqlite', { jobs: { enabled: false } });
    wang = await studentId(s, '王五');
  });
  afterAll(async () => {
    if (was === undefined) delete process.env.ADMISSION_HISTORY;
    else process.env.ADMISSION_HISTORY = was;
    await s?.close();
  });

  it('holds 2026 lines 王五 may fill, and the expert submits it as it is', async () => {
    const expert = await s.login('expert', 'expert123');
    const info = await s.call<{
      plan: { version: number; status: string };
      items: Array<{ year: number; stale?: boolean; schoolName: string; majorName: string }>;
    }>('POST', '/appv2/api/index/zyInfo', { token: expert, body: { studentId: wang } });
    expect(info.body.code, info.body.msg).toBe(200);
    const { plan, items } = info.body.data ?? { plan: { version: 0, status: '' }, items: [] };
    expect(plan.status).toBe('draft');
    expect(items.length).toBe(6);
    for (const it of items) {
      expect(it.stale ?? false, `${it.schoolName} ${it.majorName}`).toBe(false);
      expect(it.year).toBe(2026);
    }
    const submitted = await s.call('POST', '/dev-api/api/Subscriber/submit', { token: expert, body: { studentId: wang, version: plan.version } });
    expect(submitted.body.code, submitted.body.msg).toBe(200);
  });
});
