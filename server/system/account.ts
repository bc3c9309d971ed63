import type { FastifyInstance } from 'fastify';
import type { SavePassBody } from '../../common/system/account.js';
import { fail, ok } from '../http/envelope.js';
import { clearAttempts, lockIfExhausted, OLD_PASSWORD_POLICY, oldPasswordKey, reserveAttempt } from '../security/loginAttempts.js';
import { hashPassword, verifyPassword } from '../security/password.js';
import { revokeUserSessions } from '../security/sessions.js';
import { checkNewPassword } from './users.js';

export async function accountRoutes(app: FastifyInstance) {
  const db = app.db.kysely;

  /** Change one's own password (spec §5, §7.1). Other sessions of the user are signed out. */
  app.post<{ Body: Partial<SavePassBody> }>(
    '/dev-api/api/account/savePass',
    {
      config: { permission: 'login', write: true },
      schema: {
        body: {
          type: 'object',
          properties: {
            mobile: { type: 'string', title: '手机号', maxLength: 20 },
            oldpass: { type: 'string', title: '旧密码', maxLength: 64 },
            qrPass: { type: 'string', title: '确认密码', maxLength: 64 },
            pass: { type: 'string', title: '新密码', maxLength: 64 },
          },
        },
      },
    },
    async (request) => {
      const auth = request.auth;
      if (!auth) throw fail('未登录', 401);
      const { mobile, oldpass, qrPass, pass } = request.body ?? {};
      const bad = checkNewPassword(pass, qrPass);
      if (bad) throw fail(bad);
      const user = await db
        .selectFrom('sysUser')
        .select(['userId', 'password', 'mobile', 'version'])
        .where('userId', '=', auth.userId)
        .executeTakeFirstOrThrow();
      if (mobile && user.mobile && mobile !== user.mobile) throw fail('手机号与当前账号不一致');
      // A user who has never set a password (e.g. signed up by SMS) need not give an old one.
      if (user.password) {
        if (!oldpass) throw fail('请输入旧密码');
        // Counted before it is checked (server/security/loginAttempts.ts): 60 parallel guesses check at most 5 old
        // passwords, then the change is locked for a while. A stolen session must not become a password oracle.
        const key = oldPasswordKey(user.userId);
        const now = Date.now();
        const lockedMessage = (lockUntil: number) =>
          `旧密码输入错误次数过多，修改密码已暂停，请 ${Math.max(1, Math.ceil((lockUntil - now) / 60000))} 分钟后再试`;
        const reserved = await reserveAttempt(db, key, OLD_PASSWORD_POLICY, now);
        if (!reserved.ok) throw fail(lockedMessage(reserved.lockUntil));
        if (!(await verifyPassword(oldpass, user.password))) {
          if (await lockIfExhausted(db, key, reserved.used, OLD_PASSWORD_POLICY, now)) throw fail(lockedMessage(now + OLD_PASSWORD_POLICY.lockMs));
          throw fail('旧密码错误');
        }
        await clearAttempts(db, [key]);
        if (oldpass === pass) throw fail('新密码不能与旧密码相同');
      }
      const hash = await hashPassword(pass as string);
      const res = await db
        .updateTable('sysUser')
        .set({ password: hash, updateTime: Date.now(), version: user.version + 1 })
        .where('userId', '=', user.userId)
        .where('version', '=', user.version)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) throw fail('账号信息已被修改，请刷新后重试');
      await revokeUserSessions(db, user.userId, auth.tokenHash);
      return ok(undefined, '修改成功');
    },
  );
}
