import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PREVIEW_TTL_MS } from '../../../server/content/preview.js';
import { type CardKeys, cardKeyOf, decryptSecret, verifySecret } from '../../../server/customer/cardSecrets.js';
import { loadOrCreateKeys } from '../../../server/security/keys.js';
import { signTimer } from '../../../server/security/protocol.js';
import { keyId, readSecretFile } from '../../../server/security/secretFiles.js';
import { signUploadToken, UPLOAD_TOKEN_TTL_MS } from '../../../server/storage/upload-token.js';
import { appUser, call, downloadBatch, ok, PRICE, releaseOk } from '../customer/helpers.js';
import { backends, PNG_1PX, startServer, type TestServer } from '../harness.js';

/**
 * Issue 25 item 3: `npm run keys:rotate` rotates only the keys it names and keeps every old key in keys/retired/, so
 * what was made with an old key keeps working after the restart: issued cards activate and download, upload tokens and
 * preview links work until they expire. Runs the real command (a child process) on the server's DATA_DIR, then
 * rebuilds the app on it as a restart would.
 */

const ROOT = path.resolve(import.meta.dirname, '../../..');
const CLI = path.join(ROOT, 'server/cli/rotate-keys.ts');
const SECRET_FILES = ['card.key', 'upload-token.key', 'preview-token.key', 'pay-sandbox.key'];
const PEM_FILES = ['request-private.pem', 'request-public.pem', 'response-private.pem', 'response-public.pem'];
const TOKEN = '/appv2/api/myqiniu/getQiniuUploadToken';
const TOKEN_UPLOAD = '/appv2/api/myqiniu/upload';
const TOKEN_INVALID = { code: 500, msg: '上传凭证无效，请重新获取后再上传' };

function rotate(dataDir: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', CLI, ...args], { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const keyFile = (dataDir: string, name: string) => path.join(dataDir, 'keys', name);
const read = (dataDir: string, name: string) => fs.readFileSync(keyFile(dataDir, name));
const snapshot = (dataDir: string, names: string[]) => Object.fromEntries(names.map((n) => [n, read(dataDir, n).toString('hex')]));
const mode = (file: string) => fs.statSync(file).mode & 0o777;

/** The copies rotation kept of `name` (keys/retired/<base>-<time><ext>). */
function retiredCopies(dataDir: string, name: string): string[] {
  const dir = path.join(dataDir, 'keys', 'retired');
  if (!fs.existsSync(dir)) return [];
  const ext = path.extname(name);
  const base = path.basename(name, ext);
  return fs
    .readdirSync(dir)
    .filter((f) => f.startsWith(`${base}-`) && f.endsWith(ext) && /^\d{4}-/.test(f.slice(base.length + 1)))
    .map((f) => path.join(dir, f));
}

/** Card keys made of one key file only: which key a stored card value needs. */
function onlyKey(file: string): CardKeys {
  const secret = readSecretFile(file);
  const key = cardKeyOf(secret, keyId(secret));
  return { current: key, all: [key] };
}

/** A multipart form as the Qiniu client sends it: the token field, then the file. */
async function tokenForm(token: string) {
  const form = new FormData();
  form.append('token', token);
  form.append('file', new Blob([new Uint8Array(PNG_1PX)], { type: 'image/png' }), 'pic.png');
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { body: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type') ?? '' } };
}

const tamper = (token: string) => {
  const [body, mac] = token.split('.');
  return `${body}.${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BB' : 'AA'}`;
};

describe.each(backends)('key rotation (%s)', (backend) => {
  let s: TestServer;
  let leader: string;
  let operator: string;
  let expert: string;

  beforeAll(async () => {
    s = await startServer(backend);
    leader = await s.login('leader', 'leader123');
    operator = await s.login('operator', 'operator123');
    expert = await s.login('expert', 'expert123');
  });
  afterAll(async () => {
    await s?.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const upload = async (token: string) => {
    const f = await tokenForm(token);
    return (await s.call('POST', TOKEN_UPLOAD, { body: f.body, headers: f.headers })).body;
  };
  const site = (url: string) => s.app.inject({ method: 'GET', url });
  const activate = (token: string, cardNo: string, secret: string, name: string) =>
    call(s, token, 'POST', '/appv2/api/card/activate', { cardNo, secret, name, province: '山东', examYear: 2026 });

  it('rotating only the RSA keys (the default) leaves every other key byte-identical; an open console is told to refresh, its sign-in holds', async () => {
    const secretsBefore = snapshot(s.dataDir, SECRET_FILES);
    const pemsBefore = snapshot(s.dataDir, PEM_FILES);
    const oldRequestPem = s.app.keys.requestPublicPem;

    const r = await rotate(s.dataDir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('已轮换 RSA 密钥对');
    expect(r.stdout).toContain('请重启共用');
    await s.restart();

    expect(snapshot(s.dataDir, SECRET_FILES)).toEqual(secretsBefore);
    for (const name of SECRET_FILES) expect(retiredCopies(s.dataDir, name), name).toEqual([]);
    for (const name of PEM_FILES) {
      expect(read(s.dataDir, name).toString('hex'), name).not.toBe(pemsBefore[name]);
      const [copy, ...more] = retiredCopies(s.dataDir, name);
      expect(more, name).toEqual([]);
      expect(fs.readFileSync(copy).toString('hex'), name).toBe(pemsBefore[name]);
      expect(mode(copy), name).toBe(0o600);
    }

    // A console opened before the rotation still signs with the old public key: refused with the refresh message.
    const stale = await s.call('GET', '/dev-api/card/release/info', { token: leader, query: { storeId: 1 }, sign: false, headers: signTimer(oldRequestPem) });
    expect(stale.body).toEqual({ code: 40002, msg: '请求签名无效，请刷新页面后重试' });
    // Reloaded (new keys from /app-config.js), the same sign-in works: no new login.
    expect((await call(s, leader, 'GET', '/dev-api/card/release/info', { storeId: 1 })).code).toBe(200);
  });

  it('rotating card, upload and preview keys: issued cards still activate and download, new cards use the new key, issued tokens and links work until they expire', async () => {
    // Before: an issued batch not yet activated, an upload token, a preview link.
    const before = await releaseOk(s, leader, { storeId: 1, kind: 1, card_num: 3, vip_price: PRICE[1] });
    const oldRows = (await downloadBatch(s, leader, before.batchId)).rows;
    expect(oldRows).toHaveLength(3);
    const uploadToken = (await ok<[string]>(s, expert, 'GET', TOKEN))[0];
    const news = await call(s, operator, 'POST', '/dev-api/operation/news', { title: '轮换前的资讯草稿', category: '1', status: '0', content: '<p>草稿</p>' });
    const newsId = (news.data as { newsId: number }).newsId;
    const { token: previewToken, url: previewUrl } = await ok<{ token: string; url: string }>(s, operator, 'POST', '/dev-api/site/preview', {
      schema: 'content_news',
      id: newsId,
    });
    const old = snapshot(s.dataDir, SECRET_FILES);
    const pems = snapshot(s.dataDir, PEM_FILES);

    const r = await rotate(s.dataDir, '--only', 'card,upload,preview');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('已轮换卡密密钥（card.key）');
    await s.restart();
    const rotatedAt = Date.now();

    // The named keys are new, their old files kept byte for byte (0600); the others are untouched.
    for (const name of ['card.key', 'upload-token.key', 'preview-token.key']) {
      expect(read(s.dataDir, name).toString('hex'), name).not.toBe(old[name]);
      const copies = retiredCopies(s.dataDir, name);
      expect(copies, name).toHaveLength(1);
      expect(fs.readFileSync(copies[0]).toString('hex'), name).toBe(old[name]);
      expect(mode(copies[0]), name).toBe(0o600);
    }
    expect(read(s.dataDir, 'pay-sandbox.key').toString('hex')).toBe(old['pay-sandbox.key']);
    expect(snapshot(s.dataDir, PEM_FILES)).toEqual(pems);

    // The audited 下载 of the old batch still decrypts the same secrets; an old card activates with its secret.
    const again = await downloadBatch(s, leader, before.batchId);
    expect(again.rows.map((row) => [row.卡号, row.卡密])).toEqual(oldRows.map((row) => [row.卡号, row.卡密]));
    const fam = await appUser(s, 'rotation_family_one');
    expect(await activate(fam.token, oldRows[1].卡号, 'AAAAAAAAAAAA', '轮换错卡密')).toMatchObject({ code: 500, msg: '卡号或卡密错误' });
    expect(await activate(fam.token, oldRows[0].卡号, oldRows[0].卡密, '轮换旧卡')).toMatchObject({ code: 200, msg: '激活成功' });

    // A new batch is made with the new key only, and works end to end.
    const after = await releaseOk(s, leader, { storeId: 1, kind: 1, card_num: 2, vip_price: PRICE[1] });
    const newRows = (await downloadBatch(s, leader, after.batchId)).rows;
    const fam2 = await appUser(s, 'rotation_family_two');
    expect(await activate(fam2.token, newRows[0].卡号, newRows[0].卡密, '轮换新卡')).toMatchObject({ code: 200, msg: '激活成功' });
    const newKey = onlyKey(keyFile(s.dataDir, 'card.key'));
    const oldKey = onlyKey(retiredCopies(s.dataDir, 'card.key')[0]);
    const stored = async (cardNo: string) =>
      s.app.db.kysely.selectFrom('card').select(['secretHash', 'secretEnc']).where('cardNo', '=', Number(cardNo)).executeTakeFirstOrThrow();
    const newCard = await stored(newRows[1].卡号);
    expect(verifySecret(newKey, Number(newRows[1].卡号), newRows[1].卡密, newCard.secretHash)).toBe(true);
    expect(verifySecret(oldKey, Number(newRows[1].卡号), newRows[1].卡密, newCard.secretHash)).toBe(false);
    expect(() => decryptSecret(oldKey, Number(newRows[1].卡号), newCard.secretEnc)).toThrow(/无法解密/);
    const oldCard = await stored(oldRows[2].卡号);
    expect(verifySecret(oldKey, Number(oldRows[2].卡号), oldRows[2].卡密, oldCard.secretHash)).toBe(true);
    expect(verifySecret(newKey, Number(oldRows[2].卡号), oldRows[2].卡密, oldCard.secretHash)).toBe(false);

    // The upload token and the preview link issued before the rotation still work; altered, they do not.
    expect(await upload(uploadToken)).toMatchObject({ code: 200, msg: '上传成功' });
    expect(await upload(tamper(uploadToken))).toEqual(TOKEN_INVALID);
    const preview = await site(previewUrl);
    expect(preview.statusCode).toBe(200);
    expect(preview.body).toContain('轮换前的资讯草稿');
    expect((await site(`/site/news/${newsId}?preview=${tamper(previewToken)}`)).statusCode).toBe(403);
    const fresh = (await ok<[string]>(s, expert, 'GET', TOKEN))[0];
    expect(await upload(fresh)).toMatchObject({ code: 200 });

    // One token lifetime after the rotation the retired secrets sign nothing any more, even a token of a later
    // expiry (as someone holding a leaked old key would make); the current secrets still do.
    expect(UPLOAD_TOKEN_TTL_MS).toBe(PREVIEW_TTL_MS);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(rotatedAt + UPLOAD_TOKEN_TTL_MS + 1000);
    const expertId = (await s.app.db.kysely.selectFrom('sysUser').select('userId').where('userName', '=', 'expert').executeTakeFirstOrThrow()).userId;
    expect(await upload(signUploadToken(readSecretFile(retiredCopies(s.dataDir, 'upload-token.key')[0]), expertId).token)).toEqual(TOKEN_INVALID);
    expect(await upload(signUploadToken(readSecretFile(keyFile(s.dataDir, 'upload-token.key')), expertId).token)).toMatchObject({ code: 200 });
    const previewWith = (secret: Buffer) => {
      const body = Buffer.from(JSON.stringify({ p: 'preview', s: 'content_news', i: newsId, u: 1, e: Date.now() + 60_000 })).toString('base64url');
      return `/site/news/${newsId}?preview=${body}.${crypto.createHmac('sha256', secret).update(body).digest('base64url')}`;
    };
    expect((await site(previewWith(readSecretFile(retiredCopies(s.dataDir, 'preview-token.key')[0])))).statusCode).toBe(403);
    expect((await site(previewWith(readSecretFile(keyFile(s.dataDir, 'preview-token.key'))))).statusCode).toBe(200);
  });

  describe('after the earlier keys:rotate', () => {
    // A server of its own: this test moves the whole keys/ folder aside, as that version did.
    let t: TestServer;
    beforeAll(async () => {
      t = await startServer(backend);
    });
    afterAll(async () => {
      await t?.close();
    });

    // Two restarts and two runs of the command: on PostgreSQL and a busy machine that outlasts the default minute.
    it('an install broken by it (the whole keys/ folder moved aside) gets its issued cards back with --adopt-backups', { timeout: 180_000 }, async () => {
      const boss = await t.login('leader', 'leader123');
      const batch = await releaseOk(t, boss, { storeId: 1, kind: 1, card_num: 2, vip_price: PRICE[1] });
      const rows = (await downloadBatch(t, boss, batch.batchId)).rows;
      // What the earlier keys:rotate did: keys/ → keys.bak-<time>; the restart made a new card.key.
      const keys = path.join(t.dataDir, 'keys');
      fs.renameSync(keys, `${keys}.bak-${new Date().toISOString().replace(/[:.]/g, '-')}`);
      await t.restart();
      const fam = await appUser(t, 'adopt_family');
      const leader2 = await t.login('leader', 'leader123');
      expect(
        await call(t, fam.token, 'POST', '/appv2/api/card/activate', {
          cardNo: rows[0].卡号,
          secret: rows[0].卡密,
          name: '找回前',
          province: '山东',
          examYear: 2026,
        }),
      ).toMatchObject({
        code: 500,
        msg: '卡号或卡密错误',
      });
      // The 下载 says what is wrong before writing its audit, instead of a cut-off file.
      const refused = await downloadBatch(t, leader2, batch.batchId);
      expect(refused.body).toMatchObject({ code: 500, msg: expect.stringContaining('该批卡的卡密无法解密') });
      expect(
        (await t.app.db.kysely.selectFrom('cardBatch').select('downloadCount').where('batchId', '=', batch.batchId).executeTakeFirstOrThrow()).downloadCount,
      ).toBe(1);

      const hint = await rotate(t.dataDir, '--only', 'pay-sandbox');
      expect(hint.code, hint.stderr).toBe(0);
      expect(hint.stdout).toContain('npm run keys:rotate -- --adopt-backups');
      const r = await rotate(t.dataDir, '--adopt-backups');
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('已找回卡密密钥');
      expect(retiredCopies(t.dataDir, 'card.key')).toHaveLength(1);
      expect(mode(retiredCopies(t.dataDir, 'card.key')[0])).toBe(0o600);
      await t.restart();
      const leader3 = await t.login('leader', 'leader123');
      expect((await downloadBatch(t, leader3, batch.batchId)).rows.map((row) => row.卡密)).toEqual(rows.map((row) => row.卡密));
      expect(
        await call(t, fam.token, 'POST', '/appv2/api/card/activate', {
          cardNo: rows[0].卡号,
          secret: rows[0].卡密,
          name: '找回后',
          province: '山东',
          examYear: 2026,
        }),
      ).toMatchObject({
        code: 200,
        msg: '激活成功',
      });
    });
  });
});

describe('keys:rotate command line', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zy-rotate-cli-'));
    loadOrCreateKeys(dataDir);
  });
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const everything = () =>
    fs
      .readdirSync(path.join(dataDir, 'keys'), { recursive: true })
      .map(String)
      .sort()
      .map((f) => {
        const full = path.join(dataDir, 'keys', f);
        return [f, fs.statSync(full).isFile() ? fs.readFileSync(full).toString('hex') : 'dir'];
      });

  it('--help explains in Chinese and changes nothing; a wrong option is refused and changes nothing', async () => {
    const start = everything();
    const help = await rotate(dataDir, '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('用法：npm run keys:rotate');
    expect(help.stdout).toContain('--only 名称,名称');
    expect(everything()).toEqual(start);
    const wrong = await rotate(dataDir, '--only', 'card,cards');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('--only 中的“cards”不是可轮换的项');
    expect(everything()).toEqual(start);
  });

  it('a damaged key file stops the rotation before anything changes, and is never retired as a key', async () => {
    fs.writeFileSync(path.join(dataDir, 'keys', 'card.key'), 'not a key\n', { mode: 0o600 });
    const start = everything();
    const r = await rotate(dataDir, '--all');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('内容无效');
    expect(r.stderr).toContain('请从备份恢复该文件');
    expect(everything()).toEqual(start);
  });

  it('a partial RSA key set is refused at start instead of being overwritten', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zy-rotate-rsa-'));
    try {
      loadOrCreateKeys(dir);
      const kept = fs.readFileSync(path.join(dir, 'keys', 'request-private.pem'));
      fs.rmSync(path.join(dir, 'keys', 'response-public.pem'));
      expect(() => loadOrCreateKeys(dir)).toThrow(/RSA 密钥不完整（缺少 response-public\.pem）/);
      expect(fs.readFileSync(path.join(dir, 'keys', 'request-private.pem')).equals(kept)).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
