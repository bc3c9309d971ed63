import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type RawBuilder, sql } from 'kysely';
import { type OrgNode, type OrgRoleCount, type OrgStaff, type OrgTree, STORE_SCOPE_TEXT } from '../../common/system/organization.js';
import { type StoreBrief, storeList } from '../customer/index.js';
import { flattenParams, paging } from '../engine/query.js';
import { engineDb } from '../engine/store.js';
import { fail, ok, page } from '../http/envelope.js';
import { storeScopeOf } from '../security/storeScope.js';
import { dataScopeCondition } from './dataScope.js';

/**
 * 组织机构 (component system/organization/index), read only — 部门管理 and 用户管理 edit what it shows:
 *   GET /dev-api/system/organization/tree    {nodes, total}: 总部 and each store, the departments their staff are in,
 *                                            staff counts (in the node and below) and role mix      system:organization:list
 *   GET /dev-api/system/organization/staff   ?storeId=2|none&deptId=101|none&pageNum&pageSize: a node's staff
 *                                                                                                  system:organization:list
 * A store and a department are two independent attributes of an account (sys_user.store_id, sys_user.dept_id), so a
 * store's branch is the department tree cut down to the departments its staff are in; 总部 shows the whole tree.
 * Counts come from two grouped queries over sys_user (by store and department; by store, department and role), summed up
 * the tree in memory, never a query per node. The caller sees only what they may: accounts in their data scope (the
 * same rule as 用户管理's list) and, unless headquarters, their own store only.
 */

export const ORGANIZATION_PERM = 'system:organization:list';
const NONE = 'none';

interface Bucket {
  staff: number;
  roles: Map<number, number>;
}

interface Caller {
  /** Accounts the caller may see (data scope), or null for all. */
  scope: RawBuilder<unknown> | null;
  /** The only store the caller may see, or null for every store. */
  store: number | null;
  stores: StoreBrief[];
}

/** A node id of the query string: a positive id, 'none', or absent. */
function nodeId(raw: unknown, title: string): number | 'none' | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const text = String(raw).trim();
  if (text === NONE) return NONE;
  if (!/^\d{1,15}$/.test(text) || Number(text) <= 0) throw fail(`${title}格式不正确`, 400);
  return Number(text);
}

export async function organizationRoutes(app: FastifyInstance): Promise<void> {
  const k = engineDb(app.db);

  async function callerOf(request: FastifyRequest): Promise<Caller> {
    const auth = request.auth ?? undefined;
    const scope = await dataScopeCondition(k, auth, { dept: sql.ref('u.dept_id'), user: sql.ref('u.user_id') });
    const own = auth ? await storeScopeOf(app.db.kysely, auth) : { storeId: null, allStores: false };
    const all = await storeList(app.db.kysely);
    if (own.allStores) return { scope, store: null, stores: all };
    // A store's staff see their own store; an account without one sees nothing (a store id no row has).
    return { scope, store: own.storeId ?? -1, stores: all.filter((s) => s.storeId === own.storeId) };
  }

  /** The tree key of an account's store: a store the caller sees, else 'none' (an account whose store is gone has none). */
  const storeKey = (storeId: unknown, known: Set<number>) => (storeId !== null && storeId !== undefined && known.has(Number(storeId)) ? Number(storeId) : NONE);

  app.get('/dev-api/system/organization/tree', { config: { permission: ORGANIZATION_PERM, write: false } }, async (request) => {
    const caller = await callerOf(request);
    const where = sql.join(
      [sql`u.del_flag = '0'`, caller.scope ?? sql`1 = 1`, caller.store === null ? sql`1 = 1` : sql`u.store_id = ${caller.store}`],
      sql` and `,
    );
    const [depts, roles, counts, mix] = await Promise.all([
      sql<{ dept_id: number; parent_id: number; dept_name: string; status: string }>`select dept_id, parent_id, dept_name, status from sys_dept
        where del_flag = '0' order by parent_id, order_num, dept_id`.execute(k),
      sql<{ role_id: number; role_name: string; data_scope: string | null }>`select role_id, role_name, data_scope from sys_role
        where del_flag = '0' order by role_sort, role_id`.execute(k),
      sql<{ store_id: number | null; dept_id: number | null; n: number | string }>`select u.store_id, u.dept_id, count(*) as n from sys_user u
        where ${where} group by u.store_id, u.dept_id`.execute(k),
      sql<{ store_id: number | null; dept_id: number | null; role_id: number; n: number | string }>`select u.store_id, u.dept_id, ur.role_id, count(*) as n
        from sys_user u inner join sys_user_role ur on ur.user_id = u.user_id where ${where} group by u.store_id, u.dept_id, ur.role_id`.execute(k),
    ]);

    const knownStores = new Set(caller.stores.map((s) => s.storeId));
    const deptIds = new Set(depts.rows.map((d) => Number(d.dept_id)));
    const deptKey = (deptId: unknown) => (deptId !== null && deptId !== undefined && deptIds.has(Number(deptId)) ? Number(deptId) : NONE);
    // store key → dept key → staff and role counts of the accounts directly in it
    const buckets = new Map<number | 'none', Map<number | 'none', Bucket>>();
    const bucket = (store: unknown, dept: unknown): Bucket => {
      const s = storeKey(store, knownStores);
      const d = deptKey(dept);
      const byDept = buckets.get(s) ?? new Map<number | 'none', Bucket>();
      buckets.set(s, byDept);
      const b = byDept.get(d) ?? { staff: 0, roles: new Map() };
      byDept.set(d, b);
      return b;
    };
    for (const c of counts.rows) bucket(c.store_id, c.dept_id).staff += Number(c.n);
    for (const m of mix.rows) {
      const b = bucket(m.store_id, m.dept_id);
      b.roles.set(Number(m.role_id), (b.roles.get(Number(m.role_id)) ?? 0) + Number(m.n));
    }

    const roleInfo = new Map(roles.rows.map((r) => [Number(r.role_id), r]));
    const roleList = (counted: Map<number, number>): OrgRoleCount[] =>
      [...counted]
        .filter(([id]) => roleInfo.has(id))
        .sort((a, b) => b[1] - a[1] || a[0] - b[0])
        .map(([id, count]) => {
          const r = roleInfo.get(id);
          return { roleId: id, roleName: r?.role_name ?? '', dataScope: String(r?.data_scope ?? ''), count };
        });
    const children = new Map<number, Array<{ id: number; name: string; status: string }>>();
    for (const d of depts.rows) {
      const parent = Number(d.parent_id) === Number(d.dept_id) ? 0 : Number(d.parent_id);
      const list = children.get(parent) ?? [];
      list.push({ id: Number(d.dept_id), name: d.dept_name, status: d.status });
      children.set(parent, list);
    }
    const roots = depts.rows.filter((d) => !deptIds.has(Number(d.parent_id)) || Number(d.parent_id) === Number(d.dept_id)).map((d) => Number(d.dept_id));

    /** The department branch of one store: counts summed from below; `keepEmpty` keeps departments with no staff. */
    const branch = (store: number | 'none', keepEmpty: boolean): { nodes: OrgNode[]; staff: number; roles: Map<number, number> } => {
      const byDept = buckets.get(store) ?? new Map<number | 'none', Bucket>();
      const seen = new Set<number>();
      const build = (id: number, name: string, status: string): { node: OrgNode; roles: Map<number, number> } | null => {
        if (seen.has(id)) return null; // a damaged tree (a department under itself) must not loop
        seen.add(id);
        const own = byDept.get(id);
        const roles = new Map(own?.roles ?? []);
        let staff = own?.staff ?? 0;
        const kids: OrgNode[] = [];
        for (const c of children.get(id) ?? []) {
          const built = build(c.id, c.name, c.status);
          if (!built) continue;
          staff += built.node.staff;
          for (const [r, n] of built.roles) roles.set(r, (roles.get(r) ?? 0) + n);
          if (keepEmpty || built.node.staff > 0) kids.push(built.node);
        }
        const node: OrgNode = {
          key: `dept:${store}:${id}`,
          kind: 'dept',
          name,
          storeId: store === NONE ? null : store,
          deptId: id,
          staff,
          roles: roleList(roles),
          status,
        };
        if (kids.length) node.children = kids;
        return { node, roles };
      };
      const nodes: OrgNode[] = [];
      let staff = 0;
      const total = new Map<number, number>();
      const add = (node: OrgNode, roles: Map<number, number>) => {
        staff += node.staff;
        for (const [r, n] of roles) total.set(r, (total.get(r) ?? 0) + n);
        if (keepEmpty || node.staff > 0) nodes.push(node);
      };
      for (const id of roots) {
        const d = depts.rows.find((x) => Number(x.dept_id) === id);
        const built = d ? build(id, d.dept_name, d.status) : null;
        if (built) add(built.node, built.roles);
      }
      const loose = byDept.get(NONE);
      if (loose && loose.staff > 0) {
        const node: OrgNode = {
          key: `dept:${store}:${NONE}`,
          kind: 'dept',
          name: '未分配部门',
          storeId: store === NONE ? null : store,
          deptId: null,
          staff: loose.staff,
          roles: roleList(loose.roles),
          status: '0',
        };
        add(node, loose.roles);
      }
      return { nodes, staff, roles: total };
    };

    const nodes: OrgNode[] = [];
    for (const s of caller.stores) {
      const b = branch(s.storeId, s.headquarters);
      nodes.push({
        key: `store:${s.storeId}`,
        kind: s.headquarters ? 'hq' : 'store',
        name: s.storeName,
        storeId: s.storeId,
        deptId: null,
        staff: b.staff,
        roles: roleList(b.roles),
        scope: s.headquarters ? STORE_SCOPE_TEXT.hq : STORE_SCOPE_TEXT.store,
        status: s.status,
        children: b.nodes.length ? b.nodes : undefined,
      });
    }
    if (caller.store === null) {
      const b = branch(NONE, false);
      if (b.staff > 0) {
        nodes.push({
          key: `store:${NONE}`,
          kind: 'unassigned',
          name: '未分配门店',
          storeId: null,
          deptId: null,
          staff: b.staff,
          roles: roleList(b.roles),
          scope: STORE_SCOPE_TEXT.unassigned,
          status: '0',
          children: b.nodes.length ? b.nodes : undefined,
        });
      }
    }
    const tree: OrgTree = { nodes, total: nodes.reduce((n, x) => n + x.staff, 0) };
    return ok(tree);
  });

  app.get('/dev-api/system/organization/staff', { config: { permission: ORGANIZATION_PERM, write: false } }, async (request) => {
    const params = flattenParams(request.query);
    const { pageNum, pageSize } = paging(params);
    const store = nodeId(params.storeId, '门店编号');
    const dept = nodeId(params.deptId, '部门编号');
    const caller = await callerOf(request);
    const conditions: RawBuilder<unknown>[] = [sql`u.del_flag = '0'`];
    if (caller.scope) conditions.push(caller.scope);
    if (caller.store !== null) conditions.push(sql`u.store_id = ${caller.store}`);
    const known = caller.stores.map((s) => s.storeId);
    if (store === NONE) {
      conditions.push(known.length ? sql`(u.store_id is null or u.store_id not in (${sql.join(known)}))` : sql`1 = 1`);
    } else if (store !== undefined) {
      conditions.push(sql`u.store_id = ${store}`);
    }
    if (dept === NONE) {
      conditions.push(sql`(u.dept_id is null or u.dept_id not in (select dept_id from sys_dept where del_flag = '0'))`);
    } else if (dept !== undefined) {
      // The department and every department below it (ancestors holds the path "0,100,101").
      conditions.push(
        sql`u.dept_id in (select dept_id from sys_dept where del_flag = '0' and (dept_id = ${dept} or (',' || ancestors || ',') like ${`%,${dept},%`}))`,
      );
    }
    const where = sql.join(conditions, sql` and `);
    const total = Number((await sql<{ n: number | string }>`select count(*) as n from sys_user u where ${where}`.execute(k)).rows[0]?.n ?? 0);
    const rows = await sql<{
      user_id: number;
      user_name: string;
      nick_name: string;
      status: string;
      store_id: number | null;
      dept_name: string | null;
    }>`select u.user_id, u.user_name, u.nick_name, u.status, u.store_id, d.dept_name from sys_user u
      left join sys_dept d on d.dept_id = u.dept_id and d.del_flag = '0' where ${where}
      order by u.user_id limit ${pageSize} offset ${(pageNum - 1) * pageSize}`.execute(k);
    const ids = rows.rows.map((r) => Number(r.user_id));
    const held = ids.length
      ? (
          await sql<{ user_id: number; role_name: string }>`select ur.user_id, r.role_name from sys_user_role ur inner join sys_role r on r.role_id = ur.role_id
            where r.del_flag = '0' and ur.user_id in (${sql.join(ids)}) order by r.role_sort, r.role_id`.execute(k)
        ).rows
      : [];
    const storeName = new Map(caller.stores.map((s) => [s.storeId, s.storeName]));
    const staff: OrgStaff[] = rows.rows.map((r) => ({
      userId: Number(r.user_id),
      userName: r.user_name,
      nickName: r.nick_name,
      deptName: r.dept_name ?? null,
      storeName: r.store_id === null ? null : (storeName.get(Number(r.store_id)) ?? null),
      roleNames: held.filter((h) => Number(h.user_id) === Number(r.user_id)).map((h) => h.role_name),
      status: r.status,
    }));
    return page(staff, total);
  });
}
