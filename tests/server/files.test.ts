import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig, storageFromEnv } from '../../server/config.js';
import { signTimer } from '../../server/security/protocol.js';
import { createLocalStorage } from '../../server/storage/local.js';
import { isSafeKey, newObjectKey } from '../../server/storage/object-keys.js';
import { createS3Storage, defaultS3PublicUrl } from '../../server/storage/s3.js';
import { detectType, isSafeSvg, UPLOAD_TYPES } from '../../server/storage/sniff.js';
import { StorageNotFoundError } from '../../server/storage/types.js';
import { qiniuEtag, UPLOAD_TOKEN_TTL_MS, verifyUploadToken } from '../../server/storage/upload-token.js';
import { backends, JPEG_HEAD, MINUTE, multipartFile, PNG_1PX, startServer, type TestServer } from './harness.js';

const UPLOAD = '/dev-api/common/upload';
const UPLOADS = '/dev-api/common/uploads';
const IMAGE_UPLOAD = '/appv2/api/index/imageUpload';
const TOKEN = '/appv2/api/myqiniu/getQiniuUploadToken';
const TOKEN_UPLOAD = '/appv2/api/myqiniu/upload';
const EDITOR_CONFIG = '/appv2/api/Ueditor/config';
const EDITOR_UPLOAD = '/appv2/api/Ueditor/upload';
const DOWNLOAD = '/dev-api/common/download';
const RESOURCE = '/dev-api/common/download/resource';

const MB = 1024 * 1024;
const NOT_SIGNED_IN = { code: 401, msg: '未登录或登录已过期，请先登录' };
const BAD_TYPE = '文件格式不正确, 请上传png/jpg/jpeg/gif/webp/doc/docx/xls/xlsx/ppt/pptx/txt/pdf/zip/rar/7z格式文件!';
const TOO_BIG = '上传文件大小不能超过 5 MB!';
const TOO_MANY = '上传文件数量不能超过 5 个!';
const IMAGE_BAD_TYPE = '文件格式不正确, 请上传png/jpg/jpeg/gif/webp图片格式文件!';
const IMAGE_TOO_BIG = '上传图片大小不能超过 5 MB!';
const EDITOR_BAD_TYPE = '图片格式错误!';
const EDITOR_TOO_BIG = '图片大小不能超过 3 MB!';
const TOKEN_MISSING = '缺少上传凭证，请重新获取后再上传';
const TOKEN_INVALID = '上传凭证无效，请重新获取后再上传';
const TOKEN_EXPIRED = '上传凭证已过期，请重新获取后再上传';
const NOT_FOUND = { code: 404, msg: '文件不存在或已被删除' };
const illegal = (name: string) => ({ code: 500, msg: `文件名称(${name})非法，不允许下载。` });
const illegalResource = (name: string) => ({ code: 500, msg: `资源文件(${name})非法，不允许下载。` });

// ---- sample files (just enough of each format for content sniffing) ----
const ole = (stream: string) =>
  Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504), Buffer.from(stream, 'utf16le'), Buffer.alloc(64)]);
const ooxml = (part: string) =>
  Buffer.concat([
    Buffer.from('PK\x03\x04', 'latin1'),
    Buffer.alloc(26),
    Buffer.from('[Content_Types].xml'),
    Buffer.alloc(40),
    Buffer.from('PK\x03\x04', 'latin1'),
    Buffer.from(`${part}document.xml`),
  ]);
const SAMPLES: Record<string, Buffer> = {
  png: PNG_1PX,
  jpg: JPEG_HEAD,
  jpeg: JPEG_HEAD,
  gif: Buffer.from(
    'GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;',
    'latin1',
  ),
  webp: Buffer.concat([Buffer.from('RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00\x2f\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00', 'latin1')]),
  doc: ole('WordDocument'),
  docx: ooxml('word/'),
  xls: ole('Workbook'),
  xlsx: Buffer.alloc(0), // filled in beforeAll with a real workbook
  ppt: ole('PowerPoint Document'),
  pptx: ooxml('ppt/'),
  txt: Buffer.from('学生名单\r\n张三\t612\n李四\t598\n'),
  pdf: Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'),
  zip: Buffer.concat([Buffer.from('PK\x05\x06', 'latin1'), Buffer.alloc(18)]),
  rar: Buffer.concat([Buffer.from('Rar!\x1a\x07\x01\x00', 'latin1'), crypto.randomBytes(32)]),
  '7z': Buffer.concat([Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0x00, 0x04]), crypto.randomBytes(32)]),
};
const SVG_OK = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8"?>\n<!-- 图标 -->\n<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10" viewBox="0 0 10 10">' +
    '<defs><linearGradient id="g"><stop offset="0" stop-color="#409EFF"/></linearGradient></defs>' +
    '<rect width="10" height="10" fill="url(#g)"/><use xlink:href="#g"/><text x="1" y="8">志愿</text></svg>\n',
);
/** A png of exactly n bytes (signature first, then padding). */
const pngOfSize = (n: number) => Buffer.concat([PNG_1PX, Buffer.alloc(n - PNG_1PX.length)]);

interface Part {
  field: string;
  value?: string;
  filename?: string;
  type?: string;
  data?: Buffer;
}

/** A multipart body with any number of fields and files, in order. */
async function form(parts: Part[]): Promise<{ body: Buffer; headers: Record<string, string> }> {
  const fd = new FormData();
  for (const p of parts) {
    if (p.data) fd.append(p.field, new Blob([new Uint8Array(p.data)], { type: p.type ?? 'application/octet-stream' }), p.filename ?? 'file');
    else fd.append(p.field, p.value ?? '');
  }
  const request = new Request('http://localhost/', { method: 'POST', body: fd });
  return { body: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type') ?? '' } };
}

/** Every file under a folder (relative paths), for "nothing was stored" checks. */
function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .flatMap((e) => (e.isFile() ? [path.relative(dir, path.join(e.parentPath, e.name))] : []));
}

/** A query value as the server's parser decodes it (malformed escapes such as overlong UTF-8 stay as sent). */
function queryValue(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks);
}

describe.each(backends)('files (%s)', (backend) => {
  let s: TestServer;
  let admin: string;
  let expert: string;
  let uploadsDir: string;
  let downloadDir: string;
  let secrets: string[];

  beforeAll(async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('学生').addRow(['姓名', '分数']);
    SAMPLES.xlsx = Buffer.from(await wb.xlsx.writeBuffer());
    s = await startServer(backend);
    admin = await s.login('admin', 'admin123');
    expert = await s.login('expert', 'expert123');
    uploadsDir = path.join(s.dataDir, 'uploads');
    downloadDir = path.join(s.dataDir, 'download');
    fs.mkdirSync(downloadDir, { recursive: true });
    const keysDir = path.join(s.dataDir, 'keys');
    // A line of every secret file, to prove no answer ever carries one.
    secrets = fs.readdirSync(keysDir).map(
      (f) =>
        fs
          .readFileSync(path.join(keysDir, f), 'utf8')
          .split('\n')
          .find((l) => l.length > 20 && !l.startsWith('-----')) as string,
    );
    expect(secrets.length).toBeGreaterThanOrEqual(5);
  });
  afterAll(async () => {
    await s?.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const post = async (url: string, parts: Part[], token?: string) => {
    const f = await form(parts);
    return s.call('POST', url, { token, body: f.body, headers: f.headers });
  };
  /** One file in field `field`, sent by expert (null: without a token). */
  const send = async (url: string, field: string, filename: string, data: Buffer, token: string | null = expert, type = 'application/octet-stream') => {
    const f = await multipartFile(field, filename, type, data);
    return s.call('POST', url, { token: token ?? undefined, body: f.body, headers: f.headers });
  };
  let port = 0;
  /** The app on a real socket (once per server), for what app.inject cannot show: raw paths, early answers to uploads. */
  const listen = async () => {
    if (!port) {
      await s.app.listen({ port: 0, host: '127.0.0.1' });
      const address = s.app.server.address();
      port = typeof address === 'object' && address ? address.port : 0;
    }
    return port;
  };
  const served = async (url: string) => (await s.call('GET', url, { sign: false })).rawBuffer;
  const expectNoLeak = (raw: string, label: string) => {
    expect(raw, label).not.toContain('PRIVATE KEY');
    for (const secret of secrets) expect(raw, label).not.toContain(secret);
  };

  describe('POST /dev-api/common/upload', () => {
    it.each(Object.keys(SAMPLES))('accepts a .%s whose content matches, stores it under a generated name and serves it back', async (ext) => {
      const data = SAMPLES[ext];
      const res = await send(UPLOAD, 'file', `资料 ${ext}.${ext.toUpperCase()}`, data);
      const stored = ext === 'jpeg' ? 'jpg' : ext;
      expect(res.body).toEqual({
        code: 200,
        msg: '操作成功',
        url: expect.stringMatching(new RegExp(`^/profile/upload/\\d{4}/\\d{2}/\\d{2}/[0-9a-f]{32}\\.${stored}$`)),
        fileName: res.body.url,
        newFileName: String(res.body.url).split('/').pop(),
        originalFilename: `资料 ${ext}.${ext.toUpperCase()}`,
      });
      expect((await served(res.body.url as string)).equals(data)).toBe(true);
      expect(fs.readFileSync(path.join(uploadsDir, String(res.body.url).slice('/profile/'.length))).equals(data)).toBe(true);
    });

    it('judges images by content: a JPEG named .png is stored as .jpg', async () => {
      const res = await send(UPLOAD, 'file', 'photo.png', JPEG_HEAD);
      expect(res.body.code).toBe(200);
      expect(res.body.url).toMatch(/\.jpg$/);
    });

    it.each([
      ['a text file named .png', 'notes.png', Buffer.from('just some text, not an image\n')],
      ['an HTML page named .jpg', 'x.jpg', Buffer.from('<html><script>alert(1)</script></html>')],
      ['an HTML page named .pdf', 'x.pdf', Buffer.from('<html><body>hi</body></html>')],
      ['a PNG named .pdf', 'scan.pdf', PNG_1PX],
      ['a PNG named .txt (binary)', 'a.txt', PNG_1PX],
      ['a PDF named .docx', 'a.docx', SAMPLES.pdf],
      ['a plain zip named .docx', 'a.docx', SAMPLES.zip],
      ['a Word document named .xls', 'a.xls', SAMPLES.doc],
      ['an xlsx named .pptx', 'a.pptx', SAMPLES.xlsx],
      ['a text file named .zip', 'a.zip', Buffer.from('PK? no')],
      ['a 7z named .rar', 'a.rar', SAMPLES['7z']],
      ['a binary file named .txt', 'a.txt', Buffer.from([0x41, 0x00, 0x42, 0x01])],
      ['an SVG', 'logo.svg', SVG_OK],
      ['an HTML page', 'page.html', Buffer.from('<html></html>')],
      ['a Windows program', 'setup.exe', Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1')],
      ['a program with an image name in front', 'photo.png.exe', PNG_1PX],
      ['a file without extension', 'README', Buffer.from('hello')],
      ['a dot file', '.png', PNG_1PX],
      ['an empty file', 'empty.txt', Buffer.alloc(0)],
      ['a truncated PNG signature', 'short.png', PNG_1PX.subarray(0, 6)],
    ])('refuses %s with the type message and stores nothing', async (_what, filename, data) => {
      const before = listFiles(uploadsDir);
      const res = await send(UPLOAD, 'file', filename, data);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ code: 500, msg: BAD_TYPE });
      expect(listFiles(uploadsDir)).toEqual(before);
    });

    it('never uses the client file name: folders and traversal in it are dropped', async () => {
      const before = listFiles(s.dataDir).filter((f) => !f.startsWith('uploads'));
      for (const name of ['../../keys/evil.png', '..\\..\\keys\\evil.png', '/etc/cron.d/evil.png', 'C:\\fakepath\\evil.png']) {
        const res = await send(UPLOAD, 'file', name, PNG_1PX);
        expect(res.body.code, name).toBe(200);
        expect(res.body.originalFilename, name).toBe('evil.png');
        expect(res.body.url, name).toMatch(/^\/profile\/upload\/\d{4}\/\d{2}\/\d{2}\/[0-9a-f]{32}\.png$/);
      }
      expect(listFiles(s.dataDir).filter((f) => !f.startsWith('uploads'))).toEqual(before);
      expect(fs.existsSync(path.join(s.dataDir, 'keys', 'evil.png'))).toBe(false);
    });

    it('accepts exactly 5 MB and refuses one byte more with the size message', async () => {
      const atLimit = await send(UPLOAD, 'file', 'big.png', pngOfSize(5 * MB));
      expect(atLimit.body.code).toBe(200);
      const before = listFiles(uploadsDir);
      expect((await send(UPLOAD, 'file', 'bigger.png', pngOfSize(5 * MB + 1))).body).toEqual({ code: 500, msg: TOO_BIG });
      expect((await send(UPLOAD, 'file', 'huge.txt', Buffer.alloc(9 * MB, 0x61))).body).toEqual({ code: 500, msg: TOO_BIG });
      expect(listFiles(uploadsDir)).toEqual(before);
    });

    it('takes one file only, and asks for one when none is sent', async () => {
      const two = await post(
        UPLOAD,
        [
          { field: 'file', filename: 'a.png', data: PNG_1PX },
          { field: 'file', filename: 'b.png', data: PNG_1PX },
        ],
        expert,
      );
      expect(two.body).toEqual({ code: 500, msg: '上传文件数量不能超过 1 个!' });
      expect((await s.call('POST', UPLOAD, { token: expert, body: { file: 'x' } })).body).toEqual({ code: 500, msg: '请选择要上传的文件' });
      expect((await post(UPLOAD, [{ field: 'note', value: 'no file' }], expert)).body).toEqual({ code: 500, msg: '请选择要上传的文件' });
      // A file in another field is not "file".
      expect((await send(UPLOAD, 'upfile', 'a.png', PNG_1PX)).body).toEqual({ code: 500, msg: '请选择要上传的文件' });
    });

    it('refuses a broken multipart body with a message, not a server fault', async () => {
      const f = await multipartFile('file', 'a.png', 'image/png', PNG_1PX);
      const cut = f.body.subarray(0, f.body.length - 30);
      expect((await s.call('POST', UPLOAD, { token: expert, body: cut, headers: f.headers })).body).toEqual({
        code: 500,
        msg: '上传数据格式不正确，请重新选择文件上传',
      });
    });

    it('answers 401 without a token', async () => {
      expect((await send(UPLOAD, 'file', 'a.png', PNG_1PX, null)).body).toEqual(NOT_SIGNED_IN);
    });
  });

  describe('POST /dev-api/common/uploads', () => {
    const files = (n: number, make: (i: number) => Part = (i) => ({ field: 'files', filename: `f${i}.png`, data: PNG_1PX })) =>
      Array.from({ length: n }, (_, i) => make(i));

    it('stores several files and answers them comma-joined (RuoYi) and as a list', async () => {
      const res = await post(
        UPLOADS,
        [
          { field: 'files', filename: '照片.png', data: PNG_1PX },
          { field: 'files', filename: '名单.xlsx', data: SAMPLES.xlsx },
          { field: 'files', filename: '说明.txt', data: SAMPLES.txt },
        ],
        expert,
      );
      expect(res.body.code).toBe(200);
      expect(res.body.msg).toBe('操作成功');
      const urls = String(res.body.urls).split(',');
      expect(urls).toHaveLength(3);
      expect(urls[0]).toMatch(/\.png$/);
      expect(urls[1]).toMatch(/\.xlsx$/);
      expect(urls[2]).toMatch(/\.txt$/);
      expect(res.body.fileNames).toBe(res.body.urls);
      expect(res.body.newFileNames).toBe(urls.map((u) => u.split('/').pop()).join(','));
      expect(res.body.originalFilenames).toBe('照片.png,名单.xlsx,说明.txt');
      expect((res.body.data as unknown[]).length).toBe(3);
      expect((await served(urls[1])).equals(SAMPLES.xlsx)).toBe(true);
    });

    it('accepts 5 files and refuses 6 with the count message, storing none of them', async () => {
      expect((await post(UPLOADS, files(5), expert)).body.code).toBe(200);
      const before = listFiles(uploadsDir);
      expect((await post(UPLOADS, files(6), expert)).body).toEqual({ code: 500, msg: TOO_MANY });
      expect((await post(UPLOADS, files(12), expert)).body).toEqual({ code: 500, msg: TOO_MANY });
      expect(listFiles(uploadsDir)).toEqual(before);
    });

    it('is all or nothing: one bad or oversized file refuses the lot', async () => {
      const before = listFiles(uploadsDir);
      const bad = files(3, (i) =>
        i === 2 ? { field: 'files', filename: 'evil.png', data: Buffer.from('text') } : { field: 'files', filename: `ok${i}.png`, data: PNG_1PX },
      );
      expect((await post(UPLOADS, bad, expert)).body).toEqual({ code: 500, msg: BAD_TYPE });
      const big = files(2, (i) => ({ field: 'files', filename: `b${i}.png`, data: i === 0 ? PNG_1PX : pngOfSize(5 * MB + 1) }));
      expect((await post(UPLOADS, big, expert)).body).toEqual({ code: 500, msg: TOO_BIG });
      expect(listFiles(uploadsDir)).toEqual(before);
    });

    it('asks for files when none are sent and answers 401 without a token', async () => {
      expect((await post(UPLOADS, [{ field: 'x', value: '1' }], expert)).body).toEqual({ code: 500, msg: '请选择要上传的文件' });
      expect((await post(UPLOADS, files(1))).body).toEqual(NOT_SIGNED_IN);
    });
  });

  describe('POST /appv2/api/index/imageUpload', () => {
    it.each(['png', 'jpg', 'gif', 'webp'])('stores a %s and answers data {url, key}', async (ext) => {
      const res = await send(IMAGE_UPLOAD, 'file', `pic.${ext}`, SAMPLES[ext]);
      expect(res.body.code).toBe(200);
      expect(res.body.msg).toBe('上传成功');
      const data = res.body.data as { url: string; key: string };
      expect(Object.keys(data).sort()).toEqual(['key', 'url']);
      expect(data.key).toMatch(new RegExp(`^image/\\d{4}/\\d{2}/\\d{2}/[0-9a-f]{32}\\.${ext}$`));
      expect(data.url).toBe(`/profile/${data.key}`);
      expect((await served(data.url)).equals(SAMPLES[ext])).toBe(true);
    });

    it.each([
      ['a PDF', 'a.pdf', SAMPLES.pdf],
      ['a text file named .png', 'a.png', Buffer.from('hello')],
      ['an SVG', 'a.svg', SVG_OK],
      ['a Word document named .jpg', 'a.jpg', SAMPLES.doc],
    ])('refuses %s with the image type message', async (_what, filename, data) => {
      expect((await send(IMAGE_UPLOAD, 'image', filename, data)).body).toEqual({ code: 500, msg: IMAGE_BAD_TYPE });
    });

    it('refuses over 5 MB, asks for an image when none is sent, answers 401 without a token', async () => {
      expect((await send(IMAGE_UPLOAD, 'file', 'big.png', pngOfSize(5 * MB + 1))).body).toEqual({ code: 500, msg: IMAGE_TOO_BIG });
      expect((await post(IMAGE_UPLOAD, [{ field: 'a', value: 'b' }], expert)).body).toEqual({ code: 500, msg: '请选择要上传的图片' });
      expect((await send(IMAGE_UPLOAD, 'file', 'a.png', PNG_1PX, null)).body).toEqual(NOT_SIGNED_IN);
    });
  });

  describe('upload token flow (myqiniu)', () => {
    const getToken = async (token = expert) => {
      const res = await s.call<[string, string, string]>('GET', TOKEN, { token });
      expect(res.body.code).toBe(200);
      return res.body.data as [string, string, string];
    };
    const upload = (uploadToken: string | undefined, data: Buffer = PNG_1PX, filename = 'pic.png') =>
      post(TOKEN_UPLOAD, [
        ...(uploadToken === undefined ? [] : [{ field: 'token', value: uploadToken }]),
        { field: 'file', filename, data, type: 'image/png' },
      ]);

    it('gives [token, our upload URL, domain]; the upload answers Qiniu {key, hash} and domain/key serves the file', async () => {
      const [token, uploadUrl, domain] = await getToken();
      expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
      expect(uploadUrl).toBe(TOKEN_UPLOAD);
      expect(domain).toBe('/profile');
      const res = await upload(token);
      expect(res.body).toEqual({
        code: 200,
        msg: '上传成功',
        key: expect.stringMatching(/^image\/\d{4}\/\d{2}\/\d{2}\/[0-9a-f]{32}\.png$/),
        hash: qiniuEtag(PNG_1PX),
        url: `/profile/${res.body.key}`,
      });
      // Qiniu's etag of a small file: 0x16 + SHA-1, URL-safe base64.
      expect(
        Buffer.from(String(res.body.hash), 'base64url').equals(Buffer.concat([Buffer.from([0x16]), crypto.createHash('sha1').update(PNG_1PX).digest()])),
      ).toBe(true);
      expect((await served(`${domain}/${res.body.key}`)).equals(PNG_1PX)).toBe(true);
      // A token may be used until it expires, and the client's own key is ignored.
      const again = await post(TOKEN_UPLOAD, [
        { field: 'token', value: token },
        { field: 'key', value: '../../keys/x.png' },
        { field: 'file', filename: 'a.jpg', data: JPEG_HEAD },
      ]);
      expect(again.body.code).toBe(200);
      expect(again.body.key).toMatch(/^image\/\d{4}\/\d{2}\/\d{2}\/[0-9a-f]{32}\.jpg$/);
    });

    it('refuses a missing token, also with a session token, and without reading the file', async () => {
      const before = listFiles(uploadsDir);
      expect((await upload(undefined)).body).toEqual({ code: 500, msg: TOKEN_MISSING });
      expect((await upload('')).body).toEqual({ code: 500, msg: TOKEN_MISSING });
      // A signed-in session is no substitute for the upload token.
      const f = await form([{ field: 'file', filename: 'a.png', data: PNG_1PX }]);
      expect((await s.call('POST', TOKEN_UPLOAD, { token: admin, body: f.body, headers: f.headers })).body).toEqual({ code: 500, msg: TOKEN_MISSING });
      // The token must come before the file, as with Qiniu.
      const [token] = await getToken();
      const late = await post(TOKEN_UPLOAD, [
        { field: 'file', filename: 'a.png', data: PNG_1PX },
        { field: 'token', value: token },
      ]);
      expect(late.body).toEqual({ code: 500, msg: TOKEN_MISSING });
      // Not multipart at all (the route is public: no 401).
      expect((await s.call('POST', TOKEN_UPLOAD, { body: {} })).body).toEqual({ code: 500, msg: TOKEN_MISSING });
      expect(listFiles(uploadsDir)).toEqual(before);
    });

    it('answers a refusal part-way through a real upload and keeps the connection usable (the rest of the body runs off)', async () => {
      await listen();
      // One keep-alive socket: the follow-up request only gets it once the refused upload's body has been taken in.
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const request = (url: string, method: string, token?: string, body?: { body: Buffer; headers: Record<string, string> }) =>
        new Promise<unknown>((resolve, reject) => {
          const headers = { ...signTimer(s.app.keys.requestPublicPem), ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body?.headers ?? {}) };
          const req = http.request({ host: '127.0.0.1', port, path: url, method, headers, agent }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
          });
          req.setTimeout(10000, () => req.destroy(new Error(`${method} ${url} stalled`)));
          req.on('error', reject);
          req.end(body?.body);
        });
      const big = pngOfSize(4 * MB);
      const before = listFiles(uploadsDir);
      try {
        for (let round = 0; round < 2; round++) {
          const late = await form([
            { field: 'file', filename: 'a.png', data: big },
            { field: 'token', value: 'late' },
          ]);
          expect(await request(TOKEN_UPLOAD, 'POST', undefined, late)).toEqual({ code: 500, msg: TOKEN_MISSING });
          expect(await request(EDITOR_CONFIG, 'GET', expert)).toMatchObject({ code: 200 });
          const seven = await form(Array.from({ length: 7 }, (_, i) => ({ field: 'files', filename: `${i}.png`, data: big })));
          expect(await request(UPLOADS, 'POST', expert, seven)).toEqual({ code: 500, msg: TOO_MANY });
          expect(await request(EDITOR_CONFIG, 'GET', expert)).toMatchObject({ code: 200 });
        }
      } finally {
        agent.destroy();
      }
      expect(listFiles(uploadsDir)).toEqual(before);
    });

    it('refuses tampered and foreign tokens', async () => {
      const [token] = await getToken();
      const [payload, sig] = token.split('.');
      const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { u: number; e: number };
      const longer = Buffer.from(JSON.stringify({ ...decoded, e: decoded.e + 365 * 24 * 60 * MINUTE })).toString('base64url');
      const flip = (t: string, i: number) => t.slice(0, i) + (t[i] === 'A' ? 'B' : 'A') + t.slice(i + 1);
      const tampered = [
        `${longer}.${sig}`, // expiry pushed out, old signature
        `${payload}.${flip(sig, 5)}`,
        `${flip(payload, 3)}.${sig}`,
        `${payload}.`,
        payload,
        `${payload}.${sig}.x`,
        'not a token',
        `${Buffer.from(JSON.stringify({ p: 'upload', u: 1, e: Date.now() + MINUTE, n: 'x' })).toString('base64url')}.${crypto.createHmac('sha256', 'guess').update('x').digest('base64url')}`,
      ];
      for (const t of tampered) expect((await upload(t)).body, t).toEqual({ code: 500, msg: TOKEN_INVALID });
      // A token of another server (other DATA_DIR/keys) is foreign here.
      const other = await startServer('sqlite');
      try {
        const foreign = (await other.call<string[]>('GET', TOKEN, { token: await other.login('admin', 'admin123') })).body.data?.[0] as string;
        expect((await upload(foreign)).body).toEqual({ code: 500, msg: TOKEN_INVALID });
      } finally {
        await other.close();
      }
    });

    it('expires the token after 10 minutes', async () => {
      expect(UPLOAD_TOKEN_TTL_MS).toBe(10 * MINUTE);
      const [token] = await getToken();
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 9 * MINUTE);
      expect((await upload(token)).body.code).toBe(200);
      vi.setSystemTime(Date.now() + MINUTE + 1000);
      expect((await upload(token)).body).toEqual({ code: 500, msg: TOKEN_EXPIRED });
      // A fresh token works again.
      const [fresh] = await getToken();
      expect((await upload(fresh)).body.code).toBe(200);
    });

    it('takes images only (5 MB), and a token needs a session', async () => {
      const [token] = await getToken();
      expect((await upload(token, SAMPLES.pdf, 'a.pdf')).body).toEqual({ code: 500, msg: IMAGE_BAD_TYPE });
      expect((await upload(token, Buffer.from('text'), 'a.png')).body).toEqual({ code: 500, msg: IMAGE_BAD_TYPE });
      expect((await upload(token, pngOfSize(5 * MB + 1))).body).toEqual({ code: 500, msg: IMAGE_TOO_BIG });
      expect((await s.call('GET', TOKEN)).body).toEqual(NOT_SIGNED_IN);
    });

    it('keeps its secret in DATA_DIR/keys (0600): tokens survive a restart', async () => {
      const file = path.join(s.dataDir, 'keys', 'upload-token.key');
      expect(fs.existsSync(file)).toBe(true);
      if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const [token] = await getToken();
      await s.restart();
      port = 0; // the new app is not listening yet
      expect((await upload(token)).body.code).toBe(200);
      expect(verifyUploadToken(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex'), token).ok).toBe(true);
    });
  });

  describe('editor (Ueditor)', () => {
    it('answers the upload configuration', async () => {
      const res = await s.call('GET', EDITOR_CONFIG, { token: expert });
      const config = {
        imageActionName: 'uploadimage',
        imageFieldName: 'upfile',
        imageMaxSize: 3145728,
        imageAllowFiles: ['.png', '.jpg', '.jpeg', '.svg'],
        imageCompressEnable: true,
        imageCompressBorder: 1600,
        imageInsertAlign: 'none',
        imageUrlPrefix: '',
      };
      expect(res.body).toEqual({ code: 200, msg: '操作成功', data: config, ...config });
      expect((await s.call('GET', EDITOR_CONFIG)).body).toEqual(NOT_SIGNED_IN);
      // POST too: the spec's calls are POST unless noted, and this one is not.
      expect((await s.call('POST', EDITOR_CONFIG, { token: expert, body: {} })).body).toEqual({ code: 200, msg: '操作成功', data: config, ...config });
      expect((await s.call('POST', EDITOR_CONFIG, { body: {} })).body).toEqual(NOT_SIGNED_IN);
    });

    it.each([
      ['png', PNG_1PX],
      ['jpg', JPEG_HEAD],
      ['jpeg', JPEG_HEAD],
      ['svg', SVG_OK],
    ])('stores a .%s', async (ext, data) => {
      const res = await send(EDITOR_UPLOAD, 'upfile', `插图.${ext}`, data);
      const stored = ext === 'jpeg' ? 'jpg' : ext;
      expect(res.body).toMatchObject({ code: 200, msg: '上传成功', state: 'SUCCESS', original: `插图.${ext}`, type: `.${stored}`, size: data.length });
      expect(res.body.url).toMatch(new RegExp(`^/profile/editor/\\d{4}/\\d{2}/\\d{2}/[0-9a-f]{32}\\.${stored}$`));
      expect(res.body.data).toEqual({
        state: 'SUCCESS',
        url: res.body.url,
        title: res.body.title,
        original: `插图.${ext}`,
        type: `.${stored}`,
        size: data.length,
      });
      const file = await s.call('GET', res.body.url as string, { sign: false });
      expect(file.rawBuffer.equals(data)).toBe(true);
      if (ext === 'svg') expect(String(file.headers['content-type'])).toMatch(/^image\/svg\+xml/);
    });

    const svg = (inner: string, attrs = '') => Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg"${attrs}>${inner}</svg>`);
    it.each([
      ['a script element', svg('<script>alert(1)</script>')],
      ['a SCRIPT element in capitals', svg('<SCRIPT >alert(1)</SCRIPT>')],
      ['a namespaced script', svg('<svg:script>alert(1)</svg:script>')],
      ['an onload handler', svg('<rect/>', ' onload="alert(1)"')],
      ['a handler after a slash', Buffer.from('<svg/onload=alert(1)>')],
      ['an onclick on a child', svg('<rect width="1" ONCLICK = "alert(1)"/>')],
      ['a javascript: link', svg('<a href="javascript:alert(1)"><text>x</text></a>')],
      ['an entity-encoded javascript: link', svg('<a xlink:href="&#106;avascript&#x3A;alert(1)"><text>x</text></a>')],
      ['an external image', svg('<image href="https://evil.example/x.png"/>')],
      ['an external xlink:href', svg('<use xlink:href="http://evil.example/sprite.svg#a"/>')],
      ['a protocol-relative reference', svg('<image href="//evil.example/x.png"/>')],
      ['an embedded SVG document', svg('<image href="data:image/svg+xml;base64,PHN2Zz4="/>')],
      ['an external url() in a style', svg('<rect style="fill:url(https://evil.example/a)"/>')],
      ['an @import', svg('<style>@import "https://evil.example/a.css";</style>')],
      ['a foreignObject', svg('<foreignObject><iframe src="https://evil.example"></iframe></foreignObject>')],
      ['a DOCTYPE with an entity', Buffer.from('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg>&x;</svg>')],
      ['an xml-stylesheet', Buffer.from('<?xml-stylesheet href="https://evil.example/a.css"?><svg></svg>')],
      ['an animated handler', svg('<set attributeName="onmouseover" to="alert(1)"/>')],
      ['an animated link', svg('<a><animate attributeName="href" values="https://evil.example"/><text>x</text></a>')],
      ['HTML named .svg', Buffer.from('<html><body>x</body></html>')],
      ['a PNG named .svg', PNG_1PX],
      ['not UTF-8', Buffer.from([0x3c, 0x73, 0x76, 0x67, 0x3e, 0xff, 0xfe, 0x3c, 0x2f, 0x73, 0x76, 0x67, 0x3e])],
    ])('refuses an svg with %s', async (_what, data) => {
      const before = listFiles(uploadsDir);
      expect((await send(EDITOR_UPLOAD, 'upfile', 'x.svg', data)).body).toEqual({ code: 500, msg: EDITOR_BAD_TYPE });
      expect(listFiles(uploadsDir)).toEqual(before);
    });

    it.each([
      ['a gif', 'a.gif', SAMPLES.gif],
      ['a webp', 'a.webp', SAMPLES.webp],
      ['a GIF named .png', 'a.png', SAMPLES.gif],
      ['a text file named .jpg', 'a.jpg', Buffer.from('hello')],
      ['an SVG named .png', 'a.png', SVG_OK],
      ['a PDF', 'a.pdf', SAMPLES.pdf],
    ])('refuses %s with 图片格式错误!', async (_what, filename, data) => {
      expect((await send(EDITOR_UPLOAD, 'upfile', filename, data)).body).toEqual({ code: 500, msg: EDITOR_BAD_TYPE });
    });

    it('accepts 3145728 bytes and refuses one more; wants the upfile field and a session', async () => {
      expect((await send(EDITOR_UPLOAD, 'upfile', 'a.png', pngOfSize(3145728))).body.code).toBe(200);
      expect((await send(EDITOR_UPLOAD, 'upfile', 'a.png', pngOfSize(3145729))).body).toEqual({ code: 500, msg: EDITOR_TOO_BIG });
      const bigSvg = Buffer.concat([Buffer.from('<svg>'), Buffer.alloc(3145728, 0x20), Buffer.from('</svg>')]);
      expect((await send(EDITOR_UPLOAD, 'upfile', 'a.svg', bigSvg)).body).toEqual({ code: 500, msg: EDITOR_TOO_BIG });
      expect((await send(EDITOR_UPLOAD, 'file', 'a.png', PNG_1PX)).body).toEqual({ code: 500, msg: '请选择要上传的图片' });
      expect((await send(EDITOR_UPLOAD, 'upfile', 'a.png', PNG_1PX, null)).body).toEqual(NOT_SIGNED_IN);
    });
  });

  describe('GET /dev-api/common/download', () => {
    const put = (name: string, data: Buffer | string) => fs.writeFileSync(path.join(downloadDir, name), data);

    it('streams a file of DATA_DIR/download as an attachment with download-filename and keeps it', async () => {
      put('学生名单_2025.xlsx', SAMPLES.xlsx);
      const res = await s.call('GET', DOWNLOAD, { token: expert, query: { fileName: '学生名单_2025.xlsx', delete: 'false' } });
      expect(res.status).toBe(200);
      expect(res.rawBuffer.equals(SAMPLES.xlsx)).toBe(true);
      const encoded = encodeURIComponent('学生名单_2025.xlsx');
      expect(res.headers['download-filename']).toBe(encoded);
      expect(decodeURIComponent(String(res.headers['download-filename']))).toBe('学生名单_2025.xlsx');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="${encoded}"; filename*=UTF-8''${encoded}`);
      expect(res.headers['content-type']).toBe('application/octet-stream');
      expect(String(res.headers['access-control-expose-headers'])).toContain('download-filename');
      expect(Number(res.headers['content-length'])).toBe(SAMPLES.xlsx.length);
      expect(fs.existsSync(path.join(downloadDir, '学生名单_2025.xlsx'))).toBe(true);
      // delete omitted: kept as well.
      expect((await s.call('GET', DOWNLOAD, { token: expert, query: { fileName: '学生名单_2025.xlsx' } })).rawBuffer.equals(SAMPLES.xlsx)).toBe(true);
      expect(fs.existsSync(path.join(downloadDir, '学生名单_2025.xlsx'))).toBe(true);
    });

    it('encodes quotes and brackets in download-filename', async () => {
      put("it's (1).txt", 'x');
      const res = await s.call('GET', DOWNLOAD, { token: expert, query: { fileName: "it's (1).txt" } });
      expect(res.headers['download-filename']).toBe('it%27s%20%281%29.txt');
      expect(decodeURIComponent(String(res.headers['download-filename']))).toBe("it's (1).txt");
    });

    it('removes the file after sending it when delete=true', async () => {
      put('export_1.csv', 'a,b\n1,2\n');
      const res = await s.call('GET', DOWNLOAD, { token: expert, query: { fileName: 'export_1.csv', delete: 'true' } });
      expect(res.raw).toBe('a,b\n1,2\n');
      await vi.waitFor(() => expect(fs.existsSync(path.join(downloadDir, 'export_1.csv'))).toBe(false));
      expect((await s.call('GET', DOWNLOAD, { token: expert, query: { fileName: 'export_1.csv', delete: 'true' } })).body).toEqual(NOT_FOUND);
    });

    it('answers not found for a missing file, a folder or a symbolic link', async () => {
      expect((await s.call('GET', DOWNLOAD, { token: expert, query: { fileName: 'nothing.xlsx' } })).body).toEqual(NOT_FOUND);
      fs.mkdirSync(path.join(downloadDir, 'folder.zip'));
      expect((await s.call('GET', DOWNLOAD, { token: expert, query: { fileName: 'folder.zip' } })).body).toEqual(NOT_FOUND);
      fs.symlinkSync(path.join(s.dataDir, 'keys', 'request-private.pem'), path.join(downloadDir, 'link.txt'));
      const link = await s.call('GET', DOWNLOAD, { token: expert, query: { fileName: 'link.txt' } });
      expect(link.body).toEqual(NOT_FOUND);
      expectNoLeak(link.raw, 'link.txt');
    });

    // Raw query strings exactly as a client could send them; the refusal echoes the decoded name.
    const TRAVERSALS = [
      '../keys/request-private.pem',
      '..%2fkeys%2frequest-private.pem',
      '%2e%2e%2fkeys%2frequest-private.pem',
      '%2E%2E%2Fkeys%2Frequest-private.pem',
      '..%5ckeys%5crequest-private.pem',
      '..\\keys\\request-private.pem',
      '%252e%252e%252fkeys%252frequest-private.pem',
      '%25252e%25252e%25252fkeys.xlsx',
      '....//keys/request-private.pem',
      '..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd',
      '%2fetc%2fpasswd',
      '/etc/passwd',
      '%2Fetc%2Fhosts.txt',
      'C:%5cWindows%5cwin.ini',
      'C:win.txt',
      '..',
      '.',
      '..%00.xlsx',
      'a.xlsx%00',
      '%00',
      'keys%2frequest-private.pem',
      'request-private.pem',
      '..%2fzhiyuan.sqlite',
      '%2e%2e',
      '.hidden.txt',
      '%EF%BC%8E%EF%BC%8E%EF%BC%8Fkeys%EF%BC%8Frequest-private.pem', // fullwidth ．．／
      '%E2%80%A4%E2%80%A4%2fkeys.txt', // one-dot leaders
      '%c0%ae%c0%ae%c0%afkeys.txt', // overlong UTF-8
      '~%2f.ssh%2fid_rsa.txt',
      'report.xlsx%2f..%2f..%2fkeys%2frequest-private.pem',
      'report.exe',
      'report',
      '',
    ];

    it.each(TRAVERSALS)('refuses fileName=%s with RuoYi text and leaks nothing', async (raw) => {
      const res = await s.call('GET', `${DOWNLOAD}?fileName=${raw}&delete=true`, { token: admin });
      const name = queryValue(raw);
      expect(res.status, raw).toBe(200);
      expect(res.body, raw).toEqual(illegal(name));
      expectNoLeak(res.raw, raw);
    });

    it('refuses the same over a real socket (no client-side normalisation) and keeps the key files', async () => {
      await listen();
      const get = (rawPath: string) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const headers = { ...signTimer(s.app.keys.requestPublicPem), authorization: `Bearer ${admin}` };
          const req = http.request({ host: '127.0.0.1', port, path: rawPath, method: 'GET', headers }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
          });
          req.on('error', reject);
          req.end();
        });
      for (const raw of TRAVERSALS.filter((t) => !t.includes('\\'))) {
        const res = await get(`${DOWNLOAD}?fileName=${raw}&delete=true`);
        expect(res.status, raw).toBe(200);
        expect(JSON.parse(res.body).msg, raw).toMatch(/^文件名称\(.*\)非法，不允许下载。$/s);
        expectNoLeak(res.body, raw);
      }
      for (const raw of ['/profile/../keys/request-private.pem', '/profile/%2e%2e/keys/request-private.pem', '..%2fkeys%2frequest-private.pem']) {
        const res = await get(`${RESOURCE}?resource=${raw}`);
        expect(JSON.parse(res.body).msg, raw).toMatch(/^资源文件\(.*\)非法，不允许下载。$/s);
        expectNoLeak(res.body, raw);
      }
      for (const f of ['request-private.pem', 'response-private.pem', 'upload-token.key']) expect(fs.existsSync(path.join(s.dataDir, 'keys', f)), f).toBe(true);
    });

    it('answers 401 without a token', async () => {
      put('x.txt', 'x');
      expect((await s.call('GET', DOWNLOAD, { query: { fileName: 'x.txt' } })).body).toEqual(NOT_SIGNED_IN);
    });
  });

  describe('GET /dev-api/common/download/resource', () => {
    it('streams a stored upload by its /profile/ path', async () => {
      const up = await send(UPLOAD, 'file', '名单.xlsx', SAMPLES.xlsx);
      const resource = up.body.fileName as string;
      const res = await s.call('GET', RESOURCE, { token: expert, query: { resource } });
      expect(res.status).toBe(200);
      expect(res.rawBuffer.equals(SAMPLES.xlsx)).toBe(true);
      expect(res.headers['download-filename']).toBe(resource.split('/').pop());
      expect(String(res.headers['content-disposition'])).toMatch(/^attachment;/);
      // The avatar folder is part of the uploads too.
      const avatar = await send('/dev-api/system/user/profile/avatar', 'avatarfile', 'me.png', PNG_1PX);
      const avatarUrl = (avatar.body.data as { imgUrl: string }).imgUrl;
      expect((await s.call('GET', RESOURCE, { token: expert, query: { resource: avatarUrl } })).rawBuffer.equals(PNG_1PX)).toBe(true);
    });

    it.each([
      '/profile/../keys/request-private.pem',
      '/profile/%2e%2e/keys/request-private.pem',
      '/profile/..%2fkeys%2frequest-private.pem',
      '/profile/upload/../../keys/request-private.pem',
      '/profile/upload/..%5c..%5ckeys%5crequest-private.pem',
      '/profile/%252e%252e/keys/request-private.pem',
      '/profile//etc/passwd',
      '/profile/.%2fupload%2fx.png',
      '/profile/upload/.hidden.png',
      '/profile/',
      '/profile',
      'upload/2025/01/01/x.png',
      '../keys/request-private.pem',
      '%2fetc%2fpasswd',
      '/etc/passwd',
      '/profile/upload/x.pem',
      '/profile/upload/x.html',
      '/profile/upload/%E5%90%8D.png',
      '/profile/upload/x.png%00.txt',
      '',
    ])('refuses resource=%s and leaks nothing', async (raw) => {
      const res = await s.call('GET', `${RESOURCE}?resource=${raw}`, { token: admin });
      const name = queryValue(raw);
      expect(res.body, raw).toEqual(illegalResource(name));
      expectNoLeak(res.raw, raw);
    });

    it('answers not found for a missing upload, and 401 without a token', async () => {
      expect((await s.call('GET', RESOURCE, { token: expert, query: { resource: '/profile/upload/2025/01/01/0123.png' } })).body).toEqual(NOT_FOUND);
      expect((await s.call('GET', RESOURCE, { query: { resource: '/profile/upload/x.png' } })).body).toEqual(NOT_SIGNED_IN);
    });
  });
});

describe('storage', () => {
  it('generates date-folder keys with a random name and a safe extension', () => {
    const key = newObjectKey('upload', 'PNG', Date.UTC(2025, 0, 14, 17, 0, 0)); // 2025-01-15 01:00 in China
    expect(key).toMatch(/^upload\/2025\/01\/15\/[0-9a-f]{32}\.png$/);
    expect(newObjectKey('upload', 'png')).not.toBe(newObjectKey('upload', 'png'));
    expect(() => newObjectKey('../x', 'png')).toThrow();
    expect(() => newObjectKey('upload', 'p/ng')).toThrow();
    for (const bad of [
      '',
      '/a.png',
      'a/../b.png',
      'a//b.png',
      'a\\b.png',
      '.a.png',
      'a/.b',
      'a/b.',
      'a/%2e.png',
      'a/名.png',
      'a/b c.png',
      `${'a/'.repeat(300)}b`,
    ]) {
      expect(isSafeKey(bad), bad).toBe(false);
    }
    for (const good of ['upload/2025/01/15/0123abcd.png', 'avatar/2025/01/3f2e-11aa.jpg', 'x.tar.gz']) expect(isSafeKey(good), good).toBe(true);
  });

  it('local driver: put → url, get → stream, delete; refuses unsafe keys and links out of its folder', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'zy-storage-'));
    try {
      const storage = createLocalStorage(path.join(root, 'uploads'));
      expect(storage.driver).toBe('local');
      expect(storage.publicBase).toBe('/profile');
      const url = await storage.put('upload/2025/01/15/abc.txt', Buffer.from('你好'), 'text/plain');
      expect(url).toBe('/profile/upload/2025/01/15/abc.txt');
      expect((await readAll(await storage.get('upload/2025/01/15/abc.txt'))).toString()).toBe('你好');
      await expect(storage.put('upload/2025/01/15/abc.txt', Buffer.from('x'), 'text/plain')).rejects.toThrow(); // never overwrites
      await storage.delete('upload/2025/01/15/abc.txt');
      await storage.delete('upload/2025/01/15/abc.txt'); // missing: fine
      await expect(storage.get('upload/2025/01/15/abc.txt')).rejects.toBeInstanceOf(StorageNotFoundError);
      await expect(storage.put('../escape.txt', Buffer.from('x'), 'text/plain')).rejects.toThrow('非法的存储键');
      await expect(storage.get('../escape.txt')).rejects.toThrow('非法的存储键');
      expect(fs.existsSync(path.join(root, 'escape.txt'))).toBe(false);
      // A link inside the folder pointing outside it is not followed.
      fs.writeFileSync(path.join(root, 'secret.txt'), 'secret');
      fs.mkdirSync(path.join(root, 'uploads', 'link'), { recursive: true });
      fs.symlinkSync(path.join(root, 'secret.txt'), path.join(root, 'uploads', 'link', 'a.txt'));
      fs.symlinkSync(root, path.join(root, 'uploads', 'dir'));
      await expect(storage.get('link/a.txt')).rejects.toBeInstanceOf(StorageNotFoundError);
      await expect(storage.get('dir/secret.txt')).rejects.toBeInstanceOf(StorageNotFoundError);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('reads STORAGE_DRIVER and S3_* from the environment', () => {
    expect(loadConfig({}).storage).toEqual({ driver: 'local' });
    expect(
      storageFromEnv({
        STORAGE_DRIVER: 'S3',
        S3_ENDPOINT: 'http://minio:9000',
        S3_BUCKET: 'zy',
        S3_ACCESS_KEY: 'ak',
        S3_SECRET_KEY: 'sk',
        S3_PUBLIC_URL: 'https://cdn.example.com/',
      }),
    ).toEqual({
      driver: 's3',
      endpoint: 'http://minio:9000',
      bucket: 'zy',
      region: 'us-east-1',
      accessKey: 'ak',
      secretKey: 'sk',
      publicUrl: 'https://cdn.example.com/',
    });
    expect(() => storageFromEnv({ STORAGE_DRIVER: 'ftp' })).toThrow('STORAGE_DRIVER 取值无效：ftp（可选 local、s3）');
    expect(defaultS3PublicUrl({ endpoint: 'http://minio:9000/', bucket: 'zy', region: 'x' })).toBe('http://minio:9000/zy');
    expect(defaultS3PublicUrl({ bucket: 'zy', region: 'ap-east-1' })).toBe('https://zy.s3.ap-east-1.amazonaws.com');
  });

  it('s3 driver: signed PUT/GET/DELETE against an S3-compatible endpoint (a local stand-in)', async () => {
    const objects = new Map<string, Buffer>();
    const seen: Array<{ method: string; url: string; auth: string; type?: string }> = [];
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', auth: String(req.headers.authorization ?? ''), type: req.headers['content-type'] });
        const key = decodeURIComponent((req.url ?? '').split('?')[0]);
        if (req.method === 'PUT') {
          objects.set(key, Buffer.concat(chunks));
          res.writeHead(200, { etag: '"x"' }).end();
        } else if (req.method === 'GET' && objects.has(key)) {
          res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(objects.get(key)?.length) }).end(objects.get(key));
        } else if (req.method === 'GET') {
          res
            .writeHead(404, { 'content-type': 'application/xml' })
            .end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>missing</Message></Error>');
        } else if (req.method === 'DELETE') {
          objects.delete(key);
          res.writeHead(204).end();
        } else res.writeHead(400).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      await expect(createS3Storage({ bucket: '', region: 'x' })).rejects.toThrow('STORAGE_DRIVER=s3 需要设置 S3_BUCKET');
      await expect(createS3Storage({ bucket: 'b', region: 'x', accessKey: 'a' })).rejects.toThrow('S3_ACCESS_KEY 与 S3_SECRET_KEY 需要同时设置');
      const storage = await createS3Storage({
        endpoint: `http://127.0.0.1:${port}`,
        bucket: 'zy',
        region: 'cn-north-1',
        accessKey: 'AKIDEXAMPLE',
        secretKey: 'secret',
        publicUrl: 'https://cdn.example.com',
      });
      try {
        expect(storage.driver).toBe('s3');
        const url = await storage.put('upload/2025/01/15/abc.png', PNG_1PX, 'image/png');
        expect(url).toBe('https://cdn.example.com/upload/2025/01/15/abc.png');
        expect(objects.get('/zy/upload/2025/01/15/abc.png')?.equals(PNG_1PX)).toBe(true);
        expect(seen[0]).toMatchObject({ method: 'PUT', type: 'image/png' });
        expect(seen[0].auth).toMatch(
          /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/cn-north-1\/s3\/aws4_request, SignedHeaders=.*, Signature=[0-9a-f]{64}$/,
        );
        expect((await readAll(await storage.get('upload/2025/01/15/abc.png'))).equals(PNG_1PX)).toBe(true);
        await expect(storage.get('upload/2025/01/15/none.png')).rejects.toBeInstanceOf(StorageNotFoundError);
        await storage.delete('upload/2025/01/15/abc.png');
        expect(objects.size).toBe(0);
        await expect(storage.put('../x.png', PNG_1PX, 'image/png')).rejects.toThrow('非法的存储键');
      } finally {
        await storage.close?.();
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('sniffing: the upload list, extension and content must agree', () => {
    expect(UPLOAD_TYPES).toEqual(['png', 'jpg', 'jpeg', 'gif', 'webp', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'txt', 'pdf', 'zip', 'rar', '7z']);
    expect(detectType(SAMPLES.docx, 'zip', UPLOAD_TYPES)).toBe('zip'); // an Office file is a zip
    expect(detectType(Buffer.from([0xd1, 0xa7, 0xc9, 0xfa, 0x0d, 0x0a]), 'txt', UPLOAD_TYPES)).toBe('txt'); // 学生 in GBK
    expect(detectType(PNG_1PX, 'png', ['jpg'])).toBeNull();
    expect(isSafeSvg(SVG_OK)).toBe(true);
    expect(isSafeSvg(Buffer.from('<svg><image href="data:image/png;base64,iVBORw0KGgo="/></svg>'))).toBe(true);
    expect(isSafeSvg(Buffer.from('\uFEFF<svg viewBox="0 0 1 1"/>'))).toBe(true);
  });

  it("computes Qiniu's etag for multi-block files", () => {
    const data = Buffer.alloc(4 * MB + 10, 7);
    const sha1 = (b: Buffer) => crypto.createHash('sha1').update(b).digest();
    const expected = Buffer.concat([Buffer.from([0x96]), sha1(Buffer.concat([sha1(data.subarray(0, 4 * MB)), sha1(data.subarray(4 * MB))]))]).toString(
      'base64url',
    );
    expect(qiniuEtag(data)).toBe(expected);
    expect(qiniuEtag(Buffer.alloc(0))).toBe(Buffer.concat([Buffer.from([0x16]), sha1(Buffer.alloc(0))]).toString('base64url'));
  });
});
