import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_CACHE_TTL_MS } from '../../../server/cache/auth.js';
import { loadConfig } from '../../../server/config.js';
import { openDatabase } from '../../../server/db/connection.js';
import { WriteWatch } from '../../../server/security/writeWatch.js';
import { redisBinary, startRedis } from '../../processes.js';
import { backends, startServer, type TestServer } from '../harness.js';

/**
 * Sessions and permission sets kept in Redis (server/cache/auth.ts), shared by several server processes: two apps on
 * one database (one data folder, or one PostgreSQL schema) and one Redis. Whatever revokes a session or a permission
 * through process A — sign-out, 强退, a disabled or deleted user, a reset or changed password, a menu taken from a
 * role, a role taken from a user, a disabled role — is refused by process B on its very next request, although B
 * answers that token from the cache (checked: B's SQL statistics show no session read for it).
 */

const USERS = '/dev-api/system/user';
const ROLES = '/dev-api/system/role';
const CONFIGS = '/dev-api/system/config/list';
const REVOKED = { code: 401, msg: '登录状态已失效（已退出或被强制下线），请重新登录' };
const FORBIDDEN = { code: 403, msg: '没有权限，请联系管理员授权（需要 system:config:list）' };

/** How many times a server has read a session row by its token (findSession), from its SQL statistics. */
function sessionReads(server: TestServer): number {
  return (server.app.db.sqlStats?.top('count', 2000) ?? [])
    .filter((s) => /^select \* from "sys_session" where "token_hash" = \?$/.test(s.sql))
    .reduce((n, s) => n + s.count, 0);
}

const redis = redisBinary();
if (!redis && process.env.REQUIRE_REDIS === '1') throw new Error('缺少 redis-server（.ci/run 会安装）：双进程会话缓存测试必须运行');

describe.skipIf(!redis).each(backends)('会话与权限缓存：两个进程共享 Redis，撤销在另一进程立即生效 (%s)', (backend) => {
  let child: ChildProcess;
  let a: TestServer;
  let b: TestServer;
  let admin: string;
  let roleId: number;

  beforeAll(async () => {
    const started = await startRedis(redis as string);
    child = started.child;
    a = await startServer(backend, { redisUrl: started.url, jobs: { enabled: false } });
    b = await startServer(backend, { redisUrl: started.url, jobs: { enabled: false } }, a);
    admin = await a.login('admin', 'admin123');
    // A role that may read 参数设置 and nothing else, for the users of these tests.
    const menus = await a.app.db.kysely.selectFrom('sysMenu').select('menuId').where('perms', '=', 'system:config:list').execute();
    const role = await a.call<{ roleId: number }>('POST', ROLES, {
      token: admin,
      body: { roleName: '参数查看', roleKey: 'cache_config_viewer', roleSort: 9, status: '0', menuIds: menus.map((m) => m.menuId) },
    });
    expect(role.body.code, role.body.msg).toBe(200);
    roleId = Number(role.body.data?.roleId);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    child?.kill();
  });

  let users = 0;
  /** A new user with the role above, signed in (through A); answers its id and token. */
  async function newUser(withRole = roleId): Promise<{ userId: number; userName: string; token: string }> {
    const userName = `cache_u${++users}`;
    const res = await a.call<{ userId: number }>('POST', USERS, {
      token: admin,
      body: { userName, nickName: userName, password: 'hello123', deptId: 101, roleIds: [withRole] },
    });
    expect(res.body.code, res.body.msg).toBe(200);
    return { userId: Number(res.body.data?.userId), userName, token: await a.login(userName, 'hello123') };
  }

  /**
   * The token works in B and B now answers it from the cache: a second request reads no session row. Retried when
   * the machine was so slow that the entry outlived its TTL in between (the cache then rightly read again).
   */
  async function servedFromCache(token: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const started = Date.now();
      expect((await b.call('GET', CONFIGS, { token })).body.code).toBe(200);
      const reads = sessionReads(b);
      expect((await b.call('GET', CONFIGS, { token })).body.code).toBe(200);
      if (sessionReads(b) === reads) return;
      if (Date.now() - started < AUTH_CACHE_TTL_MS || attempt >= 3) expect(sessionReads(b), '进程 B 应从缓存取会话').toBe(reads);
    }
  }

  it('退出登录：另一进程的下一次请求即被拒绝', async () => {
    const u = await newUser();
    await servedFromCache(u.token);
    expect((await a.call('POST', '/dev-api/api/login/logout', { token: u.token })).body.code).toBe(200);
    expect((await b.call('GET', CONFIGS, { token: u.token })).body).toEqual(REVOKED);
  });

  it('在线用户强退：另一进程的下一次请求即被拒绝', async () => {
    const u = await newUser();
    await servedFromCache(u.token);
    const tokenId = crypto.createHash('sha256').update(u.token).digest('hex');
    expect((await a.call('DELETE', `/dev-api/monitor/online/${tokenId}`, { token: admin })).body).toEqual({ code: 200, msg: '强退成功' });
    expect((await b.call('GET', CONFIGS, { token: u.token })).body).toEqual(REVOKED);
  });

  it('停用用户与删除用户：另一进程的下一次请求即被拒绝', async () => {
    const disabled = await newUser();
    const deleted = await newUser();
    await servedFromCache(disabled.token);
    await servedFromCache(deleted.token);
    const off = await a.call('PUT', `${USERS}/changeStatus`, { token: admin, body: { userId: disabled.userId, status: '1' } });
    expect(off.body).toEqual({ code: 200, msg: '停用成功' });
    expect((await b.call('GET', CONFIGS, { token: disabled.token })).body).toEqual(REVOKED);
    const del = await a.call('DELETE', `${USERS}/${deleted.userId}`, { token: admin });
    expect(del.body.code, del.body.msg).toBe(200);
    expect((await b.call('GET', CONFIGS, { token: deleted.token })).body).toEqual(REVOKED);
  });

  it('重置密码与本人修改密码：原有会话在另一进程的下一次请求即被拒绝', async () => {
    const reset = await newUser();
    await servedFromCache(reset.token);
    const res = await a.call('PUT', `${USERS}/resetPwd`, { token: admin, body: { userId: reset.userId, password: 'newpass1' } });
    expect(res.body).toEqual({ code: 200, msg: '修改成功' });
    expect((await b.call('GET', CONFIGS, { token: reset.token })).body).toEqual(REVOKED);

    // The user changes their own password in A: their other session (used in B) goes, the one they used stays.
    const own = await newUser();
    const other = await a.login(own.userName, 'hello123');
    await servedFromCache(other);
    const save = await a.call('POST', '/dev-api/api/account/savePass', {
      token: own.token,
      body: { oldpass: 'hello123', qrPass: 'newpass2', pass: 'newpass2' },
    });
    expect(save.body).toEqual({ code: 200, msg: '修改成功' });
    expect((await b.call('GET', CONFIGS, { token: other })).body).toEqual(REVOKED);
    expect((await b.call('GET', CONFIGS, { token: own.token })).body.code).toBe(200);
  });

  it('角色去掉菜单权限、用户去掉角色、停用角色：另一进程的下一次请求即无权限；授予也立即生效', async () => {
    const menus = await a.app.db.kysely.selectFrom('sysMenu').select('menuId').where('perms', '=', 'system:config:list').execute();
    const create = async (key: string) => {
      const res = await a.call<{ roleId: number }>('POST', ROLES, {
        token: admin,
        body: { roleName: key, roleKey: key, roleSort: 9, status: '0', menuIds: menus.map((m) => m.menuId) },
      });
      expect(res.body.code, res.body.msg).toBe(200);
      return Number(res.body.data?.roleId);
    };

    // A menu taken from the user's role.
    const menuRole = await create('cache_menu_role');
    const byMenu = await newUser(menuRole);
    await servedFromCache(byMenu.token);
    const info = await a.call<Record<string, unknown>>('GET', `${ROLES}/${menuRole}`, { token: admin });
    const edit = await a.call('PUT', ROLES, { token: admin, body: { ...info.body.data, menuIds: [] } });
    expect(edit.body.code, edit.body.msg).toBe(200);
    expect((await b.call('GET', CONFIGS, { token: byMenu.token })).body).toEqual(FORBIDDEN);

    // The role taken from the user (授权角色), then given back: both at once.
    const byRole = await newUser();
    await servedFromCache(byRole.token);
    const none = await a.call('PUT', `${USERS}/authRole`, { token: admin, query: { userId: byRole.userId, roleIds: '' } });
    expect(none.body.code, none.body.msg).toBe(200);
    expect((await b.call('GET', CONFIGS, { token: byRole.token })).body).toEqual(FORBIDDEN);
    const back = await a.call('PUT', `${USERS}/authRole`, { token: admin, query: { userId: byRole.userId, roleIds: String(roleId) } });
    expect(back.body.code, back.body.msg).toBe(200);
    expect((await b.call('GET', CONFIGS, { token: byRole.token })).body.code).toBe(200);

    // The role disabled.
    const statusRole = await create('cache_status_role');
    const byStatus = await newUser(statusRole);
    await servedFromCache(byStatus.token);
    const off = await a.call('PUT', `${ROLES}/changeStatus`, { token: admin, body: { roleId: statusRole, status: '1' } });
    expect(off.body.code, off.body.msg).toBe(200);
    expect((await b.call('GET', CONFIGS, { token: byStatus.token })).body).toEqual(FORBIDDEN);
  });

  it('新的登录不使其他会话的缓存失效', async () => {
    const u = await newUser();
    for (let attempt = 0; ; attempt++) {
      await servedFromCache(u.token);
      const started = Date.now();
      const reads = sessionReads(b);
      await a.login(u.userName, 'hello123');
      expect((await b.call('GET', CONFIGS, { token: u.token })).body.code).toBe(200);
      if (sessionReads(b) === reads) return;
      // Only a machine too slow to sign in within the TTL may see a read here (the entry simply expired).
      if (Date.now() - started < AUTH_CACHE_TTL_MS || attempt >= 3) expect(sessionReads(b), '新的登录不应使缓存失效').toBe(reads);
    }
  });
});

// PostgreSQL without Redis: nothing is kept between requests (another process may write), so B sees A's revocations.
describe.skipIf(!backends.includes('postgres'))('会话与权限：PostgreSQL 无 Redis 时两个进程都直接读数据库', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    a = await startServer('postgres', { jobs: { enabled: false } });
    b = await startServer('postgres', { jobs: { enabled: false } }, a);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('退出登录后另一进程立即拒绝，且每次请求都读会话', async () => {
    const token = await a.login('admin', 'admin123');
    const reads = sessionReads(b);
    expect((await b.call('GET', CONFIGS, { token })).body.code).toBe(200);
    expect((await b.call('GET', CONFIGS, { token })).body.code).toBe(200);
    expect(sessionReads(b)).toBe(reads + 2);
    expect((await a.call('POST', '/dev-api/api/login/logout', { token })).body.code).toBe(200);
    expect((await b.call('GET', CONFIGS, { token })).body).toEqual(REVOKED);
  });
});

/**
 * How a process tells the others (server/security/writeWatch.ts announceWrites): after a write to a watched table,
 * and again after the COMMIT of a transaction that made one — a reader in another process between the write and the
 * commit still reads the old rows, so only an announcement after the commit makes what it stored stale.
 */
describe('WriteWatch.announceWrites', () => {
  function watched() {
    const watch = new WriteWatch(false);
    const told: string[] = [];
    watch.announceWrites(['sys_session', 'sys_role'], async () => void told.push('told'), ['sys_session']);
    return { watch, told };
  }

  it('announces a write at once, and again after its transaction ends; other tables and new sessions not at all', async () => {
    const { watch, told } = watched();
    await watch.observe('update "sys_role" set "status" = $1 where "role_id" = $2');
    expect(told.length).toBe(1); // autocommit: visible now
    watch.observe('begin');
    await watch.observe('update sys_session set revoked = 1 where user_id in (?)');
    expect(told.length).toBe(2);
    await watch.observe('commit');
    expect(told.length).toBe(3); // after the commit
    await watch.observe('commit');
    expect(told.length).toBe(3); // nothing pending any more
    await watch.observe('insert into "sys_session" ("token_hash", "user_id") values ($1, $2)');
    await watch.observe('update "sys_user" set "login_date" = $1 where "user_id" = $2');
    await watch.observe('insert into "sys_logininfor" ("user_name") values ($1)');
    expect(told.length).toBe(3);
    await watch.observe('delete from "sys_session" where "expire_time" < $1');
    expect(told.length).toBe(4);
  });

  it('with transactions interleaved on several connections, announces after each end until none is open', async () => {
    const { watch, told } = watched();
    watch.observe('begin');
    watch.observe('begin');
    await watch.observe('delete from "sys_role" where "role_id" = $1');
    expect(told.length).toBe(1);
    await watch.observe('commit'); // perhaps the other transaction's: announce, still pending
    expect(told.length).toBe(2);
    await watch.observe('rollback to savepoint a'); // not the end of a transaction
    expect(told.length).toBe(3);
    await watch.observe('commit');
    expect(told.length).toBe(4);
    await watch.observe('commit');
    expect(told.length).toBe(4);
    // A write whose table cannot be read from the text counts for every table.
    await watch.observe('with moved as (delete from sys_role where role_id = 1 returning *) select count(*) from moved');
    expect(told.length).toBe(5);
  });

  it('a statement finishes only once its announcement is made (the log hook is awaited)', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'zy-announce-'));
    const db = await openDatabase(loadConfig({}, { dataDir, logger: false }));
    try {
      await sql`create table sys_role (role_id integer primary key, status text)`.execute(db.kysely);
      const watch = new WriteWatch(true);
      watch.attach(db.sqlStats as NonNullable<typeof db.sqlStats>);
      let release = () => {};
      const announced = new Promise<void>((resolve) => {
        release = resolve;
      });
      watch.announceWrites(['sys_role'], () => announced);
      let finished = false;
      const write = sql`insert into sys_role (role_id, status) values (1, '0')`.execute(db.kysely).then(() => {
        finished = true;
      });
      // The row is written (read straight from the connection: Kysely's is held by the statement until it finishes),
      // and the statement still waits for the announcement.
      const sqlite = db.sqlite;
      if (!sqlite) throw new Error('no SQLite connection');
      const rows = () => (sqlite.prepare('select count(*) as n from sys_role').get() as { n: number }).n;
      await expect.poll(rows).toBe(1);
      expect(finished).toBe(false);
      release();
      await write;
      expect(finished).toBe(true);
    } finally {
      await db.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
