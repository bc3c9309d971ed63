import crypto from 'node:crypto';
import { loadSecretRing, type SecretRing } from '../security/secretFiles.js';

/**
 * Card activation secrets. A secret is 12 characters from a 31-letter alphabet without look-alikes (≈ 59 bits,
 * crypto.randomInt). The database keeps two things: an HMAC-SHA256 of it (what activation checks) and an
 * AES-256-GCM ciphertext (what the audited 下载 of the batch decrypts for the releaser). Both keys derive from one
 * 32-byte secret in DATA_DIR/keys/card.key (0600, never committed), so a leaked database alone reveals no usable
 * secret. Servers sharing a database must share DATA_DIR/keys/ (as for the RSA keys).
 *
 * Rotation (issue 25): card.key is a keyring (server/security/secretFiles.ts): the current key makes new cards, the
 * retired ones in keys/retired/ still serve the cards they made. Each stored value names its key: `<key id>.<value>`,
 * so activation checks one key and the 下载 decrypts with the right one. Values stored before keyrings existed carry no
 * id: they are tried against every key of the ring (all candidates compared, each in constant time).
 */

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const SECRET_LENGTH = 12;

export interface CardKey {
  id: string;
  hmac: Buffer;
  enc: Buffer;
}

export interface CardKeys {
  /** Makes new cards. */
  current: CardKey;
  /** Every key cards may have been made with: the current one first, then the retired ones, newest first. */
  all: CardKey[];
}

export function cardKeyOf(master: Buffer, id: string): CardKey {
  const derive = (label: string) => crypto.createHmac('sha256', master).update(label).digest();
  return { id, hmac: derive('card-secret-hash'), enc: derive('card-secret-encrypt') };
}

export function cardKeysOf(ring: SecretRing): CardKeys {
  const current = cardKeyOf(ring.current.secret, ring.current.id);
  return { current, all: [current, ...ring.retired.map((k) => cardKeyOf(k.secret, k.id))] };
}

export function loadOrCreateCardKeys(dataDir: string): CardKeys {
  return cardKeysOf(loadSecretRing(dataDir, 'card'));
}

/** A stored value split into its key id (null: stored before keyrings) and the value proper. */
function split(stored: string): { id: string | null; value: string } {
  const dot = stored.indexOf('.');
  return dot < 0 ? { id: null, value: stored } : { id: stored.slice(0, dot), value: stored.slice(dot + 1) };
}

/** The keys a stored value may have been made with: the one it names, or (no id) all of them. */
function candidates(keys: CardKeys, id: string | null): CardKey[] {
  return id === null ? keys.all : keys.all.filter((k) => k.id === id);
}

export function newSecret(): string {
  let s = '';
  for (let i = 0; i < SECRET_LENGTH; i++) s += ALPHABET[crypto.randomInt(ALPHABET.length)];
  return s;
}

const mac = (key: CardKey, cardNo: number, secret: string) =>
  crypto.createHmac('sha256', key.hmac).update(`${cardNo}:${secret.toUpperCase()}`).digest('base64url');

/** Bound to the card number, so a hash copied onto another card does not verify. */
export function hashSecret(keys: CardKeys, cardNo: number, secret: string): string {
  return `${keys.current.id}.${mac(keys.current, cardNo, secret)}`;
}

export function verifySecret(keys: CardKeys, cardNo: number, secret: string, stored: string): boolean {
  const { id, value } = split(stored);
  const b = Buffer.from(value);
  let match = false;
  for (const key of candidates(keys, id)) {
    const a = Buffer.from(mac(key, cardNo, secret));
    if (a.length === b.length && crypto.timingSafeEqual(a, b)) match = true;
  }
  return match;
}

export function encryptSecret(keys: CardKeys, cardNo: number, secret: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', keys.current.enc, iv);
  cipher.setAAD(Buffer.from(String(cardNo)));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `${keys.current.id}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
}

export function decryptSecret(keys: CardKeys, cardNo: number, enc: string): string {
  const { id, value } = split(enc);
  const raw = Buffer.from(value, 'base64url');
  // GCM authenticates: a wrong key fails here rather than yielding a wrong secret.
  for (const key of candidates(keys, id)) {
    try {
      const decipher = crypto.createDecipheriv('aes-256-gcm', key.enc, raw.subarray(0, 12));
      decipher.setAAD(Buffer.from(String(cardNo)));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      // not this key
    }
  }
  throw new Error(
    `卡号 ${cardNo} 的卡密无法解密：${id ? `加密它的密钥（编号 ${id}）` : '加密它的密钥'}不在 DATA_DIR/keys/ 中。请把当时的 card.key 放回 DATA_DIR/keys/retired/（命名如 card-2025-01-01T00-00-00-000Z.key，权限 0600）后重启服务`,
  );
}

/**
 * The keys of this process's data folder, for code that makes cards outside a customer route (a paid online card
 * purchase, server/finance/orders.ts). Set when the customer routes start; one data folder per process.
 */
let current: CardKeys | undefined;
export function useCardKeys(keys: CardKeys): void {
  current = keys;
}
export function currentCardKeys(): CardKeys {
  if (!current) throw new Error('card keys are not loaded (customer routes not registered)');
  return current;
}
