import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The 32-byte secrets in DATA_DIR/keys (issue 25): card.key (card secrets), upload-token.key (upload tokens),
 * preview-token.key (draft preview links), pay-sandbox.key (sandbox payment notices). Each file holds one key as hex,
 * mode 0600, generated at first start; every process sharing DATA_DIR reads the same files when it starts.
 *
 * Rotation (`npm run keys:rotate`, server/cli/rotate-keys.ts) never deletes a key: it copies the current file to
 * keys/retired/<name>-<time>.key (0600) and then replaces the current one. The current key plus the retired ones form
 * a keyring, so what was made with an old key stays usable: card secrets for ever (a card may wait years for its
 * activation, and the batch 下载 decrypts every card of a batch), tokens for one lifetime after the rotation.
 */

export const SECRETS = {
  card: { file: 'card.key', label: '卡密密钥', effect: '新卡使用新密钥；已发出的卡仍按原密钥激活和下载' },
  upload: { file: 'upload-token.key', label: '上传凭证密钥', effect: '已发出的上传凭证在有效期（10 分钟）内仍可使用' },
  preview: { file: 'preview-token.key', label: '草稿预览链接密钥', effect: '已发出的预览链接在有效期（10 分钟）内仍可打开' },
  'pay-sandbox': { file: 'pay-sandbox.key', label: '模拟支付签名密钥', effect: '重启后模拟支付通知使用新密钥签名' },
} as const;
export type SecretName = keyof typeof SECRETS;

export interface SecretKey {
  /** A short public name of the key (8 hex digits of a hash of it): stored with what the key made, shown in messages. */
  id: string;
  secret: Buffer;
  /** When it was retired (epoch ms); undefined for the current key. */
  retiredAt?: number;
  file: string;
}

export interface SecretRing {
  current: SecretKey;
  /** Retired keys, newest first. */
  retired: SecretKey[];
}

export const keysDir = (dataDir: string) => path.join(dataDir, 'keys');
export const retiredDir = (dataDir: string) => path.join(keysDir(dataDir), 'retired');

/** A time in a file name: 2025-06-01T10-20-30-123Z (the spelling the earlier keys.bak-<time> folders used too). */
export const fileStamp = (ms: number) => new Date(ms).toISOString().replace(/[:.]/g, '-');
const STAMP = '(\\d{4}-\\d{2}-\\d{2})T(\\d{2})-(\\d{2})-(\\d{2})-(\\d{3})Z';

export function parseFileStamp(text: string): number | null {
  const m = new RegExp(`^${STAMP}$`).exec(text);
  if (!m) return null;
  const t = Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`);
  return Number.isFinite(t) ? t : null;
}

export function keyId(secret: Buffer): string {
  return crypto.createHash('sha256').update('zy-key-id\0').update(secret).digest('hex').slice(0, 8);
}

/** The key in a secret file; a clear message (what to do, and never "delete it") when the file is not one. */
export function readSecretFile(file: string): Buffer {
  const hex = fs.readFileSync(file, 'utf8').trim();
  if (!/^(?:[0-9a-f]{2}){32,}$/i.test(hex)) {
    throw new Error(
      `密钥文件 ${file} 内容无效（应为至少 64 位十六进制）。请从备份恢复该文件；确认无法恢复时，先把它改名保存（如加后缀 .damaged），再重启服务生成新密钥`,
    );
  }
  return Buffer.from(hex, 'hex');
}

/** Writes a file and flushes it to disk before returning: key material must not be lost to a power cut mid-rotation. */
export function writeDurably(file: string, data: string | Buffer, flag: 'wx' | 'w' = 'wx'): void {
  const fd = fs.openSync(file, flag, 0o600);
  try {
    fs.writeSync(fd, typeof data === 'string' ? Buffer.from(data) : data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.chmodSync(file, 0o600); // the umask could only have narrowed it, but an existing 'w' target keeps its old mode
}

function syncDir(dir: string): void {
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // Some platforms cannot open a directory for fsync; the rename itself is still atomic.
  }
}

/**
 * Replaces `file` atomically (write a temporary file, flush, rename over): a process starting meanwhile reads the old
 * key or the new one, never a missing or half-written file.
 */
export function replaceDurably(file: string, data: string | Buffer): void {
  const tmp = `${file}.tmp-${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  writeDurably(tmp, data);
  fs.renameSync(tmp, file);
  syncDir(path.dirname(file));
}

/** Copies a key file, byte for byte, to keys/retired/<base>-<time><ext> (0600); answers the copy's path. */
export function retireFile(dataDir: string, file: string, now: number): string {
  const dir = retiredDir(dataDir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const ext = path.extname(file);
  const target = path.join(dir, `${path.basename(file, ext)}-${fileStamp(now)}${ext}`);
  writeDurably(target, fs.readFileSync(file)); // 'wx': an existing retired file is never overwritten
  syncDir(dir);
  return target;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The retired copies of one key file, newest first. */
export function retiredFiles(dataDir: string, fileName: string): Array<{ file: string; retiredAt: number }> {
  const dir = retiredDir(dataDir);
  if (!fs.existsSync(dir)) return [];
  const ext = path.extname(fileName);
  const pattern = new RegExp(`^${escapeRegExp(path.basename(fileName, ext))}-(${STAMP.replace(/\(/g, '(?:')})${escapeRegExp(ext)}$`);
  const found: Array<{ file: string; retiredAt: number }> = [];
  for (const entry of fs.readdirSync(dir)) {
    const m = pattern.exec(entry);
    const retiredAt = m ? parseFileStamp(m[1]) : null;
    if (retiredAt != null) found.push({ file: path.join(dir, entry), retiredAt });
  }
  return found.sort((a, b) => b.retiredAt - a.retiredAt);
}

/** The current secret of `name`, generated on first use (several processes starting together agree on one). */
function currentKeyFile(dataDir: string, name: SecretName): string {
  const dir = keysDir(dataDir);
  const file = path.join(dir, SECRETS[name].file);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    try {
      fs.writeFileSync(file, `${crypto.randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process sharing DATA_DIR wrote it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return file;
}

/** The keyring of one secret: the current key and every retired one (a key retired twice counts once). */
export function loadSecretRing(dataDir: string, name: SecretName): SecretRing {
  const file = currentKeyFile(dataDir, name);
  const secret = readSecretFile(file);
  const current: SecretKey = { id: keyId(secret), secret, file };
  const seen = new Map<string, Buffer>([[current.id, secret]]);
  const retired: SecretKey[] = [];
  for (const old of retiredFiles(dataDir, SECRETS[name].file)) {
    const key = readSecretFile(old.file);
    const id = keyId(key);
    const known = seen.get(id);
    if (known) {
      // Two different keys with one id would make stored key ids ambiguous; 32 bits make it practically impossible.
      if (!known.equals(key)) throw new Error(`密钥文件 ${old.file} 与另一把密钥的编号 ${id} 相同，请运行 npm run keys:rotate -- --only ${name} 换一把新密钥`);
      continue;
    }
    seen.set(id, key);
    retired.push({ id, secret: key, retiredAt: old.retiredAt, file: old.file });
  }
  return { current, retired };
}

/** Only the current key (for a secret nothing outlives: the sandbox's notices are signed and checked at once). */
export function loadOrCreateSecret(dataDir: string, name: SecretName): Buffer {
  return readSecretFile(currentKeyFile(dataDir, name));
}

/**
 * The keys a token may be signed with at `now`: the current one, and a retired one for one token lifetime after its
 * retirement, so tokens issued just before a rotation keep working until they expire. A retired key is no use after
 * that (even to someone who stole it and signs tokens of a later expiry).
 */
export function tokenKeys(ring: SecretRing | Buffer, ttlMs: number, now: number): Buffer[] {
  if (Buffer.isBuffer(ring)) return [ring];
  return [ring.current.secret, ...ring.retired.filter((k) => now < (k.retiredAt as number) + ttlMs).map((k) => k.secret)];
}

/** Whether `given` equals one of the expected MACs; compares every candidate (no early exit), each in constant time. */
export function matchesAny(given: string, expected: string[]): boolean {
  const a = Buffer.from(given);
  let match = false;
  for (const e of expected) {
    const b = Buffer.from(e);
    if (a.length === b.length && crypto.timingSafeEqual(a, b)) match = true;
  }
  return match;
}

/** Rotates one secret: the current file is retired (kept), a new key takes its place. */
export function rotateSecret(dataDir: string, name: SecretName, now: number): { retired: string | null; id: string } {
  const dir = keysDir(dataDir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, SECRETS[name].file);
  // A damaged current file stops here, before anything changes: a rotation must not bury it as a retired "key".
  let retired: string | null = null;
  if (fs.existsSync(file)) {
    readSecretFile(file);
    retired = retireFile(dataDir, file, now);
  }
  const fresh = crypto.randomBytes(32);
  replaceDurably(file, `${fresh.toString('hex')}\n`);
  return { retired, id: keyId(fresh) };
}
