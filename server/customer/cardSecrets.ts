import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Card activation secrets. A secret is 12 characters from a 31-letter alphabet without look-alikes (≈ 59 bits,
 * crypto.randomInt). The database keeps two things: an HMAC-SHA256 of it (what activation checks) and an
 * AES-256-GCM ciphertext (what the audited 下载 of the batch decrypts for the releaser). Both keys derive from one
 * 32-byte secret generated into DATA_DIR/keys/card.key (0600, never committed), so a leaked database alone reveals
 * no usable secret. Servers sharing a database must share DATA_DIR/keys/ (as for the RSA keys).
 */

const KEY_FILE = 'card.key';
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const SECRET_LENGTH = 12;

export interface CardKeys {
  hmac: Buffer;
  enc: Buffer;
}

export function loadOrCreateCardKeys(dataDir: string): CardKeys {
  const dir = path.join(dataDir, 'keys');
  const file = path.join(dir, KEY_FILE);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    try {
      fs.writeFileSync(file, `${crypto.randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const hex = fs.readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-f]{64,}$/i.test(hex)) throw new Error(`${file} 内容无效（应为至少 64 位十六进制）；删除该文件后重启即可重新生成`);
  const master = Buffer.from(hex, 'hex');
  const derive = (label: string) => crypto.createHmac('sha256', master).update(label).digest();
  return { hmac: derive('card-secret-hash'), enc: derive('card-secret-encrypt') };
}

export function newSecret(): string {
  let s = '';
  for (let i = 0; i < SECRET_LENGTH; i++) s += ALPHABET[crypto.randomInt(ALPHABET.length)];
  return s;
}

/** Bound to the card number, so a hash copied onto another card does not verify. */
export function hashSecret(keys: CardKeys, cardNo: number, secret: string): string {
  return crypto.createHmac('sha256', keys.hmac).update(`${cardNo}:${secret.toUpperCase()}`).digest('base64url');
}

export function verifySecret(keys: CardKeys, cardNo: number, secret: string, stored: string): boolean {
  const a = Buffer.from(hashSecret(keys, cardNo, secret));
  const b = Buffer.from(stored);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

export function encryptSecret(keys: CardKeys, cardNo: number, secret: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', keys.enc, iv);
  cipher.setAAD(Buffer.from(String(cardNo)));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

export function decryptSecret(keys: CardKeys, cardNo: number, enc: string): string {
  const raw = Buffer.from(enc, 'base64url');
  const decipher = crypto.createDecipheriv('aes-256-gcm', keys.enc, raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(String(cardNo)));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
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
