import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { RegisterBody } from '../../common/system/account.js';
import type { Database } from '../db/types.js';
import { fail, ok } from '../http/envelope.js';
import { ACCOUNT_POLICY, accountKey, clearAttempts, lockIfExhausted, PAIR_POLICY, pairKey, reserveAttempt } from '../security/loginAttempts.js';
import { hashPassword, verifyPassword } from '../security/password.js';
import { parseClientKey } from '../security/protocol.js';
import { extraRateLimit, RATE_WINDOWS, rateLimitSettings, routeRateLimit } from '../security/rateLimits.js';
import { createSession, describeClient, revokeSession } from '../security/sessions.js';
import { newUserRow } from './newUserRow.js';
import { getSettings } from './settings.js';
import { checkNewPassword, findActiveUserByLogin, findActiveUserByMobile, LOCK_MINUTES, MAX_PASSWORD_FAILURES, recordLogin } from './users.js';

const SMS_TTL_MS = 5 * 60 * 1000;
const SMS_RESEND_MS = 60 * 1000;
const SMS_MAX_ATTEMPTS = 5;
const MOBILE = '^1[3-9]\\d{9}$';
/** A real scrypt hash of a random password: checked for unknown accounts so they take as long as known ones. */
const DUMMY_PASSWORD_HASH = await hashPassword(crypto.randomBytes(16).toString('hex'));
const hashCode = (mobile: string, code: string) => crypto.createHash('sha256').update(`${mobile}:${code}`).digest('hex');
const SMS_SPENT = '验证码错误次数过多，请重新获取';

/**
 * Checks an SMS code, counted before it is compared: one conditional UPDATE takes an attempt of the newest unused code
 * only while fewer than SMS_MAX_ATTEMPTS are taken, and only a request whose attempt was taken compares. So 60 parallel
 * guesses compare at most 5 codes (a read-compare-increment let them all through), and a spent code is dead, the right
 * one included. A right code is then claimed (used = 1) once, also when two requests carry it at once.
 */
async function takeSmsCode(db: Kysely<Database>, mobile: string, purpose: 'login' | 'register', code: string, now: number): Promise<string | null> {
  const entry = await db
    .selectFrom('sysSmsCode')
    .select(['id', 'codeHash', 'expireTime'])
    .where('mobile', '=', mobile)
    .where('purpose', '=', purpose)
    .where('used', '=', 0)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (!entry || entry.expireTime < now) return '验证码已失效，请重新获取';
  const taken = await db
    .updateTable('sysSmsCode')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', entry.id)
    .where('used', '=', 0)
    .where('attempts', '<', SMS_MAX_ATTEMPTS)
    .returning('attempts')
    .executeTakeFirst();
  if (!taken) return SMS_SPENT;
  if (entry.codeHash !== hashCode(mobile, code)) return Number(taken.attempts) >= SMS_MAX_ATTEMPTS ? SMS_SPENT : '验证码错误';
  const claimed = await db.updateTable('sysSmsCode').set({ used: 1 }).where('id', '=', entry.id).where('used', '=', 0).executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1 ? null : '验证码已失效，请重新获取';
}

export async function authRoutes(app: FastifyInstance) {
  const db = app.db.kysely;
  // Request limits per client address (and per number for SMS): docs/security.md, "Rate limits".
  const limits = rateLimitSettings(app.config);
  const { MINUTE, HOUR } = RATE_WINDOWS;
  // Spraying: a few guesses at each of many accounts passes every per-account lock; an hourly cap per address does not.
  const loginHourly = extraRateLimit(app, '登录尝试', limits.loginPerHour, HOUR, (request) => `login-hour:${request.ip}`);
  const smsPerNumber = extraRateLimit(app, '该手机号获取验证码', limits.smsPerNumberHour, HOUR, (request) => {
    const mobile = (request.body as { mobile?: unknown } | undefined)?.mobile;
    return `sms-number:${typeof mobile === 'string' ? mobile.trim() : ''}`;
  });
  const hooks = (...list: (((request: FastifyRequest) => Promise<void>) | undefined)[]) => list.filter((h) => h !== undefined);

  app.post<{ Body: { username?: string; password?: string; mobile?: string; code?: string; loginType?: 'password' | 'sms'; clientKey?: string } }>(
    '/dev-api/api/login/login',
    {
      config: { permission: 'public', rateLimit: routeRateLimit(app, '登录尝试', limits.loginPerMinute, MINUTE), write: true },
      preHandler: hooks(loginHourly),
      schema: {
        body: {
          type: 'object',
          properties: {
            username: { type: 'string', title: '账号', maxLength: 64 },
            password: { type: 'string', title: '密码', maxLength: 64 },
            mobile: { type: 'string', title: '手机号', maxLength: 20 },
            code: { type: 'string', title: '验证码', maxLength: 8 },
            loginType: { type: 'string', title: '登录方式', enum: ['password', 'sms'] },
            clientKey: { type: 'string', title: '会话密钥', maxLength: 2000 },
          },
        },
      },
    },
    async (request) => {
      const body = request.body ?? {};
      const client = describeClient(request.ip, request.headers['user-agent']);
      const now = Date.now();
      const sms = body.loginType === 'sms' || (!body.password && body.code);
      const login = (sms ? body.mobile : body.username)?.trim();
      if (!login) throw fail(sms ? '请输入手机号' : '请输入账号');
      if (!sms && !body.password) throw fail('请输入密码');
      if (sms && !body.code) throw fail('请输入验证码');
      // The console's own public key for this session (docs/protocol.md, session keys); optional, but never a bad one.
      const clientKey = body.clientKey === undefined ? null : parseClientKey(body.clientKey);
      if (body.clientKey !== undefined && !clientKey) throw fail('登录请求中的会话密钥无效，请刷新页面后重试');

      const user = sms ? await findActiveUserByMobile(db, login) : await findActiveUserByLogin(db, login);
      const logFail = async (msg: string) => {
        await recordLogin(db, { userName: login, status: '1', msg, ...client });
        return fail(msg);
      };

      if (sms) {
        if (!user) throw await logFail('该手机号未绑定账号');
        if (user.status !== '0') throw await logFail('账号已停用，请联系管理员');
        const refused = await takeSmsCode(db, login, 'login', body.code as string, now);
        if (refused) throw await logFail(refused);
        // An SMS sign-in proves the phone: it also ends a password lock of this account.
        await clearAttempts(db, [pairKey(`u${user.userId}`, client.ipaddr), accountKey(`u${user.userId}`)]);
      } else {
        // Known and unknown accounts take the same path (same counters, messages and one password hash each), so
        // neither the answer nor its timing tells whether an account exists. The lock holds per account and address.
        const account = user ? `u${user.userId}` : `n:${login.toLowerCase()}`;
        const keys = [pairKey(account, client.ipaddr), accountKey(account)];
        const lockedMessage = (lockUntil: number) =>
          `密码输入错误${MAX_PASSWORD_FAILURES}次，帐户锁定${LOCK_MINUTES}分钟，请${Math.max(1, Math.ceil((lockUntil - now) / 60000))}分钟后再试或使用短信验证码登录`;
        const pair = await reserveAttempt(db, keys[0], PAIR_POLICY, now);
        if (!pair.ok) throw await logFail(lockedMessage(pair.lockUntil));
        const wide = await reserveAttempt(db, keys[1], ACCOUNT_POLICY, now);
        if (!wide.ok) throw await logFail(lockedMessage(wide.lockUntil));
        const valid = await verifyPassword(body.password as string, user?.password ?? DUMMY_PASSWORD_HASH);
        if (!user || !valid) {
          await lockIfExhausted(db, keys[1], wide.used, ACCOUNT_POLICY, now);
          if (await lockIfExhausted(db, keys[0], pair.used, PAIR_POLICY, now)) {
            throw await logFail(`密码输入错误${MAX_PASSWORD_FAILURES}次，帐户锁定${LOCK_MINUTES}分钟`);
          }
          throw await logFail(`账号或密码错误，再错 ${PAIR_POLICY.limit - pair.used} 次将锁定${LOCK_MINUTES}分钟`);
        }
        await clearAttempts(db, keys);
        // Said only to someone who knows the password.
        if (user.status !== '0') throw await logFail('账号已停用，请联系管理员');
      }

      await db
        .updateTable('sysUser')
        .set({ pwdFailCount: 0, lockUntil: null, loginIp: client.ipaddr, loginDate: now })
        .where('userId', '=', user.userId)
        .execute();
      const token = await createSession(db, user, client, app.config.sessionTtlMs, now, clientKey);
      await recordLogin(db, { userName: user.userName, status: '0', msg: '登录成功', ...client });
      return ok({ token }, '登录成功', { token });
    },
  );

  app.post<{ Body: { mobile: string; type?: 'login' | 'register' } }>(
    '/dev-api/api/index/sendCodev3',
    {
      config: { permission: 'public', rateLimit: routeRateLimit(app, '获取验证码', limits.smsPerAddressHour, HOUR), write: true },
      preHandler: hooks(smsPerNumber),
      schema: {
        body: {
          type: 'object',
          required: ['mobile'],
          properties: {
            mobile: { type: 'string', title: '手机号', maxLength: 20 },
            type: { type: 'string', title: '用途', enum: ['login', 'register'] },
          },
        },
      },
    },
    async (request) => {
      const { mobile } = request.body;
      const purpose = request.body.type ?? 'login';
      if (!new RegExp(MOBILE).test(mobile)) throw fail('手机号格式不正确');
      const now = Date.now();
      const last = await db.selectFrom('sysSmsCode').select('createTime').where('mobile', '=', mobile).orderBy('id', 'desc').executeTakeFirst();
      if (last && now - last.createTime < SMS_RESEND_MS) {
        throw fail(`验证码发送过于频繁，请 ${Math.ceil((SMS_RESEND_MS - (now - last.createTime)) / 1000)} 秒后再试`);
      }
      const bound = await db.selectFrom('sysUser').select('userId').where('mobile', '=', mobile).where('delFlag', '=', '0').executeTakeFirst();
      if (purpose === 'login' && !bound) throw fail('该手机号未绑定账号');
      if (purpose === 'register' && bound) throw fail('该手机号已注册，请直接登录');
      const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');
      const saved = await db
        .insertInto('sysSmsCode')
        .values({ mobile, codeHash: hashCode(mobile, code), purpose, expireTime: now + SMS_TTL_MS, attempts: 0, used: 0, createTime: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      try {
        await app.sms.send(mobile, code);
      } catch (err) {
        // The provider refused (server/sms/): nobody got this code, so it must not hold the 60 s resend gap.
        await db.deleteFrom('sysSmsCode').where('id', '=', saved.id).execute();
        throw err;
      }
      const demo = app.sms.driver === 'log';
      return ok({ driver: app.sms.driver }, demo ? '验证码已发送（演示环境未接入短信服务，验证码已写入服务器日志）' : '验证码已发送');
    },
  );

  app.post<{ Body: RegisterBody }>(
    '/dev-api/register',
    {
      config: { permission: 'public', rateLimit: routeRateLimit(app, '注册', limits.registerPerHour, HOUR), write: true },
      schema: {
        body: {
          type: 'object',
          required: ['username', 'password', 'confirmPassword'],
          properties: {
            username: { type: 'string', title: '账号', maxLength: 20 },
            password: { type: 'string', title: '密码', maxLength: 64 },
            confirmPassword: { type: 'string', title: '确认密码', maxLength: 64 },
            mobile: { type: 'string', title: '手机号', maxLength: 20 },
            realName: { type: 'string', title: '姓名', maxLength: 30 },
            code: { type: 'string', title: '验证码', maxLength: 8 },
          },
        },
      },
    },
    async (request) => {
      const { username, password, confirmPassword, mobile, realName, code } = request.body;
      // 注册设置 (server/system/settings.ts): 开放注册 is sys_platform.register_enabled; default role and SMS code from the group.
      const settings = await getSettings(db, 'register');
      if (!settings.registerEnabled) throw fail('当前系统没有开启注册功能！');
      if (settings.smsRequired && !mobile) throw fail('请输入手机号');
      if (settings.smsRequired && !code) throw fail('请输入短信验证码');
      const name = username.trim();
      if (name.length < 2 || name.length > 20) throw fail('账户长度必须在2到20个字符之间');
      if (!/^[A-Za-z0-9_]+$/.test(name)) throw fail('账号只能包含字母、数字和下划线');
      const bad = checkNewPassword(password, confirmPassword);
      if (bad) throw fail(bad === '新密码不能为空' ? '密码不能为空' : bad);
      if (mobile && !new RegExp(MOBILE).test(mobile)) throw fail('手机号格式不正确');
      const taken = await db.selectFrom('sysUser').select('userId').where('userName', '=', name).executeTakeFirst();
      if (taken) throw fail(`保存用户'${name}'失败，注册账号已存在`);
      if (mobile) {
        const mobileTaken = await db.selectFrom('sysUser').select('userId').where('mobile', '=', mobile).where('delFlag', '=', '0').executeTakeFirst();
        if (mobileTaken) throw fail('该手机号已注册，请直接登录');
      }
      if (settings.smsRequired && mobile && code) {
        const refused = await takeSmsCode(db, mobile, 'register', code, Date.now());
        if (refused) throw fail(refused);
      }
      const hash = await hashPassword(password);
      await db.transaction().execute(async (trx) => {
        const user = await trx
          .insertInto('sysUser')
          .values(
            newUserRow({
              userName: name,
              nickName: realName?.trim() || name,
              mobile: mobile || null,
              password: hash,
              createTime: Date.now(),
              remark: '自助注册',
              // No store and so no store scope (issue 22): 用户管理 assigns one if the account becomes staff.
              storeId: null,
            }),
          )
          .returning('userId')
          .executeTakeFirstOrThrow();
        // The configured default role while it is active, else the ordinary user role.
        const roleOf = (key: string) =>
          trx.selectFrom('sysRole').select('roleId').where('roleKey', '=', key).where('status', '=', '0').where('delFlag', '=', '0').executeTakeFirst();
        const role =
          (settings.defaultRoleKey !== 'admin' ? await roleOf(settings.defaultRoleKey) : undefined) ??
          (await trx.selectFrom('sysRole').select('roleId').where('roleKey', '=', 'common').executeTakeFirst());
        if (role) await trx.insertInto('sysUserRole').values({ userId: user.userId, roleId: role.roleId }).execute();
        await trx
          .updateTable('sysPlatform')
          .set((eb) => ({ registerNum: eb('registerNum', '+', 1) }))
          .where('id', '=', 1)
          .execute();
      });
      // platformInfo reads the platform row through the cache: the new count shows at once.
      if (app.hasDecorator('cache')) await app.cache.clear('platform');
      return ok(undefined, `恭喜你，您的账号 ${name} 注册成功！`);
    },
  );

  app.post('/dev-api/api/login/logout', { config: { permission: 'login', write: true } }, async (request) => {
    if (request.auth) await revokeSession(db, request.auth.tokenHash);
    return ok(undefined, '退出成功');
  });
}
