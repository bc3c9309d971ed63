import fs from 'node:fs';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { AUTH_TABLES, createAuthCache } from './cache/auth.js';
import { cachePrefixFor } from './cache/index.js';
import { TableGenerations } from './cache/tableGenerations.js';
import type { ServerConfig } from './config.js';
import { CONTENT_HOOKS } from './content/hooks.js';
import { contentRoutes } from './content/routes.js';
import { customerRoutes } from './customer/routes.js';
import { openDatabase } from './db/connection.js';
import { migrate } from './db/migrate.js';
import { seed } from './db/seed/index.js';
import { syncSeededMenus } from './db/seed/menuSync.js';
import { seededMenus } from './db/seed/schemaMenus.js';
import { schemaEngineRoutes } from './engine/routes.js';
import { payRoutes } from './finance/payRoutes.js';
import { financeRoutes } from './finance/routes.js';
import { genRoutes } from './gen/routes.js';
import { homeRoutes } from './home/routes.js';
import { clientConfigRoutes, PUBLISH_COOKIE, readPublishTime } from './http/clientConfig.js';
import { registerCompression } from './http/compress.js';
import type { AuthContext, RegisteredRoute, RoutePermission } from './http/context.js';
import { ApiError, Code, type Envelope } from './http/envelope.js';
import { registerForeground } from './http/foreground.js';
import { checkJsonShape } from './http/jsonLimits.js';
import { checkPaging } from './http/paging.js';
import { registerSecurityHeaders, uploadHeaders } from './http/securityHeaders.js';
import { validationMessage } from './http/validation.js';
import { MONITOR_HOOKS } from './monitor/jobHooks.js';
import { monitorCorePlugin } from './monitor/plugin.js';
import { monitorRoutes } from './monitor/routes.js';
import { allows, loadAccess } from './security/access.js';
import { IdempotencyStore, KEY_REUSED_MESSAGE, PENDING_MESSAGE, REPLAYED_HEADER, requestKey } from './security/idempotency.js';
import { loadOrCreateKeys } from './security/keys.js';
import { openNonceStore } from './security/nonces.js';
import { AUTH_CODES, Protocol } from './security/protocol.js';
import { registerRateLimits } from './security/rateLimits.js';
import { findSession, hashToken } from './security/sessions.js';
import { isWriteRoute, REPEAT_MESSAGE, REPEAT_WINDOW_MS, submissionKey } from './security/writeGuard.js';
import { registerWatch, WriteWatch } from './security/writeWatch.js';
import { serviceRoutes } from './service/routes.js';
import { createSmsSender } from './sms/index.js';
import { registerStatic } from './static.js';
import { uploadRoot } from './storage/roots.js';
import { filesRoutes } from './storage/routes.js';
import { SYSTEM_HOOKS } from './system/hooks.js';
import { systemEngineRoutes, systemRoutes } from './system/routes.js';
import { toolboxRoutes } from './toolbox/routes.js';
import { volunteerRoutes } from './volunteer/routes.js';

export const API_PREFIXES = ['/dev-api/', '/appv2/'];
/** For registration and for wording only. Access is never decided from the URL text: Fastify matches the decoded path,
 *  so `/%64ev-api/…` reaches a /dev-api route. The gate reads the matched route's config instead (routePermission). */
const isApi = (url: string) => API_PREFIXES.some((p) => url.startsWith(p));
/** The permission the matched route declares; undefined for non-API routes (console files, uploads) and for no route. */
const routePermission = (request: FastifyRequest): RoutePermission | undefined => request.routeOptions?.config?.permission;

export interface BuildOptions {
  config: ServerConfig;
  /** Serve the built console from config.staticDir (off in API tests). */
  serveConsole?: boolean;
}

export async function buildApp({ config, serveConsole = true }: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.logger ? { level: 'info' } : false,
    bodyLimit: 10 * 1024 * 1024,
    // Start-up syncs every schema's table and may seed: on a large database or a busy machine that outlasts 10 s.
    pluginTimeout: 120_000,
    // The client address comes from X-Forwarded-For only behind a configured proxy (TRUST_PROXY), else from the socket.
    trustProxy: config.trustProxy as boolean, // (or hops / addresses: the union type trips Fastify's overloads)
    ajv: { customOptions: { verbose: true, allErrors: false, coerceTypes: 'array', removeAdditional: false } },
  });

  const db = await openDatabase(config);
  // Short-lived caches on the hot path (session, permission set, list totals) dropped the moment their tables are
  // written: see server/security/writeWatch.ts. Attached before migrations so every statement is seen.
  const watch = new WriteWatch(db.dialect === 'sqlite'); // shared PostgreSQL: caching only with Redis, see writeWatch.ts
  if (db.sqlStats) watch.attach(db.sqlStats);
  registerWatch(db.kysely.getExecutor().adapter, watch);
  // PostgreSQL + Redis: every process tells the others of its writes (a generation per table in Redis), so list
  // pages and totals may be kept again (server/cache/tableGenerations.ts).
  let generationsErrorLogged = 0;
  const tableGenerations =
    db.dialect !== 'sqlite' && config.redisUrl
      ? new TableGenerations(config.redisUrl, cachePrefixFor(config), (err) => {
          if (Date.now() - generationsErrorLogged < 60_000) return; // one line a minute while Redis is away
          generationsErrorLogged = Date.now();
          app.log.warn({ err }, '数据版本（Redis）不可用，列表暂时直接读数据库');
        })
      : null;
  if (tableGenerations) watch.share(tableGenerations);
  // The session and permission set of each request (server/cache/auth.ts): in Redis with REDIS_URL, shared by every
  // process; any write to their tables by any process makes every process read them again from the next request on.
  let authErrorLogged = 0;
  const authCache = createAuthCache({
    redisUrl: config.redisUrl,
    prefix: cachePrefixFor(config),
    soleWriter: db.dialect === 'sqlite',
    onError: (err) => {
      if (Date.now() - authErrorLogged < 60_000) return; // one line a minute while Redis is away
      authErrorLogged = Date.now();
      app.log.warn({ err }, '登录会话缓存（Redis）不可用，暂时直接读数据库');
    },
  });
  watch.announceWrites(AUTH_TABLES, () => authCache.bump(), ['sys_session']);
  await migrate(db);
  // The menu: the bespoke entries plus a page per schema x-menu (server/db/seed/schemaMenus.ts), from SCHEMAS_DIR too.
  const menus = seededMenus(config.schemasDir);
  await seed(db, { demo: config.seed, menus }); // system essentials always, demo data only with SEED (server/db/seed/index.ts)
  await syncSeededMenus(db, { menus }); // menus of modules and schemas added since this install was seeded (server/db/seed/menuSync.ts)
  const keys = loadOrCreateKeys(config.dataDir);

  app.decorate('db', db);
  app.decorate('keys', keys);
  app.decorate('protocol', new Protocol(keys, config.authWindowMs, config.authFutureSkewMs, config.authReadReuseMs));
  app.decorate('nonces', openNonceStore(db));
  app.decorate('config', config);
  app.decorate('sms', createSmsSender(config.sms, app.log));
  app.decorate('routeRegistry', [] as RegisteredRoute[]);
  app.decorateRequest('auth', null);

  // Many console calls are POSTs without a body; treat an empty JSON body as {} (the default parser rejects it).
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (typeof body === 'string' && body.trim() === '') return done(null, {});
    // Depth and key count are capped before parsing, for every route (server/http/jsonLimits.ts).
    const tooLarge = checkJsonShape(body as string);
    if (tooLarge) return done(tooLarge, undefined);
    defaultJson(request, body as string, done);
  });
  app.addHook('onClose', async () => {
    await app.nonces.close(); // claims of the last turn are written before the database closes
    await db.close();
    await authCache.close();
    tableGenerations?.close();
  });

  // Every answer tells the console which build is current (cookie publishtime); a page built earlier reloads on its
  // next listed path (spec §4 stale-version reload).
  const publishTime = readPublishTime(config.staticDir);
  if (publishTime) {
    app.addHook('onSend', async (_request, reply, payload) => {
      reply.header('set-cookie', `${PUBLISH_COOKIE}=${encodeURIComponent(publishTime)}; Path=/; SameSite=Strict`);
      return payload;
    });
  }

  // Every API route declares who may call it and whether it writes; registering one without either is a programming
  // error. Whether a route writes is never guessed from its name: a guess let 账户续费 count as a read (issue 22).
  app.addHook('onRoute', (route) => {
    if (!isApi(route.url)) return;
    const permission = route.config?.permission;
    if (!permission) throw new Error(`路由 ${route.url} 未声明权限（config.permission）`);
    const write = route.config?.write;
    if (typeof write !== 'boolean') throw new Error(`路由 ${route.url} 未声明是否写入（config.write: true | false）`);
    if (route.config?.idempotent && !write) throw new Error(`路由 ${route.url} 声明了 idempotent，必须同时声明 write: true`);
    // The idempotency guard runs on the money routes only, after the global hooks (auth): no cost on any other request.
    if (route.config?.idempotent) {
      const list = <T>(h: T | T[] | undefined): T[] => (h == null ? [] : Array.isArray(h) ? h : [h]);
      route.preHandler = [...list(route.preHandler), claimIdempotency] as typeof route.preHandler;
      route.onSend = [...list(route.onSend), settleIdempotency] as typeof route.onSend;
    }
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      app.routeRegistry.push({ method, url: route.url, permission, sensitive: Boolean(route.config?.sensitive), write });
    }
  });

  // Requests in flight, so background work (imports) steps aside for them (server/http/foreground.ts).
  registerForeground(app);

  // Security headers first, so refused requests' answers carry them too.
  await registerSecurityHeaders(app, config.toolboxOrigins);

  // The gate. Decided by the matched route whatever spelling reached it: a route that declares a permission is an API
  // route and is always checked; one that declares none (console files, /profile/ uploads) is not an API route.
  app.addHook('onRequest', async (request) => {
    const permission = routePermission(request);
    if (!permission) return;
    const authentication = header(request, 'authentication');
    const timer = header(request, 'timer');
    const signature = app.protocol.verify(authentication, timer);
    if (!signature.ok) throw new ApiError(signature.code, signature.msg);
    // Every new signature is claimed (remembered until its Timer leaves the window). A repeat is refused for a write;
    // a read may repeat it for a short while (docs/protocol.md "Single use"): the console signs its reads every 10 s.
    const first = !signature.known && (await app.nonces.claim(`sig:${signature.signature}`, app.protocol.nonceExpiry(timer as string)));
    if (!first && (isWriteRoute(request) || !app.protocol.mayReuse(timer as string))) {
      throw new ApiError(AUTH_CODES.replayed.code, AUTH_CODES.replayed.msg);
    }

    const token = bearer(request);
    if (permission === 'public') {
      if (token) await attachAuth(request, token, false);
      return;
    }
    if (!token) throw new ApiError(Code.UNAUTHORIZED, '未登录或登录已过期，请先登录');
    await attachAuth(request, token, true);
    const auth = request.auth as AuthContext;
    if (permission !== 'login' && !allows(auth, permission)) {
      throw new ApiError(Code.FORBIDDEN, `没有权限，请联系管理员授权（需要 ${permission}）`);
    }
  });

  // Paging parameters out of range get a clear 400 on every API route, before the route's own validation.
  app.addHook('preValidation', (request, _reply, done) => {
    if (routePermission(request)) checkPaging(request); // throws: Fastify answers through the error handler
    done();
  });

  // A second, independent check right before the handler: a route that needs a caller never runs without one, even if
  // a future change to the gate above let a request through. Then the duplicate-submit window for writes (spec §5).
  app.addHook('preHandler', (request, _reply, done) => {
    const permission = routePermission(request);
    if (!permission) return done();
    if (permission !== 'public' && !request.auth) return done(new ApiError(Code.UNAUTHORIZED, '未登录或登录已过期，请先登录'));
    // An idempotent route has the stronger guard below: a copy after the first finished gets its answer, not a refusal.
    if (!request.auth || !isWriteRoute(request) || request.routeOptions.config.idempotent) return done();
    const key = submissionKey(request, request.auth.userId);
    if (!key) return done();
    app.nonces.claim(key, Date.now() + REPEAT_WINDOW_MS).then((first) => {
      if (!first) return done(new ApiError(Code.ERROR, REPEAT_MESSAGE));
      submissions.set(request, key);
      done();
    }, done);
  });
  // A write that was refused changed nothing, so sending it again is a retry, not a double submit: its key is released.
  const submissions = new WeakMap<FastifyRequest, string | null>();
  app.addHook('onSend', (request, _reply, payload, done) => {
    const key = submissions.get(request);
    if (!key || (typeof payload === 'string' && /^\{"code":(200|20000)[,}]/.test(payload))) return done(null, payload);
    app.nonces.release(key).then(
      () => done(null, payload),
      (err) => done(err),
    );
  });

  // Money moves once (issue 22): the first copy of an idempotent request claims its key; a copy while it runs is
  // refused, a copy after it succeeded gets its answer, and nothing runs again (server/security/idempotency.ts).
  const idempotency = new IdempotencyStore(db.kysely.withoutPlugins() as never);
  const idempotencyWindows = { clientMs: config.idempotencyWindowMs, derivedMs: config.idempotencyDerivedWindowMs };
  const claims = new WeakMap<FastifyRequest, string>();
  // Route-level hooks of the idempotent routes (attached in onRoute above).
  async function claimIdempotency(request: FastifyRequest, reply: FastifyReply) {
    if (!request.auth) return;
    const k = requestKey(request, request.auth.userId, idempotencyWindows);
    if (!k) return;
    const outcome = await idempotency.claim(k, request.auth.userId);
    if (outcome.kind === 'pending') throw new ApiError(Code.ERROR, PENDING_MESSAGE);
    if (outcome.kind === 'mismatch') throw new ApiError(Code.BAD_REQUEST, KEY_REUSED_MESSAGE);
    if (outcome.kind === 'done') return reply.header('content-type', outcome.contentType).header(REPLAYED_HEADER, 'true').send(outcome.answer);
    claims.set(request, k.key);
  }
  async function settleIdempotency(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const key = claims.get(request);
    if (!key) return payload;
    claims.delete(request);
    const contentType = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
    return idempotency.settle(key, payload, contentType, (err) => request.log.error({ err }, '幂等记录写入失败'));
  }

  async function attachAuth(request: FastifyRequest, token: string, required: boolean): Promise<void> {
    let found = await authCache.lookup(hashToken(token), async () => {
      const session = await findSession(db.kysely, token);
      return session.ok ? { ...session, access: await loadAccess(db.kysely, session.session.userId) } : session;
    });
    if (found.ok && found.session.expireTime <= Date.now()) found = { ok: false, reason: 'expired' };
    if (!found.ok) {
      if (!required) return;
      const msg = found.reason === 'revoked' ? '登录状态已失效（已退出或被强制下线），请重新登录' : '登录状态已过期，请重新登录';
      throw new ApiError(Code.UNAUTHORIZED, msg);
    }
    const { access } = found;
    const { userId, userName, tokenHash, clientKey } = found.session;
    request.auth = { ...access, userId, userName, tokenHash, clientKey };
  }

  // Encrypt successful answers of sensitive routes, or when the caller asks with authEncode=1.
  app.addHook('preSerialization', (request, _reply, payload, done) => {
    if (!routePermission(request) || !payload || typeof payload !== 'object') return done(null, payload);
    const env = payload as Envelope;
    if (env.code !== Code.OK) return done(null, payload);
    if (!request.routeOptions.config?.sensitive && !wantsEncryption(request)) return done(null, payload);
    const { code: _c, msg, ...rest } = env;
    const plain = 'rows' in rest ? rest : rest.data;
    // Session mode when the console sent its own key at sign-in (SESSION_KEYS, default on); else the spec's static key.
    const clientKey = config.sessionKeys ? request.auth?.clientKey : null;
    done(null, { code: Code.ENCRYPTED, msg, data: clientKey ? app.protocol.encryptForSession(clientKey, plain) : app.protocol.encrypt(plain) });
  });

  app.setErrorHandler((error: Error & { statusCode?: number; code?: string; validation?: unknown[] }, request, reply) => {
    if (error instanceof ApiError) {
      return reply.status(200).send({ code: error.code, msg: error.message, ...error.extra });
    }
    if (error.validation) {
      return reply.status(200).send({ code: Code.BAD_REQUEST, msg: validationMessage(error.validation as never) });
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.status(200).send({ code: Code.BAD_REQUEST, msg: '请求数据过大，请减少内容后重试' });
    }
    if (error.code?.startsWith('FST_ERR_CTP') || (error.statusCode === 400 && error instanceof SyntaxError)) {
      return reply.status(200).send({ code: Code.BAD_REQUEST, msg: '请求数据格式错误（不是合法的 JSON），请检查后重试' });
    }
    // Static files (/profile/…): a refused path (.., dotfiles) is answered like a missing one, not as a server fault.
    if (!isApi(request.url) && (error.statusCode === 403 || error.statusCode === 404)) {
      return reply.status(404).send({ code: Code.NOT_FOUND, msg: '资源不存在' });
    }
    request.log.error(error);
    return reply.status(200).send({ code: Code.ERROR, msg: '系统内部错误，请稍后重试' });
  });

  // Uploads: multipart bodies (limits are set per route), and stored files served read-only under /profile/.
  await app.register(fastifyMultipart, { limits: { fileSize: 10 * 1024 * 1024, files: 5, fields: 20 } });
  await registerCompression(app);
  const uploads = uploadRoot(config.dataDir);
  fs.mkdirSync(uploads, { recursive: true });
  await app.register(fastifyStatic, {
    root: uploads,
    prefix: '/profile/',
    decorateReply: false,
    index: false,
    dotfiles: 'deny',
    setHeaders: (res, filePath) => uploadHeaders(filePath, (name, value) => res.header(name, value)),
  });
  await registerRateLimits(app, config); // before the routes: the plugin attaches each route's config.rateLimit as it is added
  await registerRoutes(app);
  const consoleFallback = serveConsole ? await registerStatic(app) : null;
  app.setNotFoundHandler((request, reply) => {
    if (isApi(request.url)) return reply.status(404).send({ code: Code.NOT_FOUND, msg: `接口不存在：${request.method} ${request.url.split('?')[0]}` });
    if (consoleFallback) return consoleFallback(request, reply);
    return reply.status(404).send({ code: Code.NOT_FOUND, msg: '资源不存在' });
  });
  return app;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function bearer(request: FastifyRequest): string | undefined {
  const raw = header(request, 'authorization');
  if (!raw) return undefined;
  const token = raw.startsWith('Bearer ') ? raw.slice(7).trim() : raw.trim();
  return token || undefined;
}

function wantsEncryption(request: FastifyRequest): boolean {
  const q = request.query as Record<string, unknown> | undefined;
  const b = request.body as Record<string, unknown> | undefined;
  return String(q?.authEncode ?? '') === '1' || (b !== null && typeof b === 'object' && String(b.authEncode ?? '') === '1');
}

/**
 * Every route of the server, module by module (../shared/notes/module-layout.md: each module's routes.ts, registered
 * once here). Order matters where noted: the monitor core and 首页's page-view hook come first, the schema engine
 * before the routes that use its tables and registry.
 */
async function registerRoutes(app: FastifyInstance) {
  await app.register(monitorCorePlugin); // first: cache, metrics, job runner (server/monitor/plugin.ts) for every later route
  await app.register(homeRoutes); // 首页 and 平台中心 (server/home/): to-dos, statistics, 快捷菜单, tabs, version log; its page-view hook sees every later route
  await app.register(clientConfigRoutes); // /app-config.js: the console's keys and publish time (server/http/clientConfig.ts)
  await app.register(systemRoutes); // 系统管理 before the engine: sign-in, password, menus, platform, profile, settings (server/system/routes.ts)
  await app.register(filesRoutes); // uploads and downloads (server/storage/routes.ts)
  await app.register(toolboxRoutes);
  await app.register(schemaEngineRoutes, { hooks: { ...SYSTEM_HOOKS, ...MONITOR_HOOKS, ...CONTENT_HOOKS } }); // schemas/<module>/*.json (docs/schemas.md); a bad schema stops the start
  await app.register(systemEngineRoutes); // 系统管理 extras that need the engine: roles, users, 组织机构, 权限, 用户资料, 备忘录
  await app.register(volunteerRoutes);
  await app.register(customerRoutes); // 会员卡 and 用户管理 (server/customer/)
  await app.register(payRoutes); // 财务: online payments, 充值, 续费, 优惠券, 对账, /pay/notify, the sandbox provider (server/finance/)
  await app.register(financeRoutes); // 财务: wallets, withdrawals, bank accounts, invoices (server/finance/routes.ts)
  await app.register(monitorRoutes); // 系统监控: 在线用户, job extras, cache, druid, server; /health /ready /metrics
  await app.register(contentRoutes); // 运营 / 官网 / 直播 extras, video upload (tus), the public site /site/ (server/content/); needs the engine
  await app.register(serviceRoutes); // 服务中心: work orders, app store / gallery / resource extras, posters (server/service/); needs the engine
  await app.register(genRoutes); // 代码生成 (server/gen/): table → schema file; needs the engine
}
