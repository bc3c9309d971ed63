import crypto from 'node:crypto';
import zlib from 'node:zlib';
import type { KeyMaterial } from './keys.js';
import { rsaDecryptPkcs1, rsaEncryptPkcs1 } from './rsa.js';

/**
 * The encrypted API protocol (docs/protocol.md).
 *
 * Requests: header `Timer` = client clock in ms, header `Authentication` = base64 RSA(PKCS#1 v1.5) of that same
 * Timer text under the request public key. The server accepts it when it decrypts to exactly Timer and Timer is
 * within the configured window of the server clock.
 *
 * Responses (code 20000): `data` is the string `<wrapped>.<cipher>` where
 *  - wrapped = base64 RSA(PKCS#1 v1.5) of key(16 chars) + iv(16 chars) under the response public key,
 *  - cipher  = base64 AES-128-CBC(PKCS#7) of zlib-deflate(UTF-8 JSON of the plain data).
 */

export type AuthCheck = { ok: true } | { ok: false; code: number; msg: string };

export const AUTH_CODES = {
  missing: { code: 40001, msg: '请求缺少签名（Authentication/Timer），请刷新页面后重试' },
  tampered: { code: 40002, msg: '请求签名无效，请刷新页面后重试' },
  stale: { code: 40003, msg: '请求已过期，请校准本机时间后重试' },
} as const;

/** Remembers verified (Authentication, Timer) pairs so repeated headers cost a map lookup, not an RSA operation. */
class VerifiedCache {
  private map = new Map<string, number>();
  constructor(private readonly max = 5000) {}
  has(key: string): boolean {
    return this.map.has(key);
  }
  add(key: string, timer: number): void {
    if (this.map.size >= this.max) {
      const first = this.map.keys().next().value;
      if (first !== undefined) this.map.delete(first);
    }
    this.map.set(key, timer);
  }
}

export class Protocol {
  private cache = new VerifiedCache();
  constructor(
    private readonly keys: KeyMaterial,
    private readonly windowMs: number,
  ) {}

  verify(authentication: string | undefined, timer: string | undefined, now = Date.now()): AuthCheck {
    if (!authentication || !timer) return { ok: false, ...AUTH_CODES.missing };
    if (!/^\d{10,16}$/.test(timer)) return { ok: false, ...AUTH_CODES.tampered };
    const t = Number(timer);
    if (Math.abs(now - t) > this.windowMs) return { ok: false, ...AUTH_CODES.stale };
    const cacheKey = `${timer}|${authentication}`;
    if (this.cache.has(cacheKey)) return { ok: true };
    const plain = rsaDecryptPkcs1(this.keys.requestPrivate, authentication);
    if (plain !== timer) return { ok: false, ...AUTH_CODES.tampered };
    this.cache.add(cacheKey, t);
    return { ok: true };
  }

  encrypt(data: unknown): string {
    const key = crypto.randomBytes(12).toString('base64'); // 16 ASCII chars
    const iv = crypto.randomBytes(12).toString('base64');
    const wrapped = rsaEncryptPkcs1(this.keys.responsePublic, key + iv);
    const deflated = zlib.deflateSync(Buffer.from(JSON.stringify(data ?? null), 'utf8'));
    const cipher = crypto.createCipheriv('aes-128-cbc', Buffer.from(key, 'utf8'), Buffer.from(iv, 'utf8'));
    const body = Buffer.concat([cipher.update(deflated), cipher.final()]).toString('base64');
    return `${wrapped}.${body}`;
  }
}

/** Node-side helpers used by tests, the bench and the server's own tools: the client half of the protocol. */
export function signTimer(requestPublicPem: string, now = Date.now()): { Authentication: string; Timer: string } {
  const timer = String(now);
  const auth = crypto.publicEncrypt({ key: requestPublicPem, padding: crypto.constants.RSA_PKCS1_PADDING }, Buffer.from(timer));
  return { Authentication: auth.toString('base64'), Timer: timer };
}

export function decryptWithPem(responsePrivatePem: string, payload: string): unknown {
  const [wrapped, body] = payload.split('.');
  const keyIv = rsaDecryptPkcs1(crypto.createPrivateKey(responsePrivatePem), wrapped);
  if (keyIv?.length !== 32) throw new Error('无法解密响应密钥');
  const decipher = crypto.createDecipheriv('aes-128-cbc', Buffer.from(keyIv.slice(0, 16)), Buffer.from(keyIv.slice(16)));
  const deflated = Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]);
  return JSON.parse(zlib.inflateSync(deflated).toString('utf8'));
}
