import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startServer, type TestServer } from '../harness.js';
import { appUser, call, ok, PRICE, releaseOk, staff, studentByName } from './helpers.js';

interface CustomerRow {
  studentId: number;
  name: string;
  userType: number;
  userTypeName: string;
  vipPayType: number;
  cardNo: string | null;
  vipExpireTime: number | null;
  storeName: string;
  expertName: string | null;
  unread: number;
  version: number;
}

describe.each(backends)('用户管理 (%s)', (backend) => {
  let s: TestServer;
  let leader: string;
  let expert: string;

  beforeAll(async () => {
    s = await startServer(backend);
    leader = await s.login('leader', 'leader123');
    expert = await s.login('expert', 'expert123');
  });
  afterAll(async () => {
    await s?.close();
  });
  const db = () => s.app.db.kysely;
  const list = async (url = '/dev-api/customer/list', q: Record<string, unknown> = {}) =>
    (await call<never>(s, leader, 'GET', url, { pageSize: 100, ...q })).rows as CustomerRow[];

  it('开卡: user type and expiry follow the card, pay type 2, the expert sees the student', async () => {
    const batch = await releaseOk(s, leader, { storeId: 1, kind: 1, card_num: 2, vip_price: PRICE[1] });
    const sun = await studentByName(s, '孙七');
    const expertId = (await db().selectFrom('sysUser').select('userId').where('userName', '=', 'expert').executeTakeFirstOrThrow()).userId;
    const before = (await call(s, expert, 'GET', '/dev-api/api/index/subscriber', { pageSize: 100 })).rows ?? [];
    expect(JSON.stringify(before)).not.toContain('孙七');
    const res = await call(s, leader, 'POST', '/dev-api/customer/openCard', { studentId: sun.studentId, cardNo: batch.cardNoFirst, expertId });
    expect(res).toMatchObject({ code: 200, msg: '开卡成功' });
    const row = (await list('/dev-api/customer/list', { name: '孙七' }))[0];
    expect(row).toMatchObject({ userType: 1, userTypeName: '志愿卡用户', vipPayType: 2, cardNo: batch.cardNoFirst, storeName: '总部', expertName: '李老师' });
    expect(row.vipExpireTime).toBeGreaterThan(Date.now() + 364 * 86_400_000);
    const after = await s.call('GET', '/dev-api/api/index/subscriber', { token: expert, query: { pageSize: 100 } });
    expect(JSON.stringify(after.body)).toContain('孙七');
    // A second card for a customer with a valid one is refused.
    expect(
      await call(s, leader, 'POST', '/dev-api/customer/openCard', { studentId: sun.studentId, cardNo: String(Number(batch.cardNoFirst) + 1) }),
    ).toMatchObject({
      code: 500,
      msg: '该用户已有有效的会员卡',
    });
    const history = await ok<Array<{ action: string }>>(s, leader, 'GET', '/dev-api/customer/history', { studentId: sun.studentId });
    expect(history.map((h) => h.action)).toEqual(['assign', 'openCard']);
  });

  it('修改 checks the version; 重置信息 clears the exam data with an audit entry', async () => {
    const li = (await list('/dev-api/customer/list', { name: '李四' }))[0];
    const body = {
      studentId: li.studentId,
      version: li.version,
      name: '李四',
      mobile: '13900000002',
      province: '山东',
      examYear: 2025,
      score: 590,
      subjects: '4,5,6',
    };
    expect(await call(s, leader, 'PUT', '/dev-api/customer', body)).toMatchObject({ code: 200, msg: '修改成功' });
    // (A changed body: the server refuses an identical repeat within 1 s as a double submission.)
    expect(await call(s, leader, 'PUT', '/dev-api/customer', { ...body, score: 591 })).toMatchObject({ code: 500, msg: '数据已被他人修改，请刷新后重试' });
    expect(await call(s, leader, 'PUT', '/dev-api/customer', { ...body, version: li.version + 1, score: 900 })).toMatchObject({
      code: 500,
      msg: '分数应在 0 到 750 之间',
    });
    expect(await call(s, leader, 'POST', '/dev-api/customer/resetInfo', { studentId: li.studentId })).toMatchObject({ code: 200, msg: '重置成功' });
    const row = await studentByName(s, '李四');
    expect(row).toMatchObject({ score: null, rank: null, subjects: '' });
    const history = await ok<Array<{ action: string; comment: string }>>(s, leader, 'GET', '/dev-api/customer/history', { studentId: li.studentId });
    expect(history[0]).toMatchObject({ action: 'reset', comment: '原分数 590，原选科 历史/地理/政治' });
  });

  it('customer states: active → recycled → restored; purge only from the recycle bin; illegal moves refused', async () => {
    const zhao = await studentByName(s, '赵六');
    const id = String(zhao.studentId);
    expect(await call(s, leader, 'POST', '/dev-api/customer/restore', { ids: id })).toMatchObject({ code: 500, msg: '用户"赵六"正常，不能恢复' });
    expect(await call(s, leader, 'POST', '/dev-api/customer/purge', { ids: id })).toMatchObject({ code: 500, msg: '用户"赵六"正常，不能彻底删除' });
    expect(await call(s, leader, 'POST', '/dev-api/customer/recycle', { ids: id })).toMatchObject({ code: 200, msg: '已移入回收站' });
    expect((await list()).some((r) => r.name === '赵六')).toBe(false);
    expect((await list('/dev-api/customer/recycle/list')).map((r) => r.name)).toEqual(['赵六']);
    // The student leaves the volunteer lists while recycled.
    expect(JSON.stringify((await s.call('GET', '/dev-api/api/index/subscriber', { token: expert, query: { pageSize: 100 } })).body)).not.toContain('赵六');
    expect(await call(s, leader, 'POST', '/dev-api/customer/recycle', { ids: [id] })).toMatchObject({ code: 500, msg: '用户"赵六"回收站，不能删除到回收站' });
    expect(await call(s, leader, 'POST', '/dev-api/customer/restore', { ids: [id] })).toMatchObject({ code: 200, msg: '恢复成功' });
    expect((await list()).some((r) => r.name === '赵六')).toBe(true);
    expect(JSON.stringify((await s.call('GET', '/dev-api/api/index/subscriber', { token: expert, query: { pageSize: 100 } })).body)).toContain('赵六');
    // Purge after the retention period (the job function) erases the person's data.
    await ok(s, leader, 'POST', '/dev-api/customer/recycle', { ids: `${id},` });
    const { purgeExpiredRecycled } = await import('../../../server/customer/customers.js');
    expect(await purgeExpiredRecycled(db(), Date.now())).toBe(0);
    expect(await purgeExpiredRecycled(db(), Date.now() + 31 * 86_400_000)).toBe(1);
    const gone = await db().selectFrom('volStudent').selectAll().where('studentId', '=', zhao.studentId).executeTakeFirstOrThrow();
    expect(gone).toMatchObject({ cusStatus: 'purged', name: '已清除', mobile: null });
    expect(await call(s, leader, 'POST', '/dev-api/customer/restore', { ids: [Number(id)] })).toMatchObject({ code: 500, msg: '用户不存在或无权访问' });
    const trail = await db()
      .selectFrom('cusAction')
      .select(['action', 'fromStatus', 'toStatus'])
      .where('studentId', '=', zhao.studentId)
      .orderBy('actionId')
      .execute();
    expect(trail.map((t) => `${t.action}:${t.fromStatus}→${t.toStatus}`)).toEqual([
      'recycle:active→recycled',
      'restore:recycled→active',
      'recycle:active→recycled',
      'purge:recycled→purged',
    ]);
  });

  it('客户资料: address, then 邮寄 with a tracking number', async () => {
    const wang = await studentByName(s, '王五');
    expect(
      await call(s, leader, 'POST', '/dev-api/customer/client/deliver', {
        studentId: wang.studentId,
        item: '志愿报告',
        carrier: '中通',
        trackingNo: 'SF123456789',
      }),
    ).toMatchObject({
      code: 500,
      msg: '请先填写收件地址',
    });
    expect(
      await call(s, leader, 'PUT', '/dev-api/customer/client/address', {
        studentId: wang.studentId,
        receiver: '王家长',
        receiverMobile: '1390000',
        address: '济南',
      }),
    ).toMatchObject({
      code: 500,
      msg: '请输入正确的收件电话',
    });
    await ok(s, leader, 'PUT', '/dev-api/customer/client/address', {
      studentId: wang.studentId,
      receiver: '王家长',
      receiverMobile: '13900000003',
      address: '山东省济南市历下区 1 号',
    });
    expect(
      await call(s, leader, 'POST', '/dev-api/customer/client/deliver', { studentId: wang.studentId, item: '志愿报告', carrier: '顺丰', trackingNo: 'SF 12' }),
    ).toMatchObject({
      code: 500,
      msg: '快递单号只能包含字母、数字和-，6 到 40 位',
    });
    await ok(s, leader, 'POST', '/dev-api/customer/client/deliver', {
      studentId: wang.studentId,
      item: '志愿报告',
      carrier: '顺丰',
      trackingNo: 'SF123456789',
    });
    const rows = await ok<Array<{ trackingNo: string; address: string }>>(s, leader, 'GET', '/dev-api/customer/client/deliveries', {
      studentId: wang.studentId,
    });
    expect(rows).toMatchObject([{ trackingNo: 'SF123456789', address: '王家长 13900000003 山东省济南市历下区 1 号' }]);
  });

  it('消息: one, selected, all; unread counts; the family reads (0 → 1)', async () => {
    const batch = await releaseOk(s, leader, { storeId: 1, kind: 3, card_num: 1, vip_price: PRICE[3] });
    const [card] = (await (await import('./helpers.js')).downloadBatch(s, leader, batch.batchId)).rows;
    const fam = await appUser(s, 'family_msg');
    await ok(s, fam.token, 'POST', '/appv2/api/card/activate', { cardNo: card.卡号, secret: card.卡密, name: '郑同学', province: '山东', examYear: 2026 });
    const zheng = await studentByName(s, '郑同学');
    expect(
      await call(s, leader, 'POST', '/dev-api/customer/message', { target: 'one', studentIds: String(zheng.studentId), title: '', content: 'x' }),
    ).toMatchObject({
      code: 500,
      msg: '消息标题不能为空',
    });
    expect(
      await ok(s, leader, 'POST', '/dev-api/customer/message', {
        target: 'one',
        studentIds: String(zheng.studentId),
        title: '开学提醒',
        content: '请完善资料',
      }),
    ).toEqual({ sent: 1 });
    const all = await ok<{ sent: number }>(s, leader, 'POST', '/dev-api/customer/message', { target: 'all', title: '通知', content: '志愿填报开始' });
    const active = (await db().selectFrom('volStudent').select('studentId').where('cusStatus', '=', 'active').execute()).length;
    expect(all.sent).toBe(active);
    expect((await list('/dev-api/customer/list', { name: '郑同学' }))[0].unread).toBe(2);
    const mine = await ok<{ rows: Array<{ messageId: number; readStatus: number }>; unread: number }>(s, fam.token, 'POST', '/appv2/api/message/list');
    expect(mine.unread).toBe(2);
    await ok(s, fam.token, 'POST', '/appv2/api/message/read', { messageId: mine.rows[0].messageId });
    expect((await ok<{ unread: number }>(s, fam.token, 'POST', '/appv2/api/message/list')).unread).toBe(1);
    const page = await call<never>(s, leader, 'GET', '/dev-api/customer/message/list', { studentId: zheng.studentId });
    expect(page.total).toBe(2);
  });

  it('测评: questions from judg/problem, scored per 测评设置 (attempt limit), 下载结果 is a real PDF', async () => {
    const fam = await appUser(s, 'family_judg');
    const questions = await ok<Array<{ id: number; options: Array<{ key: string }> }>>(s, fam.token, 'POST', '/appv2/api/judg/problem');
    expect(questions).toHaveLength(12);
    const answers = Object.fromEntries(questions.map((q) => [String(q.id), q.id % 2 ? 'A' : 'C']));
    expect(await call(s, fam.token, 'POST', '/appv2/api/judg/submit', { answers, attempt: 0 })).toMatchObject({ code: 500, msg: '请先激活会员卡后再测评' });
    const batch = await releaseOk(s, leader, { storeId: 1, kind: 3, card_num: 1, vip_price: PRICE[3], remark: '测评' });
    const [card] = (await (await import('./helpers.js')).downloadBatch(s, leader, batch.batchId)).rows;
    await ok(s, fam.token, 'POST', '/appv2/api/card/activate', { cardNo: card.卡号, secret: card.卡密, name: '冯同学', province: '山东', examYear: 2026 });
    expect(await call(s, fam.token, 'POST', '/appv2/api/judg/submit', { answers: { 1: 'A' } })).toMatchObject({ code: 500, msg: '请回答第 2 题' });
    const result = await ok<{ score: number; code: string }>(s, fam.token, 'POST', '/appv2/api/judg/submit', { answers });
    expect(result.score).toBe(12);
    expect(result.code).toBe('RAE');
    // 测评设置: at most one attempt.
    const admin = await s.login('admin', 'admin123');
    const settings = await ok<{ values: Record<string, unknown>; version: number }>(s, admin, 'GET', '/dev-api/system/settings/evaluation');
    await ok(s, admin, 'PUT', '/dev-api/system/settings/evaluation', { ...settings.values, maxAttempts: 1, version: settings.version });
    expect(await call(s, fam.token, 'POST', '/appv2/api/judg/submit', { answers, attempt: 2 })).toMatchObject({ code: 500, msg: '测评次数已达上限（1 次）' });
    const rows = (await call<never>(s, leader, 'GET', '/dev-api/customer/appraisal/list', { name: '冯同学' })).rows as Array<{
      appraisalId: number;
      code: string;
    }>;
    expect(rows).toMatchObject([{ code: 'RAE' }]);
    const pdf = await s.call('POST', '/dev-api/customer/appraisal/download', { token: leader, body: { appraisalId: rows[0].appraisalId } });
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawBuffer.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('备忘录 is private to the store and its author', async () => {
    const wang = await studentByName(s, '王五');
    await ok(s, leader, 'POST', '/dev-api/customer/memo', { studentId: wang.studentId, content: '家长希望留在省内' });
    const memo = (await call<never>(s, leader, 'GET', '/dev-api/customer/memo/list')).rows as Array<{ memoId: number; content: string }>;
    expect(memo.map((m) => m.content)).toContain('家长希望留在省内');
    const hqColleague = await staff(s, 'hq_colleague', 1);
    expect(await call(s, hqColleague, 'PUT', '/dev-api/customer/memo', { memoId: memo[0].memoId, content: '改' })).toMatchObject({
      code: 500,
      msg: '只能修改自己写的备忘',
    });
    const agency = await staff(s, 'agency_memo', 2);
    expect((await call<never>(s, agency, 'GET', '/dev-api/customer/memo/list')).rows).toEqual([]);
  });

  it("platformInfo's storeId is the caller's store", async () => {
    const agency = await staff(s, 'agency_info', 3);
    const res = await s.call<{ storeId: number }>('POST', '/appv2/api/index/platformInfo', { token: agency });
    expect(res.body.data?.storeId).toBe(3);
    const hq = await s.call<{ storeId: number }>('POST', '/appv2/api/index/platformInfo', { token: leader });
    expect(hq.body.data?.storeId).toBe(1);
  });
});
