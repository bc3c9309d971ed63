import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startServer, type TestServer } from '../harness.js';
import { loginAll, ok, type StudentT, type Tokens } from './helpers.js';

/**
 * 学生志愿 is the engine's list of schemas/volunteer/vol_student.json over GET /dev-api/api/index/subscriber: its 分数
 * search is a range field, sent as params[beginScore] / params[endScore]. The route reads those as it reads
 * scoreMin / scoreMax, and refuses a range whose low end is above its high end (the old page said so before asking).
 */
describe.each(backends)('学生志愿 list filters on %s', (backend) => {
  let s: TestServer;
  let t: Tokens;

  beforeAll(async () => {
    s = await startServer(backend);
    t = await loginAll(s);
    for (const [name, score] of [
      ['分数筛选甲', 540],
      ['分数筛选乙', 560],
      ['分数筛选丙', 580],
    ] as const)
      await ok<StudentT>(s, t.expert, '/dev-api/api/Subscriber/add', { name, score, subjects: [1, 2, 3] });
  });
  afterAll(async () => {
    await s?.close();
  });

  const names = async (query: Record<string, string | number>) => {
    const res = await s.call<unknown>('GET', '/dev-api/api/index/subscriber', { token: t.expert, query: { name: '分数筛选', ...query } });
    expect(res.body.code, res.body.msg).toBe(200);
    return ((res.body as { rows?: Array<{ name: string }> }).rows ?? []).map((r) => r.name).sort();
  };

  it('reads the engine range names like scoreMin / scoreMax, each end inclusive and optional', async () => {
    expect(await names({ 'params[beginScore]': 550, 'params[endScore]': 580 })).toEqual(['分数筛选丙', '分数筛选乙']);
    expect(await names({ scoreMin: 550, scoreMax: 580 })).toEqual(['分数筛选丙', '分数筛选乙']);
    expect(await names({ 'params[beginScore]': 560 })).toEqual(['分数筛选丙', '分数筛选乙']);
    expect(await names({ 'params[endScore]': 559 })).toEqual(['分数筛选甲']);
  });

  it('refuses a low end above the high end', async () => {
    const res = await s.call('GET', '/dev-api/api/index/subscriber', { token: t.expert, query: { 'params[beginScore]': 600, 'params[endScore]': 500 } });
    expect(res.body).toMatchObject({ code: 500, msg: '最低分不能大于最高分，请调整分数范围' });
  });
});
