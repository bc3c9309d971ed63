import CryptoJS from 'crypto-js';
import { JSEncrypt } from 'jsencrypt';
import { inflate } from 'pako';
import { getAppConfig } from './appConfig';

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

/** Headers proving the request comes from a console holding the current request public key. */
export function signTimestamp(now: number = Date.now()): { Authentication: string; Timer: string } {
  const timer = String(now);
  const authentication = publicRsa(getAppConfig().requestPublicKey).encrypt(timer);
  if (!authentication) throw new Error('请求签名失败：接口公钥无效，请刷新页面后重试');
  return { Authentication: authentication, Timer: timer };
}

/** crypto-js works on 32-bit words; pako needs the bytes. */
function wordArrayToBytes(words: CryptoJS.lib.WordArray): Uint8Array {
  const bytes = new Uint8Array(words.sigBytes);
  for (let i = 0; i < words.sigBytes; i++) bytes[i] = (words.words[i >>> 2] >>> (24 - (i % 4) * 8)) & 0xff;
  return bytes;
}

/** Decrypts the `<wrapped>.<cipher>` data of a code-20000 answer back into the plain value. */
export function decryptPayload(data: string): unknown {
  const dot = data.indexOf('.');
  if (dot <= 0 || dot === data.length - 1) throw new Error('响应数据格式错误，无法解密');
  const keyIv = privateRsa(getAppConfig().responsePrivateKey).decrypt(data.slice(0, dot));
  // A wrong key (rotated on the server since this page loaded) yields false or garbage rather than 32 characters.
  if (typeof keyIv !== 'string' || keyIv.length !== 32) throw new Error('响应数据解密失败，请刷新页面后重试');
  const key = CryptoJS.enc.Utf8.parse(keyIv.slice(0, 16));
  const iv = CryptoJS.enc.Utf8.parse(keyIv.slice(16));
  const cipherParams = CryptoJS.lib.CipherParams.create({ ciphertext: CryptoJS.enc.Base64.parse(data.slice(dot + 1)) });
  const deflated = CryptoJS.AES.decrypt(cipherParams, key, { iv, mode: CryptoJS.mode.CBC, padding: CryptoJS.pad.Pkcs7 });
  let text: string;
  try {
    text = inflate(wordArrayToBytes(deflated), { toText: true });
  } catch {
    throw new Error('响应数据解密失败，请刷新页面后重试');
  }
  return JSON.parse(text);
}
