import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedGroupProvinces } from '../../../server/volunteer/groups/seed.js';
import { backends, startServer, type TestServer } from '../harness.js';
import { api, loginAll, ok, snapshot, type Tokens } from './helpers.js';

const ADD = '/dev-api/api/Subscriber/add';
const OPTIONS = '/dev-api/volunteer/groups/options';
const SAVE = '/dev-api/api/Subscriber/save';
const IMPORT = '/dev-api/volunteer/admission/import';

interface GroupRowT {
  lineId: number;
  track: string;
  schoolName: string;
  groupCode: string;
  subjectReq: string;
  minScore: number;
  minRank: number | null;
  probability: number | null;
  tier: string | null;
}
interface OptionsT {
  track: string;
  batchLine: number | null;
  belowBatchLine: boolean;
  message: string | null;
  spreadSource: string;
  slotLimit: number;
  groupMajorLimit: number;
  total: number;
  rows: GroupRowT[];
}

/**
 * 3+1+2 provinces (湖北, 广东 2025) by 院校专业组: imported through the administrator's path; a student is offered
 * groups of their track whose 再选 requirement they meet, with a group probability; nothing 本科 below the batch
 * line; a plan holds at most 45 groups of at most 6 majors each, and saves, submits and exports.
 */
describe.each(backends)('院校专业组 planning on %s', (backend) => {
  let s: TestServer;
  let t: Tokens;
  beforeAll(async () => {
    s = await startServer(backend);
    t = await loginAll(s);
    await seedGroupProvinces(s.app.db.kysely);
  }, 120_000);
  afterAll(async () => {
    await s?.close();
  });

  const student = async (name: string, body: Record<string, unknown>) =>
    await ok<{ studentId: number; rank: number | null }>(s, t.expert, ADD, { name, ...body });
  const options = (studentId: number, extra: Record<string, unknown> = {}) => ok<OptionsT>(s, t.expert, OPTIONS, { studentId, pageSize: 100, ...extra });
  const all = async (studentId: number) => {
    const first = await options(studentId, { pageSize: 500 });
    const rows = [...first.rows];
    for (let p = 2; rows.length < first.total; p++) rows.push(...(await options(studentId, { pageNum: p, pageSize: 500 })).rows);
    return { ...first, rows };
  };

  it('imports both provinces by group; a bad row stops the file with a row report and writes nothing', async () => {
    const k = s.app.db.kysely;
    const count = async (province: string) =>
      Number(
        (
          await k
            .selectFrom('gkAdmissionLine')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('examProvince', '=', province)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count('湖北')).toBe(4540);
    expect(await count('广东')).toBe(5137);
    const csv = [
      'year,track,batch,schoolCode,schoolName,groupCode,groupLabel,subjectRequirement,planCount,minScore,minRank,minRankSource',
      '2025,物理类,本科普通批平行志愿,Z99901,测试大学,01,测试大学第01组,化,,600,1000,x',
      '2025,理科,本科普通批平行志愿,Z99901,测试大学,02,测试大学第02组,物,,abc,1000,x',
    ].join('\n');
    const bad = await api<unknown>(s, t.admin, IMPORT, { province: '湖北', kind: 'groupLines', year: 2025, csv });
    expect(bad.code).toBe(500);
    expect(bad.msg).toBe('院校专业组投档线导入失败：共 3 处错误，未写入任何数据。第 3 行 track：科类只能是 物理类 或 历史类');
    expect((bad as unknown as { errors: Array<{ row: number; column: string }> }).errors.map((e) => e.column)).toEqual([
      'track',
      'subjectRequirement',
      'minScore',
    ]);
    expect(await count('湖北')).toBe(4540);
    const denied = await api(s, t.expert, IMPORT, { province: '湖北', kind: 'groupLines', year: 2025, csv });
    expect(denied.code).toBe(403);
  });

  it('offers a Hubei 物理类 student groups of their track only, whose 再选 requirement they meet, with a group probability', async () => {
    const st = await student('湖北物理生', { province: '湖北', score: 600, subjects: [1, 3, 5] }); // 物理 + 生物、地理: no 化学
    expect(st.rank).toBeGreaterThan(0); // from Hubei's 物理类 一分一段 table
    const q = await all(st.studentId);
    expect(q.track).toBe('物理类');
    expect(q.slotLimit).toBe(45);
    expect(q.groupMajorLimit).toBe(6);
    expect(q.spreadSource).toBe('shandong-one-year');
    expect(q.total).toBeGreaterThan(1000);
    expect(q.rows.every((r) => r.track === '物理类')).toBe(true);
    expect(q.rows.some((r) => r.subjectReq.includes('化学'))).toBe(false);
    expect(q.rows.some((r) => r.subjectReq === '生物')).toBe(true);
    // Probability falls as the group's line gets harder (monotone in the group's min rank).
    const scored = q.rows.filter((r) => r.probability != null);
    // (σ is interpolated between rank bands; far below the student, where P < 1e-6, the order may wobble by less.)
    for (let i = 1; i < scored.length; i++) expect(scored[i].probability as number).toBeGreaterThanOrEqual((scored[i - 1].probability as number) - 1e-6);
    const near = scored.find((r) => r.minRank === st.rank);
    if (near) expect(near.probability).toBeCloseTo(0.5, 5);
    expect(new Set(scored.map((r) => r.tier))).toEqual(new Set(['冲', '稳', '保']));

    const chem = await student('湖北物化生', { province: '湖北', score: 600, subjects: [1, 2, 3] });
    const qc = await all(chem.studentId);
    expect(qc.rows.some((r) => r.subjectReq.includes('化学'))).toBe(true);
    expect(qc.total).toBeGreaterThan(q.total);

    const hist = await student('湖北历史生', { province: '湖北', score: 600, subjects: [4, 5, 6] });
    const qh = await all(hist.studentId);
    expect(qh.track).toBe('历史类');
    expect(qh.rows.every((r) => r.track === '历史类')).toBe(true);
  });

  it('below the province 本科 batch line offers no 本科 group and refuses a plan of one', async () => {
    const st = await student('湖北低分', { province: '湖北', score: 420, subjects: [1, 2, 3] });
    const q = await options(st.studentId);
    expect(q).toMatchObject({
      belowBatchLine: true,
      batchLine: 426,
      total: 0,
      message: '考生分数 420 低于湖北 2025 年物理类本科线 426 分，不能填报本科院校专业组',
    });
    const someLine = await s.app.db.kysely
      .selectFrom('gkAdmissionLine')
      .select('lineId')
      .where('examProvince', '=', '湖北')
      .where('track', '=', '物理类')
      .executeTakeFirstOrThrow();
    const res = await api(s, t.expert, SAVE, { studentId: st.studentId, version: 0, items: [{ lineId: someLine.lineId }] });
    expect(res.msg).toBe('考生分数 420 低于湖北 2025 年物理类本科线 426 分，不能填报本科院校专业组');
  });

  it('Guangdong has no 一分一段 table: the rank must be entered', async () => {
    const refusedAdd = await api(s, t.expert, ADD, { name: '广东无位次', province: '广东', score: 600, subjects: [1, 2, 3] });
    expect(refusedAdd.msg).toBe('广东暂无物理类一分一段表，无法由分数换算位次，请填写考生的全省位次');
    const st = await student('广东物理生', { province: '广东', score: 600, rank: 30000, subjects: [1, 2, 3] });
    expect(st.rank).toBe(30000);
    const q = await options(st.studentId);
    expect(q.total).toBeGreaterThan(500);
    expect(q.rows.every((r) => r.track === '物理类' && r.probability != null)).toBe(true);
  });

  it('enforces 45 groups, 6 majors, the track and 再选 on save; a plan saves, submits and exports to PDF', async () => {
    const st = await student('湖北方案生', { province: '湖北', score: 580, subjects: [1, 3, 5] });
    const q = await all(st.studentId);
    const before = await snapshot(s, st.studentId);
    const tooMany = q.rows.slice(0, 46).map((r) => ({ lineId: r.lineId }));
    expect((await api(s, t.expert, SAVE, { studentId: st.studentId, version: 0, items: tooMany })).msg).toBe(
      '志愿数量超过上限：湖北本科批最多填报 45 个院校专业组，当前 46 个',
    );
    const sevenMajors = [{ lineId: q.rows[0].lineId, majors: ['一', '二', '三', '四', '五', '六', '七'] }];
    expect((await api(s, t.expert, SAVE, { studentId: st.studentId, version: 0, items: sevenMajors })).msg).toBe('第1个志愿最多填报 6 个专业，当前 7 个');
    const k = s.app.db.kysely;
    const history = await k
      .selectFrom('gkAdmissionLine')
      .select('lineId')
      .where('examProvince', '=', '湖北')
      .where('track', '=', '历史类')
      .executeTakeFirstOrThrow();
    expect((await api(s, t.expert, SAVE, { studentId: st.studentId, version: 0, items: [{ lineId: history.lineId }] })).msg).toBe(
      '第1个志愿是历史类的院校专业组，考生为物理类，不能填报',
    );
    const chem = await k
      .selectFrom('gkAdmissionLine')
      .select('lineId')
      .where('examProvince', '=', '湖北')
      .where('track', '=', '物理类')
      .where('subjectReq', '=', '化学')
      .executeTakeFirstOrThrow();
    expect((await api(s, t.expert, SAVE, { studentId: st.studentId, version: 0, items: [{ lineId: chem.lineId }] })).msg).toBe(
      '第1个志愿要求再选科目 化学，考生的再选科目（生物、地理）不符合',
    );
    expect(await snapshot(s, st.studentId)).toEqual(before);

    const items = q.rows.slice(0, 45).map((r, i) => ({
      lineId: r.lineId,
      majors: i === 0 ? ['临床医学', '口腔医学', '护理学', '药学', '预防医学', '医学影像学'] : ['计算机科学与技术'],
      obey: i % 2 === 0,
    }));
    const saved = await ok<{ version: number; itemCount: number; items: Array<{ groupCode: string; majorName: string; obey: boolean; probability: number }> }>(
      s,
      t.expert,
      SAVE,
      { studentId: st.studentId, version: 0, items },
    );
    expect(saved.itemCount).toBe(45);
    expect(saved.items[0]).toMatchObject({ groupCode: q.rows[0].groupCode, majorName: '临床医学、口腔医学、护理学、药学、预防医学、医学影像学', obey: true });
    expect(saved.items[0].probability).toBe(q.rows[0].probability);
    const info = await ok<{ items: Array<{ majors: string[] }>; slotLimit: number; groupMajorLimit: number }>(s, t.expert, '/appv2/api/index/zyInfo', {
      studentId: st.studentId,
    });
    expect(info.items[0].majors).toHaveLength(6);
    expect(info).toMatchObject({ slotLimit: 45, groupMajorLimit: 6 });
    const sub = await api(s, t.expert, '/dev-api/api/Subscriber/submit', { studentId: st.studentId, version: saved.version });
    expect(sub.code).toBe(200);
    const pdf = await s.call('POST', '/appv2/api/index/downloadZYpdf', { token: t.expert, body: { studentId: st.studentId } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
  });
});
