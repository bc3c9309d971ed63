import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, JPEG_HEAD, multipartFile, PNG_1PX, startServer, type TestServer } from './harness.js';

const PROFILE = '/dev-api/system/user/profile';
const AVATAR = '/dev-api/system/user/profile/avatar';
const BAD_TYPE = '文件格式不正确, 请上传png/jpg/jpeg图片格式文件!';
const TOO_BIG = '上传头像图片大小不能超过 5 MB!';
const STALE = '资料已在别处被修改，请刷新后再保存（未保存本次修改）';
const MB = 1024 * 1024;

interface Profile {
  userId: number;
  userName: string;
  nickName: string;
  mobile: string | null;
  email: string | null;
  sex: string;
  avatar: string | null;
  version: number;
  deptName: string | null;
}

/** GET over a real socket with the path exactly as written (no client-side normalisation of "..", "%2e" etc.). */
function rawGet(port: number, rawPath: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: rawPath, method: 'GET' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe.each(backends)('profile (%s)', (backend) => {
  let s: TestServer;
  let admin: string;
  let expert: string;

  beforeAll(async () => {
    s = await startServer(backend);
    admin = await s.login('admin', 'admin123');
    expert = await s.login('expert', 'expert123');
  });
  afterAll(async () => {
    await s?.close();
  });

  const profile = async (token: string) => (await s.call<Profile>('GET', PROFILE, { token })).body;
  const upload = async (token: string, filename: string, contentType: string, data: Buffer) => {
    const form = await multipartFile('avatarfile', filename, contentType, data);
    return s.call<{ imgUrl: string }>('POST', AVATAR, { token, body: form.body, headers: form.headers });
  };

  describe('GET profile', () => {
    it('gives own info, department, role and post groups, and never the password', async () => {
      const res = await profile(admin);
      expect(res.code).toBe(200);
      expect(res.data).toMatchObject({ userId: 1, userName: 'admin', nickName: '系统管理员', mobile: '13800000000', sex: '2', deptName: '志愿填报咨询中心' });
      expect(typeof res.data?.version).toBe('number');
      expect(res.roleGroup).toBe('超级管理员');
      expect(res.postGroup).toBe('');
      expect(res.data).not.toHaveProperty('password');
      expect(JSON.stringify(res)).not.toContain('scrypt');
      const e = await profile(expert);
      expect(e.data).toMatchObject({ userName: 'expert', deptName: '专家部' });
      expect(e.roleGroup).toBe('志愿专家');
    });

    it('needs a token', async () => {
      expect((await s.call('GET', PROFILE)).body).toEqual({ code: 401, msg: '未登录或登录已过期，请先登录' });
    });
  });

  describe('PUT profile (version check)', () => {
    it('saves with the current version, bumps it, and refuses the stale version without changing anything', async () => {
      const before = (await profile(expert)).data as Profile;
      const save = await s.call('PUT', PROFILE, {
        token: expert,
        body: { nickName: '李专家', mobile: '13800000002', email: 'li@example.com', sex: '1', version: before.version },
      });
      expect(save.body).toEqual({ code: 200, msg: '修改成功', data: { version: before.version + 1 } });
      const after = (await profile(expert)).data as Profile;
      expect(after).toMatchObject({ nickName: '李专家', email: 'li@example.com', sex: '1', version: before.version + 1 });

      // A second form still holding the old version.
      const stale = await s.call('PUT', PROFILE, { token: expert, body: { nickName: '别处的修改', email: 'other@example.com', version: before.version } });
      expect(stale.body).toEqual({ code: 500, msg: STALE });
      expect((await profile(expert)).data).toEqual(after);
      // A version from the future is just as stale.
      expect((await s.call('PUT', PROFILE, { token: expert, body: { nickName: '未来', version: after.version + 5 } })).body).toEqual({ code: 500, msg: STALE });
      expect((await profile(expert)).data).toEqual(after);

      // Persisted.
      await s.restart();
      expect((await profile(expert)).data).toEqual(after);
    });

    it('clears optional fields and keeps sex when not sent', async () => {
      const cur = (await profile(admin)).data as Profile;
      const res = await s.call<{ version: number }>('PUT', PROFILE, {
        token: admin,
        body: { nickName: '  管理员  ', mobile: null, email: '', version: cur.version },
      });
      expect(res.body.code).toBe(200);
      const after = (await profile(admin)).data as Profile;
      expect(after).toMatchObject({ nickName: '管理员', mobile: null, email: null, sex: cur.sex });
      await s.call('PUT', PROFILE, { token: admin, body: { nickName: '系统管理员', mobile: '13800000000', version: after.version } });
      expect((await profile(admin)).data).toMatchObject({ nickName: '系统管理员', mobile: '13800000000' });
    });

    it.each([
      [{ version: 1 }, 400, '用户昵称不能为空'],
      [{ nickName: '', version: 1 }, 400, '用户昵称不能为空'],
      [{ nickName: 'x'.repeat(31), version: 1 }, 400, '用户昵称长度不能超过 30 个字符'],
      [{ nickName: 'x' }, 400, '版本不能为空'],
      [{ nickName: 'x', version: 'one' }, 400, '版本格式不正确，应为整数'],
      [{ nickName: 'x', sex: '9', version: 1 }, 400, '性别取值不在允许范围内'],
      [{ nickName: 'x', password: 'hacked123', version: 1 }, 400, '不支持的字段：password'],
      [{ nickName: 'x', userName: 'root', version: 1 }, 400, '不支持的字段：userName'],
      [{ nickName: 'x', mobile: '12345', version: 1 }, 500, '手机号码格式不正确'],
      [{ nickName: 'x', email: 'not-an-email', version: 1 }, 500, '邮箱格式不正确'],
      [{ nickName: 'x', mobile: '13800000001', version: 1 }, 500, "修改用户'operator'失败，手机号码已存在"],
    ])('refuses %j (code %i)', async (body, code, msg) => {
      const operator = await s.login('operator', 'operator123');
      const before = (await profile(operator)).data as Profile;
      const res = await s.call('PUT', PROFILE, {
        token: operator,
        body: 'version' in body && body.version === 1 ? { ...body, version: before.version } : body,
      });
      expect(res.body).toEqual({ code, msg });
      expect((await profile(operator)).data).toEqual(before);
      expect(await s.login('operator', 'operator123')).toBeTruthy();
    });
  });

  describe('avatar upload', () => {
    it('stores a PNG, serves it at /profile/... byte for byte and sets it on the profile', async () => {
      const res = await upload(expert, 'me.png', 'image/png', PNG_1PX);
      expect(res.body.code).toBe(200);
      expect(res.body.msg).toBe('头像上传成功');
      const url = res.body.data?.imgUrl as string;
      expect(res.body.imgUrl).toBe(url);
      expect(url).toMatch(/^\/profile\/avatar\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.png$/);
      expect((await profile(expert)).data?.avatar).toBe(url);

      const file = await s.call('GET', url, { sign: false });
      expect(file.status).toBe(200);
      expect(file.rawBuffer.equals(PNG_1PX)).toBe(true);
      expect(String(file.headers['content-type'])).toMatch(/^image\/png/);
      // Stored under the data dir, and still served after a restart.
      expect(fs.existsSync(path.join(s.dataDir, 'uploads', url.replace('/profile/', '')))).toBe(true);
      await s.restart();
      expect((await s.call('GET', url, { sign: false })).rawBuffer.equals(PNG_1PX)).toBe(true);
    });

    it('judges the type by content: a JPEG named .png is stored as .jpg, a .jpeg is accepted', async () => {
      const disguised = await upload(expert, 'photo.png', 'image/png', JPEG_HEAD);
      expect(disguised.body.code).toBe(200);
      expect(disguised.body.data?.imgUrl).toMatch(/\.jpg$/);
      const jpeg = await upload(expert, 'photo.jpeg', 'image/jpeg', JPEG_HEAD);
      expect(jpeg.body.code).toBe(200);
      expect(jpeg.body.data?.imgUrl).toMatch(/\.jpg$/);
    });

    it.each([
      ['a text file renamed .png', 'evil.png', 'image/png', Buffer.from('just some text, not an image\n')],
      ['an HTML page renamed .jpg', 'x.jpg', 'image/jpeg', Buffer.from('<html><script>alert(1)</script></html>')],
      ['a GIF', 'anim.gif', 'image/gif', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1')],
      ['an empty file', 'empty.png', 'image/png', Buffer.alloc(0)],
      ['a truncated PNG signature', 'short.png', 'image/png', PNG_1PX.subarray(0, 6)],
    ])('refuses %s and keeps the old avatar', async (_what, filename, type, data) => {
      const before = (await profile(expert)).data?.avatar;
      const res = await upload(expert, filename, type, data);
      expect(res.body).toEqual({ code: 500, msg: BAD_TYPE });
      expect((await profile(expert)).data?.avatar).toBe(before);
    });

    it('accepts exactly 5 MB and refuses one byte more with the size message', async () => {
      const atLimit = Buffer.concat([PNG_1PX, Buffer.alloc(5 * MB - PNG_1PX.length)]);
      const ok = await upload(expert, 'big.png', 'image/png', atLimit);
      expect(ok.body.code).toBe(200);
      const saved = ok.body.data?.imgUrl as string;

      const over = Buffer.concat([PNG_1PX, Buffer.alloc(5 * MB + 1 - PNG_1PX.length)]);
      const res = await upload(expert, 'bigger.png', 'image/png', over);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ code: 500, msg: TOO_BIG });
      expect((await profile(expert)).data?.avatar).toBe(saved);
      const far = await upload(expert, 'huge.png', 'image/png', Buffer.concat([PNG_1PX, Buffer.alloc(8 * MB)]));
      expect(far.body).toEqual({ code: 500, msg: TOO_BIG });
    });

    it('asks for a file when the request is not multipart or has no file', async () => {
      expect((await s.call('POST', AVATAR, { token: expert, body: { avatar: 'x' } })).body).toEqual({ code: 500, msg: '请选择要上传的头像图片' });
      const form = new FormData();
      form.append('note', 'no file here');
      const request = new Request('http://localhost/', { method: 'POST', body: form });
      const res = await s.call('POST', AVATAR, {
        token: expert,
        body: Buffer.from(await request.arrayBuffer()),
        headers: { 'content-type': request.headers.get('content-type') ?? '' },
      });
      expect(res.body).toEqual({ code: 500, msg: '请选择要上传的头像图片' });
    });

    it('needs a token', async () => {
      const form = await multipartFile('avatarfile', 'me.png', 'image/png', PNG_1PX);
      const res = await s.call('POST', AVATAR, { body: form.body, headers: form.headers });
      expect(res.body).toEqual({ code: 401, msg: '未登录或登录已过期，请先登录' });
    });
  });

  describe('serving /profile/ safely', () => {
    it('never serves the keys, the database or anything outside uploads (404)', async () => {
      await s.app.listen({ port: 0, host: '127.0.0.1' });
      const address = s.app.server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      expect(port).toBeGreaterThan(0);
      const secrets = [
        s.app.keys.requestPrivate.export({ type: 'pkcs1', format: 'pem' }).toString().split('\n')[1],
        s.app.keys.responsePrivatePem.split('\n')[1],
      ];
      const paths = [
        '/profile/../keys/request-private.pem',
        '/profile/../keys/response-private.pem',
        '/profile/%2e%2e/keys/request-private.pem',
        '/profile/%2E%2E%2Fkeys%2Frequest-private.pem',
        '/profile/..%2fkeys%2frequest-private.pem',
        '/profile/..%5ckeys%5crequest-private.pem',
        '/profile/avatar/../../keys/request-private.pem',
        '/profile/%252e%252e/keys/request-private.pem',
        '/profile/....//keys/request-private.pem',
        '/profile/../zhiyuan.sqlite',
        '/profile/%2e%2e/zhiyuan.sqlite',
        '/profile//etc/passwd',
        '/profile/../../../../../../etc/passwd',
        '/profile/',
        '/profile/avatar/',
      ];
      for (const p of paths) {
        const res = await rawGet(port, p);
        expect(res.status, p).toBe(404);
        for (const secret of secrets) expect(res.body, p).not.toContain(secret);
        expect(res.body, p).not.toContain('PRIVATE KEY');
        expect(res.body, p).not.toContain('SQLite format');
        expect(res.body, p).not.toContain('root:');
      }
      // Through inject as well (light-my-request may normalise the path first).
      for (const p of paths.slice(0, 4)) {
        const res = await s.call('GET', p, { sign: false });
        expect(res.status, p).toBe(404);
        expect(res.raw).not.toContain('PRIVATE KEY');
      }
    });

    it('does not serve dotfiles planted in the upload folder', async () => {
      const dir = path.join(s.dataDir, 'uploads');
      fs.writeFileSync(path.join(dir, '.secret'), 'hidden-content');
      const res = await s.call('GET', '/profile/.secret', { sign: false });
      expect(res.status).toBe(404);
      expect(res.raw).not.toContain('hidden-content');
    });
  });
});
