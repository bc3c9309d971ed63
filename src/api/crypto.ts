// Only the parts of crypto-js the protocol uses (AES-CBC, Base64, UTF-8), not the whole library: this file is part
// of the sign-in page's download. aes pulls in cipher-core, which adds lib.CipherParams, mode.CBC and pad.Pkcs7 to core.
import AES from 'crypto-js/aes';
import CryptoJS from 'crypto-js/core';
import Base64 from 'crypto-js/enc-base64';
import Utf8 from 'crypto-js/enc-utf8';
import { JSEncrypt } from 'jsencrypt';
import { inflate } from 'pako';
import { getAppConfig } from './appConfig';
import { unwrapWithSessionKey } from './sessionKey';

/**
 * The console's half of the encrypted API protocol (docs/protocol.md; server: server/security/protocol.ts).
 * Parsing a PEM key into a JSEncrypt object costs more than the RSA operation itself, so one instance is kept per key
 * and replaced only when the key text changes (tests, key rotation after reload).
 */
interface Cached {
  pem: string;
  rsa: JSEncrypt;
}

let encryptor: Cached | null = null;
let decryptor: Cached | null = null;

function publicRsa(pem: string): JSEncrypt {
  if (encryptor?.pem !== pem) {
    const rsa = new JSEncrypt();
    rsa.setPublicKey(pem);
    encryptor = { pem, rsa };
  }
  return encryptor.rsa;
}

function privateRsa(pem: string): JSEncrypt {
  if (decryptor?.pem !== pem) {
    const rsa = new JSEncrypt();
    rsa.setPrivateKey(pem);
    decryptor = { pem, rsa };
  }
  return decryptor.rsa;
}

/**
 * How far this machine's clock is from the server's, learnt from the Date header of answers. The server refuses a
 * Timer more than a minute ahead of its clock (a signature kept for later use), so a fast local clock is corrected
 * instead of locking its user out. The header has one-second resolution: offsets under 5 s are left alone.
 */
let serverOffsetMs = 0;

export function noteServerDate(dateHeader: unknown, localNow = Date.now()): void {
  if (typeof dateHeader !== 'string') return;
  const server = Date.parse(dateHeader);
  if (Number.isNaN(server)) return;
  const offset = server - localNow;
  serverOffsetMs = Math.abs(offset) < 5000 ? 0 : offset;
}

export interface Signature {
  Authentication: string;
  Timer: string;
}

/** Headers proving the request comes from a console holding the current request public key. Each is single-use. */
export function signTimestamp(now: number = Date.now() + serverOffsetMs): Signature {
  const timer = String(now);
  const authentication = publicRsa(getAppConfig().requestPublicKey).encrypt(timer);
  if (!authentication) throw new Error('请求签名失败：接口公钥无效，请刷新页面后重试');
  return { Authentication: authentication, Timer: timer };
}

/**
 * How long the console keeps using one signature for its reads. The server lets a read repeat a signature for 30 s
 * after its Timer (AUTH_READ_REUSE_MS, docs/protocol.md "Single use"); 10 s leaves room for a slow request and a
 * clock that drifts. Writes always get a fresh one.
 */
export const READ_SIGNATURE_MS = 10_000;
let readSigned: { signature: Signature; at: number; pem: string } | null = null;

/** The signature of a read: the one made in the last READ_SIGNATURE_MS for this key, or a new one. */
export function readSignature(now: number = Date.now() + serverOffsetMs): Signature {
  const pem = getAppConfig().requestPublicKey;
  if (readSigned && readSigned.pem === pem && now - readSigned.at >= 0 && now - readSigned.at < READ_SIGNATURE_MS) return readSigned.signature;
  const signature = signTimestamp(now);
  readSigned = { signature, at: now, pem };
  return signature;
}

/** Drops the kept read signature (the server refused it: the next read signs anew). */
export function forgetReadSignature(): void {
  readSigned = null;
}

/** crypto-js works on 32-bit words; pako needs the bytes. */
function wordArrayToBytes(words: CryptoJS.lib.WordArray): Uint8Array {
  const bytes = new Uint8Array(words.sigBytes);
  for (let i = 0; i < words.sigBytes; i++) bytes[i] = (words.words[i >>> 2] >>> (24 - (i % 4) * 8)) & 0xff;
  return bytes;
}

/** Session mode (docs/protocol.md): `s1.<RSA-OAEP wrapped key+iv>.<cipher>`, wrapped with this sign-in's own key. */
export const SESSION_MODE_PREFIX = 's1.';

/**
 * Decrypts the data of a code-20000 answer back into the plain value: `<wrapped>.<cipher>` (the spec's static key
 * pair) or `s1.<wrapped>.<cipher>` (the session's own key pair, sessionKey.ts).
 */
export async function decryptPayload(data: string): Promise<unknown> {
  if (data.startsWith(SESSION_MODE_PREFIX)) {
    const rest = data.slice(SESSION_MODE_PREFIX.length);
    const dot = rest.indexOf('.');
    if (dot <= 0 || dot === rest.length - 1) throw new Error('响应数据格式错误，无法解密');
    const keyIv = await unwrapWithSessionKey(rest.slice(0, dot));
    return openCipher(keyIv, rest.slice(dot + 1));
  }
  const dot = data.indexOf('.');
  if (dot <= 0 || dot === data.length - 1) throw new Error('响应数据格式错误，无法解密');
  const keyIv = privateRsa(getAppConfig().responsePrivateKey).decrypt(data.slice(0, dot));
  return openCipher(keyIv, data.slice(dot + 1));
}

/** AES-128-CBC with the unwrapped key + iv, then inflate and parse. */
function openCipher(keyIv: string | false | null, cipher: string): unknown {
  // A wrong key (rotated on the server since this page loaded) yields false or garbage rather than 32 characters.
  if (typeof keyIv !== 'string' || keyIv.length !== 32) throw new Error('响应数据解密失败，请刷新页面后重试');
  const key = Utf8.parse(keyIv.slice(0, 16));
  const iv = Utf8.parse(keyIv.slice(16));
  const cipherParams = CryptoJS.lib.CipherParams.create({ ciphertext: Base64.parse(cipher) });
  const deflated = AES.decrypt(cipherParams, key, { iv, mode: CryptoJS.mode.CBC, padding: CryptoJS.pad.Pkcs7 });
  let text: string;
  try {
    text = inflate(wordArrayToBytes(deflated), { toText: true });
  } catch {
    throw new Error('响应数据解密失败，请刷新页面后重试');
  }
  return JSON.parse(text);
}
