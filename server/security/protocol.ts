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

/**
 * ok: the signature is genuine and fresh; known: this process verified the same pair before (no RSA this time);
 * signature: its one canonical spelling, the key of its single use (the nonce is `sig:` + this, never the raw header).
 */
export type AuthCheck = { ok: true; known: boolean; signature: string } | { ok: false; code: number; msg: string };

/** How many verified signatures a process remembers (≈ 0.5 KB each); the oldest go first. */
const VERIFIED_LIMIT = 4096;

export const AUTH_CODES = {
  missing: { code: 40001, msg: '请求缺少签名（Authentication/Timer），请刷新页面后重试' },
  tampered: { code: 40002, msg: '请求签名无效，请刷新页面后重试' },
  stale: { code: 40003, msg: '请求已过期，请校准本机时间后重试' },
  replayed: { code: 40004, msg: '请求已被处理过（重复的签名），请刷新页面后重试' },
} as const;

export class Protocol {
  constructor(
    private readonly keys: KeyMaterial,
    /** How old a Timer may be. */
    private readonly windowMs: number,
    /** How far ahead of the server clock a Timer may be (a fast client clock); beyond it a signature made now could be
     *  kept and replayed later, after its nonce has been purged. */
    private readonly futureSkewMs: number = 60_000,
    /** How long after its Timer a read may send an already used signature again (AUTH_READ_REUSE_MS; 0 = never). */
    private readonly readReuseMs: number = 30_000,
  ) {}

  /** Signatures this process has verified (canonical spelling), with their Timer: a repeat costs a map lookup, not an RSA decrypt. */
  private readonly verified = new Map<string, string>();

  /** Bytes of the request key's modulus: the length of every RSA ciphertext under it. */
  private get modulusBytes(): number {
    return Math.ceil((this.keys.requestPrivate.asymmetricKeyDetails?.modulusLength ?? 2048) / 8);
  }

  /** How long a seen signature must be remembered: until its Timer has left the window. */
  nonceExpiry(timer: string): number {
    return Number(timer) + this.windowMs + 1000;
  }

  /**
   * Checks a signature's form, age and RSA content. A pair verified before is recognised from memory (`known`), so its
   * RSA decrypt runs once per process: whether a repeat may pass is the gate's decision (mayReuse, docs/protocol.md
   * "Single use"), which also claims every new signature in the nonce store.
   */
  verify(authentication: string | undefined, timer: string | undefined, now = Date.now()): AuthCheck {
    if (!authentication || !timer) return { ok: false, ...AUTH_CODES.missing };
    if (!/^\d{10,16}$/.test(timer) || authentication.length > 1024) return { ok: false, ...AUTH_CODES.tampered };
    const t = Number(timer);
    if (now - t > this.windowMs || t - now > this.futureSkewMs) return { ok: false, ...AUTH_CODES.stale };
    // One signature, one spelling: base64 decoding forgives padding, whitespace, the URL-safe alphabet and trailing
    // text, so keyed by the raw header one signature could be used once per spelling (issue 22: 9 students from one).
    const signature = canonicalSignature(authentication, this.modulusBytes);
    if (!signature) return { ok: false, ...AUTH_CODES.tampered };
    if (this.verified.get(signature) === timer) return { ok: true, known: true, signature };
    const plain = rsaDecryptPkcs1(this.keys.requestPrivate, signature);
    if (plain !== timer) return { ok: false, ...AUTH_CODES.tampered };
    if (this.verified.size >= VERIFIED_LIMIT) this.verified.delete(this.verified.keys().next().value as string);
    this.verified.set(signature, timer);
    return { ok: true, known: false, signature };
  }

  /**
   * Whether a read may carry a signature that was already used: only while its Timer is at most readReuseMs old.
   * Writes never may (every write's signature is single-use). The console signs its reads once per 10 s
   * (src/api/crypto.ts), so a list request costs no RSA decrypt and no nonce claim most of the time.
   */
  mayReuse(timer: string, now = Date.now()): boolean {
    return this.readReuseMs > 0 && now - Number(timer) <= this.readReuseMs;
  }

  /**
   * Session mode (docs/protocol.md): `s1.` + RSA-OAEP(SHA-256) of key + iv under the signed-in console's own public
   * key (sent at sign-in) + `.` + the same AES body. Only that browser's non-extractable private key opens it.
   */
  encryptForSession(clientKeySpkiBase64: string, data: unknown): string {
    const key = crypto.randomBytes(12).toString('base64');
    const iv = crypto.randomBytes(12).toString('base64');
    const wrapped = crypto.publicEncrypt(
      { key: sessionPublicKey(clientKeySpkiBase64), padding: crypto.constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(key + iv, 'utf8'),
    );
    return `s1.${wrapped.toString('base64')}.${aesBody(key, iv, data)}`;
  }

  encrypt(data: unknown): string {
    const key = crypto.randomBytes(12).toString('base64'); // 16 ASCII chars
    const iv = crypto.randomBytes(12).toString('base64');
    const wrapped = rsaEncryptPkcs1(this.keys.responsePublic, key + iv);
    return `${wrapped}.${aesBody(key, iv, data)}`;
  }
}

/**
 * The one spelling of an RSA ciphertext: strict standard base64 (alphabet A–Z a–z 0–9 + /, padded to a multiple of 4,
 * unused bits zero, nothing else), so anything else is refused before any RSA work; and the ciphertext at the key's full
 * length, left-padded with zero bytes, since a ciphertext is a number below the modulus and a client may drop its
 * leading zero bytes (the same number, the same signature, one use). null: not a signature.
 */
export function canonicalSignature(text: string, modulusBytes: number): string | null {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return null;
  const bytes = Buffer.from(text, 'base64');
  if (bytes.toString('base64') !== text || bytes.length > modulusBytes) return null;
  if (bytes.length === modulusBytes) return text;
  return Buffer.concat([Buffer.alloc(modulusBytes - bytes.length), bytes]).toString('base64');
}

/** base64 AES-128-CBC(PKCS#7) of zlib-deflate(UTF-8 JSON): the body both modes share. */
function aesBody(key: string, iv: string, data: unknown): string {
  const deflated = zlib.deflateSync(Buffer.from(JSON.stringify(data ?? null), 'utf8'));
  const cipher = crypto.createCipheriv('aes-128-cbc', Buffer.from(key, 'utf8'), Buffer.from(iv, 'utf8'));
  return Buffer.concat([cipher.update(deflated), cipher.final()]).toString('base64');
}

/** Parsed session public keys, by their text (a session's key is parsed once, not on every answer). */
const sessionKeys = new Map<string, crypto.KeyObject>();

function sessionPublicKey(spkiBase64: string): crypto.KeyObject {
  let key = sessionKeys.get(spkiBase64);
  if (!key) {
    key = crypto.createPublicKey({ key: Buffer.from(spkiBase64, 'base64'), format: 'der', type: 'spki' });
    if (sessionKeys.size >= 1000) sessionKeys.delete(sessionKeys.keys().next().value as string);
    sessionKeys.set(spkiBase64, key);
  }
  return key;
}

/** A console's session key as sent at sign-in: an RSA public key of 2048 bits or more, SPKI base64; else null. */
export function parseClientKey(value: unknown): string | null {
  if (typeof value !== 'string' || value.length < 300 || value.length > 1500 || !/^[A-Za-z0-9+/]+=*$/.test(value)) return null;
  try {
    const key = sessionPublicKey(value);
    const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
    return key.asymmetricKeyType === 'rsa' && bits >= 2048 && bits <= 4096 ? value : null;
  } catch {
    return null;
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
