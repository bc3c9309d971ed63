import type { Db } from '../db/types.js';
import type { AuthContext } from '../http/context.js';
import { ApiError, Code, fail } from '../http/envelope.js';
import { NO_STORE_MESSAGE, storeScopeOf } from './storeScope.js';

// Who acts on a store's rows, for every module's routes: the signed-in user with their store scope. Infrastructure,
// so a module asks it here rather than in another module.

/** Who acts: user, display name, roles and the store they belong to. */
export interface Actor {
  userId: number;
  userName: string;
  roles: string[];
  /** null: the account has no store (sees no store's rows, may not act for a store). */
  storeId: number | null;
  /** Staff of a headquarters store and the super admin see every store (server/security/storeScope.ts). */
  allStores: boolean;
}

export async function actorOf(db: Db, auth: AuthContext | null | undefined): Promise<Actor> {
  if (!auth) throw new ApiError(Code.UNAUTHORIZED, '未登录或登录已过期，请先登录');
  const scope = await storeScopeOf(db, auth);
  return { userId: auth.userId, userName: scope.nickName || auth.userName, roles: auth.roles, storeId: scope.storeId, allStores: scope.allStores };
}

/** Refuses unless the actor may act on rows of the store. */
export function assertStore(actor: Actor, storeId: number, what = '数据'): void {
  if (!actor.allStores && actor.storeId == null) throw fail(NO_STORE_MESSAGE);
  if (!actor.allStores && storeId !== actor.storeId) throw fail(`没有权限访问其他门店的${what}`);
}
