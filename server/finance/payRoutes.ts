import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BusinessType, type BusinessTypeCode, recordOperation } from '../engine/operlog.js';
import type { Q } from '../engine/store.js';
import type { RoutePermission } from '../http/context.js';
import { ApiError, fail, ok, page } from '../http/envelope.js';
import { intParam, paging, requestParams } from '../http/params.js';
import { actorOf, assertStore } from '../security/actor.js';
import { requireStore } from '../security/storeScope.js';
import { createStorage, newObjectKey } from '../storage/index.js';
import { detectType, extensionOf, mimeOf } from '../storage/sniff.js';
import { createCardOrder, startRenewal } from './checkout.js';
import { createBatch, listBatches, myCoupons, pullCoupon, setBatchStatus, verifyCoupon } from './coupons.js';
import { registerPayJobs } from './jobs.js';
import { createOrder, fenParam, findOrder, handleNotification, orderStatus, publicOrder } from './orders.js';
import { PayProviders, payConfigFromEnv, setActiveProviders } from './pay/index.js';
import { PROVIDER_TITLES, type ProviderName } from './pay/provider.js';
import { loadOrCreateSandboxKey } from './pay/sandbox.js';
import { registerSandboxPage, SandboxNotifier } from './pay/sandboxPage.js';
import { commitOffline, commitOnline, confirmOffline, rechargeLog, rechargeTypes, rejectOffline, VOUCHER_FOLDER } from './recharge.js';
import { dailyReport, reportWorkbook } from './reconcile.js';
import { renewalInfo } from './renewal.js';

/**
 * Routes of finance payments (docs/finance-payments.md): the spec §7.9 / §7.7 calls under /appv2/api (充值, 续费,
 * 优惠券, online orders), headquarters' review, coupon and reconciliation calls under /dev-api/finance, and two
 * non-API groups of the "outside": /pay/notify/<provider> (the providers' notifications, judged by their signatures,
 * not by a console session) and the sandbox provider's page /pay/sandbox/<tradeNo>.
 */

export const PAY_PERM = {
  rechargeList: 'finance:recharge:list',
  rechargeApply: 'finance:recharge:apply',
  rechargeReview: 'finance:recharge:review',
  renewalList: 'finance:renewal:list',
  renewalPay: 'finance:renewal:pay',
  couponList: 'finance:coupon:list',
  /** Issuing and stopping batches: headquarters (the leader grant excludes *:issue). */
  couponIssue: 'finance:coupon:issue',
  reconcileList: 'finance:reconcile:list',
  reconcileExport: 'finance:reconcile:export',
} as const;

/** A voucher is an image (png / jpg) or a PDF of at most 5 MB, judged by its content. */
const VOUCHER_TYPES = ['png', 'jpg', 'jpeg', 'pdf'];
const VOUCHER_MAX_BYTES = 5 * 1024 * 1024;

type Params = Record<string, unknown>;

// Keyed by the server's http.Server: the same object for the root instance and this plugin's encapsulated one.
const sandboxNotifiers = new WeakMap<object, SandboxNotifier>();
const appProviders = new WeakMap<object, PayProviders>();

/** The sandbox notifier of a running server (test hooks: mode, held notifications, flush, settle). */
export function sandboxNotifier(app: FastifyInstance): SandboxNotifier {
  const n = sandboxNotifiers.get(app.server);
  if (!n) throw new Error('the sandbox provider is not enabled');
  return n;
}

/** The payment providers of a running server (tests sign notifications with its sandbox key). */
export function payProvidersOf(app: FastifyInstance): PayProviders {
  const p = appProviders.get(app.server);
  if (!p) throw new Error('finance payments are not started');
  return p;
}

export async function payRoutes(app: FastifyInstance) {
  registerPayJobs();
  const db = app.db.kysely;
  const logDb = db as unknown as Q;
  const providers = new PayProviders(payConfigFromEnv(), loadOrCreateSandboxKey(app.config.dataDir));
  setActiveProviders(providers);
  const storage = await createStorage(app.config);
  app.addHook('onClose', async () => storage.close?.());
  const actor = (request: FastifyRequest) => actorOf(db, request.auth);
  const defaultProvider = (): ProviderName => {
    const first = providers.enabled()[0];
    if (!first) throw fail('没有可用的在线支付方式，请联系管理员配置');
    return first;
  };
  const clearPlatform = async () => {
    if (app.hasDecorator('cache')) await app.cache.clear('platform');
  };

  const read = (
    method: 'GET' | 'POST' | ['GET', 'POST'],
    url: string,
    permission: RoutePermission,
    handler: (p: Params, r: FastifyRequest) => Promise<unknown>,
  ) => app.route({ method, url, config: { permission, write: false }, handler: (request) => handler(requestParams(request), request) });

  /** A write: answered as {code, msg, data} and recorded in the operation log (refusals too). `idempotent`: the write
   *  moves money, so two copies of one request have one effect (server/security/idempotency.ts). */
  const write = (
    url: string,
    permission: RoutePermission,
    log: { title: string; type: BusinessTypeCode; method: string; msg: string; idempotent?: boolean },
    handler: (p: Params, r: FastifyRequest) => Promise<unknown>,
    method: 'POST' | 'PUT' = 'POST',
  ) =>
    app.route({
      method,
      url,
      config: { permission, write: true, idempotent: log.idempotent === true },
      handler: async (request) => {
        const started = Date.now();
        const p = requestParams(request);
        const entry = { title: log.title, businessType: log.type, method: log.method, param: p, costTime: 0 };
        try {
          const data = await handler(p, request);
          await recordOperation(logDb, request, { ...entry, result: data, status: 0, costTime: Date.now() - started });
          return ok(data, log.msg);
        } catch (error) {
          const msg = error instanceof ApiError ? error.message : '操作失败';
          await recordOperation(logDb, request, { ...entry, status: 1, errorMsg: msg, costTime: Date.now() - started });
          throw error;
        }
      },
    });

  // ---- configuration (spec §7.9 index/*) ----
  read(['GET', 'POST'], '/appv2/api/index/rechargeType', 'login', async () => ok(rechargeTypes(providers)));
  read(['GET', 'POST'], '/appv2/api/index/freeNum', 'login', async () => ok(await renewalInfo(db)));
  read(['GET', 'POST'], '/appv2/api/index/kdConfig', 'login', async () =>
    ok({
      providers: providers.enabled().map((p) => ({ provider: p, name: PROVIDER_TITLES[p] })),
      defaultProvider: providers.enabled()[0] ?? null,
      sandbox: Boolean(providers.sandbox),
      orderTimeoutMinutes: Math.round(providers.config.orderTimeoutMs / 60_000),
    }),
  );

  // ---- 充值管理 ----
  const rechargeLog_ = { title: '充值管理', type: BusinessType.INSERT };
  write(
    '/appv2/api/MoneyWallet/commitRecharge',
    PAY_PERM.rechargeApply,
    { ...rechargeLog_, method: 'finance.recharge.online', msg: '订单已创建，请完成支付', idempotent: true },
    async (p, r) => commitOnline(db, await actor(r), p, providers),
  );
  write(
    '/appv2/api/MoneyWallet/commitRecharg',
    PAY_PERM.rechargeApply,
    { ...rechargeLog_, method: 'finance.recharge.offline', msg: '已提交，等待总部确认', idempotent: true },
    async (p, r) => commitOffline(db, await actor(r), p),
  );
  read(['GET', 'POST'], '/appv2/api/MoneyWallet/rechargeLog', PAY_PERM.rechargeList, async (p, r) => {
    const { rows, total } = await rechargeLog(db, await actor(r), p);
    return page(rows, total);
  });
  write(
    '/dev-api/finance/recharge/confirm',
    PAY_PERM.rechargeReview,
    { title: '充值管理', type: BusinessType.UPDATE, method: 'finance.recharge.confirm', msg: '已确认到账', idempotent: true },
    async (p, r) => confirmOffline(db, await actor(r), p),
  );
  write(
    '/dev-api/finance/recharge/reject',
    PAY_PERM.rechargeReview,
    { title: '充值管理', type: BusinessType.UPDATE, method: 'finance.recharge.reject', msg: '已驳回', idempotent: true },
    async (p, r) => rejectOffline(db, await actor(r), p),
  );

  // upVoucher: one file (multipart field "file"), an image or a PDF judged by its bytes, stored under voucher/.
  app.post('/appv2/api/MoneyWallet/upVoucher', { config: { permission: PAY_PERM.rechargeApply, write: true } }, async (request) => {
    if (!request.isMultipart()) throw fail('请选择要上传的转账凭证');
    const file = await request.file({ limits: { fileSize: VOUCHER_MAX_BYTES, files: 1 } });
    if (!file) throw fail('请选择要上传的转账凭证');
    const buffer = await file.toBuffer().catch(() => null);
    if (!buffer || file.file.truncated) throw fail('转账凭证不能超过 5 MB');
    const ext = extensionOf(file.filename ?? '');
    const kind = VOUCHER_TYPES.includes(ext) ? detectType(buffer, ext, VOUCHER_TYPES) : null;
    if (!kind) throw fail('转账凭证只能是图片（png、jpg）或 PDF 文件');
    const key = newObjectKey(VOUCHER_FOLDER, kind === 'jpeg' ? 'jpg' : kind);
    const url = await storage.put(key, buffer, mimeOf(kind));
    return ok({ url, fileName: (file.filename ?? '').slice(0, 100) }, '上传成功');
  });

  // ---- online orders ----
  write(
    '/appv2/api/AlipayTool/creatAliOrder',
    'login',
    { title: '在线支付', type: BusinessType.INSERT, method: 'finance.order.customerPayment', msg: '订单已创建，请完成支付', idempotent: true },
    async (p, r) => {
      const a = await actor(r);
      const storeId = intParam(p.storeId) ?? requireStore(a);
      const store = await db.selectFrom('cusStore').select(['storeId', 'status']).where('storeId', '=', storeId).executeTakeFirst();
      if (store?.status !== '0') throw fail('收款门店不存在或已停用');
      const subject = typeof p.subject === 'string' && p.subject.trim() ? p.subject.trim() : '志愿填报服务费';
      return createOrder(
        db,
        {
          purpose: 'customer_payment',
          storeId,
          amountFen: fenParam(p.amountFen, '支付金额'),
          subject,
          provider: (typeof p.provider === 'string' && p.provider ? p.provider : defaultProvider()) as ProviderName,
          userId: a.userId,
          userName: a.userName,
        },
        providers,
      );
    },
  );

  /** An order's state (the console polls it while the payer pays); its payer, its store or headquarters may look. */
  const orderFor = async (p: Params, r: FastifyRequest) => {
    const orderNo = typeof p.orderNo === 'string' ? p.orderNo.trim() : '';
    if (!orderNo) throw fail('订单号不能为空');
    const a = await actor(r);
    const o = await findOrder(db, orderNo);
    if (!o) throw fail('订单不存在');
    if (o.userId !== a.userId) assertStore(a, o.storeId, '订单');
    return orderStatus(db, orderNo, providers);
  };
  // A read, though polling an order past its expiry closes it (orderStatus): that close is conditional and happens once
  // whatever the number of polls, and the console polls with one signature for a while.
  read(['GET', 'POST'], '/dev-api/finance/pay/order', 'login', async (p, r) => ok(await orderFor(p, r)));

  // ---- 账户续费 ----
  write(
    '/appv2/api/wxpay/channelRenewal',
    PAY_PERM.renewalPay,
    { title: '账户续费', type: BusinessType.INSERT, method: 'finance.renewal', msg: '续费订单已创建', idempotent: true },
    async (p, r) => {
      const result = await startRenewal(db, await actor(r), p, providers);
      if ((result as { status?: string }).status === 'paid') await clearPlatform();
      return result;
    },
  );
  read(['GET', 'POST'], '/appv2/api/wxpay/channelRenewalVertiy', 'login', async (p, r) => {
    const o = await orderFor(p, r);
    if (o.status === 'paid') await clearPlatform();
    return ok({ ...o, ...(await renewalInfo(db)) });
  });
  read('GET', '/dev-api/finance/renewal/list', PAY_PERM.renewalList, async (p, r) => {
    const a = await actor(r);
    const { pageSize, offset } = paging(p);
    let q = db.selectFrom('finPayOrder').where('purpose', '=', 'renewal');
    if (!a.allStores) q = q.where('storeId', '=', a.storeId);
    const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    const rows = await q.selectAll().orderBy('createTime', 'desc').limit(pageSize).offset(offset).execute();
    return page(rows.map(publicOrder), Number(total?.n ?? 0));
  });

  // ---- 优惠券 ----
  read(['GET', 'POST'], '/appv2/api/coupon/getCouponData', 'login', async (p, r) => {
    const a = await actor(r);
    const available = await listBatches(db, { ...a, allStores: false }, { ...p, pageSize: p.pageSize ?? 50 });
    return ok({ available: available.rows, mine: await myCoupons(db, a.userId) });
  });
  write('/appv2/api/coupon/pullCoupon', 'login', { title: '优惠券', type: BusinessType.INSERT, method: 'finance.coupon.pull', msg: '领取成功' }, async (p, r) =>
    pullCoupon(db, (await actor(r)).userId, p.batchId),
  );
  write(
    '/appv2/api/Coupon/addMoney',
    PAY_PERM.couponIssue,
    { title: '优惠券', type: BusinessType.INSERT, method: 'finance.coupon.add', msg: '新增成功' },
    async (p, r) => createBatch(db, await actor(r), p),
  );
  read(['GET', 'POST'], '/appv2/api/Coupon/payVerification', 'login', async (p, r) => ok(await verifyCoupon(db, (await actor(r)).userId, p)));
  write(
    '/appv2/api/Coupon/creatWeChatOrder',
    'login',
    { title: '在线购卡', type: BusinessType.INSERT, method: 'finance.order.cardPurchase', msg: '订单已创建，请完成支付', idempotent: true },
    async (p, r) => createCardOrder(db, await actor(r), p, defaultProvider()),
  );
  read('GET', '/dev-api/finance/coupon/list', PAY_PERM.couponList, async (p, r) => {
    const { rows, total } = await listBatches(db, await actor(r), p);
    return page(rows, total);
  });
  write(
    '/dev-api/finance/coupon/status',
    PAY_PERM.couponIssue,
    { title: '优惠券', type: BusinessType.UPDATE, method: 'finance.coupon.status', msg: '修改成功' },
    async (p, r) => setBatchStatus(db, await actor(r), p),
    'PUT',
  );

  // ---- 对账 ----
  read('GET', '/dev-api/finance/reconcile', PAY_PERM.reconcileList, async (p, r) => ok(await dailyReport(db, await actor(r), p)));
  app.get('/dev-api/finance/reconcile/export', { config: { permission: PAY_PERM.reconcileExport, write: false } }, async (request, reply: FastifyReply) => {
    const report = await dailyReport(db, await actor(request), requestParams(request));
    const buffer = await reportWorkbook(report);
    const name = encodeURIComponent(`对账_${report.date}.xlsx`);
    return reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename*=UTF-8''${name}`)
      .header('download-filename', name)
      .header('access-control-expose-headers', 'download-filename, content-disposition')
      .send(buffer);
  });

  // ---- the outside: provider notifications and the sandbox provider's page ----
  await app.register(async (outside) => {
    // Signatures cover the exact bytes: every body is kept as received text.
    outside.removeAllContentTypeParsers();
    outside.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

    outside.post<{ Params: { provider: string } }>('/pay/notify/:provider', async (request, reply) => {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v[0] : v]));
      const body = typeof request.body === 'string' ? request.body : '';
      const result = await handleNotification(db, providers, request.params.provider, { headers, body });
      if (result.outcome !== 'applied' && result.outcome !== 'ignored')
        request.log.warn({ provider: request.params.provider, outcome: result.outcome, msg: result.message }, 'payment notification not applied');
      if (result.outcome === 'applied' && result.order?.purpose === 'renewal') await clearPlatform();
      return reply.status(result.answer.status).header('content-type', result.answer.contentType).send(result.answer.body);
    });

    if (providers.sandbox) {
      const notifier = new SandboxNotifier(app, providers.sandbox);
      sandboxNotifiers.set(app.server, notifier);
      registerSandboxPage(outside, notifier);
    }
  });
  appProviders.set(app.server, providers);
}
