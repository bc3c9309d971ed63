import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signTimer } from '../../../server/security/protocol.js';
import { backends, multipartFile, PNG_1PX, startServer, type TestServer } from '../harness.js';

/** The smaller findings of the probe (docs/security.md): each closed, each checked here. */
describe.each(backends)('security hardening (%s)', (backend) => {
  let s: TestServer;
  let admin: string;

  beforeAll(async () => {
    s = await startServer(backend);
    admin = await s.login('admin', 'admin123');
  });
  afterAll(async () => {
    await s?.close();
  });

  const configRows = async (key: string) =>
    Number(
      (
        await s.app.db.kysely
          .selectFrom('sysConfig' as never)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('configKey' as never, '=', key as never)
          .executeTakeFirst()
      )?.n ?? 0,
    );

  describe('paging parameters', () => {
    it.each([
      ['pageNum', '1e20', '页码必须是 1 到 1000000 之间的整数'],
      ['pageNum', '-1', '页码必须是 1 到 1000000 之间的整数'],
      ['pageNum', '0', '页码必须是 1 到 1000000 之间的整数'],
      ['pageNum', 'abc', '页码必须是 1 到 1000000 之间的整数'],
      ['pageSize', '99999999999999999999', '每页条数必须是 1 到 10000 之间的整数'],
      ['pageSize', '-5', '每页条数必须是 1 到 10000 之间的整数'],
    ])('refuses %s=%s with a clear 400 on engine and hand-written lists alike', async (name, value, msg) => {
      for (const url of ['/dev-api/system/config/list', '/dev-api/monitor/online/list']) {
        const res = await s.call('GET', url, { token: admin, query: { [name]: value } });
        expect(res.body).toEqual({ code: 400, msg });
      }
      const body = await s.call('POST', '/dev-api/api/Examine/list', { token: admin, body: { [name]: Number(value) || value } });
      expect(body.body).toEqual({ code: 400, msg });
    });
  });

  describe('LIKE searches', () => {
    it('match % and _ literally', async () => {
      const online = (userName: string) => s.call<never>('GET', '/dev-api/monitor/online/list', { token: admin, query: { userName } });
      expect((await online('adm')).body.total).toBeGreaterThan(0);
      expect((await online('%')).body.total).toBe(0);
      expect((await online('_dmin')).body.total).toBe(0);
      // The engine's like filter too.
      const list = (configName: string) => s.call('GET', '/dev-api/system/config/list', { token: admin, query: { configName } });
      expect((await list('%')).body.total).toBe(0);
    });
  });

  describe('duplicate submits of writes (spec §5, repeated on the server)', () => {
    it('creates one record when the same write arrives three times at once, and allows it again after the window', async () => {
      const body = { configName: '重复提交测试', configKey: 'dup.submit.test', configValue: '1', configType: 'N' };
      const answers = await Promise.all([1, 2, 3].map(() => s.call('POST', '/dev-api/system/config', { token: admin, body })));
      expect(answers.filter((a) => a.body.code === 200)).toHaveLength(1);
      expect(answers.filter((a) => a.body.msg === '数据正在处理，请勿重复提交')).toHaveLength(2);
      expect(await configRows('dup.submit.test')).toBe(1);
      // Reads are never refused, however often they repeat.
      const reads = await Promise.all([1, 2, 3].map(() => s.call('GET', '/dev-api/system/config/list', { token: admin })));
      expect(reads.every((r) => r.body.code === 200)).toBe(true);
      await new Promise((r) => setTimeout(r, 1100));
      const again = await s.call('POST', '/dev-api/system/config', { token: admin, body });
      expect(again.body.msg).toContain('已存在');
    });
  });

  describe('headers', () => {
    it('sends the security headers on API answers and console files', async () => {
      for (const url of ['/app-config.js', '/appv2/api/index/platformInfo']) {
        const res = await s.call('GET', url);
        expect(res.headers['content-security-policy']).toContain("frame-ancestors 'self'");
        expect(res.headers['content-security-policy']).toContain("script-src 'self'");
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
        expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      }
      // Refused by the gate (no signature): the answer carries them too.
      const refused = await s.call('GET', '/dev-api/system/config/list', { sign: false });
      expect(refused.body.code).toBe(40001);
      expect(refused.headers['content-security-policy']).toContain("frame-ancestors 'self'");
      expect(refused.headers['x-frame-options']).toBe('SAMEORIGIN');
    });

    it('serves uploads with nosniff, and anything but images and media as an attachment', async () => {
      const png = await multipartFile('file', 'a.png', 'image/png', PNG_1PX);
      const up = await s.call<never>('POST', '/dev-api/common/upload', { token: admin, ...png });
      const pdf = await multipartFile('file', 'b.pdf', 'application/pdf', Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n'));
      const upPdf = await s.call<never>('POST', '/dev-api/common/upload', { token: admin, ...pdf });
      const pathOf = (r: typeof up) => new URL(String((r.body as { url?: string }).url ?? r.body.fileName), 'http://x').pathname;
      const image = await s.app.inject({ method: 'GET', url: pathOf(up) });
      expect(image.statusCode).toBe(200);
      expect(image.headers['x-content-type-options']).toBe('nosniff');
      expect(image.headers['content-disposition']).toBeUndefined();
      const doc = await s.app.inject({ method: 'GET', url: pathOf(upPdf) });
      expect(doc.statusCode).toBe(200);
      expect(doc.headers['content-disposition']).toBe('attachment');
    });

    // Not a storage matter: checked on SQLite only (it starts a second server).
    it.runIf(backend === 'sqlite')('takes the client address from the socket, not from X-Forwarded-For, unless TRUST_PROXY is set', async () => {
      const login = (t: TestServer) =>
        t.app.inject({
          method: 'POST',
          url: '/dev-api/api/login/login',
          remoteAddress: '192.0.2.10',
          headers: { ...signTimer(t.app.keys.requestPublicPem), 'content-type': 'application/json', 'x-forwarded-for': '6.6.6.6' },
          payload: JSON.stringify({ username: 'leader', password: 'leader123' }),
        });
      const lastIp = async (t: TestServer) =>
        (await t.app.db.kysely.selectFrom('sysLogininfor').select('ipaddr').orderBy('infoId', 'desc').executeTakeFirstOrThrow()).ipaddr;
      await login(s);
      expect(await lastIp(s)).toBe('192.0.2.10');
      const behindProxy = await startServer(backend, { trustProxy: '192.0.2.10' });
      try {
        await login(behindProxy);
        expect(await lastIp(behindProxy)).toBe('6.6.6.6');
      } finally {
        await behindProxy.close();
      }
    });
  });

  describe('session-bound response encryption', () => {
    it('wraps encrypted answers with the key the console sent at sign-in; the static key cannot open them', async () => {
      const pair = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
      const clientKey = pair.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
      const login = await s.call<{ token: string }>('POST', '/dev-api/api/login/login', { body: { username: 'leader', password: 'leader123', clientKey } });
      const token = login.body.data?.token as string;
      const res = await s.call('POST', '/dev-api/api/Systerm/getNoteDesc', { token, query: { authEncode: 1 } });
      expect(res.body.code).toBe(20000);
      const data = String(res.body.data);
      expect(data.startsWith('s1.')).toBe(true);
      const [, wrapped, body] = data.split('.');
      const keyIv = crypto
        .privateDecrypt({ key: pair.privateKey, padding: crypto.constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(wrapped, 'base64'))
        .toString('utf8');
      const decipher = crypto.createDecipheriv('aes-128-cbc', Buffer.from(keyIv.slice(0, 16)), Buffer.from(keyIv.slice(16)));
      const plain = JSON.parse(zlib.inflateSync(Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()])).toString('utf8'));
      expect(plain).toHaveProperty('tips');
      expect(() => s.decrypt(`${wrapped}.${body}`)).toThrow();
      // A session without a key of its own keeps the spec's static mode.
      const plainSession = await s.call('POST', '/dev-api/api/Systerm/getNoteDesc', { token: admin, query: { authEncode: 1 } });
      expect(s.decrypt<{ tips: string[] }>(plainSession.body.data)).toHaveProperty('tips');
    });

    it('refuses a sign-in with a key that is not an RSA public key of 2048 bits or more', async () => {
      const weak = crypto.generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
      for (const clientKey of ['not-a-key', weak]) {
        const res = await s.call('POST', '/dev-api/api/login/login', { body: { username: 'leader', password: 'leader123', clientKey } });
        expect(res.body).toEqual({ code: 500, msg: '登录请求中的会话密钥无效，请刷新页面后重试' });
      }
    });
  });

  describe('spreadsheet imports', () => {
    const csv = (rows: string[]) => Buffer.from(`参数名称,参数键名,参数键值\r\n${rows.join('\r\n')}\r\n`);
    const importCsv = async (file: Buffer) => {
      const form = await multipartFile('file', 'config.csv', 'text/csv', file);
      return s.call<unknown[]>('POST', '/dev-api/system/config/importData', { token: admin, ...form });
    };

    it('refuses at once a file over the row cap, writing nothing', async () => {
      s.app.config.importMaxRows = 50;
      try {
        const rows = Array.from({ length: 51 }, (_, i) => `参数${i},cap.test.${i},v`);
        const res = await importCsv(csv(rows));
        expect(res.body).toMatchObject({ code: 500, msg: '导入文件不能超过 50 行数据，请分成几个文件导入' });
        expect(await configRows('cap.test.0')).toBe(0);
        expect((await importCsv(csv(rows.slice(0, 50)))).body.code).toBe(200);
      } finally {
        s.app.config.importMaxRows = 50_000;
      }
    });

    it('reports at most the first 100 problems and the count of all of them', async () => {
      await new Promise((r) => setTimeout(r, 1100)); // not a double submit of the previous test's file
      const rows = Array.from({ length: 150 }, (_, i) => `无键名${i},,v`);
      const res = await importCsv(csv(rows));
      expect(res.body.code).toBe(500);
      expect(res.body.msg).toMatch(/^导入失败，共 150 处错误，未写入任何数据。/);
      expect(res.body.data).toHaveLength(100);
      expect(res.body.problemCount).toBe(150);
    });
  });
});
