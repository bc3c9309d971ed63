import crypto from 'node:crypto';
import { CST_OFFSET_MS } from '../engine/model.js';
import { UnsafeKeyError } from './types.js';

/**
 * Storage keys: `<folder>/<yyyy>/<mm>/<dd>/<32 hex>.<ext>` (date in China time). The client's file name never takes
 * part: the folder is chosen by the route, the name is random and the extension is the one the content was sniffed as.
 */

/** One path segment: starts with a letter or digit, then letters, digits, '_' or '-', then optional '.ext' parts. */
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9]+)*$/;
const MAX_KEY_LENGTH = 512;

/** True for keys made only of safe segments: no '..', no leading '/', no backslash, no '%', no empty segment. */
export function isSafeKey(key: string): boolean {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH) return false;
  return key.split('/').every((segment) => SEGMENT.test(segment));
}

export function assertSafeKey(key: string): void {
  if (!isSafeKey(key)) throw new UnsafeKeyError(key);
}

export function newObjectKey(folder: string, ext: string, now: number = Date.now()): string {
  if (!/^[A-Za-z0-9]{1,10}$/.test(ext)) throw new UnsafeKeyError(`${folder}/*.${ext}`);
  const d = new Date(now + CST_OFFSET_MS);
  const date = [String(d.getUTCFullYear()), String(d.getUTCMonth() + 1).padStart(2, '0'), String(d.getUTCDate()).padStart(2, '0')];
  const key = [folder, ...date, `${crypto.randomBytes(16).toString('hex')}.${ext.toLowerCase()}`].join('/');
  assertSafeKey(key);
  return key;
}

/** The last segment of a key (RuoYi's newFileName). */
export const keyBaseName = (key: string) => key.slice(key.lastIndexOf('/') + 1);
