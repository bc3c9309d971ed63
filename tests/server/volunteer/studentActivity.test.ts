import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startServer, type TestServer } from '../harness.js';
import { lineIds, loginAll, ok, type StudentT, type Tokens } from './helpers.js';

/** 学生志愿's 更新时间 is the student's last activity: saving its plan moves it, in the list and in the student's view. */
describe.each(backends)('student 更新时间 after plan activity on %s', (backend) => {
  let s: TestServer;
  let t: Tokens;

  beforeAll(async () => {
    s = await startServer(backend);
    t = await loginAll(s);
  });
  afterAll(async () => {
    await s?.close();
  });

  const listed = async (studentId: number) => {
    const res = await s.call<unknown>('GET', '/dev-api/api/index/subscriber?name=%E6%B4%BB%E5%8A%A8%E6%B5%8B%E8%AF%95', { token: t.expert });
    const rows = (res.body as { rows?: Array<{ studentId: number; updateTime: number | null }> }).rows ?? [];
    return rows.find((r) => r.studentId === studentId)?.updateTime ?? null;
  };

  it('moves when the plan is saved', async () => {
    const student = await ok<StudentT>(s, t.expert, '/dev-api/api/Subscriber/add', { name: '活动测试', score: 600, subjects: [1, 2, 3] });
    const before = (await listed(student.studentId)) ?? 0;
    await new Promise((r) => setTimeout(r, 20));
    const [lineId] = await lineIds(s, 1);
    await ok(s, t.expert, '/appv2/api/index/zySave', { studentId: student.studentId, version: 0, items: [{ lineId }] });
    const after = await listed(student.studentId);
    expect(after).toBeGreaterThan(before);
    const view = await ok<{ updateTime: number }>(s, t.expert, '/dev-api/api/Subscriber/info', { studentId: student.studentId });
    expect(view.updateTime).toBe(after);
  });
});
