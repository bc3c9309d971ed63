import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHANDONG } from '../../../server/db/seed/admission.js';
import { requireCatalogue } from '../../../server/volunteer/catalogue.js';
import { backends, startServer, type TestServer } from '../harness.js';
import { loginAll, ok, studentId, type Tokens } from './helpers.js';

/**
 * The page a share link opens (/share/zy): no session needed, the token checked on the server, plain HTML naming the
 * exam year the family fills, each choice's codes and a year beside every figure (tests/server/volunteer/export.test.ts
 * checks the same with 专业代号, 办学性质 and a 失效 choice loaded).
 */
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
    // The exam year the family fills (the catalogue year + 1), never the data year.
    const cat = await requireCatalogue(s.app.db.kysely, SHANDONG);
    expect(page.raw).toContain(`王五 的${cat.targetYear}年高考志愿方案（只读）`);
    expect(page.raw).toContain(`高考年份：${cat.targetYear}`);
    expect(page.raw).not.toContain(`高考年份：${cat.year}`);
    const plan = await ok<{ items: Array<{ lineId: number; schoolName: string }> }>(s, t.expert, '/appv2/api/index/zyInfo', { studentId: wang });
    expect(plan.items.length).toBeGreaterThan(0);
    const text = page.raw.replace(/<[^>]+>/g, ' ');
    for (const i of plan.items) {
      const e = cat.entries[cat.byLineId.get(i.lineId) as number];
      expect(page.raw).toContain(i.schoolName);
      // What the family types into the official system, and the line figures beside their year.
      expect(text).toContain(`院校代码 ${e.school.schoolCode}`);
      expect(text).toContain(`专业代号 ${e.majorCode ?? '未知'}`);
      const y = e.years[0];
      expect(text).toContain(`${y.year} · ${y.minScore}分 · ${y.minRank == null ? '位次未公布' : `${y.minRank.toLocaleString('en-US')}名`}`);
      expect(text).toContain(e.subjectReq || '选科要求未知');
    }
    // No figure without its year, no estimate without the exam year.
    const figures = text.match(/\d+分 · [\d,]+名/g) ?? [];
    expect(text.match(/\d{4} · \d+分 · [\d,]+名/g)).toHaveLength(figures.length);
    const estimates = text.match(/(录取概率 [\d.]+%|估计位次 [\d,]+)/g) ?? [];
    expect(estimates.length).toBeGreaterThan(0);
    expect(text.match(new RegExp(`${cat.targetYear} (录取概率 [\\d.]+%|估计位次 [\\d,]+)`, 'g'))).toHaveLength(estimates.length);
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
