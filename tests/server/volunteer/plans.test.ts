import { execFileSync } from 'node:child_process';
import ExcelJS from 'exceljs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { FONT_MISSING, pdfFont } from '../../../server/volunteer/export.js';
import { backends, startServer, type TestServer } from '../harness.js';
import { api, type ItemT, lineIds, loginAll, ok, type PlanT, refused, type StudentT, snapshot, studentId, type Tokens } from './helpers.js';

const STALE = '志愿方案已被他人修改，请刷新后再保存';
const STALE_ACTION = '志愿方案已被他人修改，请刷新后再操作';
const HOUR = 3600 * 1000;

function hasPdftotext(): boolean {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe.each(backends)('volunteer plans on %s', (backend) => {
  let s: TestServer;
  let t: Tokens;
  let zhang: number;

  beforeAll(async () => {
    s = await startServer(backend);
    t = await loginAll(s);
    zhang = await studentId(s, '张三');
  });
  afterAll(async () => {
    await s?.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const save = (token: string, body: Record<string, unknown>) => api<PlanT>(s, token, '/appv2/api/index/zySave', body);
  const info = (token: string, id: number) =>
    ok<{ plan: { version: number; status: string } | null; items: ItemT[] }>(s, token, '/appv2/api/index/zyInfo', { studentId: id });
  const items = (ids: number[]) => ids.map((lineId) => ({ lineId }));

  /** A fresh student of the expert (score 600), so each lifecycle test starts without a plan. */
  async function newStudent(name: string): Promise<number> {
    const st = await ok<StudentT>(s, t.expert, '/dev-api/api/Subscriber/add', { name, score: 600, subjects: [1, 2, 3] });
    return st.studentId;
  }

  it('saves a plan with tier and probability computed by the server; refuses over-limit, duplicate and unknown volunteers', async () => {
    const id = await newStudent('保存测试');
    const ids = await lineIds(s, 97);
    expect(ids).toHaveLength(97);
    await refused(s, id, () => save(t.expert, { studentId: id, items: items(ids.slice(0, 3)) }), '缺少志愿方案版本号（version），请刷新后重试');
    await refused(s, id, () => save(t.expert, { studentId: id, version: 0, items: items(ids) }), '志愿数量超过上限：山东最多填报 96 个志愿，当前 97 个');
    await refused(s, id, () => save(t.expert, { studentId: id, version: 0, items: items([ids[0], ids[1], ids[0]]) }), /^第3个志愿与第1个志愿重复：/);
    await refused(
      s,
      id,
      () => save(t.expert, { studentId: id, version: 0, items: items([ids[0], 99999999]) }),
      '第2个志愿不存在或不属于山东的招生数据（lineId 99999999）',
    );
    await refused(s, id, () => save(t.expert, { studentId: id, version: 3, items: items(ids.slice(0, 3)) }), STALE);
    await refused(s, id, () => save(t.expert, { studentId: id, version: 0, items: 'x' }), '志愿列表格式不正确，应为数组');

    const saved = await save(t.expert, { studentId: id, version: 0, items: items(ids.slice(0, 96)) });
    expect(saved.code).toBe(200);
    expect(saved.msg).toBe('保存成功');
    const plan = saved.data as PlanT;
    expect(plan).toMatchObject({ status: 'draft', version: 1, itemCount: 96 });
    expect(plan.items.map((i) => i.lineId)).toEqual(ids.slice(0, 96));
    expect(plan.items.map((i) => i.sort)).toEqual(Array.from({ length: 96 }, (_, i) => i + 1));
    for (const it of plan.items) {
      expect(it.probability).not.toBeNull();
      const p = it.probability as number;
      expect(it.tier).toBe(p < 0.4 ? '冲' : p > 0.8 ? '保' : '稳');
    }
    // The stored rows carry the tier and probability of save time.
    const stored = (await snapshot(s, id)).items;
    expect(stored.map((r) => [r.lineId, r.tier, r.probability])).toEqual(plan.items.map((i) => [i.lineId, i.tier, i.probability]));

    // The management path saves the same way.
    const again = await api<PlanT>(s, t.expert, '/dev-api/api/Subscriber/save', { studentId: id, version: 1, items: items(ids.slice(0, 2)) });
    expect(again.code).toBe(200);
    expect(again.data).toMatchObject({ version: 2, itemCount: 2 });
  });

  it('two experts on the same plan: the second is told it changed, nothing is lost, and a reload lets them save', async () => {
    const id = await newStudent('并发测试');
    const ids = await lineIds(s, 10);
    const a = ids.slice(0, 4);
    const b = ids.slice(4, 8);
    expect((await save(t.expert, { studentId: id, version: 0, items: items(a) })).code).toBe(200);

    const second = await s.login('expert', 'expert123'); // another session working on the same student
    const seenByFirst = (await info(t.expert, id)).plan?.version as number;
    const seenBySecond = (await info(second, id)).plan?.version as number;
    expect(seenBySecond).toBe(seenByFirst);

    const first = await save(t.expert, { studentId: id, version: seenByFirst, items: items(b) });
    expect(first.code).toBe(200);
    const late = await refused(s, id, () => save(second, { studentId: id, version: seenBySecond, items: items(a) }), STALE);
    expect(late.currentVersion).toBe(seenByFirst + 1);
    // The leader with the same stale version is refused as well.
    await refused(s, id, () => save(t.leader, { studentId: id, version: seenBySecond, items: items(a) }), STALE);
    // Nothing lost: the first expert's list is there.
    const now = await info(second, id);
    expect(now.items.map((i) => i.lineId)).toEqual(b);
    // After a reload the second one can save.
    const retry = await save(second, { studentId: id, version: now.plan?.version, items: items([...b, ids[8]]) });
    expect(retry.code).toBe(200);
    expect(retry.data?.version).toBe(seenByFirst + 2);

    // Truly simultaneous saves with the same version: exactly one wins, the other is told, the winner's list stays.
    const v = retry.data?.version as number;
    const [x, y] = await Promise.all([
      save(t.expert, { studentId: id, version: v, items: items(a) }),
      save(second, { studentId: id, version: v, items: items(b) }),
    ]);
    const codes = [x.code, y.code].sort();
    expect(codes).toEqual([200, 500]);
    const loser = x.code === 500 ? x : y;
    expect(loser.msg).toBe(STALE);
    const winner = x.code === 200 ? a : b;
    const final = await info(t.expert, id);
    expect(final.items.map((i) => i.lineId)).toEqual(winner);
    expect(final.plan?.version).toBe(v + 1);
  });

  it('saveSort reorders the same volunteers; a different set or a stale version is refused', async () => {
    const id = await newStudent('排序测试');
    const ids = await lineIds(s, 4);
    await save(t.expert, { studentId: id, version: 0, items: items(ids) });
    const sort = (body: Record<string, unknown>) => api<PlanT>(s, t.expert, '/appv2/api/index/saveSort', { studentId: id, ...body });
    await refused(s, id, () => sort({ version: 1, lineIds: ids.slice(0, 3) }), '排序列表与当前志愿方案不一致，请刷新后重试');
    await refused(s, id, () => sort({ version: 1, lineIds: [ids[0], ids[0], ids[1], ids[2]] }), '排序列表与当前志愿方案不一致，请刷新后重试');
    await refused(s, id, () => sort({ version: 7, lineIds: [...ids].reverse() }), STALE);
    const before = await snapshot(s, id);
    const res = await sort({ version: 1, lineIds: [...ids].reverse() });
    expect(res.code).toBe(200);
    expect(res.msg).toBe('排序已保存');
    expect(res.data?.items.map((i) => i.lineId)).toEqual([...ids].reverse());
    const after = await snapshot(s, id);
    // Same rows (tier and probability kept from save time), new order.
    const key = (r: { lineId: number; tier: string | null; probability: number | null }) => `${r.lineId}|${r.tier}|${r.probability}`;
    expect(after.items.map(key).sort()).toEqual(before.items.map(key).sort());
    expect(after.items.map((r) => r.lineId)).toEqual([...ids].reverse());
    expect(after.plan?.version).toBe(2);
  });

  it('walks the plan lifecycle; every illegal transition is refused with a message and changes nothing', async () => {
    const id = await newStudent('流程测试');
    const ids = await lineIds(s, 6);
    const call =
      (token: string, url: string, body: Record<string, unknown> = {}) =>
      () =>
        api(s, token, url, { studentId: id, ...body });
    const SUBMIT = '/dev-api/api/Subscriber/submit';
    const UNSUBMIT = '/dev-api/api/Subscriber/unsubmit';
    const APPROVE = '/dev-api/api/Examine/approve';
    const REJECT = '/dev-api/api/Examine/reject';
    const SAVE = '/appv2/api/index/zySave';
    const SORT = '/appv2/api/index/saveSort';
    const EDIT = '/appv2/api/index/editUser';
    const studentVersion = async () => (await snapshot(s, id)).student.version;

    // (none)
    await refused(s, id, call(t.expert, SUBMIT, { version: 0 }), '该学生还没有志愿方案，请先保存');
    await refused(s, id, call(t.expert, UNSUBMIT, { version: 0 }), '志愿方案尚未提交，无需撤回');
    await refused(s, id, call(t.leader, APPROVE, { version: 0 }), '该学生还没有志愿方案');
    await refused(s, id, call(t.leader, REJECT, { version: 0, comment: '不行' }), '该学生还没有志愿方案');
    await refused(s, id, call(t.expert, SORT, { version: 0, lineIds: [] }), '该学生还没有志愿方案，请先保存');

    // draft, empty
    expect((await api(s, t.expert, SAVE, { studentId: id, version: 0, items: [] })).code).toBe(200);
    await refused(s, id, call(t.expert, SUBMIT, { version: 1 }), '志愿方案为空，不能提交');

    // draft
    expect((await api(s, t.expert, SAVE, { studentId: id, version: 1, items: items(ids.slice(0, 3)) })).code).toBe(200);
    await refused(s, id, call(t.expert, UNSUBMIT, { version: 2 }), '志愿方案尚未提交，无需撤回');
    await refused(s, id, call(t.leader, APPROVE, { version: 2 }), '志愿方案尚未提交，不能审批');
    await refused(s, id, call(t.leader, REJECT, { version: 2, comment: '不行' }), '志愿方案尚未提交，不能驳回');
    await refused(s, id, call(t.expert, SUBMIT, { version: 1 }), STALE_ACTION);
    await refused(s, id, call(t.expert, SUBMIT, {}), '缺少志愿方案版本号（version），请刷新后重试');

    // draft → submitted
    const submitted = await api<{ status: string; version: number }>(s, t.expert, SUBMIT, { studentId: id, version: 2 });
    expect(submitted).toMatchObject({ code: 200, msg: '提交成功', data: { status: 'submitted', version: 3 } });

    // submitted: no edits, no second submit, the expert cannot approve or reject
    await refused(s, id, call(t.expert, SAVE, { version: 3, items: items(ids.slice(0, 2)) }), '志愿方案已提交审核，不能修改，如需修改请先撤回');
    await refused(s, id, call(t.expert, SORT, { version: 3, lineIds: ids.slice(0, 3).reverse() }), '志愿方案已提交审核，不能修改，如需修改请先撤回');
    await refused(s, id, call(t.expert, SUBMIT, { version: 3 }), '志愿方案已提交，请等待审核');
    await refused(s, id, call(t.expert, EDIT, { version: await studentVersion(), score: 610 }), '志愿方案审核中，不能修改考生成绩和选科，请先撤回');
    const denied = await refused(s, id, call(t.expert, APPROVE, { version: 3 }), /没有权限/, 403);
    expect(denied.msg).toContain('volunteer:examine:approve');
    await refused(s, id, call(t.expert, REJECT, { version: 3, comment: '我自己驳回' }), /没有权限/, 403);
    await refused(s, id, call(t.leader, APPROVE, { version: 2 }), STALE_ACTION);

    // submitted → draft (unsubmit)
    expect(await api(s, t.expert, UNSUBMIT, { studentId: id, version: 3 })).toMatchObject({
      code: 200,
      msg: '撤回成功',
      data: { status: 'draft', version: 4 },
    });
    // draft → submitted → rejected
    expect((await api(s, t.expert, SUBMIT, { studentId: id, version: 4 })).code).toBe(200);
    await refused(s, id, call(t.leader, REJECT, { version: 5, comment: '  ' }), '请填写驳回意见');
    expect(await api(s, t.leader, REJECT, { studentId: id, version: 5, comment: '保底志愿太少' })).toMatchObject({
      code: 200,
      msg: '已驳回',
      data: { status: 'rejected', version: 6 },
    });

    // rejected
    await refused(s, id, call(t.expert, SUBMIT, { version: 6 }), '志愿方案已被驳回，请按审批意见修改并保存后再提交');
    await refused(s, id, call(t.expert, UNSUBMIT, { version: 6 }), '志愿方案已被驳回，无需撤回，修改保存后即为草稿');
    await refused(s, id, call(t.leader, APPROVE, { version: 6 }), '志愿方案已被驳回，不能审批');
    await refused(s, id, call(t.leader, REJECT, { version: 6, comment: '再驳回' }), '志愿方案已被驳回，请勿重复操作');

    // rejected → draft by editing, then submitted → approved
    const edited = await api<PlanT>(s, t.expert, SAVE, { studentId: id, version: 6, items: items(ids) });
    expect(edited.data).toMatchObject({ status: 'draft', version: 7 });
    expect((await api(s, t.expert, SUBMIT, { studentId: id, version: 7 })).code).toBe(200);
    expect(await api(s, t.leader, APPROVE, { studentId: id, version: 8, comment: '同意' })).toMatchObject({
      code: 200,
      msg: '审批通过',
      data: { status: 'approved', version: 9 },
    });

    // approved is final
    await refused(s, id, call(t.expert, SAVE, { version: 9, items: items(ids.slice(0, 1)) }), '志愿方案已审批通过，不能再修改');
    await refused(s, id, call(t.expert, SORT, { version: 9, lineIds: [...ids].reverse() }), '志愿方案已审批通过，不能再修改');
    await refused(s, id, call(t.expert, SUBMIT, { version: 9 }), '志愿方案已审批通过，不能重复提交');
    await refused(s, id, call(t.expert, UNSUBMIT, { version: 9 }), '志愿方案已审批通过，不能撤回');
    await refused(s, id, call(t.leader, APPROVE, { version: 9 }), '志愿方案已审批通过，请勿重复操作');
    await refused(s, id, call(t.leader, REJECT, { version: 9, comment: '改主意了' }), '志愿方案已审批通过，不能驳回');
    await refused(s, id, call(t.expert, EDIT, { version: await studentVersion(), subjects: [4, 5, 6] }), '志愿方案已审批通过，不能修改考生成绩和选科');
    // Contact details may still change.
    expect((await api(s, t.expert, EDIT, { studentId: id, version: await studentVersion(), mobile: '13912345678' })).code).toBe(200);

    // Submission history: newest first with their results and snapshots.
    const his = await ok<Array<{ status: string; planVersion: number; itemCount: number; comment: string | null; items: ItemT[] }>>(
      s,
      t.expert,
      '/appv2/api/Subscriber/submitHis',
      { studentId: id },
    );
    expect(his.map((h) => [h.status, h.planVersion, h.itemCount, h.comment])).toEqual([
      ['approved', 8, 6, '同意'],
      ['rejected', 5, 3, '保底志愿太少'],
      ['withdrawn', 3, 3, null],
    ]);
    expect(his[0].items.map((i) => i.lineId)).toEqual(ids);

    // Every action recorded with who did it.
    const log = await ok<Array<{ action: string; userName: string; fromStatus: string | null; toStatus: string | null; version: number | null }>>(
      s,
      t.expert,
      '/dev-api/api/Subscriber/history',
      { studentId: id },
    );
    expect(log.map((a) => `${a.action}:${a.userName}:${a.fromStatus ?? '-'}>${a.toStatus ?? '-'}`)).toEqual([
      'create:expert:->-',
      'save:expert:->draft',
      'save:expert:draft>draft',
      'submit:expert:draft>submitted',
      'unsubmit:expert:submitted>draft',
      'submit:expert:draft>submitted',
      'reject:leader:submitted>rejected',
      'save:expert:rejected>draft',
      'submit:expert:draft>submitted',
      'approve:leader:submitted>approved',
    ]);
  });

  it('downloads the plan as a real PDF with Chinese text, and as Excel', async () => {
    const ids = await lineIds(s, 5);
    const current = (await info(t.expert, zhang)).plan?.version ?? 0;
    const saved = await save(t.expert, { studentId: zhang, version: current, items: items(ids) });
    expect(saved.code).toBe(200);
    const firstSchool = saved.data?.items[0].schoolName as string;

    const pdf = await s.call('POST', '/appv2/api/index/downloadZYpdf', { token: t.expert, body: { studentId: zhang } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(decodeURIComponent(String(pdf.headers['download-filename']))).toBe('志愿方案-张三.pdf');
    expect(pdf.rawBuffer.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    if (hasPdftotext()) {
      const text = execFileSync('pdftotext', ['-enc', 'UTF-8', '-', '-'], { input: pdf.rawBuffer }).toString('utf8');
      expect(text).toContain('张三');
      expect(text).toContain(firstSchool);
      expect(text).toContain('25,061');
    }

    const xlsx = await s.call('POST', '/dev-api/api/Subscriber/exportZY', { token: t.expert, body: { studentId: zhang } });
    expect(xlsx.rawBuffer.subarray(0, 2).toString('latin1')).toBe('PK');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawBuffer as unknown as ArrayBuffer);
    const ws = wb.getWorksheet('志愿方案');
    expect(String(ws?.getCell('A1').value)).toContain('张三');
    expect(ws?.getRow(5).getCell(3).value).toBe(firstSchool);

    const noPlan = await studentId(s, '赵六');
    expect(await api(s, t.expert, '/appv2/api/index/downloadZYpdf', { studentId: noPlan })).toEqual({ code: 500, msg: '该学生还没有志愿方案' });

    const original = pdfFont.path;
    pdfFont.path = '/nonexistent/NotoSansCJK-Regular.ttc';
    try {
      expect(await api(s, t.expert, '/appv2/api/index/downloadZYpdf', { studentId: zhang })).toEqual({ code: 500, msg: FONT_MISSING });
    } finally {
      pdfFont.path = original;
    }
    expect(FONT_MISSING).toContain('fonts-noto-cjk');
  });

  it('shares a read-only link that works without signing in and expires', async () => {
    const link = await ok<{ token: string; url: string; expireTime: number; readOnly: boolean }>(s, t.expert, '/appv2/api/index/shareZY', {
      studentId: zhang,
      expireHours: 72,
    });
    expect(link.readOnly).toBe(true);
    expect(link.url).toBe(`/share/zy?token=${encodeURIComponent(link.token)}`);
    const view = await s.call<{ readOnly: boolean; student: { name: string }; items: ItemT[] }>('GET', '/appv2/api/index/shareInfo', {
      query: { token: link.token },
    });
    expect(view.body.code).toBe(200);
    expect(view.body.data?.readOnly).toBe(true);
    expect(view.body.data?.student.name).toBe('张三');
    expect(view.raw).not.toContain('13900000001'); // no mobile numbers
    const plan = await info(t.expert, zhang);
    expect(view.body.data?.items.map((i) => i.lineId)).toEqual(plan.items.map((i) => i.lineId));
    // Read-only: the token is no bearer token.
    expect((await api(s, link.token, '/appv2/api/index/zySave', { studentId: zhang, version: plan.plan?.version, items: [] })).code).toBe(401);

    expect((await api(s, t.expert, '/appv2/api/index/shareZY', { studentId: zhang, expireHours: 0 })).msg).toBe('有效期必须在 1 到 720 小时之间');
    expect((await s.call('GET', '/appv2/api/index/shareInfo', { query: { token: 'nope' } })).body).toEqual({ code: 500, msg: '分享链接无效或已被取消' });

    // shareZYNew cancels the earlier links.
    const fresh = await ok<{ token: string }>(s, t.expert, '/appv2/api/index/shareZYNew', { studentId: zhang, expireHours: 1 });
    expect((await s.call('GET', '/appv2/api/index/shareInfo', { query: { token: link.token } })).body).toEqual({ code: 500, msg: '分享链接无效或已被取消' });
    expect((await s.call('GET', '/appv2/api/index/shareInfo', { query: { token: fresh.token } })).body.code).toBe(200);

    // An hour and a minute later it has expired.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + HOUR + 60_000);
    expect((await s.call('GET', '/appv2/api/index/shareInfo', { query: { token: fresh.token } })).body).toEqual({
      code: 500,
      msg: '分享链接已过期，请联系专家重新分享',
    });
  });

  it('reports tier distribution and risks', async () => {
    const report = await ok<{ tierDistribution: Record<string, number>; risks: string[]; summary: string; warnings: unknown[] }>(
      s,
      t.expert,
      '/dev-api/api/Subscriber/report',
      { studentId: zhang },
    );
    const plan = await info(t.expert, zhang);
    const dist = { 冲: 0, 稳: 0, 保: 0, none: 0 } as Record<string, number>;
    for (const i of plan.items) dist[i.tier ?? 'none']++;
    expect(report.tierDistribution).toEqual(dist);
    expect(report.risks.some((r) => r.includes('只填了 5 个志愿'))).toBe(true);
    expect(report.summary).toContain(`共 ${plan.items.length} 个志愿`);
    expect((await api(s, t.expert, '/dev-api/api/Subscriber/report', { studentId: await studentId(s, '赵六') })).msg).toBe('该学生还没有志愿方案');
  });
});
