import type { FastifyInstance } from 'fastify';
import { fail, ok } from '../http/envelope.js';
import { createStorage, newObjectKey } from '../storage/index.js';
import { mimeOf, sniffRaster } from '../storage/sniff.js';

const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
/** Avatar types, judged by content (the console always names the cropped image avatar.png). */
const AVATAR_TYPES: readonly string[] = ['png', 'jpg'];

/** 个人中心 (/user/profile): one's own info, edits with a version check, and the avatar upload. */
export async function profileRoutes(app: FastifyInstance) {
  const db = app.db.kysely;
  // Avatars live in the configured storage (server/storage: local disk under /profile/ by default, S3 by config).
  const storage = await createStorage(app.config);
  app.addHook('onClose', async () => {
    await storage.close?.();
  });
  /** The storage key of an avatar URL this storage issued (folder avatar/), else null (a foreign or legacy address). */
  const avatarKey = (url: string | null) => {
    const prefix = `${storage.publicBase}/avatar/`;
    return url?.startsWith(prefix) ? url.slice(storage.publicBase.length + 1) : null;
  };

  app.get('/dev-api/system/user/profile', { config: { permission: 'login', write: false } }, async (request) => {
    const auth = request.auth!;
    const user = await db
      .selectFrom('sysUser as u')
      .leftJoin('sysDept as d', 'd.deptId', 'u.deptId')
      .select(['u.userId', 'u.userName', 'u.nickName', 'u.mobile', 'u.email', 'u.sex', 'u.avatar', 'u.createTime', 'u.version', 'd.deptName'])
      .where('u.userId', '=', auth.userId)
      .executeTakeFirstOrThrow();
    const posts = await db
      .selectFrom('sysUserPost as up')
      .innerJoin('sysPost as p', 'p.postId', 'up.postId')
      .select('p.postName')
      .where('up.userId', '=', auth.userId)
      .execute();
    return ok(user, '操作成功', { roleGroup: auth.roleNames.join(',') || '--', postGroup: posts.map((p) => p.postName).join(',') });
  });

  app.put<{ Body: { nickName: string; mobile?: string | null; email?: string | null; sex?: string; version: number } }>(
    '/dev-api/system/user/profile',
    {
      config: { permission: 'login', write: true },
      schema: {
        body: {
          type: 'object',
          required: ['nickName', 'version'],
          additionalProperties: false,
          properties: {
            nickName: { type: 'string', title: '用户昵称', minLength: 1, maxLength: 30 },
            mobile: { type: ['string', 'null'], title: '手机号码', maxLength: 11 },
            email: { type: ['string', 'null'], title: '邮箱', maxLength: 50 },
            sex: { type: 'string', title: '性别', enum: ['0', '1', '2'] },
            version: { type: 'integer', title: '版本' },
          },
        },
      },
    },
    async (request) => {
      const auth = request.auth!;
      const { nickName, mobile, email, sex, version } = request.body;
      if (mobile && !/^1[3-9]\d{9}$/.test(mobile)) throw fail('手机号码格式不正确');
      if (email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw fail('邮箱格式不正确');
      if (mobile) {
        const other = await db
          .selectFrom('sysUser')
          .select('userId')
          .where('mobile', '=', mobile)
          .where('userId', '!=', auth.userId)
          .where('delFlag', '=', '0')
          .executeTakeFirst();
        if (other) throw fail(`修改用户'${auth.userName}'失败，手机号码已存在`);
      }
      const res = await db
        .updateTable('sysUser')
        .set({ nickName: nickName.trim(), mobile: mobile || null, email: email || null, ...(sex ? { sex } : {}), updateTime: Date.now(), version: version + 1 })
        .where('userId', '=', auth.userId)
        .where('version', '=', version)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) throw fail('资料已在别处被修改，请刷新后再保存（未保存本次修改）');
      return ok({ version: version + 1 }, '修改成功');
    },
  );

  app.post('/dev-api/system/user/profile/avatar', { config: { permission: 'login', write: true } }, async (request) => {
    const auth = request.auth!;
    if (!request.isMultipart()) throw fail('请选择要上传的头像图片');
    // throwFileSizeLimit off: an over-size file arrives truncated and is refused below with the size message.
    const file = await request.file({ limits: { fileSize: AVATAR_MAX_BYTES, files: 1 }, throwFileSizeLimit: false });
    if (!file) throw fail('请选择要上传的头像图片');
    const buffer = await file.toBuffer();
    if (file.file.truncated) throw fail('上传头像图片大小不能超过 5 MB!');
    const ext = sniffRaster(buffer);
    if (!ext || !AVATAR_TYPES.includes(ext)) throw fail('文件格式不正确, 请上传png/jpg/jpeg图片格式文件!');
    const key = newObjectKey('avatar', ext);
    const url = await storage.put(key, buffer, mimeOf(ext));
    let previous: string | null = null;
    try {
      previous = (await db.selectFrom('sysUser').select('avatar').where('userId', '=', auth.userId).executeTakeFirst())?.avatar ?? null;
      await db.updateTable('sysUser').set({ avatar: url, updateTime: Date.now() }).where('userId', '=', auth.userId).execute();
    } catch (error) {
      await storage.delete(key).catch(() => {});
      throw error;
    }
    // The replaced avatar is nobody's any more (keys are random and per upload): remove it, best effort.
    const old = avatarKey(previous);
    if (old && old !== key) await storage.delete(old).catch((err: unknown) => request.log.warn({ err }, '删除旧头像失败'));
    return ok({ imgUrl: url }, '头像上传成功', { imgUrl: url });
  });
}
