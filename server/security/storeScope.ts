import type { Kysely } from 'kysely';
import type { Database } from '../db/types.js';
import { fail } from '../http/envelope.js';

/**
 * The one place a caller's store scope is decided (issue 22). Every store-scoped query of customer, finance,
 * volunteer, service and home reads it through here (server/security/actor.ts `actorOf`), so no module guesses on its own.
 *
 *  - the super admin (role `admin`) sees every store;
 *  - staff of a store flagged as headquarters (cus_store.kind = 'hq') see every store: the flag, not store id 1,
 *    says so, so no account becomes headquarters by a default;
 *  - staff of another store see that store only;
 *  - an account with no store (sys_user.store_id null: self-registered, or staff not yet assigned) sees no
 *    store-scoped row and may not act for a store (`requireStore`).
 */
export interface StoreScope {
  storeId: number | null;
  allStores: boolean;
}

export const NO_STORE_MESSAGE = '账号未分配门店，请联系管理员';

/** A store id no row carries (store ids start at 1; 0 is the ledger's outside world): filters for "no store". */
export const NO_STORE_ROWS = -1;

export async function storeScopeOf(db: Kysely<Database>, auth: { userId: number; roles: string[] }): Promise<StoreScope & { nickName: string | null }> {
  const me = await db
    .selectFrom('sysUser as u')
    .leftJoin('cusStore as s', 's.storeId', 'u.storeId')
    .select(['u.storeId', 'u.nickName', 's.kind'])
    .where('u.userId', '=', auth.userId)
    .executeTakeFirst();
  // A user row that is gone, or a store that is gone, means no store: nothing is visible.
  const storeId = me?.storeId != null && me.kind != null ? Number(me.storeId) : null;
  const allStores = auth.roles.includes('admin') || (storeId != null && me?.kind === 'hq');
  return { storeId, allStores, nickName: me?.nickName ?? null };
}

/** The caller's own store, for acting on behalf of a store; an account without one is told to ask the admin. */
export function requireStore(scope: { storeId?: number | null }): number {
  if (scope.storeId == null) throw fail(NO_STORE_MESSAGE);
  return scope.storeId;
}

/**
 * Roles whose holders work for one store (机构负责人, 志愿专家: the volunteer module's leader/expert rules and the
 * seeded store staff): 用户管理 refuses such an account without a store (请选择所属门店).
 */
export const STORE_ROLE_KEYS = ['leader', 'expert'] as const;
