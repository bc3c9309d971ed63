import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, SessionTable } from '../db/types.js';

/**
 * Server-side sessions: the client holds a random token, the database holds only its SHA-256. Requests find their
 * session through a short-lived cache (server/cache/auth.ts); any update of sys_session — a revocation here, or by
 * user id elsewhere — is announced to it by the write watch, so every process refuses the token from its next request.
 */
export const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

export interface ClientInfo {
  ipaddr: string | null;
  browser: string | null;
  os: string | null;
}

export function describeClient(ip: string | undefined, userAgent: string | undefined): ClientInfo {
  const ua = userAgent ?? '';
  const browser =
    /Edg\/([\d]+)/.exec(ua)?.[0].replace('Edg/', 'Edge ') ??
    /Chrome\/([\d]+)/.exec(ua)?.[0].replace('/', ' ') ??
    /Firefox\/([\d]+)/.exec(ua)?.[0].replace('/', ' ') ??
    (/Safari\//.test(ua) ? 'Safari' : ua ? 'Unknown' : null);
  const os = /Windows NT/.test(ua)
    ? 'Windows'
    : /Mac OS X/.test(ua)
      ? 'Mac OS X'
      : /Android/.test(ua)
        ? 'Android'
        : /iPhone|iPad/.test(ua)
          ? 'iOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : ua
              ? 'Unknown'
              : null;
  return { ipaddr: ip ?? null, browser, os };
}

export async function createSession(
  db: Kysely<Database>,
  user: { userId: number; userName: string },
  client: ClientInfo,
  ttlMs: number,
  now = Date.now(),
  clientKey: string | null = null,
): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url');
  await db
    .insertInto('sysSession')
    .values({
      tokenHash: hashToken(token),
      userId: user.userId,
      userName: user.userName,
      ...client,
      loginTime: now,
      expireTime: now + ttlMs,
      revoked: 0,
      clientKey,
    })
    .execute();
  return token;
}

export type SessionLookup = { ok: true; session: SessionTable } | { ok: false; reason: 'unknown' | 'revoked' | 'expired' };

export async function findSession(db: Kysely<Database>, token: string, now = Date.now()): Promise<SessionLookup> {
  const session = await db.selectFrom('sysSession').selectAll().where('tokenHash', '=', hashToken(token)).executeTakeFirst();
  if (!session) return { ok: false, reason: 'unknown' };
  if (session.revoked) return { ok: false, reason: 'revoked' };
  if (session.expireTime <= now) return { ok: false, reason: 'expired' };
  return { ok: true, session };
}

export async function revokeSession(db: Kysely<Database>, tokenHash: string): Promise<void> {
  await db.updateTable('sysSession').set({ revoked: 1 }).where('tokenHash', '=', tokenHash).execute();
}

export async function revokeUserSessions(db: Kysely<Database>, userId: number, exceptTokenHash?: string): Promise<void> {
  let q = db.updateTable('sysSession').set({ revoked: 1 }).where('userId', '=', userId).where('revoked', '=', 0);
  if (exceptTokenHash) q = q.where('tokenHash', '!=', exceptTokenHash);
  await q.execute();
}
