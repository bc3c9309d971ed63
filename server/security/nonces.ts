import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/types.js';

/**
 * A short-lived seen-set in the database (sys_request_nonce, migration 009), so every server process sharing the
 * database agrees: a key can be claimed once until it expires. Used for single-use request signatures (`sig:`) and the
 * server's duplicate-submit window for writes (`dup:`).
 */
export class NonceStore {
  private lastPurge = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly purgeEveryMs = 60_000,
  ) {}

  /** True when the key was not seen before (and is now remembered until expiresAt); false for a repeat. */
  async claim(key: string, expiresAt: number, now = Date.now()): Promise<boolean> {
    const nonce = key.length > 80 ? `${key.slice(0, 4)}${digest(key)}` : key;
    const result = await this.db
      .insertInto('sysRequestNonce')
      .values({ nonce, expiresAt })
      // A remembered key whose time is up is free again, purged or not.
      .onConflict((oc) => oc.column('nonce').doUpdateSet({ expiresAt }).where('sysRequestNonce.expiresAt', '<', now))
      .executeTakeFirst();
    if (now - this.lastPurge > this.purgeEveryMs) {
      this.lastPurge = now;
      // Off the request path: a failed purge only leaves rows for the next one (or the scheduled purge job).
      void this.purge(now).catch(() => undefined);
    }
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  /** Forgets one key at once (a refused write may be sent again). */
  async release(key: string): Promise<void> {
    const nonce = key.length > 80 ? `${key.slice(0, 4)}${digest(key)}` : key;
    await this.db.deleteFrom('sysRequestNonce').where('nonce', '=', nonce).execute();
  }

  /** Forgets expired keys; returns how many. */
  async purge(now = Date.now()): Promise<number> {
    const r = await this.db.deleteFrom('sysRequestNonce').where('expiresAt', '<', now).executeTakeFirst();
    return Number(r.numDeletedRows ?? 0n);
  }
}

export const digest = (text: string) => crypto.createHash('sha256').update(text).digest('base64url');
