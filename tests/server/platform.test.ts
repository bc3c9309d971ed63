import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startServer, type TestServer } from './harness.js';

const INFO = '/appv2/api/index/platformInfo';
const PLATFORM = '/dev-api/system/platform';
const NOTE = '/dev-api/api/Systerm/getNoteDesc';
const CONFIG = '/dev-api/api/systerm/platformConfig';
const USER_INFO = '/appv2/api/apply/userInfo';
const ONLINE = '/dev-api/monitor/online/list';
const NOT_SIGNED_IN = { code: 401, msg: '未登录或登录已过期，请先登录' };
const REVOKED = { code: 401, msg: '登录状态已失效（已退出或被强制下线），请重新登录' };

/** Spec §3 platform info fields, plus the derived expired flag and registerEnabled. */
const INFO_FIELDS = [
  'title',
  'expiredate',
  'expiredate_time',
  'favicon',
  'watermark',
  'h5addr',
  'logo',
  'smalllogo',
  'qrUrl',
  'mobile',
  'pv',
  'registerNum',
  'wxapp',
  'appdown',
  'gwaddr',
  'appId',
  'storeId',
  'expired',
  'registerEnabled',
];

interface PlatformInfo {
  title: string;
  expiredate: string;
  expiredate_time: number;
  expired: boolean;
  mobile: { kf_phone: string };
  registerEnabled: boolean;
  storeId: number;
  [k: string]: unknown;
}

interface OnlineRow {
  tokenId: string;
  userName: string;
  deptName: string | null;
  ipaddr: string | null;
  browser: string | null;
  os: string | null;
  loginTime: number;
}

/** Local calendar date `days` from today, YYYY-MM-DD. */
function localDate(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

describe.each(backends)('platform (%s)', (backend) => {
  let s: TestServer;
  let admin: string;

  beforeAll(async () => {
    s = await startServer(backend);
    admin = await s.login('admin', 'admin123');
  });
  afterAll(async () => {
    await s?.close();
  });

  const info = async () => (await s.call<PlatformInfo>('GET', INFO)).body.data as PlatformInfo;
  const setPlatform = async (fields: Record<string, unknown>) => {
    const current = (await s.call<{ title: string; expiredate: string }>('GET', PLATFORM, { token: admin })).body.data;
    return s.call('PUT', PLATFORM, { token: admin, body: { title: current?.title, expiredate: current?.expiredate, ...fields } });
  };

  describe('platformInfo (public)', () => {
    it.each(['GET', 'POST'])('answers %s without a token with the §3 fields', async (method) => {
      const res = await s.call<PlatformInfo>(method, INFO);
      expect(res.status).toBe(200);
      expect(res.body.code).toBe(200);
      const data = res.body.data as PlatformInfo;
      expect(Object.keys(data).sort()).toEqual([...INFO_FIELDS].sort());
      expect(data).toMatchObject({
        title: '志愿填报管理系统',
        expiredate: '2099-12-31',
        expired: false,
        favicon: '/favicon.svg',
        watermark: '志愿填报',
        logo: '/logo.svg',
        smalllogo: '/logo-small.svg',
        mobile: { kf_phone: '400-000-0000' },
        appId: 'zy-console',
        storeId: 1,
        registerEnabled: true,
      });
      // Seconds of the last moment of the licence's last day (server local time).
      expect(data.expiredate_time).toBe(Math.floor(new Date('2099-12-31T23:59:59').getTime() / 1000));
      expect(typeof data.pv).toBe('number');
      expect(typeof data.registerNum).toBe('number');
    });

    it('still needs the request signature', async () => {
      const res = await s.call('POST', INFO, { sign: false });
      expect(res.body).toEqual({ code: 40001, msg: '请求缺少签名（Authentication/Timer），请刷新页面后重试' });
    });

    it('never leaks the internal settings (toolbox address, notice text) to anonymous callers', async () => {
      const data = await info();
      for (const key of ['toolboxaddr', 'tips', 'tipsTitle', 'gddesc', 'kfPhone', 'updateTime']) expect(data).not.toHaveProperty(key);
    });
  });

  describe('expired flag follows the licence date', () => {
    it('is true once the expiry date is in the past, false through the last day, and persists', async () => {
      expect((await setPlatform({ expiredate: localDate(-1) })).body).toEqual({ code: 200, msg: '修改成功' });
      let data = await info();
      expect(data.expiredate).toBe(localDate(-1));
      expect(data.expired).toBe(true);
      expect(data.expiredate_time * 1000).toBeLessThan(Date.now());

      await s.restart();
      expect((await info()).expired).toBe(true);

      // The licence is valid through the whole of its last day.
      expect((await setPlatform({ expiredate: localDate(0) })).body.code).toBe(200);
      data = await info();
      expect(data.expired).toBe(false);
      expect(data.expiredate_time * 1000).toBeGreaterThan(Date.now());

      expect((await setPlatform({ expiredate: localDate(365) })).body.code).toBe(200);
      expect((await info()).expired).toBe(false);
      // Signed-in calls keep working on an expired licence (the console decides what to show).
      await setPlatform({ expiredate: '2000-01-01' });
      expect((await info()).expired).toBe(true);
      expect((await s.call('POST', NOTE, { token: admin })).body.code).toBe(200);
      await setPlatform({ expiredate: '2099-12-31' });
      expect((await info()).expired).toBe(false);
    });

    it.each(['20990101', '2099-1-01', '2099-02-30', '2099-13-01', '2099-00-10', 'tomorrow'])(
      'refuses the expiry date %s and keeps the old one',
      async (expiredate) => {
        const res = await setPlatform({ expiredate });
        expect(res.body.code).toBeGreaterThanOrEqual(400);
        expect(res.body.msg).toBe('到期日期格式不正确');
        expect((await info()).expiredate).toBe('2099-12-31');
      },
    );
  });

  describe('platform settings (GET/PUT /dev-api/system/platform)', () => {
    it('reads every stored field for admin', async () => {
      const res = await s.call<Record<string, unknown>>('GET', PLATFORM, { token: admin });
      expect(res.body.code).toBe(200);
      expect(res.body.data).toMatchObject({
        id: 1,
        title: '志愿填报管理系统',
        toolboxaddr: '/toolbox/',
        tipsTitle: '使用提示',
        registerEnabled: 1,
        kfPhone: '400-000-0000',
      });
    });

    it('edits fields and shows them in platformInfo', async () => {
      expect((await setPlatform({ title: '测试平台', kfPhone: '400-123-4567', watermark: null })).body).toEqual({ code: 200, msg: '修改成功' });
      const data = await info();
      expect(data.title).toBe('测试平台');
      expect(data.mobile).toEqual({ kf_phone: '400-123-4567' });
      expect(data.watermark).toBeNull();
      await setPlatform({ title: '志愿填报管理系统', kfPhone: '400-000-0000', watermark: '志愿填报' });
      expect((await info()).title).toBe('志愿填报管理系统');
    });

    it.each([
      [{ title: '', expiredate: '2099-12-31' }, '平台名称不能为空'],
      [{ expiredate: '2099-12-31' }, '平台名称不能为空'],
      [{ title: 'x' }, '到期日期不能为空'],
      [{ title: 'x'.repeat(51), expiredate: '2099-12-31' }, '平台名称长度不能超过 50 个字符'],
      [{ title: 'x', expiredate: '2099-12-31', pv: 99999 }, '不支持的字段：pv'],
      [{ title: 'x', expiredate: '2099-12-31', id: 2 }, '不支持的字段：id'],
      [{ title: 'x', expiredate: '2099-12-31', registerEnabled: 5 }, '开放注册取值不在允许范围内'],
    ])('refuses %j with code 400', async (body, msg) => {
      const res = await s.call('PUT', PLATFORM, { token: admin, body });
      expect(res.body).toEqual({ code: 400, msg });
      expect((await info()).title).toBe('志愿填报管理系统');
    });
  });

  describe('userInfo', () => {
    it('describes the signed-in user (realName, roleName, roleId, mobile, diagnosis)', async () => {
      const res = await s.call('POST', USER_INFO, { token: admin });
      expect(res.body).toEqual({
        code: 200,
        msg: '操作成功',
        data: {
          userId: 1,
          userName: 'admin',
          realName: '系统管理员',
          roleName: '超级管理员',
          roleId: 1,
          roles: ['admin'],
          mobile: '13800000000',
          avatar: null,
          diagnosis: true,
        },
      });
      const expert = await s.login('expert', 'expert123');
      const e = await s.call('POST', USER_INFO, { token: expert });
      expect(e.body.data).toMatchObject({ userName: 'expert', realName: '李老师', roleName: '志愿专家', roleId: 3, roles: ['expert'], diagnosis: false });
      const leader = await s.login('leader', 'leader123');
      expect((await s.call('POST', USER_INFO, { token: leader })).body.data).toMatchObject({ roleName: '机构负责人', roleId: 2, diagnosis: true });
    });

    it('needs a token', async () => {
      expect((await s.call('POST', USER_INFO)).body).toEqual(NOT_SIGNED_IN);
    });
  });

  describe('notice text and platform config', () => {
    it('gives tips_title, exactly three tips and gddesc', async () => {
      const res = await s.call('POST', NOTE, { token: admin });
      expect(res.body).toEqual({
        code: 200,
        msg: '操作成功',
        data: {
          tips_title: '使用提示',
          tips: ['1. 左侧菜单按权限显示，看不到的功能请联系管理员授权', '2. 学生的志愿方案提交后需领导审批', '3. 如遇问题请拨打客服电话 400-000-0000'],
          gddesc: '欢迎使用志愿填报管理系统，2026 年山东普通类投档数据已更新，可为 2027 年高考填报志愿。',
        },
      });
    });

    it('pads or cuts the tips to three lines and follows edits', async () => {
      const operator = await s.login('operator', 'operator123');
      await setPlatform({ tips: '只有一行', tipsTitle: '新标题', gddesc: null });
      expect((await s.call('POST', NOTE, { token: operator })).body.data).toEqual({ tips_title: '新标题', tips: ['只有一行', '', ''], gddesc: '' });
      await setPlatform({ tips: 'a\nb\nc\nd', tipsTitle: null });
      expect((await s.call('POST', NOTE, { token: operator })).body.data).toEqual({ tips_title: '', tips: ['a', 'b', 'c'], gddesc: '' });
    });

    it('gives the toolbox address (empty text when unset)', async () => {
      expect((await s.call('POST', CONFIG, { token: admin })).body).toEqual({ code: 200, msg: '操作成功', data: { toolboxaddr: '/toolbox/' } });
      await setPlatform({ toolboxaddr: null });
      expect((await s.call('POST', CONFIG, { token: admin })).body.data).toEqual({ toolboxaddr: '' });
      await setPlatform({ toolboxaddr: '/toolbox/' });
    });

    it('accepts only the built-in tool site or an origin the server configuration lists, so the token cannot be sent elsewhere', async () => {
      const refused = { code: 500, msg: '工具箱地址只能是内置工具站（/toolbox/）或服务器配置（TOOLBOX_ORIGINS）允许的地址' };
      for (const address of [
        'https://evil.example.com/',
        'javascript:alert(1)',
        '//evil.example.com/toolbox/',
        '/toolbox/../dev-api/',
        'https://user:pw@tools.example.com/',
      ]) {
        expect((await setPlatform({ toolboxaddr: address })).body).toEqual(refused);
      }
      expect((await s.call('POST', CONFIG, { token: admin })).body.data).toEqual({ toolboxaddr: '/toolbox/' });
      s.app.config.toolboxOrigins.push('https://tools.example.com');
      try {
        expect((await setPlatform({ toolboxaddr: 'https://tools.example.com/app/' })).body.code).toBe(200);
        expect((await s.call('POST', CONFIG, { token: admin })).body.data).toEqual({ toolboxaddr: 'https://tools.example.com/app/' });
      } finally {
        s.app.config.toolboxOrigins.pop();
      }
      // Once the origin is no longer configured, the stored address is not handed out.
      expect((await s.call('POST', CONFIG, { token: admin })).body.data).toEqual({ toolboxaddr: '' });
      await setPlatform({ toolboxaddr: '/toolbox/' });
    });

    it('needs a token for both', async () => {
      expect((await s.call('POST', NOTE)).body).toEqual(NOT_SIGNED_IN);
      expect((await s.call('POST', CONFIG)).body).toEqual(NOT_SIGNED_IN);
    });
  });

  describe('online users and forced logout', () => {
    it('lists live sessions in the RuoYi table shape without exposing tokens', async () => {
      const t = await startServer(backend);
      try {
        const a = await t.login('admin', 'admin123');
        const op1 = await t.login('operator', 'operator123');
        const op2 = await t.login('operator', 'operator123');
        const gone = await t.login('expert', 'expert123');
        await t.call('POST', '/dev-api/api/login/logout', { token: gone });

        const res = await t.call('GET', ONLINE, { token: a, query: { pageSize: 50 } });
        expect(res.status).toBe(200);
        expect(res.body.code).toBe(200);
        expect(res.body.msg).toBe('查询成功');
        expect(res.body).not.toHaveProperty('data');
        const rows = res.body.rows as OnlineRow[];
        expect(res.body.total).toBe(3);
        expect(rows).toHaveLength(3);
        expect(rows.map((r) => r.userName).sort()).toEqual(['admin', 'operator', 'operator']);
        for (const row of rows) {
          expect(row.tokenId).toMatch(/^[0-9a-f]{64}$/);
          expect(Object.keys(row).sort()).toEqual(['browser', 'deptName', 'ipaddr', 'loginLocation', 'loginTime', 'os', 'tokenId', 'userName']);
          expect(typeof row.loginTime).toBe('number');
        }
        expect(rows.find((r) => r.userName === 'admin')?.deptName).toBe('志愿填报咨询中心');
        expect(rows.find((r) => r.userName === 'operator')?.deptName).toBe('运营部');
        // The list shows token hashes, never a token.
        for (const token of [a, op1, op2]) expect(res.raw).not.toContain(token);

        const filtered = await t.call('GET', ONLINE, { token: a, query: { userName: 'oper' } });
        expect(filtered.body.total).toBe(2);
        expect((filtered.body.rows as OnlineRow[]).every((r) => r.userName === 'operator')).toBe(true);
        const none = await t.call('GET', ONLINE, { token: a, query: { userName: 'nobody' } });
        expect(none.body).toMatchObject({ code: 200, rows: [], total: 0 });
      } finally {
        await t.close();
      }
    });

    it('forces a session out: that token gets 401, the other sessions stay', async () => {
      // On the file's server with an account of its own (the list is filtered by its name), restarted at the end.
      const own = { username: 'kick_target', password: 'kick-pass1' };
      expect((await s.call('POST', '/dev-api/register', { body: { ...own, confirmPassword: own.password } })).body.code).toBe(200);
      const victim = await s.login(own.username, own.password);
      const bystander = await s.login(own.username, own.password);
      const firstCheck = await s.call('POST', USER_INFO, { token: victim });
      expect(firstCheck.body.code).toBe(200);

      const rows = (await s.call('GET', ONLINE, { token: admin, query: { userName: own.username } })).body.rows as OnlineRow[];
      expect(rows).toHaveLength(2);
      // tokenId is the SHA-256 of the token.
      const victimId = crypto.createHash('sha256').update(victim).digest('hex');
      expect(rows.map((r) => r.tokenId).sort()).toEqual([victimId, crypto.createHash('sha256').update(bystander).digest('hex')].sort());
      const other = bystander;

      const kick = await s.call('DELETE', `/dev-api/monitor/online/${victimId}`, { token: admin });
      expect(kick.body).toEqual({ code: 200, msg: '强退成功' });
      expect((await s.call('POST', USER_INFO, { token: victim })).body).toEqual(REVOKED);
      expect((await s.call('POST', USER_INFO, { token: other })).body.code).toBe(200);
      expect((await s.call('POST', USER_INFO, { token: admin })).body.code).toBe(200);
      const left = (await s.call('GET', ONLINE, { token: admin, query: { userName: own.username } })).body.rows as OnlineRow[];
      expect(left.map((r) => r.tokenId)).not.toContain(victimId);
      expect(left).toHaveLength(1);

      // Still out after a restart.
      await s.restart();
      expect((await s.call('POST', USER_INFO, { token: victim })).body).toEqual(REVOKED);
    });

    it('refuses a malformed session id and callers without the permission', async () => {
      expect((await s.call('DELETE', '/dev-api/monitor/online/not-a-hash', { token: admin })).body).toEqual({ code: 500, msg: '会话编号不正确' });
      expect((await s.call('DELETE', `/dev-api/monitor/online/${'A'.repeat(64)}`, { token: admin })).body).toEqual({ code: 500, msg: '会话编号不正确' });
      const operator = await s.login('operator', 'operator123');
      expect((await s.call('GET', ONLINE, { token: operator })).body).toEqual({ code: 403, msg: '没有权限，请联系管理员授权（需要 monitor:online:list）' });
      const adminRows = (await s.call('GET', ONLINE, { token: admin, query: { userName: 'admin' } })).body.rows as OnlineRow[];
      expect(adminRows.length).toBeGreaterThan(0);
      const kick = await s.call('DELETE', `/dev-api/monitor/online/${adminRows[0].tokenId}`, { token: operator });
      expect(kick.body).toEqual({ code: 403, msg: '没有权限，请联系管理员授权（需要 monitor:online:forceLogout）' });
      expect((await s.call('GET', ONLINE, { token: admin, query: { userName: 'admin' } })).body.total).toBe(adminRows.length);
    });
  });
});
