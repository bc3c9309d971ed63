import type { Kysely } from 'kysely';
import type { Database } from '../db/types.js';
import type { AuthContext } from '../http/context.js';
import { ApiError, Code, fail } from '../http/envelope.js';
import { NO_STORE_ROWS, requireStore } from '../security/storeScope.js';

export type Db = Kysely<Database>;

/** Who acts: enough of the session for data scope and the action log. */
export interface Actor {
  userId: number;
  userName: string;
  roles: string[];
  /** The actor's store (customer module: sys_user.store_id); set by the routes, absent for internal callers. */
  storeId?: number | null;
  /** false: confined to `storeId` (agency staff). Headquarters, the super admin and internal callers see every store. */
  allStores?: boolean;
}

/** The store an actor is confined to, or undefined when they see every store. */
export function confinedStore(actor: Actor): number | undefined {
  return actor.allStores === false ? (actor.storeId ?? NO_STORE_ROWS) : undefined;
}

/** Whether a row of the store is visible to the actor (store scope, docs/customer.md "Stores"). */
export function inActorStore(actor: Actor, storeId: number): boolean {
  const own = confinedStore(actor);
  return own === undefined || own === storeId;
}

/** The store new rows of the actor belong to: internal callers (no scope resolved) write to headquarters (store 1). */
export function homeStore(actor: Actor): number {
  // A caller whose scope was resolved and who has no store may not create a store's rows.
  if (actor.storeId === null || (actor.allStores === false && actor.storeId === undefined)) return requireStore(actor);
  return actor.storeId ?? 1;
}

export function actorOf(auth: AuthContext | null): Actor {
  if (!auth) throw new ApiError(Code.UNAUTHORIZED, '未登录或登录已过期，请先登录');
  return { userId: auth.userId, userName: auth.userName, roles: auth.roles };
}

/** Admin and leader see every student of their store scope; everybody else only the students they own. */
export function seesAll(actor: Actor): boolean {
  return actor.roles.includes('admin') || actor.roles.includes('leader');
}

export const SUBJECTS: Record<number, string> = { 1: '物理', 2: '化学', 3: '生物', 4: '历史', 5: '地理', 6: '政治' };

export function parseSubjects(text: string | null | undefined): number[] {
  return (text ?? '')
    .split(',')
    .map((s) => Number.parseInt(s, 10))
    .filter((n) => Number.isInteger(n) && SUBJECTS[n] !== undefined);
}

export const subjectNames = (ids: number[]) => ids.map((i) => SUBJECTS[i]).join('/');

export function parseJsonList(text: string | null | undefined): string[] {
  try {
    const v = JSON.parse(text ?? '[]');
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

/** A list parameter: an array, or a comma / | separated string; empty entries dropped. */
export function listParam(v: unknown): string[] {
  if (v == null) return [];
  const parts = Array.isArray(v) ? v : [v];
  return parts
    .flatMap((p) => String(p).split(/[,，|]/))
    .map((p) => p.trim())
    .filter(Boolean);
}

export function intParam(v: unknown): number | undefined {
  if (v == null || v === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? Math.trunc(n) : undefined;
}

export function truthy(v: unknown): boolean {
  return v === true || v === 1 || v === '1' || v === 'true';
}

export const PLAN_STATUS_NAMES: Record<string, string> = {
  none: '未填报',
  draft: '草稿',
  submitted: '待审核',
  approved: '已通过',
  rejected: '已驳回',
  withdrawn: '已撤回',
};

export const ACTION_NAMES: Record<string, string> = {
  create: '创建',
  save: '保存',
  sort: '排序',
  submit: '提交',
  unsubmit: '撤回',
  approve: '审批通过',
  reject: '驳回',
  share: '分享',
  assign: '分配专家',
};

export const APPOINTMENT_STATUS_NAMES: Record<string, string> = { pending: '待服务', done: '已完成', cancelled: '已取消', remade: '已改约' };

export function paging(q: { pageNum?: unknown; pageSize?: unknown }): { pageNum: number; pageSize: number; offset: number } {
  const pageNum = Math.max(1, intParam(q.pageNum) ?? 1);
  const pageSize = Math.min(100, Math.max(1, intParam(q.pageSize) ?? 20));
  return { pageNum, pageSize, offset: (pageNum - 1) * pageSize };
}

/** Display names of users by id (nick name, else user name). */
export async function userNames(db: Db, ids: Array<number | null | undefined>): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter((i): i is number => typeof i === 'number'))];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom('sysUser').select(['userId', 'nickName', 'userName']).where('userId', 'in', wanted).execute();
  return new Map(rows.map((r) => [r.userId, r.nickName || r.userName]));
}

export const notFound = (what = '学生') => fail(`${what}不存在或无权访问`);
