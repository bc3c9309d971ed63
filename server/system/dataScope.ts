import { type RawBuilder, sql } from 'kysely';
import type { Q } from '../engine/store.js';
import type { AuthContext } from '../http/context.js';
import { fail } from '../http/envelope.js';
import { SUPER_ROLE } from '../security/access.js';

/**
 * 数据权限 (RuoYi @DataScope): which departments' rows a signed-in user may see and change, from the data scopes of
 * their roles (角色管理 → 数据权限), united over the roles:
 *   1 全部数据权限 — everything (as does the admin role);
 *   2 自定数据权限 — the departments ticked for the role (sys_role_dept);
 *   3 本部门数据权限 — the user's own department;
 *   4 本部门及以下数据权限 — the own department and every department below it;
 *   5 仅本人数据权限 — only the user's own row (where the table has a user column; otherwise nothing).
 * Answers a condition over the given columns, or null when nothing is filtered.
 */

export const DATA_SCOPE_MESSAGE = '没有权限访问用户数据！';

export interface ScopeColumns {
  /** The row's department column, e.g. sql.ref('t.dept_id'). */
  dept: RawBuilder<unknown>;
  /** The row's user column (scope 5), e.g. sql.ref('t.user_id'). */
  user?: RawBuilder<unknown>;
}

export async function dataScopeCondition(k: Q, auth: AuthContext | undefined, columns: ScopeColumns): Promise<RawBuilder<unknown> | null> {
  // No signed-in user means no rows, never "no restriction": the gate refuses such a request before it gets here, and
  // if a future route forgot its permission, this still leaks nothing.
  if (!auth) return sql`1 = 0`;
  if (auth.roles.includes(SUPER_ROLE)) return null;
  const roles = auth.roleIds.length
    ? (
        await sql<{ role_id: number; data_scope: string }>`select role_id, data_scope from sys_role
        where role_id in (${sql.join(auth.roleIds)}) and status = '0' and del_flag = '0'`.execute(k)
      ).rows
    : [];
  if (roles.some((r) => String(r.data_scope) === '1')) return null;
  const me = (await sql<{ dept_id: number | null }>`select dept_id from sys_user where user_id = ${auth.userId}`.execute(k)).rows[0];
  const myDept = me?.dept_id === null || me?.dept_id === undefined ? null : Number(me.dept_id);
  const parts: RawBuilder<unknown>[] = [];
  const scopes = new Set(roles.map((r) => String(r.data_scope)));
  const custom = roles.filter((r) => String(r.data_scope) === '2').map((r) => Number(r.role_id));
  if (custom.length) parts.push(sql`${columns.dept} in (select dept_id from sys_role_dept where role_id in (${sql.join(custom)}))`);
  if (scopes.has('3') && myDept !== null) parts.push(sql`${columns.dept} = ${myDept}`);
  if (scopes.has('4') && myDept !== null) {
    parts.push(sql`${columns.dept} in (select dept_id from sys_dept where dept_id = ${myDept} or (',' || ancestors || ',') like ${`%,${myDept},%`})`);
  }
  // 仅本人, and the fallback for a user whose roles name no scope: their own row only.
  if ((scopes.has('5') || parts.length === 0) && columns.user) parts.push(sql`${columns.user} = ${auth.userId}`);
  if (parts.length === 0) return sql`1 = 0`;
  return sql`(${sql.join(parts, sql` or `)})`;
}

/** Refuses (没有权限访问用户数据！) unless every given user is inside the caller's data scope. */
export async function assertUsersInScope(k: Q, auth: AuthContext | undefined, userIds: number[]): Promise<void> {
  if (!userIds.length) return;
  const scope = await dataScopeCondition(k, auth, { dept: sql.ref('u.dept_id'), user: sql.ref('u.user_id') });
  if (!scope) return;
  const res = await sql<{ n: number | string }>`select count(*) as n from sys_user u where u.user_id in (${sql.join(userIds)}) and ${scope}`.execute(k);
  if (Number(res.rows[0]?.n ?? 0) !== userIds.length) throw fail(DATA_SCOPE_MESSAGE);
}

/** Refuses unless the department is inside the caller's data scope (a user may only be put into such a department). */
export async function assertDeptInScope(k: Q, auth: AuthContext | undefined, deptId: number): Promise<void> {
  const scope = await dataScopeCondition(k, auth, { dept: sql.ref('d.dept_id') });
  if (!scope) return;
  const res = await sql<{ n: number | string }>`select count(*) as n from sys_dept d where d.dept_id = ${deptId} and ${scope}`.execute(k);
  if (Number(res.rows[0]?.n ?? 0) !== 1) throw fail('没有权限访问部门数据！');
}
