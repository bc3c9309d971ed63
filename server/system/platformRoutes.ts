import type { FastifyInstance } from 'fastify';
import { cached } from '../cache/index.js';
import { platformTotals } from '../home/index.js';
import { fail, ok } from '../http/envelope.js';
import { isAllowedToolboxAddress, TOOLBOX_ADDRESS_MESSAGE } from '../security/toolboxAddress.js';
import { getPlatform, platformInfo } from './platform.js';

const platformBody = {
  type: 'object',
  required: ['title', 'expiredate'],
  properties: {
    title: { type: 'string', title: '平台名称', minLength: 1, maxLength: 50 },
    expiredate: { type: 'string', title: '到期日期', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
    favicon: { type: ['string', 'null'], title: '网站图标', maxLength: 500 },
    watermark: { type: ['string', 'null'], title: '水印', maxLength: 50 },
    h5addr: { type: ['string', 'null'], title: 'H5地址', maxLength: 500 },
    logo: { type: ['string', 'null'], title: 'Logo', maxLength: 500 },
    smalllogo: { type: ['string', 'null'], title: '小Logo', maxLength: 500 },
    qrUrl: { type: ['string', 'null'], title: '二维码地址', maxLength: 500 },
    kfPhone: { type: ['string', 'null'], title: '客服电话', maxLength: 30 },
    wxapp: { type: ['string', 'null'], title: '小程序地址', maxLength: 500 },
    appdown: { type: ['string', 'null'], title: 'APP下载地址', maxLength: 500 },
    gwaddr: { type: ['string', 'null'], title: '官网地址', maxLength: 500 },
    appId: { type: ['string', 'null'], title: '应用ID', maxLength: 64 },
    toolboxaddr: { type: ['string', 'null'], title: '工具箱地址', maxLength: 500 },
    tipsTitle: { type: ['string', 'null'], title: '提示标题', maxLength: 50 },
    tips: { type: ['string', 'null'], title: '提示内容', maxLength: 500 },
    gddesc: { type: ['string', 'null'], title: '滚动公告', maxLength: 500 },
    registerEnabled: { type: 'integer', title: '开放注册', enum: [0, 1] },
  },
  additionalProperties: false,
} as const;

export async function platformRoutes(app: FastifyInstance) {
  const db = app.db.kysely;

  /** Public: the sign-in page needs the title and logo before anyone signs in. */
  // The row is cached (server/cache/; 平台设置 and 注册设置 saves clear it); the licence state is computed per call.
  const platformRow = () => cached(app, 'platform', 'row', () => getPlatform(db));
  // storeId is the signed-in caller's store (customers and cards, server/customer/); the platform's otherwise.
  // 访问量 and 注册人数 live (server/home/platformFigures.ts): the cached row's stored totals are written later.
  const platformFor = async (request: { auth?: { userId: number } | null }) => {
    const [row, totals] = await Promise.all([platformRow(), platformTotals(db, app.pageViews)]);
    const info = { ...platformInfo(row), ...totals };
    if (!request.auth) return ok(info);
    const me = await db.selectFrom('sysUser').select('storeId').where('userId', '=', request.auth.userId).executeTakeFirst();
    return ok(me ? { ...info, storeId: Number(me.storeId) } : info);
  };
  app.post('/appv2/api/index/platformInfo', { config: { permission: 'public', write: false } }, platformFor);
  app.get('/appv2/api/index/platformInfo', { config: { permission: 'public', write: false } }, platformFor);

  app.post('/appv2/api/apply/userInfo', { config: { permission: 'login', write: false } }, async (request) => {
    const auth = request.auth!;
    const user = await db
      .selectFrom('sysUser')
      .select(['userId', 'userName', 'nickName', 'mobile', 'avatar', 'diagnosis', 'deptId'])
      .where('userId', '=', auth.userId)
      .executeTakeFirstOrThrow();
    return ok({
      userId: user.userId,
      userName: user.userName,
      realName: user.nickName,
      roleName: auth.roleNames[0] ?? '--',
      roleId: auth.roleIds[0] ?? 0,
      roles: auth.roles,
      mobile: user.mobile ?? '',
      avatar: user.avatar,
      diagnosis: user.diagnosis === 1,
    });
  });

  app.post('/dev-api/api/Systerm/getNoteDesc', { config: { permission: 'login', write: false } }, async () => {
    const p = await getPlatform(db);
    const tips = (p.tips ?? '').split('\n').slice(0, 3);
    while (tips.length < 3) tips.push('');
    return ok({ tips_title: p.tipsTitle ?? '', tips, gddesc: p.gddesc ?? '' });
  });

  app.post('/dev-api/api/systerm/platformConfig', { config: { permission: 'login', write: false } }, async () => {
    const p = await getPlatform(db);
    // An address stored before the rule (or allowed by a setting since removed) is not handed out.
    const address = isAllowedToolboxAddress(p.toolboxaddr, app.config.toolboxOrigins) ? (p.toolboxaddr ?? '') : '';
    return ok({ toolboxaddr: address });
  });

  /** Platform settings screen (§1): read and edit every stored field. */
  app.get('/dev-api/system/platform', { config: { permission: 'system:platform:query', write: false } }, async () => ok(await getPlatform(db)));
  app.put<{ Body: Record<string, unknown> }>(
    '/dev-api/system/platform',
    { config: { permission: 'system:platform:edit', write: true }, schema: { body: platformBody } },
    async (request) => {
      const date = String(request.body.expiredate);
      // A real calendar day: Date would roll 2099-02-30 over to March instead of refusing it.
      const [y, m, d] = date.split('-').map(Number);
      const day = new Date(y, m - 1, d);
      if (day.getFullYear() !== y || day.getMonth() !== m - 1 || day.getDate() !== d) throw fail('到期日期格式不正确');
      if (!isAllowedToolboxAddress(request.body.toolboxaddr as string | null | undefined, app.config.toolboxOrigins)) throw fail(TOOLBOX_ADDRESS_MESSAGE);
      await db
        .updateTable('sysPlatform')
        .set({ ...request.body, updateTime: Date.now() })
        .where('id', '=', 1)
        .execute();
      return ok(undefined, '修改成功');
    },
  );
}
