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

  let operator = '';
  const operatorToken = () => operator;

  beforeAll(async () => {
    s = await startServer(backend);
    admin = await s.login('admin', 'admin123');
    expert = await s.login('expert', 'expert123');
    operator = await s.login('operator', 'operator123');
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
      // A storage key (server/storage/object-keys.ts): avatar/yyyy/mm/dd/<32 hex>.png, served by the local driver at /profile/.
      expect(url).toMatch(/^\/profile\/avatar\/\d{4}\/\d{2}\/\d{2}\/[0-9a-f]{32}\.png$/);
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

    it('replaces the avatar: the new one is served, the old file is removed, and the stored one downloads as a resource', async () => {
      const first = (await upload(operatorToken(), 'one.png', 'image/png', PNG_1PX)).body.data?.imgUrl as string;
      expect((await s.call('GET', first, { sign: false })).status).toBe(200);
      const second = await upload(operatorToken(), 'two.jpg', 'image/jpeg', JPEG_HEAD);
      expect(second.body.code).toBe(200);
      const url = second.body.data?.imgUrl as string;
      expect(url).not.toBe(first);
      expect((await s.call('GET', url, { sign: false })).rawBuffer.equals(JPEG_HEAD)).toBe(true);
      expect((await s.call('GET', first, { sign: false })).status).toBe(404);
      expect(fs.existsSync(path.join(s.dataDir, 'uploads', first.replace('/profile/', '')))).toBe(false);
      // The common resource download reads it through the same storage.
      const resource = await s.call('GET', '/dev-api/common/download/resource', { token: operatorToken(), query: { resource: url } });
      expect(resource.status).toBe(200);
      expect(resource.rawBuffer.equals(JPEG_HEAD)).toBe(true);
      // A refused upload keeps the current avatar file as well.
      expect((await upload(operatorToken(), 'bad.png', 'image/png', Buffer.from('nope'))).body).toEqual({ code: 500, msg: BAD_TYPE });
      expect((await profile(operatorToken())).data?.avatar).toBe(url);
      expect((await s.call('GET', url, { sign: false })).status).toBe(200);
    });

    it('leaves an avatar address it did not issue alone (an external picture is not deleted)', async () => {
      const db = s.app.db.kysely;
      await db.updateTable('sysUser').set({ avatar: 'https://cdn.example.com/someone-else.png' }).where('userName', '=', 'operator').execute();
      const res = await upload(operatorToken(), 'me.png', 'image/png', PNG_1PX);
      expect(res.body.code).toBe(200);
      expect((await profile(operatorToken())).data?.avatar).toBe(res.body.data?.imgUrl);
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

describe('avatar upload through an S3-compatible storage (STORAGE_DRIVER=s3)', () => {
  it('puts the avatar in the bucket, answers its public address and removes the replaced one', async () => {
    const objects = new Map<string, { body: Buffer; type: string }>();
    const bucket = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const key = decodeURIComponent((req.url ?? '').split('?')[0]);
        if (req.method === 'PUT') {
          objects.set(key, { body: Buffer.concat(chunks), type: String(req.headers['content-type']) });
          res.writeHead(200, { etag: '"x"' }).end();
        } else if (req.method === 'DELETE') {
          objects.delete(key);
          res.writeHead(204).end();
        } else res.writeHead(400).end();
      });
    });
    await new Promise<void>((resolve) => bucket.listen(0, '127.0.0.1', resolve));
    const port = (bucket.address() as { port: number }).port;
    const s = await startServer('sqlite', {
      storage: {
        driver: 's3',
        endpoint: `http://127.0.0.1:${port}`,
        bucket: 'zy',
        region: 'cn-north-1',
        accessKey: 'AKIDEXAMPLE',
        secretKey: 'secret',
        publicUrl: 'https://cdn.example.com',
      },
    });
    try {
      const token = await s.login('expert', 'expert123');
      const send = async (name: string, type: string, data: Buffer) => {
        const form = await multipartFile('avatarfile', name, type, data);
        return s.call<{ imgUrl: string }>('POST', AVATAR, { token, body: form.body, headers: form.headers });
      };
      const first = await send('me.png', 'image/png', PNG_1PX);
      expect(first.body.code).toBe(200);
      const url = first.body.data?.imgUrl as string;
      expect(url).toMatch(/^https:\/\/cdn\.example\.com\/avatar\/\d{4}\/\d{2}\/\d{2}\/[0-9a-f]{32}\.png$/);
      const key = `/zy/${url.slice('https://cdn.example.com/'.length)}`;
      expect(objects.get(key)?.body.equals(PNG_1PX)).toBe(true);
      expect(objects.get(key)?.type).toBe('image/png');
      expect((await s.call<Profile>('GET', PROFILE, { token })).body.data?.avatar).toBe(url);
      // Nothing on the local disk.
      expect(fs.existsSync(path.join(s.dataDir, 'uploads', 'avatar'))).toBe(false);

      const second = await send('me.jpg', 'image/jpeg', JPEG_HEAD);
      expect(second.body.data?.imgUrl).toMatch(/^https:\/\/cdn\.example\.com\/avatar\/.*\.jpg$/);
      expect(objects.has(key)).toBe(false);
      expect(objects.size).toBe(1);
      expect((await send('x.png', 'image/png', Buffer.from('not an image'))).body).toEqual({ code: 500, msg: BAD_TYPE });
      expect(objects.size).toBe(1);
    } finally {
      await s.close();
      await new Promise((resolve) => bucket.close(resolve));
    }
  });
});
