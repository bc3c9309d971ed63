import type { Kysely } from 'kysely';
import type { Database } from '../db/types.js';

/**
 * Password attempts, counted in sys_login_attempt (migration 009) and reserved *before* a password is checked:
 * one conditional UPDATE takes an attempt only while fewer than the limit are taken, so 60 parallel guesses check at
 * most `limit` passwords (a read-then-write counter lets them all through).
 *
 * Two counters per attempt:
 *  - the account from one client address (`pair:`), limit 5 — what a user sees as "locked";
 *  - the account from anywhere (`account:`), a wider limit — so guessing from many addresses is bounded too.
 * Neither blocks SMS sign-in, so nobody can lock an account out from outside. Unknown accounts are counted and
 * answered exactly like known ones, so the answers do not tell whether an account exists.
 */

export interface AttemptPolicy {
  limit: number;
  lockMs: number;
}

export const PAIR_POLICY: AttemptPolicy = { limit: 5, lockMs: 10 * 60 * 1000 };
export const ACCOUNT_POLICY: AttemptPolicy = { limit: 50, lockMs: 10 * 60 * 1000 };
/** The old password asked by 修改密码 (savePass): 5 wrong ones lock the change for 10 minutes. */
export const OLD_PASSWORD_POLICY: AttemptPolicy = { limit: 5, lockMs: 10 * 60 * 1000 };

export type Reservation = { ok: true; used: number } | { ok: false; lockUntil: number };

export const pairKey = (account: string, ip: string | null | undefined) => `pair:${account}|${ip ?? '-'}`;
export const accountKey = (account: string) => `account:${account}`;
export const oldPasswordKey = (userId: number) => `oldpass:u${userId}`;

export async function reserveAttempt(db: Kysely<Database>, key: string, policy: AttemptPolicy, now = Date.now()): Promise<Reservation> {
  await db
    .insertInto('sysLoginAttempt')
    .values({ attemptKey: key, failCount: 0, lockUntil: null, updateTime: now })
    .onConflict((oc) => oc.column('attemptKey').doNothing())
    .execute();
  // A lock that has run out starts the count again.
  await db
    .updateTable('sysLoginAttempt')
    .set({ failCount: 0, lockUntil: null, updateTime: now })
    .where('attemptKey', '=', key)
    .where('lockUntil', '<=', now)
    .execute();
  const taken = await db
    .updateTable('sysLoginAttempt')
    .set((eb) => ({ failCount: eb('failCount', '+', 1), updateTime: now }))
    .where('attemptKey', '=', key)
    .where('failCount', '<', policy.limit)
    .where('lockUntil', 'is', null)
    .returning('failCount')
    .executeTakeFirst();
  if (taken) return { ok: true, used: Number(taken.failCount) };
  const row = await db.selectFrom('sysLoginAttempt').select('lockUntil').where('attemptKey', '=', key).executeTakeFirst();
  // Every attempt is taken by requests still being checked: as good as locked for the full time.
  return { ok: false, lockUntil: Number(row?.lockUntil ?? now + policy.lockMs) };
}

/** After a wrong password: the reservation stays counted; reaching the limit starts the lock. */
export async function lockIfExhausted(db: Kysely<Database>, key: string, used: number, policy: AttemptPolicy, now = Date.now()): Promise<boolean> {
  if (used < policy.limit) return false;
  await db
    .updateTable('sysLoginAttempt')
    .set({ lockUntil: now + policy.lockMs, updateTime: now })
    .where('attemptKey', '=', key)
    .execute();
  return true;
}

/** After a right password (or an administrator's unlock): the counters start from zero. */
export async function clearAttempts(db: Kysely<Database>, keys: string[]): Promise<void> {
  if (keys.length) await db.deleteFrom('sysLoginAttempt').where('attemptKey', 'in', keys).execute();
}
