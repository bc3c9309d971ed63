import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startServer, type TestServer } from './harness.js';

/**
 * 注册设置 / 测评设置 / 审核配置 (server/system/settingsRoutes.ts, server/system/settings.ts): GET and PUT
 * /dev-api/system/settings/{group} with per-group permissions, Chinese validation messages, the version check, the
 * operation log, and 注册设置 really governing /dev-api/register.
 */

const url = (group: string) => `/dev-api/system/settings/${group}`;
const STALE = '设置已在别处被修改，请刷新后再保存（未保存本次修改）';
const forbidden = (permission: string) => ({ code: 403, msg: `没有权限，请联系管理员授权（需要 ${permission}）` });

interface State<V> {
  group: string;
  values: V;
  version: number;
  updateBy: string | null;
  updateTime: number | null;
}
interface RegisterValues {
  registerEnabled: boolean;
  defaultRoleKey: string;
  smsRequired: boolean;
  agreement: string;
}
interface EvaluationValues {
  evaluationEnabled: boolean;
  maxAttempts: number;
  resultValidDays: number;
  reportNote: string;
}
interface AuditValues {
  submitNeedsReview: boolean;
  reviewerRoleKeys: string[];
  reviewTimeoutHours: number;
  rejectNeedsComment: boolean;
}

describe.each(backends)('settings (%s)', (backend) => {
  let s: TestServer;
  let admin: string;
  let operator: string;

  beforeAll(async () => {
    s = await startServer(backend);
    admin = await s.login('admin', 'admin123');
    operator = await s.login('operator', 'operator123');
  });
  afterAll(async () => {
    await s?.close();
  });

  const read = async <V>(group: string, token = admin) => (await s.call<State<V>>('GET', url(group), { token })).body;
  const save = (group: string, body: Record<string, unknown>, token = admin) => s.call<State<unknown>>('PUT', url(group), { token, body });

  /** A signed-in user whose only role holds exactly these permission strings. */
  async function userWith(userName: string, perms: string[]): Promise<string> {
    const db = s.app.db.kysely;
    const reg = await s.call('POST', '/dev-api/register', { body: { username: userName, password: 'secret12', confirmPassword: 'secret12' } });
    expect(reg.body.code).toBe(200);
    const role = await db
      .insertInto('sysRole')
      .values({
        roleName: userName,
        roleKey: userName,
        roleSort: 9,
        dataScope: '1',
        status: '0',
        delFlag: '0',
        createTime: Date.now(),
        remark: null,
        version: 1,
      })
      .returning('roleId')
      .executeTakeFirstOrThrow();
    const menus = await db.selectFrom('sysMenu').select('menuId').where('perms', 'in', perms).execute();
    expect(menus).toHaveLength(perms.length);
    for (const m of menus) await db.insertInto('sysRoleMenu').values({ roleId: role.roleId, menuId: m.menuId }).execute();
    const user = await db.selectFrom('sysUser').select('userId').where('userName', '=', userName).executeTakeFirstOrThrow();
    await db.deleteFrom('sysUserRole').where('userId', '=', user.userId).execute();
    await db.insertInto('sysUserRole').values({ userId: user.userId, roleId: role.roleId }).execute();
    return s.login(userName, 'secret12');
  }

  const operLog = (group: string) =>
    s.app.db.kysely.selectFrom('sysOperLog').selectAll().where('method', '=', `settings.save(${group})`).orderBy('operId', 'desc').execute();

  describe('GET', () => {
    it('answers the defaults with version 0 before anything was saved, and the active roles as choices', async () => {
      const reg = await read<RegisterValues>('register');
      expect(reg.code).toBe(200);
      expect(reg.data).toEqual({
        group: 'register',
        values: { registerEnabled: true, defaultRoleKey: 'common', smsRequired: false, agreement: '' },
        version: 0,
        updateBy: null,
        updateTime: null,
      });
      const roles = (reg.options as { roles: Array<{ roleKey: string; roleName: string }> }).roles;
      expect(roles.map((r) => r.roleKey)).toEqual(expect.arrayContaining(['admin', 'leader', 'expert', 'operator', 'common']));
      expect(roles.find((r) => r.roleKey === 'leader')?.roleName).toBeTruthy();

      const ev = await read<EvaluationValues>('evaluation');
      expect(ev.data).toMatchObject({ version: 0, values: { evaluationEnabled: true, maxAttempts: 3, resultValidDays: 180 } });
      expect(ev.data?.values.reportNote).toContain('仅作为');

      const au = await read<AuditValues>('audit');
      expect(au.data?.values).toEqual({ submitNeedsReview: true, reviewerRoleKeys: ['leader'], reviewTimeoutHours: 24, rejectNeedsComment: true });
    });

    it('knows no other group', async () => {
      const res = await s.call('GET', url('payment'), { token: admin });
      expect(res.body.code).toBe(404);
    });
  });

  describe('PUT', () => {
    it('saves each group, bumps the version, keeps it across a restart and logs the operation', async () => {
      const ev = { evaluationEnabled: false, maxAttempts: 5, resultValidDays: 365, reportNote: '<p>报告<strong>仅供参考</strong></p>' };
      const res = await save('evaluation', { ...ev, version: 0 });
      expect(res.body).toMatchObject({ code: 200, msg: '保存成功', data: { group: 'evaluation', values: ev, version: 1, updateBy: 'admin' } });

      const au = { submitNeedsReview: true, reviewerRoleKeys: ['leader', 'expert', 'leader'], reviewTimeoutHours: 48, rejectNeedsComment: false };
      const audit = await save('audit', { ...au, version: 0 });
      expect(audit.body.code).toBe(200);
      expect((audit.body.data as State<AuditValues>).values.reviewerRoleKeys).toEqual(['leader', 'expert']);

      await s.restart();
      expect((await read<EvaluationValues>('evaluation')).data).toMatchObject({ values: ev, version: 1, updateBy: 'admin' });
      expect((await read<AuditValues>('audit')).data).toMatchObject({ values: { ...au, reviewerRoleKeys: ['leader', 'expert'] }, version: 1 });

      const log = await operLog('evaluation');
      expect(log[0]).toMatchObject({ title: '测评设置', businessType: 2, requestMethod: 'PUT', operName: 'admin', status: 0 });
      expect(log[0].operUrl).toBe('/dev-api/system/settings/evaluation');
      expect(log[0].operParam).toContain('"maxAttempts":5');
    });

    it('sanitises the rich texts (no scripts or handlers are stored)', async () => {
      const cur = (await read<RegisterValues>('register')).data as State<RegisterValues>;
      const res = await save('register', {
        ...cur.values,
        agreement: '<h3>用户注册协议</h3><p onclick="alert(1)">请仔细阅读<script>alert(2)</script></p>',
        version: cur.version,
      });
      expect(res.body.code).toBe(200);
      const agreement = (res.body.data as State<RegisterValues>).values.agreement;
      expect(agreement).toContain('<h3>用户注册协议</h3>');
      expect(agreement).toContain('请仔细阅读');
      expect(agreement).not.toMatch(/script|onclick|alert/);
    });

    it.each([
      ['register', { defaultRoleKey: 'admin' }, 500, '注册默认角色不能是超级管理员'],
      ['register', { defaultRoleKey: 'nobody' }, 500, '注册默认角色"nobody"不存在或已停用'],
      ['register', { smsRequired: undefined }, 400, '需要短信验证码不能为空'],
      ['register', { smsRequired: 'maybe' }, 400, '需要短信验证码格式不正确，应为布尔值'],
      ['register', { agreement: 'x'.repeat(20001) }, 400, '注册协议长度不能超过 20000 个字符'],
      ['register', { secret: 1 }, 400, '不支持的字段：secret'],
      ['evaluation', { maxAttempts: 100 }, 400, '每人测评次数上限不能大于 99'],
      ['evaluation', { maxAttempts: -1 }, 400, '每人测评次数上限不能小于 0'],
      ['evaluation', { maxAttempts: 2.5 }, 400, '每人测评次数上限格式不正确，应为整数'],
      ['evaluation', { resultValidDays: 0 }, 400, '测评结果有效期(天)不能小于 1'],
      ['evaluation', { resultValidDays: 'abc' }, 400, '测评结果有效期(天)格式不正确，应为整数'],
      ['audit', { reviewerRoleKeys: [] }, 500, '开启志愿提交审核时，请至少选择一个审核人角色'],
      ['audit', { reviewerRoleKeys: ['leader', 'ghost'] }, 500, '审核人角色"ghost"不存在或已停用'],
      ['audit', { reviewerRoleKeys: [''] }, 400, '审核人角色不能为空'],
      ['audit', { reviewTimeoutHours: 721 }, 400, '审核超时提醒(小时)不能大于 720'],
      ['audit', { version: undefined }, 400, '版本不能为空'],
    ])('%s: refuses %j with code %i "%s" and changes nothing', async (group, change, code, msg) => {
      const before = (await read(group)).data as State<Record<string, unknown>>;
      const body: Record<string, unknown> = { ...before.values, version: before.version, ...change };
      for (const [k, v] of Object.entries(change)) if (v === undefined) delete body[k];
      const res = await save(group, body);
      expect(res.body).toEqual({ code, msg });
      expect((await read(group)).data).toEqual(before);
    });

    it('accepts no reviewer roles when submissions need no review', async () => {
      const cur = (await read<AuditValues>('audit')).data as State<AuditValues>;
      const res = await save('audit', { ...cur.values, submitNeedsReview: false, reviewerRoleKeys: [], version: cur.version });
      expect(res.body.code).toBe(200);
      const back = (await read<AuditValues>('audit')).data as State<AuditValues>;
      expect(await save('audit', { ...back.values, submitNeedsReview: true, reviewerRoleKeys: ['leader'], version: back.version })).toMatchObject({
        body: { code: 200 },
      });
    });

    it('refuses a stale version (and one from the future) without changing anything, and logs the refusal', async () => {
      const cur = (await read<EvaluationValues>('evaluation')).data as State<EvaluationValues>;
      const first = await save('evaluation', { ...cur.values, maxAttempts: 7, version: cur.version });
      expect(first.body.code).toBe(200);
      const after = (await read<EvaluationValues>('evaluation')).data;
      // A second form still holding the old version.
      expect((await save('evaluation', { ...cur.values, maxAttempts: 9, version: cur.version })).body).toEqual({ code: 500, msg: STALE });
      expect((await save('evaluation', { ...cur.values, maxAttempts: 9, version: cur.version + 5 })).body).toEqual({ code: 500, msg: STALE });
      expect((await read('evaluation')).data).toEqual(after);
      const log = await operLog('evaluation');
      expect(log[0]).toMatchObject({ status: 1, errorMsg: STALE });
    });

    it('lets only one of two saves of the same version through', async () => {
      const cur = (await read<EvaluationValues>('evaluation')).data as State<EvaluationValues>;
      const [a, b] = await Promise.all([
        save('evaluation', { ...cur.values, resultValidDays: 30, version: cur.version }),
        save('evaluation', { ...cur.values, resultValidDays: 60, version: cur.version }),
      ]);
      const codes = [a.body.code, b.body.code].sort();
      expect(codes).toEqual([200, 500]);
      const winner = a.body.code === 200 ? 30 : 60;
      expect((await read<EvaluationValues>('evaluation')).data).toMatchObject({ version: cur.version + 1, values: { resultValidDays: winner } });
    });
  });

  describe('permissions', () => {
    it('refuses users without the group permissions (403) and needs a token (401)', async () => {
      expect((await s.call('GET', url('register'), { token: operator })).body).toEqual(forbidden('system:register:list'));
      expect((await s.call('GET', url('evaluation'), { token: operator })).body).toEqual(forbidden('system:evaluation:list'));
      expect((await s.call('GET', url('audit'), { token: operator })).body).toEqual(forbidden('system:audit:list'));
      const cur = (await read<AuditValues>('audit')).data as State<AuditValues>;
      expect((await save('audit', { ...cur.values, version: cur.version }, operator)).body).toEqual(forbidden('system:audit:edit'));
      expect((await s.call('GET', url('register'))).body).toEqual({ code: 401, msg: '未登录或登录已过期，请先登录' });
    });

    it('lets a reader read but not save, and each group needs its own permission', async () => {
      const reader = await userWith('settings_reader', ['system:register:list', 'system:evaluation:list', 'system:evaluation:edit']);
      const reg = await read<RegisterValues>('register', reader);
      expect(reg.code).toBe(200);
      const res = await save('register', { ...(reg.data as State<RegisterValues>).values, registerEnabled: false, version: reg.data?.version ?? 0 }, reader);
      expect(res.body).toEqual(forbidden('system:register:edit'));
      expect((await read<RegisterValues>('register')).data?.values.registerEnabled).toBe(true);
      // evaluation: read and edit granted; audit: nothing.
      const ev = (await read<EvaluationValues>('evaluation', reader)).data as State<EvaluationValues>;
      expect((await save('evaluation', { ...ev.values, version: ev.version }, reader)).body.code).toBe(200);
      expect((await s.call('GET', url('audit'), { token: reader })).body).toEqual(forbidden('system:audit:list'));
    });
  });

  describe('register settings govern /dev-api/register', () => {
    const register = (body: Record<string, unknown>) => s.call('POST', '/dev-api/register', { body });
    const registerConfig = async () =>
      (await s.call<{ registerEnabled: boolean; smsRequired: boolean; agreement: string }>('GET', '/appv2/api/index/registerConfig')).body;

    it('closed: registration is refused in Chinese, the sign-in page learns it; reopened: it works again', async () => {
      const cur = (await read<RegisterValues>('register')).data as State<RegisterValues>;
      expect((await save('register', { ...cur.values, registerEnabled: false, version: cur.version })).body.code).toBe(200);
      const refused = await register({ username: 'closed_user', password: 'secret12', confirmPassword: 'secret12' });
      expect(refused.body).toEqual({ code: 500, msg: '当前系统没有开启注册功能！' });
      expect(await s.app.db.kysely.selectFrom('sysUser').select('userId').where('userName', '=', 'closed_user').executeTakeFirst()).toBeUndefined();
      expect((await s.call<{ registerEnabled: boolean }>('GET', '/appv2/api/index/platformInfo')).body.data?.registerEnabled).toBe(false);
      expect((await registerConfig()).data?.registerEnabled).toBe(false);

      const closed = (await read<RegisterValues>('register')).data as State<RegisterValues>;
      expect(closed.values.registerEnabled).toBe(false);
      expect((await save('register', { ...closed.values, registerEnabled: true, version: closed.version })).body.code).toBe(200);
      expect((await register({ username: 'open_user', password: 'secret12', confirmPassword: 'secret12' })).body.code).toBe(200);
    });

    it('gives new accounts the configured default role', async () => {
      const cur = (await read<RegisterValues>('register')).data as State<RegisterValues>;
      expect((await save('register', { ...cur.values, defaultRoleKey: 'expert', version: cur.version })).body.code).toBe(200);
      expect((await register({ username: 'new_expert', password: 'secret12', confirmPassword: 'secret12' })).body.code).toBe(200);
      const roles = await s.app.db.kysely
        .selectFrom('sysUserRole as ur')
        .innerJoin('sysRole as r', 'r.roleId', 'ur.roleId')
        .innerJoin('sysUser as u', 'u.userId', 'ur.userId')
        .select('r.roleKey')
        .where('u.userName', '=', 'new_expert')
        .execute();
      expect(roles.map((r) => r.roleKey)).toEqual(['expert']);
      const back = (await read<RegisterValues>('register')).data as State<RegisterValues>;
      expect((await save('register', { ...back.values, defaultRoleKey: 'common', version: back.version })).body.code).toBe(200);
    });

    it('with 需要短信验证码: asks for the mobile and a register code, refuses a wrong one, accepts the sent one', async () => {
      const cur = (await read<RegisterValues>('register')).data as State<RegisterValues>;
      expect((await save('register', { ...cur.values, smsRequired: true, version: cur.version })).body.code).toBe(200);
      expect((await registerConfig()).data).toMatchObject({ registerEnabled: true, smsRequired: true });
      const base = { username: 'sms_user', password: 'secret12', confirmPassword: 'secret12' };
      expect((await register(base)).body).toEqual({ code: 500, msg: '请输入手机号' });
      expect((await register({ ...base, mobile: '13900001234' })).body).toEqual({ code: 500, msg: '请输入短信验证码' });
      expect((await register({ ...base, mobile: '13900001234', code: '123456' })).body).toEqual({ code: 500, msg: '验证码已失效，请重新获取' });
      const sent = await s.call('POST', '/dev-api/api/index/sendCodev3', { body: { mobile: '13900001234', type: 'register' } });
      expect(sent.body.code).toBe(200);
      const code = s.smsCodes('13900001234').at(-1) as string;
      const wrong = code === '000000' ? '111111' : '000000';
      expect((await register({ ...base, mobile: '13900001234', code: wrong })).body).toEqual({ code: 500, msg: '验证码错误' });
      expect((await register({ ...base, mobile: '13900001234', code })).body.code).toBe(200);
      // Used once only.
      expect((await register({ ...base, username: 'sms_user2', mobile: '13900001234', code })).body.msg).toBe('该手机号已注册，请直接登录');
      const back = (await read<RegisterValues>('register')).data as State<RegisterValues>;
      expect((await save('register', { ...back.values, smsRequired: false, version: back.version })).body.code).toBe(200);
    });

    it('publishes the agreement to the register page without a sign-in', async () => {
      const res = await registerConfig();
      expect(res.code).toBe(200);
      expect(res.data?.agreement).toContain('用户注册协议');
      expect(Object.keys(res.data ?? {}).sort()).toEqual(['agreement', 'registerEnabled', 'smsRequired']);
    });
  });
});
