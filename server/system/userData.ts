import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { UserDataDetail, UserDataHit } from '../../common/system/userData.js';
import { storeNames } from '../customer/index.js';
import { fail, ok, page } from '../http/envelope.js';
import { escapeLike } from '../http/like.js';
import { assertUsersInScope, dataScopeCondition } from './dataScope.js';
import { isSuperUser } from './userHooks.js';

/**
 * 用户资料 (docs/system.md "用户资料"): look up a staff account by account, name or phone and read its details, within
 * the caller's data scope (数据权限), like 用户管理. Reading only: the password is reset with 用户管理's resetPwd (its
 * rules, operation log and sign-out), which the page calls directly.
 *   GET /dev-api/system/userData/list?keyword=&pageNum=&pageSize=   accounts found          system:userData:list
 *   GET /dev-api/system/userData/{userId}                          one account's details   system:userData:list
 */

const PERMISSION = 'system:userData:list';

const hitOf = (r: Record<string, unknown>): UserDataHit => ({
  userId: Number(r.user_id),
  userName: String(r.user_name),
  nickName: String(r.nick_name ?? ''),
  mobile: (r.mobile as string | null) ?? null,
  deptName: (r.dept_name as string | null) ?? null,
  status: String(r.status),
});

export async function userDataRoutes(app: FastifyInstance): Promise<void> {
  // The engine's connection (registered before this module): raw rows keep their column names (user_id).
  const { k } = app.schemaEngine.env;

  app.get<{ Querystring: { keyword?: string; pageNum?: number; pageSize?: number } }>(
    '/dev-api/system/userData/list',
    {
      config: { permission: PERMISSION, write: false },
      schema: {
        querystring: {
          type: 'object',
          properties: {
            keyword: { type: 'string', maxLength: 30, title: '关键字' },
            pageNum: { type: 'integer', minimum: 1, default: 1, title: '页码' },
            pageSize: { type: 'integer', minimum: 1, maximum: 50, default: 10, title: '每页条数' },
          },
        },
      },
    },
    async (request) => {
      const { pageNum = 1, pageSize = 10 } = request.query;
      const keyword = (request.query.keyword ?? '').trim();
      const scope = await dataScopeCondition(k, request.auth ?? undefined, { dept: sql.ref('u.dept_id'), user: sql.ref('u.user_id') });
      const like = `%${escapeLike(keyword)}%`;
      const where = sql`u.del_flag = '0'
        ${keyword ? sql`and (u.user_name like ${like} escape '\\' or u.nick_name like ${like} escape '\\' or u.mobile like ${like} escape '\\')` : sql``}
        ${scope ? sql`and ${scope}` : sql``}`;
      const total = await sql<{ n: number | string }>`select count(*) as n from sys_user u where ${where}`.execute(k);
      const rows = await sql<Record<string, unknown>>`select u.user_id, u.user_name, u.nick_name, u.mobile, u.status, d.dept_name
        from sys_user u left join sys_dept d on d.dept_id = u.dept_id where ${where}
        order by u.user_id limit ${pageSize} offset ${(pageNum - 1) * pageSize}`.execute(k);
      return page(rows.rows.map(hitOf), Number(total.rows[0]?.n ?? 0));
    },
  );

  app.get<{ Params: { userId: string } }>('/dev-api/system/userData/:userId', { config: { permission: PERMISSION, write: false } }, async (request) => {
    const text = request.params.userId.trim();
    if (!/^\d{1,15}$/.test(text) || Number(text) <= 0) throw fail('用户编号格式不正确', 400);
    const userId = Number(text);
    const row = (
      await sql<Record<string, unknown>>`select u.user_id, u.user_name, u.nick_name, u.mobile, u.email, u.status, u.create_time, u.login_ip,
        u.login_date, u.store_id, d.dept_name from sys_user u left join sys_dept d on d.dept_id = u.dept_id
        where u.user_id = ${userId} and u.del_flag = '0'`.execute(k)
    ).rows[0];
    if (!row) throw fail('用户不存在或已被删除');
    await assertUsersInScope(k, request.auth ?? undefined, [userId]);
    const roles = await sql<{ role_name: string }>`select r.role_name from sys_user_role ur inner join sys_role r on r.role_id = ur.role_id
      where ur.user_id = ${userId} and r.del_flag = '0' order by r.role_sort, r.role_id`.execute(k);
    // The customer module owns the stores: their names come through its facade.
    const storeId = row.store_id === null || row.store_id === undefined ? null : Number(row.store_id);
    const stores = await storeNames(app.db.kysely, [storeId]);
    const time = (v: unknown) => (v === null || v === undefined ? null : Number(v));
    const detail: UserDataDetail = {
      ...hitOf(row),
      email: (row.email as string | null) ?? null,
      roles: roles.rows.map((r) => r.role_name),
      storeName: storeId === null ? null : (stores.get(storeId) ?? null),
      createTime: time(row.create_time),
      loginIp: (row.login_ip as string | null) ?? null,
      loginDate: time(row.login_date),
      superAdmin: await isSuperUser(k, userId),
      self: userId === request.auth?.userId,
    };
    return ok(detail);
  });
}
