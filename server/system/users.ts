import type { Kysely } from 'kysely';
import type { Database } from '../db/types.js';

export const MAX_PASSWORD_FAILURES = 5;
export const LOCK_MINUTES = 10;

/** Password sign-in: the account with that user name, else the one with that mobile number. */
export async function findActiveUserByLogin(db: Kysely<Database>, login: string) {
  const byName = await db.selectFrom('sysUser').selectAll().where('delFlag', '=', '0').where('userName', '=', login).executeTakeFirst();
  return byName ?? findActiveUserByMobile(db, login);
}

/** SMS sign-in: only the account the number is bound to (a user name that looks like a number must not match). */
export async function findActiveUserByMobile(db: Kysely<Database>, mobile: string) {
  return db.selectFrom('sysUser').selectAll().where('delFlag', '=', '0').where('mobile', '=', mobile).orderBy('userId').executeTakeFirst();
}

export async function recordLogin(
  db: Kysely<Database>,
  entry: { userName: string; status: '0' | '1'; msg: string; ipaddr: string | null; browser: string | null; os: string | null },
) {
  await db
    .insertInto('sysLogininfor')
    .values({ ...entry, loginTime: Date.now() })
    .execute();
}

/** Spec §5 rules for a new password; returns the first broken rule's message. */
export function checkNewPassword(pass: string | undefined, confirm: string | undefined): string | null {
  if (!pass) return '新密码不能为空';
  if (pass.length < 6 || pass.length > 20) return '长度在 6 到 20 个字符';
  if (!confirm) return '确认密码不能为空';
  if (pass !== confirm) return '两次输入的密码不一致';
  return null;
}
