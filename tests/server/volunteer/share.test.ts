import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startServer, type TestServer } from '../harness.js';
import { loginAll, ok, studentId, type Tokens } from './helpers.js';

/** The page a share link opens (/share/zy): no session needed, the token checked on the server, plain HTML. */
describe.each(backends)('volunteer share page on %s', (backend) => {
  let s: TestServer;
  let t: Tokens;
  let wang: number;

  beforeAll(async () => {
    s = await startServer(backend);
    t = await loginAll(s);
    wang = await studentId(s, '王五'); // the seed gives 王五 a small draft plan
  });
  afterAll(async () => {
    await s?.close();
  });

  const open = (token: string) => s.call('GET', '/share/zy', { query: { token }, sign: false });

  it('shows the plan read-only to a visitor without a session, and nothing for a forged or expired link', async () => {
    const link = await ok<{ token: string; url: string }>(s, t.expert, '/appv2/api/index/shareZY', { studentId: wang, expireHours: 2 });
    const page = await s.call('GET', link.url, { sign: false });
    expect(page.status, page.raw.slice(0, 300)).toBe(200);
    expect(String(page.headers['content-type']), page.raw.slice(0, 300)).toContain('text/html');
    expect(String(page.headers['content-type'])).toContain('text/html');
    expect(page.raw).toContain('王五 的志愿方案（只读）');
    const plan = await ok<{ items: Array<{ schoolName: string }> }>(s, t.expert, '/appv2/api/index/zyInfo', { studentId: wang });
    expect(plan.items.length).toBeGreaterThan(0);
    for (const i of plan.items) expect(page.raw).toContain(i.schoolName);
    expect(page.raw).not.toContain('<script');
    expect(page.raw).not.toMatch(/1[3-9]\d{9}/); // no mobile numbers

    const forged = await open('forged-token-000');
    expect(forged.status).toBe(404);
    expect(forged.raw).toContain('分享链接无效或已被取消');
    expect(forged.raw).not.toContain('王五');
    expect((await s.call('GET', '/share/zy', { sign: false })).raw).toContain('分享链接无效或已被取消');

    // Expire it in the database (as two hours passing would).
    await s.app.db.kysely
      .updateTable('volShare')
      .set({ expireTime: Date.now() - 1000 })
      .execute();
    const expired = await open(link.token);
    expect(expired.status).toBe(410);
    expect(expired.raw).toContain('分享链接已过期，请联系专家重新分享');
    expect(expired.raw).not.toContain('王五');
  });
});
