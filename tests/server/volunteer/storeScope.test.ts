import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRICE, releaseOk } from '../customer/helpers.js';
import { backends, startServer, type TestServer } from '../harness.js';
import { api, lineIds, ok, type StudentT, studentId } from './helpers.js';

/**
 * Store scope of the volunteer module, generated over its routes (every route whose permission is volunteer:…):
 * the seeded leader of 济南门店 (store 2, `store2leader`, holding every volunteer permission of a leader) calls each
 * one with parameters naming a student of 青岛门店 (store 3) that has a submitted plan, an appointment, a favourite
 * and a share. No answer may show that student or headquarters' students, and nothing outside store 2 may change.
 */

const FOREIGN = '青岛学生甲';
const HQ_NAMES = ['张三', '李四', '王五', '赵六', '孙七'];

describe.each(backends)('志愿填报的门店数据隔离 (%s)', (backend) => {
  let s: TestServer;
  let hq: string;
  let agency: string;
  const ids = { student: 0, appointment: 0, lineId: 0, version: 0 };

  beforeAll(async () => {
    s = await startServer(backend);
    hq = await s.login('leader', 'leader123');
    agency = await s.login('store2leader', 'store2leader123');
    const k = s.app.db.kysely;
    const st = await ok<StudentT>(s, hq, '/dev-api/api/Subscriber/add', { name: FOREIGN, score: 600, subjects: [1, 2, 3], ownerId: 3 });
    ids.student = st.studentId;
    const lines = await lineIds(s, 4);
    ids.lineId = lines[0];
    await ok(s, hq, '/appv2/api/index/zySave', { studentId: st.studentId, version: 0, items: lines.map((lineId) => ({ lineId })) });
    ids.version = (await ok<{ version: number }>(s, hq, '/dev-api/api/Subscriber/submit', { studentId: st.studentId, version: 1 })).version;
    await ok(s, hq, '/appv2/api/index/likeAdd', { studentId: st.studentId, lineId: lines[1] });
    await ok(s, hq, '/appv2/api/index/shareZY', { studentId: st.studentId });
    const appointment = await ok<{ appointmentId: number }>(s, hq, '/dev-api/api/appointment/add', {
      studentId: st.studentId,
      appointTime: Date.now() + 3 * 86_400_000,
      duration: 60,
    });
    ids.appointment = appointment.appointmentId;
    // The student (and its plan, appointment …) now belongs to 青岛门店.
    await k.updateTable('volStudent').set({ storeId: 3 }).where('studentId', '=', st.studentId).execute();
  });
  afterAll(async () => {
    await s?.close();
  });

  /** Every volunteer row outside store 2. */
  async function othersState() {
    const k = s.app.db.kysely;
    const students = await k.selectFrom('volStudent').selectAll().where('storeId', '!=', 2).orderBy('studentId').execute();
    const sid = students.map((r) => r.studentId);
    return JSON.stringify({
      students,
      plans: await k.selectFrom('volPlan').selectAll().where('studentId', 'in', sid).orderBy('planId').execute(),
      items: await k.selectFrom('volPlanItem as i').innerJoin('volPlan as p', 'p.planId', 'i.planId').selectAll('i').where('p.studentId', 'in', sid).execute(),
      actions: await k.selectFrom('volPlanAction').selectAll().where('studentId', 'in', sid).orderBy('actionId').execute(),
      submissions: await k.selectFrom('volPlanSubmission').selectAll().where('studentId', 'in', sid).execute(),
      appointments: await k.selectFrom('volAppointment').selectAll().where('studentId', 'in', sid).orderBy('appointmentId').execute(),
      likes: await k.selectFrom('volLike').selectAll().where('studentId', 'in', sid).execute(),
      shares: await k.selectFrom('volShare').selectAll().where('studentId', 'in', sid).execute(),
    });
  }

  it('no volunteer route lets 济南门店 read or change another store’s students, plans or appointments', async () => {
    const routes = s.app.routeRegistry.filter((r) => typeof r.permission === 'string' && r.permission.startsWith('volunteer:'));
    expect(routes.length).toBeGreaterThanOrEqual(40);
    const params = {
      studentId: ids.student,
      studentIds: [ids.student],
      appointmentId: ids.appointment,
      expertId: 6,
      ownerId: 6,
      version: ids.version,
      lineId: ids.lineId,
      lineIds: [ids.lineId],
      items: [{ lineId: ids.lineId }],
      name: '改名',
      score: 590,
      comment: '跨店操作',
      status: 'all',
      appointTime: Date.now() + 5 * 86_400_000,
      duration: 30,
      remark: '改',
    };
    const before = await othersState();
    const leaks: string[] = [];
    for (const r of routes) {
      // A distinct body per route: the server refuses identical repeats within 1 s as double submissions.
      const res =
        r.method === 'GET'
          ? await s.call('GET', r.url, { token: agency, query: { studentId: String(ids.student), appointmentId: String(ids.appointment), pageSize: '100' } })
          : await s.call(r.method, r.url, { token: agency, body: { ...params, _route: r.url } });
      const text = res.raw;
      const what = `${r.method} ${r.url} → ${res.status} ${text.slice(0, 120)}`;
      if ([FOREIGN, ...HQ_NAMES].some((needle) => text.includes(needle))) leaks.push(what);
      // A file answer is a leak, except the student import's blank template (headers and instructions, no student).
      const isFile = res.rawBuffer.subarray(0, 2).toString() === 'PK' || res.rawBuffer.subarray(0, 4).toString() === '%PDF';
      if (isFile && !r.url.endsWith('/ExcelImport/template')) leaks.push(`${what} (file)`);
    }
    expect(leaks).toEqual([]);
    expect(await othersState()).toBe(before);
  });

  it('济南门店 works on its own students and experts only', async () => {
    const list = (await s.call('GET', '/dev-api/api/index/subscriber', { token: agency, query: { pageSize: 50 } })).body;
    // 改名: the student the generated test's call of 新增学生 made in the store's own name.
    expect((list.rows as StudentT[]).map((r) => r.name).sort()).toEqual(['吴九', '周八', '改名'].sort());
    const experts = await ok<Array<{ nickName: string }>>(s, agency, '/dev-api/api/AdvanceApproval/experts');
    expect(experts.map((e) => e.nickName)).toEqual(['陈老师']);
    // Asking for headquarters' experts does not widen the store's own scope.
    const asked = await s.call('GET', '/dev-api/api/AdvanceApproval/experts', { token: agency, query: { storeId: '1' } });
    expect((asked.body.data as Array<{ nickName: string }>).map((e) => e.nickName)).toEqual(['陈老师']);
    // Distributing its unassigned student to its own expert works; headquarters' expert is no expert of this store.
    const wu = await studentId(s, '吴九');
    expect((await api(s, agency, '/dev-api/api/AdvanceApproval/distribute', { studentIds: [wu], expertId: 3 })).msg).toBe('所选用户不是志愿专家');
    expect((await api(s, agency, '/dev-api/api/AdvanceApproval/distribute', { studentIds: [wu], expertId: 6 })).msg).toBe('已将 1 名学生分配给 陈老师');
    // Its expert sees the store's students they serve, nobody else's.
    const expert = await s.login('store2expert', 'store2expert123');
    const theirs = (await s.call('GET', '/dev-api/api/index/subscriber', { token: expert, query: { pageSize: 50 } })).body;
    expect((theirs.rows as StudentT[]).map((r) => r.name).sort()).toEqual(['吴九', '周八', '改名'].sort()); // 改名 was given ownerId 6
    // A student the store creates belongs to the store.
    const created = await ok<StudentT>(s, agency, '/dev-api/api/Subscriber/add', { name: '济南新生', score: 580, subjects: [1, 2, 3] });
    const row = await s.app.db.kysely.selectFrom('volStudent').select('storeId').where('studentId', '=', created.studentId).executeTakeFirstOrThrow();
    expect(row.storeId).toBe(2);
  });

  it('headquarters sees every store, but hands a student only to an expert of the student’s store', async () => {
    const all = (await s.call('GET', '/dev-api/api/index/subscriber', { token: hq, query: { pageSize: 100 } })).body;
    expect((all.rows as StudentT[]).map((r) => r.name)).toEqual(expect.arrayContaining([FOREIGN, '周八', '张三']));
    const zhou = await studentId(s, '周八');
    expect((await api(s, hq, '/dev-api/api/AdvanceApproval/distribute', { studentIds: [zhou], expertId: 3 })).msg).toBe('学生"周八"与所选专家不属于同一门店');
    // 开卡 offers the experts of the customer's store (headquarters narrows its list by storeId) …
    const offered = await s.call('GET', '/dev-api/api/AdvanceApproval/experts', { token: hq, query: { storeId: '2' } });
    expect((offered.body.data as Array<{ nickName: string }>).map((e) => e.nickName)).toEqual(['陈老师']);
    // … and follows the same rule on the server, where a refusal leaves the card unused.
    const batch = await releaseOk(s, hq, { storeId: 2, kind: 1, card_num: 1, vip_price: PRICE[1] });
    const open = (expertId: number) => api(s, hq, '/dev-api/customer/openCard', { studentId: zhou, cardNo: batch.cardNoFirst, expertId });
    expect((await open(3)).msg).toBe('请选择用户"周八"所在门店的专家');
    const card = () => s.app.db.kysely.selectFrom('card').select('status').where('cardNo', '=', Number(batch.cardNoFirst)).executeTakeFirstOrThrow();
    expect((await card()).status).toBe('unused');
    expect((await open(6)).code).toBe(200);
    expect((await card()).status).toBe('activated');
  });
});
