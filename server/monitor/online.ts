import type { FastifyInstance } from 'fastify';
import { fail, ok, page } from '../http/envelope.js';
import { contains } from '../http/like.js';
import { revokeSession } from '../security/sessions.js';

/** Online users: the live server-side sessions (monitor). tokenId is the session's token hash, never the token. */
export async function onlineRoutes(app: FastifyInstance) {
  const db = app.db.kysely;

  app.get<{ Querystring: { userName?: string; ipaddr?: string; pageNum?: number; pageSize?: number } }>(
    '/dev-api/monitor/online/list',
    {
      config: { permission: 'monitor:online:list', write: false },
      schema: {
        querystring: {
          type: 'object',
          properties: {
            userName: { type: 'string', maxLength: 30, title: '用户名称' },
            ipaddr: { type: 'string', maxLength: 64, title: '登录地址' },
            pageNum: { type: 'integer', minimum: 1, default: 1, title: '页码' },
            pageSize: { type: 'integer', minimum: 1, maximum: 100, default: 10, title: '每页条数' },
          },
        },
      },
    },
    async (request) => {
      const { pageNum = 1, pageSize = 10 } = request.query;
      let q = db
        .selectFrom('sysSession as s')
        .leftJoin('sysUser as u', 'u.userId', 's.userId')
        .leftJoin('sysDept as d', 'd.deptId', 'u.deptId')
        .where('s.revoked', '=', 0)
        .where('s.expireTime', '>', Date.now());
      if (request.query.userName) q = q.where(contains('s.userName', request.query.userName));
      if (request.query.ipaddr) q = q.where(contains('s.ipaddr', request.query.ipaddr));
      const { total } = await q.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
      const rows = await q
        .select(['s.tokenHash', 's.userName', 's.ipaddr', 's.browser', 's.os', 's.loginTime', 'd.deptName'])
        .orderBy('s.loginTime', 'desc')
        .orderBy('s.tokenHash') // tie-break so pages never overlap when two sign-ins share a millisecond
        .limit(pageSize)
        .offset((pageNum - 1) * pageSize)
        .execute();
      return page(
        rows.map((r) => ({
          tokenId: r.tokenHash,
          userName: r.userName,
          deptName: r.deptName,
          ipaddr: r.ipaddr,
          loginLocation: r.ipaddr === '127.0.0.1' ? '内网IP' : '',
          browser: r.browser,
          os: r.os,
          loginTime: r.loginTime,
        })),
        Number(total),
      );
    },
  );

  app.delete<{ Params: { tokenId: string } }>(
    '/dev-api/monitor/online/:tokenId',
    { config: { permission: 'monitor:online:forceLogout', write: true } },
    async (request) => {
      const { tokenId } = request.params;
      if (!/^[0-9a-f]{64}$/.test(tokenId)) throw fail('会话编号不正确');
      await revokeSession(db, tokenId);
      return ok(undefined, '强退成功');
    },
  );
}
