import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../../server/security/password.js';
import { backends, startServer, type TestServer } from '../harness.js';
import { api, lineIds, loginAll, ok, refused, type StudentT, snapshot, studentId, type Tokens } from './helpers.js';

interface ExamineRow {
  planId: number;
  studentId: number;
  studentName: string;
  status: string;
  version: number;
  itemCount: number;
  ownerName: string | null;
  tierCounts: Record<string, number>;
  submitByName: string | null;
  reviewByName: string | null;
  reviewComment: string | null;
}

interface AppointmentT {
  appointmentId: number;
  studentId: number;
  expertId: number;
  expertName: string | null;
  appointTime: number;
  duration: number;
  status: string;
  statusName: string;
  remark: string | null;
  remadeFrom: number | null;
  version: number;
}

const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;

describe.each(backends)('volunteer approvals, leader views and appointments on %s', (backend) => {
  let s: TestServer;
  let t: Tokens;
  let expert2: string;
  let expert2Id: number;

  beforeAll(async () => {
    s = await startServer(backend);
    t = await loginAll(s);
    // A second expert, to check that experts only see their own students.
    const k = s.app.db.kysely;
    const { userId } = await k
      .insertInto('sysUser')
      .values({
        deptId: 101,
        userName: 'expert2',
        nickName: '周老师',
        mobile: '13800000009',
        email: null,
        sex: '2',
        avatar: null,
        password: await hashPassword('expert2123'),
        status: '0',
        delFlag: '0',
        diagnosis: 0,
        pwdFailCount: 0,
        lockUntil: null,
        loginIp: null,
        loginDate: null,
        createTime: Date.now(),
        updateTime: null,
        remark: null,
        version: 1,
        storeId: 1, // a headquarters expert (issue 22: no default store)
      })
      .returning('userId')
      .executeTakeFirstOrThrow();
    await k.insertInto('sysUserRole').values({ userId, roleId: 3 }).execute();
    expert2Id = userId;
    expert2 = await s.login('expert2', 'expert2123');
  });
  afterAll(async () => {
    await s?.close();
  });

  async function submittedPlan(name: string, n = 4): Promise<{ id: number; version: number }> {
    const st = await ok<StudentT>(s, t.expert, '/dev-api/api/Subscriber/add', { name, score: 600, subjects: [1, 2, 3] });
    const ids = await lineIds(s, n);
    await ok(s, t.expert, '/appv2/api/index/zySave', { studentId: st.studentId, version: 0, items: ids.map((lineId) => ({ lineId })) });
    const sub = await ok<{ version: number }>(s, t.expert, '/dev-api/api/Subscriber/submit', { studentId: st.studentId, version: 1 });
    return { id: st.studentId, version: sub.version };
  }

  it('seeds demo students: 张三 (600, 物理/化学/生物) for the expert and an unassigned one for the leader', async () => {
    const mine = await s.call('GET', '/dev-api/api/index/subscriber', { token: t.expert, query: { pageSize: 50 } });
    const rows = mine.body.rows as StudentT[];
    const zhang = rows.find((r) => r.name === '张三');
    expect(zhang).toMatchObject({ score: 600, rank: 25061, rankFlag: 'exact', subjects: [1, 2, 3], planStatus: 'none' });
    expect(rows.find((r) => r.name === '王五')?.planStatus).toBe('draft');
    expect(rows.some((r) => r.name === '孙七')).toBe(false); // not assigned to anybody yet
    const all = await s.call('GET', '/dev-api/api/index/subscriber', { token: t.leader, query: { pageSize: 50 } });
    expect((all.body.rows as StudentT[]).map((r) => r.name)).toEqual(expect.arrayContaining(['张三', '李四', '王五', '赵六', '孙七']));
    const unassigned = await s.call('GET', '/dev-api/api/AdvanceApproval/students', { token: t.leader, query: { unassigned: 1 } });
    // Headquarters sees every store's: 孙七 of its own and 吴九 of 济南门店 (server/customer/seed.ts).
    expect((unassigned.body.rows as StudentT[]).map((r) => r.name)).toEqual(['吴九', '孙七']);
    // Each with its store, and each expert with theirs: a leader picks an expert of the student's own store.
    const storeOf = (rows: unknown) => (rows as Array<{ name: string; storeName: string | null }>).map((r) => [r.name, r.storeName]);
    expect(storeOf(unassigned.body.rows)).toEqual([
      ['吴九', '济南门店'],
      ['孙七', '总部'],
    ]);
    const experts = await s.call('GET', '/dev-api/api/AdvanceApproval/experts', { token: t.leader });
    const expertStores = (experts.body.data as Array<{ userName: string; storeName: string | null }>).map((e) => [e.userName, e.storeName]);
    expect(expertStores).toEqual(
      expect.arrayContaining([
        ['expert', '总部'],
        ['store2expert', '济南门店'],
      ]),
    );
    // Filters and paging.
    const filtered = await s.call('GET', '/dev-api/api/index/subscriber', { token: t.leader, query: { name: '张', scoreMin: 590, pageSize: 1 } });
    expect(filtered.body.total).toBe(1);
    expect((filtered.body.rows as StudentT[])[0].name).toBe('张三');
    const drafts = await s.call('GET', '/dev-api/api/index/subscriber', { token: t.leader, query: { planStatus: 'draft' } });
    expect((drafts.body.rows as StudentT[]).map((r) => r.name)).toEqual(['王五']);
  });

  it('keeps experts to their own students', async () => {
    const zhang = await studentId(s, '张三');
    const list = await s.call('GET', '/dev-api/api/index/subscriber', { token: expert2 });
    expect(list.body.total).toBe(0);
    for (const url of ['/appv2/api/index/zyInfo', '/dev-api/api/Subscriber/info', '/appv2/api/Filling/schoolEnrollChance', '/dev-api/api/Subscriber/history']) {
      expect(await api(s, expert2, url, { studentId: zhang })).toEqual({ code: 500, msg: '学生不存在或无权访问' });
    }
    await refused(s, zhang, () => api(s, expert2, '/appv2/api/index/zySave', { studentId: zhang, version: 0, items: [] }), '学生不存在或无权访问');
  });

  it('leader approves from the Examine list; the action is recorded and the final plan is the approved snapshot', async () => {
    const { id, version } = await submittedPlan('审批学生A');
    const list = await s.call('GET', '/dev-api/api/Examine/list', { token: t.leader });
    const row = (list.body.rows as ExamineRow[]).find((r) => r.studentId === id);
    expect(row).toMatchObject({ studentName: '审批学生A', status: 'submitted', version, itemCount: 4, ownerName: '李老师', submitByName: '李老师' });
    expect(Object.values(row?.tierCounts ?? {}).reduce((a, b) => a + b, 0)).toBe(4);
    // Experts have no Examine permission.
    expect((await s.call('GET', '/dev-api/api/Examine/list', { token: t.expert })).body.code).toBe(403);

    expect((await api(s, t.expert, '/dev-api/api/experts/finalPlan', { studentId: id })).msg).toBe('该学生暂无审批通过的志愿方案');
    const approved = await api(s, t.leader, '/dev-api/api/Examine/approve', { studentId: id, version, comment: '梯度合理' });
    expect(approved).toMatchObject({ code: 200, msg: '审批通过', data: { status: 'approved', version: version + 1 } });

    const final = await ok<{ approvedByName: string; comment: string; items: Array<{ lineId: number }>; planVersion: number }>(
      s,
      t.expert,
      '/dev-api/api/experts/finalPlan',
      { studentId: id },
    );
    expect(final).toMatchObject({ approvedByName: '王主任', comment: '梯度合理', planVersion: version });
    const snap = await snapshot(s, id);
    expect(final.items.map((i) => i.lineId)).toEqual(snap.items.map((i) => i.lineId));
    expect(snap.plan).toMatchObject({ status: 'approved', reviewComment: '梯度合理' });

    const history = await ok<Array<{ action: string; actionName: string; nickName: string; comment: string | null; createTime: number }>>(
      s,
      t.leader,
      '/dev-api/api/Examine/history',
      { studentId: id },
    );
    const last = history[history.length - 1];
    expect(last).toMatchObject({ action: 'approve', actionName: '审批通过', nickName: '王主任', comment: '梯度合理' });
    expect(last.createTime).toBeGreaterThan(Date.now() - 60_000);

    const done = await s.call('GET', '/dev-api/api/Examine/list', { token: t.leader, query: { status: 'approved' } });
    expect((done.body.rows as ExamineRow[]).find((r) => r.studentId === id)).toMatchObject({ reviewByName: '王主任', reviewComment: '梯度合理' });
    expect((await s.call('GET', '/dev-api/api/Examine/list', { token: t.leader, query: { status: 'bogus' } })).body.msg).toBe('方案状态不正确');
    // 志愿审核's search field 学生 (schemas/volunteer/vol_examine.json) is studentName; name is still read.
    const byName: Array<Record<string, string>> = [
      { status: 'all', studentName: '审批学生A' },
      { status: 'all', name: '审批学生A' },
    ];
    for (const query of byName) {
      const found = (await s.call('GET', '/dev-api/api/Examine/list', { token: t.leader, query })).body.rows as ExamineRow[];
      expect(found.map((r) => r.studentName)).toEqual(['审批学生A']);
    }
  });

  it('refuses approval by an expert even with the permission granted, and by the wrong role', async () => {
    const { id, version } = await submittedPlan('审批学生B', 2);
    // Give the expert role the approve permission: the role check still refuses.
    const k = s.app.db.kysely;
    const menu = await k.selectFrom('sysMenu').select('menuId').where('perms', '=', 'volunteer:examine:approve').executeTakeFirstOrThrow();
    await k.insertInto('sysRoleMenu').values({ roleId: 3, menuId: menu.menuId }).execute();
    try {
      await refused(
        s,
        id,
        () => api(s, t.expert, '/dev-api/api/Examine/approve', { studentId: id, version }),
        '只有审核配置中的审核人角色或管理员可以审批志愿方案',
      );
      await refused(
        s,
        id,
        () => api(s, t.expert, '/dev-api/api/Examine/reject', { studentId: id, version, comment: '驳回' }),
        '只有审核配置中的审核人角色或管理员可以审批志愿方案',
      );
    } finally {
      await k.deleteFrom('sysRoleMenu').where('roleId', '=', 3).where('menuId', '=', menu.menuId).execute();
    }
    // The admin may approve.
    expect((await api(s, t.admin, '/dev-api/api/Examine/reject', { studentId: id, version, comment: '请补充保底' })).code).toBe(200);
  });

  it('follows 审核配置: reviewer roles, a rejection without comment, a submission without review', async () => {
    type Audit = {
      values: { submitNeedsReview: boolean; reviewerRoleKeys: string[]; reviewTimeoutHours: number; rejectNeedsComment: boolean };
      version: number;
    };
    const readAudit = async () => (await s.call<Audit>('GET', '/dev-api/system/settings/audit', { token: t.admin })).body.data as Audit;
    const saveAudit = async (change: Partial<Audit['values']>) => {
      const cur = await readAudit();
      const res = await s.call('PUT', '/dev-api/system/settings/audit', { token: t.admin, body: { ...cur.values, ...change, version: cur.version } });
      expect(res.body.code, res.body.msg).toBe(200);
    };
    const defaults = (await readAudit()).values;
    try {
      // Reviewers are the expert role only: the leader is refused, the expert (with the permission) may reject.
      await saveAudit({ reviewerRoleKeys: ['expert'], rejectNeedsComment: false });
      // The 志愿审核 screen reads the rules it applies without system:audit:list.
      expect((await s.call('GET', '/dev-api/api/Examine/config', { token: t.leader })).body).toMatchObject({
        code: 200,
        data: { submitNeedsReview: true, rejectNeedsComment: false },
      });
      expect((await s.call('GET', '/dev-api/api/Examine/config', { token: t.operator })).body.code).toBe(403);
      const a = await submittedPlan('审核配置学生A', 2);
      await refused(
        s,
        a.id,
        () => api(s, t.leader, '/dev-api/api/Examine/approve', { studentId: a.id, version: a.version }),
        '只有审核配置中的审核人角色或管理员可以审批志愿方案',
      );
      const k = s.app.db.kysely;
      const menu = await k.selectFrom('sysMenu').select('menuId').where('perms', '=', 'volunteer:examine:approve').executeTakeFirstOrThrow();
      await k.insertInto('sysRoleMenu').values({ roleId: 3, menuId: menu.menuId }).execute();
      try {
        // No comment needed for a rejection now.
        const rejected = await api(s, t.expert, '/dev-api/api/Examine/reject', { studentId: a.id, version: a.version });
        expect(rejected).toMatchObject({ code: 200, msg: '已驳回', data: { status: 'rejected' } });
      } finally {
        await k.deleteFrom('sysRoleMenu').where('roleId', '=', 3).where('menuId', '=', menu.menuId).execute();
      }

      // Without review a submission is approved at once, and the history says so.
      await saveAudit({ submitNeedsReview: false, reviewerRoleKeys: ['leader'] });
      const st = await ok<StudentT>(s, t.expert, '/dev-api/api/Subscriber/add', { name: '审核配置学生B', score: 600, subjects: [1, 2, 3] });
      await ok(s, t.expert, '/appv2/api/index/zySave', { studentId: st.studentId, version: 0, items: (await lineIds(s, 2)).map((lineId) => ({ lineId })) });
      const sub = await api(s, t.expert, '/dev-api/api/Subscriber/submit', { studentId: st.studentId, version: 1 });
      expect(sub).toMatchObject({ code: 200, msg: '提交成功，无需审核，已自动通过', data: { status: 'approved' } });
      const snap = await snapshot(s, st.studentId);
      expect(snap.plan?.status).toBe('approved');
      expect(snap.submissions.at(-1)).toMatchObject({ status: 'approved', comment: '无需审核，已自动通过' });
    } finally {
      await saveAudit(defaults);
    }
    // Back to the defaults: a rejection needs its comment again.
    const c = await submittedPlan('审核配置学生C', 2);
    await refused(s, c.id, () => api(s, t.leader, '/dev-api/api/Examine/reject', { studentId: c.id, version: c.version }), '请填写驳回意见');
  });

  it('leader distributes students to an expert in one go, all or nothing', async () => {
    const experts = await ok<Array<{ userId: number; nickName: string; studentCount: number }>>(s, t.leader, '/dev-api/api/AdvanceApproval/experts');
    expect(experts.map((e) => e.nickName)).toEqual(['李老师', '陈老师', '周老师']); // 陈老师: 济南门店's seeded expert
    const sun = await studentId(s, '孙七');
    const zhao = await studentId(s, '赵六');
    const DIST = '/dev-api/api/AdvanceApproval/distribute';
    await refused(s, sun, () => api(s, t.leader, DIST, { studentIds: [], expertId: expert2Id }), '请选择要分配的学生');
    await refused(s, sun, () => api(s, t.leader, DIST, { studentIds: [sun], expertId: 4 }), '所选用户不是志愿专家'); // operator
    await refused(s, sun, () => api(s, t.leader, DIST, { studentIds: [sun, 987654], expertId: expert2Id }), '学生不存在：987654');
    expect((await api(s, t.expert, DIST, { studentIds: [sun], expertId: expert2Id })).code).toBe(403);

    const res = await api<{ count: number }>(s, t.leader, DIST, { studentIds: [sun, zhao], expertId: expert2Id });
    expect(res).toMatchObject({ code: 200, msg: '已将 2 名学生分配给 周老师', data: { count: 2 } });
    const theirs = await s.call('GET', '/dev-api/api/index/subscriber', { token: expert2 });
    expect((theirs.body.rows as StudentT[]).map((r) => r.name).sort()).toEqual(['孙七', '赵六'].sort());
    const after = await ok<Array<{ userId: number; studentCount: number }>>(s, t.leader, '/dev-api/api/AdvanceApproval/experts');
    expect(after.find((e) => e.userId === expert2Id)?.studentCount).toBe(2);
    const log = await ok<Array<{ action: string; comment: string }>>(s, t.leader, '/dev-api/api/Subscriber/history', { studentId: sun });
    expect(log.at(-1)).toMatchObject({ action: 'assign', comment: '分配给 周老师' });

    // Students the leader creates are unassigned unless an expert is named.
    const ADD = '/dev-api/api/Subscriber/add';
    expect((await ok<StudentT>(s, t.leader, ADD, { name: '待分配', score: 580, subjects: [1, 2, 3] })).ownerId).toBeNull();
    expect((await ok<StudentT>(s, t.leader, ADD, { name: '已指定', score: 580, subjects: [1, 2, 3], ownerId: expert2Id })).ownerId).toBe(expert2Id);
    expect((await api(s, t.leader, ADD, { name: '错专家', score: 580, ownerId: 4 })).msg).toBe('所选用户不是志愿专家');
    // An expert cannot hand a new student to somebody else.
    expect((await ok<StudentT>(s, t.expert, ADD, { name: '自己的', ownerId: expert2Id })).ownerId).toBe(3);
  });

  it('manages appointments: add, edit, re-make, remove, with illegal changes refused', async () => {
    const zhang = await studentId(s, '张三');
    const ADD = '/dev-api/api/appointment/add';
    const EDIT = '/dev-api/api/appointment/edit';
    const REMAKE = '/dev-api/api/appointment/remake';
    const REMOVE = '/dev-api/api/appointment/remove';
    const at = Date.now() + DAY;
    expect((await api(s, t.expert, ADD, { studentId: zhang, appointTime: Date.now() - MINUTE })).msg).toBe('预约时间不能早于当前时间');
    expect((await api(s, t.expert, ADD, { studentId: zhang, appointTime: '明天' })).msg).toBe('预约时间格式不正确（应为 YYYY-MM-DD HH:mm）');
    const first = await api<AppointmentT>(s, t.expert, ADD, { studentId: zhang, appointTime: at, remark: '第一次面谈' });
    expect(first).toMatchObject({ code: 200, msg: '预约成功', data: { status: 'pending', expertName: '李老师', duration: 60, remark: '第一次面谈' } });
    const a = first.data as AppointmentT;
    expect((await api(s, t.expert, ADD, { studentId: zhang, appointTime: at + 30 * MINUTE })).msg).toBe('该专家在该时间段已有预约');
    expect((await api(s, t.expert, ADD, { studentId: zhang, appointTime: at + 60 * MINUTE, duration: 5 })).msg).toBe('预约时长必须在 15 到 240 分钟之间');

    const list = await s.call('GET', '/dev-api/api/appointment/list', { token: t.expert });
    expect((list.body.rows as AppointmentT[]).map((r) => r.appointmentId)).toContain(a.appointmentId);
    // 预约时间's date range (预约管理's schema): whole days in UTC+8, as params[beginTime] / params[endTime].
    const day = (ms: number) => new Date(ms + 8 * 60 * MINUTE).toISOString().slice(0, 10);
    const between = async (from: number, to: number) =>
      (
        (await s.call('GET', '/dev-api/api/appointment/list', { token: t.expert, query: { 'params[beginTime]': day(from), 'params[endTime]': day(to) } })).body
          .rows as AppointmentT[]
      ).map((r) => r.appointmentId);
    expect(await between(at, at)).toContain(a.appointmentId);
    expect(await between(at + DAY, at + 2 * DAY)).not.toContain(a.appointmentId);
    expect((await s.call('GET', '/dev-api/api/appointment/list', { token: t.expert, query: { 'params[beginTime]': '明天' } })).body.msg).toBe(
      '预约时间范围不正确',
    );
    expect((await s.call('GET', '/dev-api/api/appointment/list', { token: expert2 })).body.rows).toEqual([]);
    expect((await api(s, expert2, '/dev-api/api/appointment/info', { appointmentId: a.appointmentId })).msg).toBe('预约不存在或无权访问');

    expect((await api(s, t.expert, EDIT, { appointmentId: a.appointmentId, version: 9, remark: 'x' })).msg).toBe('预约已被他人修改，请刷新后再试');
    const edited = await api<AppointmentT>(s, t.expert, EDIT, { appointmentId: a.appointmentId, version: 1, remark: '改为线上' });
    expect(edited.data).toMatchObject({ remark: '改为线上', version: 2, status: 'pending' });

    // Re-make: a new pending appointment, the old one becomes 已改约.
    const remade = await api<AppointmentT>(s, t.expert, REMAKE, { appointmentId: a.appointmentId, appointTime: at + 2 * DAY });
    expect(remade).toMatchObject({ code: 200, msg: '改约成功', data: { status: 'pending', remadeFrom: a.appointmentId, remark: '改为线上' } });
    const old = await ok<AppointmentT>(s, t.expert, '/dev-api/api/appointment/info', { appointmentId: a.appointmentId });
    expect(old).toMatchObject({ status: 'remade', statusName: '已改约' });
    expect((await api(s, t.expert, EDIT, { appointmentId: a.appointmentId, version: old.version, remark: 'x' })).msg).toBe('该预约已改约，请在新的预约上操作');
    expect((await api(s, t.expert, REMAKE, { appointmentId: a.appointmentId, appointTime: at + 3 * DAY })).msg).toBe('该预约已改约，请在新的预约上操作');

    const b = remade.data as AppointmentT;
    const done = await api<AppointmentT>(s, t.expert, EDIT, { appointmentId: b.appointmentId, version: b.version, status: 'done' });
    expect(done.data?.statusName).toBe('已完成');
    expect((await api(s, t.expert, EDIT, { appointmentId: b.appointmentId, version: 2, remark: 'x' })).msg).toBe('已完成的预约不能修改');
    expect((await api(s, t.expert, REMOVE, { appointmentId: b.appointmentId })).msg).toBe('已完成的预约不能删除');
    // A finished appointment may be re-made as a follow-up; it stays 已完成.
    const follow = await api<AppointmentT>(s, t.expert, REMAKE, { appointmentId: b.appointmentId, appointTime: at + 5 * DAY, remark: '复诊' });
    expect(follow.data).toMatchObject({ status: 'pending', remadeFrom: b.appointmentId });
    expect((await ok<AppointmentT>(s, t.expert, '/dev-api/api/appointment/info', { appointmentId: b.appointmentId })).status).toBe('done');
    const removed = await api(s, t.expert, REMOVE, { appointmentId: follow.data?.appointmentId });
    expect(removed).toEqual({ code: 200, msg: '删除成功' });
    expect((await api(s, t.expert, '/dev-api/api/appointment/info', { appointmentId: follow.data?.appointmentId })).msg).toBe('预约不存在或无权访问');
  });

  it('answers 403 to the operator on every volunteer route, and every route declares a permission', async () => {
    const routes = s.app.routeRegistry.filter((r) => r.permission.startsWith('volunteer:'));
    expect(routes.length).toBeGreaterThan(50);
    const zhang = await studentId(s, '张三');
    const before = await snapshot(s, zhang);
    for (const r of routes) {
      const res = await s.call(r.method, r.url, {
        token: t.operator,
        ...(r.method === 'GET' ? { query: { studentId: zhang } } : { body: { studentId: zhang, version: 0, items: [] } }),
      });
      expect(res.body.code, `${r.method} ${r.url}`).toBe(403);
    }
    expect(await snapshot(s, zhang)).toEqual(before);
    // The expert and leader roles hold the new buttons.
    for (const token of [t.expert, t.leader]) {
      const rules = await s.call('POST', '/dev-api/api/auth/getRuleList', { token });
      for (const p of [
        'volunteer:student:add',
        'volunteer:student:edit',
        'volunteer:appointment:add',
        'volunteer:appointment:edit',
        'volunteer:appointment:remove',
      ]) {
        expect(rules.body.permissions).toContain(p);
      }
    }
    // The public share view is the only public volunteer route.
    expect(s.app.routeRegistry.filter((r) => r.url.includes('/index/share') && r.permission === 'public').map((r) => r.url)).toEqual([
      '/appv2/api/index/shareInfo',
    ]);
  });
});
