import crypto from 'node:crypto';
import { loadSecretRing, matchesAny, type SecretRing, tokenKeys } from '../security/secretFiles.js';

/**
 * Upload tokens (the Qiniu-style flow of spec §7.6: GET myqiniu/getQiniuUploadToken, then a form POST carrying the
 * token). A token is `<base64url payload>.<base64url HMAC-SHA256>`; the payload names the user and the expiry.
 * The HMAC secret is DATA_DIR/keys/upload-token.key (0600, generated at first start, never committed). After
 * `npm run keys:rotate -- --upload` new tokens use the new secret and tokens signed with the retired one keep working
 * for one token lifetime (server/security/secretFiles.ts tokenKeys), so no upload under way fails.
 */

export const UPLOAD_TOKEN_TTL_MS = 10 * 60 * 1000;

/** The upload-token keyring (current secret and the retired ones). */
export function loadOrCreateUploadSecret(dataDir: string): SecretRing {
  return loadSecretRing(dataDir, 'upload');
}

interface Payload {
  /** purpose */
  p: 'upload';
  /** user id */
  u: number;
  /** expires at (epoch ms) */
  e: number;
  /** nonce */
  n: string;
}

const mac = (secret: Buffer, data: string) => crypto.createHmac('sha256', secret).update(data).digest('base64url');

/** `keys`: the keyring, or one bare secret. */
export function signUploadToken(keys: SecretRing | Buffer, userId: number, now: number = Date.now()): { token: string; expiresAt: number } {
  const secret = Buffer.isBuffer(keys) ? keys : keys.current.secret;
  const payload: Payload = { p: 'upload', u: userId, e: now + UPLOAD_TOKEN_TTL_MS, n: crypto.randomBytes(9).toString('base64url') };
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return { token: `${body}.${mac(secret, body)}`, expiresAt: payload.e };
}

export type UploadTokenCheck = { ok: true; userId: number; expiresAt: number } | { ok: false; reason: 'missing' | 'invalid' | 'expired' };

export function verifyUploadToken(keys: SecretRing | Buffer, token: unknown, now: number = Date.now()): UploadTokenCheck {
  if (typeof token !== 'string' || token.trim() === '') return { ok: false, reason: 'missing' };
  const parts = token.trim().split('.');
  if (parts.length !== 2 || !/^[A-Za-z0-9_-]+$/.test(parts[0]) || !/^[A-Za-z0-9_-]+$/.test(parts[1])) return { ok: false, reason: 'invalid' };
  if (
    !matchesAny(
      parts[1],
      tokenKeys(keys, UPLOAD_TOKEN_TTL_MS, now).map((secret) => mac(secret, parts[0])),
    )
  )
    return { ok: false, reason: 'invalid' };
  let payload: Partial<Payload>;
  try {
    payload = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8')) as Partial<Payload>;
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (payload.p !== 'upload' || !Number.isSafeInteger(payload.u) || !Number.isFinite(payload.e)) return { ok: false, reason: 'invalid' };
  if (now >= (payload.e as number)) return { ok: false, reason: 'expired' };
  return { ok: true, userId: payload.u as number, expiresAt: payload.e as number };
}

/**
 * Qiniu's `hash` (etag) of a file: SHA-1 per 4 MB block; one block → 0x16 + its SHA-1, several → 0x96 + SHA-1 of the
 * block digests; URL-safe base64. Lets a Qiniu client compare the answer with its own computation.
 */
export function qiniuEtag(data: Buffer): string {
  const BLOCK = 4 * 1024 * 1024;
  const sha1 = (b: Buffer) => crypto.createHash('sha1').update(b).digest();
  const blocks: Buffer[] = [];
  for (let i = 0; i === 0 || i < data.length; i += BLOCK) blocks.push(sha1(data.subarray(i, i + BLOCK)));
  const digest = blocks.length === 1 ? Buffer.concat([Buffer.from([0x16]), blocks[0]]) : Buffer.concat([Buffer.from([0x96]), sha1(Buffer.concat(blocks))]);
  return digest.toString('base64url');
}
