import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { keysDir, replaceDurably, retireFile } from './secretFiles.js';

/**
 * Two RSA key pairs, generated at first start into DATA_DIR/keys (never committed):
 *  - request pair: the console encrypts its Authentication timestamp with the public half; the server keeps the private half.
 *  - response pair: the server wraps AES keys with the public half; the console holds the private half to unwrap them.
 * Rotation: `npm run keys:rotate` (rotateRsaKeys: the old files are kept in keys/retired/) and restart every process;
 * consoles pick the new halves up on reload (until then their requests are refused with 40002 "请刷新页面后重试").
 */
export interface KeyMaterial {
  requestPrivate: crypto.KeyObject;
  requestPublicPem: string;
  responsePublic: crypto.KeyObject;
  responsePrivatePem: string;
  /** Short fingerprint so clients and logs can tell key generations apart. */
  fingerprint: string;
}

const FILES = {
  requestPrivate: 'request-private.pem',
  requestPublic: 'request-public.pem',
  responsePrivate: 'response-private.pem',
  responsePublic: 'response-public.pem',
} as const;

function generatePair(): { privatePem: string; publicPem: string } {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privatePem: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

export function generateKeys(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const req = generatePair();
  const res = generatePair();
  const write = (name: string, pem: string) => fs.writeFileSync(path.join(dir, name), pem, { mode: 0o600 });
  write(FILES.requestPrivate, req.privatePem);
  write(FILES.requestPublic, req.publicPem);
  write(FILES.responsePrivate, res.privatePem);
  write(FILES.responsePublic, res.publicPem);
}

/** SPKI bytes of a key's public half (a private key's derived one), to tell whether two files are one pair. */
const spki = (key: crypto.KeyObject | string) =>
  (typeof key !== 'string' && key.type === 'public' ? key : crypto.createPublicKey(key)).export({ type: 'spki', format: 'der' });

export function loadOrCreateKeys(dataDir: string): KeyMaterial {
  const dir = keysDir(dataDir);
  const missing = Object.values(FILES).filter((f) => !fs.existsSync(path.join(dir, f)));
  // First start: generate. Some files but not all: never overwrite the rest (that would discard key material).
  if (missing.length === Object.values(FILES).length) generateKeys(dir);
  else if (missing.length) {
    throw new Error(
      `DATA_DIR/keys 中的 RSA 密钥不完整（缺少 ${missing.join('、')}）。请从备份恢复缺少的文件；或运行 npm run keys:rotate -- --rsa 生成新的一套（现有文件会保存到 keys/retired/）`,
    );
  }
  const read = (name: string) => fs.readFileSync(path.join(dir, name), 'utf8');
  const requestPublicPem = read(FILES.requestPublic);
  const responsePrivatePem = read(FILES.responsePrivate);
  const requestPrivate = crypto.createPrivateKey(read(FILES.requestPrivate));
  const responsePublic = crypto.createPublicKey(read(FILES.responsePublic));
  // Halves of different generations (a folder copied in part) would refuse every console request: say so at start.
  if (!spki(requestPrivate).equals(spki(requestPublicPem)) || !spki(responsePrivatePem).equals(spki(responsePublic))) {
    throw new Error(
      'DATA_DIR/keys 中的 RSA 公钥与私钥不成对（可能只复制了部分文件）。请从同一份备份恢复全部 4 个 .pem 文件，或运行 npm run keys:rotate -- --rsa 生成新的一套',
    );
  }
  return {
    requestPrivate,
    requestPublicPem,
    responsePublic,
    responsePrivatePem,
    fingerprint: crypto.createHash('sha256').update(requestPublicPem).update(responsePrivatePem).digest('hex').slice(0, 12),
  };
}

/**
 * Replaces both pairs. The current files are first copied to keys/retired/<name>-<time>.pem (0600), then each file is
 * replaced atomically. Answers the retired copies and the new fingerprint.
 */
export function rotateRsaKeys(dataDir: string, now: number): { retired: string[]; fingerprint: string } {
  const dir = keysDir(dataDir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const retired = Object.values(FILES)
    .map((f) => path.join(dir, f))
    .filter((f) => fs.existsSync(f))
    .map((f) => retireFile(dataDir, f, now));
  const req = generatePair();
  const res = generatePair();
  replaceDurably(path.join(dir, FILES.requestPrivate), req.privatePem);
  replaceDurably(path.join(dir, FILES.requestPublic), req.publicPem);
  replaceDurably(path.join(dir, FILES.responsePrivate), res.privatePem);
  replaceDurably(path.join(dir, FILES.responsePublic), res.publicPem);
  return { retired, fingerprint: loadOrCreateKeys(dataDir).fingerprint };
}
