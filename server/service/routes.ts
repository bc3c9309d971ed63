import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { BusinessType, type BusinessTypeCode, recordOperation } from '../engine/operlog.js';
import type { Q } from '../engine/store.js';
import type { RoutePermission } from '../http/context.js';
import { ApiError, fail, ok, page } from '../http/envelope.js';
import { contains } from '../http/like.js';
import { intParam, requestParams } from '../http/params.js';
import { actorOf } from '../security/actor.js';
import { createStorage, isSafeKey, StorageNotFoundError } from '../storage/index.js';
import { ensureServiceDicts } from './dicts.js';
import { posterData, posterSvg, renderPng } from './poster.js';
import { assignWorkOrder, handleWorkOrder, listWorkOrders, rejectWorkOrder, submitWorkOrder, workOrderCustomers, workOrderDetail } from './workOrders.js';

/**
 * 服务中心 routes beyond the engine (server/service/README.md, docs/service.md): work orders (WorkOrder/*), the app
 * store's countApp, downloads of gallery materials and resources (counted, confined to their folder), the generated
 * school posters, help reading, and the built-in images /service/assets/<name>. Needs the engine (dictionaries).
 */

export const SERVICE_PERM = {
  workOrderList: 'service:workorder:list',
  workOrderAdd: 'service:workorder:add',
  workOrderHandle: 'service:workorder:handle',
  appList: 'service:app:list',
  helpList: 'service:help:list',
  galleryList: 'service:gallery:list',
  galleryDownload: 'service:gallery:download',
  resourceList: 'service:resource:list',
  resourceDownload: 'service:resource:download',
} as const;

const WORK_ORDER = '/dev-api/api/WorkOrder';
const ASSETS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'assets');
const RESOURCES_DIR = path.join(ASSETS_DIR, 'resources');
/** A built-in file is a plain name: no folders, no dots but the extension's. */
const ASSET_NAME = /^[a-z0-9][a-z0-9-]*\.(svg|png)$/;
const RESOURCE_NAME = /^[a-z0-9][a-z0-9-]*\.(pdf|xlsx|docx|txt)$/;
const PROFILE = '/profile/';
const ASSET_URL = '/service/assets/';

type Params = Record<string, unknown>;
const encodeName = (name: string) => encodeURIComponent(name).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
function attachment(reply: FastifyReply, name: string, contentType: string) {
  const encoded = encodeName(name);
  return reply
    .header('content-type', contentType)
    .header('content-disposition', `attachment; filename="${encoded}"; filename*=UTF-8''${encoded}`)
    .header('download-filename', encoded)
    .header('access-control-expose-headers', 'download-filename, content-disposition')
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff');
}

export async function serviceRoutes(app: FastifyInstance) {
  await ensureServiceDicts(app.schemaEngine.env);
  const db = app.db.kysely;
  const logDb = db as unknown as Q;
  const storage = await createStorage(app.config);
  app.addHook('onClose', async () => {
    await storage.close?.();
  });
  const actor = (request: FastifyRequest) => actorOf(db, request.auth);

  const read = (url: string, permission: RoutePermission, handler: (p: Params, r: FastifyRequest) => Promise<unknown>) =>
    app.route({ method: ['GET', 'POST'], url, config: { permission, write: false }, handler: (request) => handler(requestParams(request), request) });

  /** A write: {code, msg, data}, recorded in the operation log, refusals too. */
  const write = (
    url: string,
    permission: RoutePermission,
    log: { title: string; type: BusinessTypeCode; method: string; msg: string; idempotent?: boolean },
    handler: (p: Params, r: FastifyRequest) => Promise<unknown>,
  ) =>
    app.route({
      method: 'POST',
      url,
      // idempotent: handling a refund work order moves money; two copies have one effect (server/security/idempotency.ts).
      config: { permission, write: true, idempotent: log.idempotent === true },
      handler: async (request) => {
        const started = Date.now();
        const p = requestParams(request);
        const record = (status: 0 | 1, result?: unknown, errorMsg?: string) =>
          recordOperation(logDb, request, {
            title: log.title,
            businessType: log.type,
            method: log.method,
            param: p,
            result,
            status,
            errorMsg,
            costTime: Date.now() - started,
          });
        try {
          const data = await handler(p, request);
          await record(0, data);
          return ok(data, log.msg);
        } catch (error) {
          await record(1, undefined, error instanceof ApiError ? error.message : '操作失败');
          throw error;
        }
      },
    });

  // ---- 工单 ----
  const wo = (type: BusinessTypeCode, method: string, msg: string) => ({ title: '工单', type, method: `WorkOrder.${method}`, msg });
  write(`${WORK_ORDER}/saveWorkOrder`, SERVICE_PERM.workOrderAdd, wo(BusinessType.INSERT, 'save', '提交成功'), async (p, r) =>
    submitWorkOrder(db, storage, await actor(r), p),
  );
  read(`${WORK_ORDER}/list`, SERVICE_PERM.workOrderList, async (p, r) => {
    const res = await listWorkOrders(db, await actor(r), p);
    return page(res.rows, res.total);
  });
  read(`${WORK_ORDER}/info`, SERVICE_PERM.workOrderList, async (p, r) => ok(await workOrderDetail(db, await actor(r), p.workOrderId)));
  read(`${WORK_ORDER}/customers`, SERVICE_PERM.workOrderAdd, async (p, r) => ok(await workOrderCustomers(db, await actor(r), p)));
  write(`${WORK_ORDER}/assign`, SERVICE_PERM.workOrderHandle, wo(BusinessType.UPDATE, 'assign', '指派成功'), async (p, r) =>
    assignWorkOrder(db, await actor(r), p),
  );
  write(`${WORK_ORDER}/handle`, SERVICE_PERM.workOrderHandle, { ...wo(BusinessType.UPDATE, 'handle', '处理成功'), idempotent: true }, async (p, r) =>
    handleWorkOrder(db, await actor(r), p),
  );
  write(`${WORK_ORDER}/reject`, SERVICE_PERM.workOrderHandle, wo(BusinessType.UPDATE, 'reject', '已驳回'), async (p, r) =>
    rejectWorkOrder(db, await actor(r), p),
  );
  // Headquarters' staff a work order may be assigned to.
  read(`${WORK_ORDER}/handlers`, SERVICE_PERM.workOrderHandle, async () =>
    ok(
      await db
        .selectFrom('sysUser')
        .select(['userId', 'nickName'])
        .where('storeId', '=', 1)
        .where('status', '=', '0')
        .where('delFlag', '=', '0')
        .orderBy('userId')
        .limit(200)
        .execute(),
    ),
  );

  // ---- 应用商店 countApp: the shelf's counts by category; with appId, one more install of that app. ----
  // A write: with appId it counts one more install.
  app.post('/dev-api/api/ManagerAppStore/countApp', { config: { permission: SERVICE_PERM.appList, write: true } }, async (request) => {
    const p = requestParams(request);
    let installCount: number | undefined;
    const appId = intParam(p.appId);
    if (p.appId !== undefined) {
      if (appId == null) throw fail('请选择应用');
      const res = await sql`update service_app set install_count = coalesce(install_count, 0) + 1 where app_id = ${appId} and status = '1'`.execute(db);
      if (!Number(res.numAffectedRows ?? 0)) throw fail('应用不存在或已下架');
      const row = await sql<{ n: number }>`select install_count as n from service_app where app_id = ${appId}`.execute(db);
      installCount = Number(row.rows[0]?.n ?? 0);
    }
    const rows = await sql<{ category: string; n: number }>`select category, count(*) as n from service_app where status = '1' group by category`.execute(db);
    const categories = Object.fromEntries(rows.rows.map((r) => [r.category, Number(r.n)]));
    const total = rows.rows.reduce((a, r) => a + Number(r.n), 0);
    return ok({ total, categories, ...(installCount !== undefined ? { appId, installCount } : {}) });
  });

  // ---- 帮助指南: reading an article counts one view. ----
  app.route({
    method: ['GET', 'POST'],
    url: '/dev-api/api/Help/read',
    config: { permission: SERVICE_PERM.helpList, write: true },
    handler: async (request) => {
      const p = requestParams(request);
      const id = intParam(p.helpId);
      if (id == null) throw fail('请选择文章');
      const res = await sql`update service_help set view_count = coalesce(view_count, 0) + 1 where help_id = ${id} and status = '1'`.execute(db);
      if (!Number(res.numAffectedRows ?? 0)) throw fail('文章不存在或已下架');
      const row = await sql<
        Record<string, unknown>
      >`select help_id, title, category, keywords, content, view_count, update_time, create_time from service_help where help_id = ${id}`.execute(db);
      const r = row.rows[0];
      return ok({
        helpId: Number(r.helpId),
        title: r.title,
        category: r.category,
        keywords: r.keywords,
        content: r.content,
        viewCount: Number(r.viewCount),
        updateTime: r.updateTime == null ? null : Number(r.updateTime),
        createTime: Number(r.createTime),
      });
    },
  });

  /** Opens a stored upload or a built-in file; null when the address is neither (nothing outside the two folders). */
  async function openFile(address: string, builtinDir: string, builtinName: RegExp, builtinPrefix: string): Promise<Readable | Buffer | null> {
    if (address.startsWith(builtinPrefix)) {
      const name = address.slice(builtinPrefix.length);
      if (!builtinName.test(name)) return null;
      const abs = path.join(builtinDir, name);
      return fs.existsSync(abs) ? fs.promises.readFile(abs) : null;
    }
    const key = address.startsWith(PROFILE)
      ? address.slice(PROFILE.length)
      : address.startsWith(`${storage.publicBase}/`)
        ? address.slice(storage.publicBase.length + 1)
        : '';
    if (!key || !isSafeKey(key)) return null;
    try {
      return await storage.get(key);
    } catch (error) {
      if (error instanceof StorageNotFoundError) return null;
      throw error;
    }
  }
  const extOf = (s: string) => (s.match(/\.([a-z0-9]+)$/i)?.[1] ?? '').toLowerCase();
  const MIME: Record<string, string> = {
    png: 'image/png',
    jpg: 'image/jpeg',
    jpeg: 'image/jpeg',
    svg: 'image/svg+xml',
    pdf: 'application/pdf',
    xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  };

  // ---- 营销图库: download (counted) and the generated school posters. ----
  app.post('/dev-api/api/MarketingGallery/download', { config: { permission: SERVICE_PERM.galleryDownload, write: true } }, async (request, reply) => {
    const id = intParam(requestParams(request).galleryId);
    if (id == null) throw fail('请选择素材');
    const row = (await sql<{ title: string; image: string }>`select title, image from service_gallery where gallery_id = ${id} and status = '1'`.execute(db))
      .rows[0];
    if (!row) throw fail('素材不存在或已下架');
    const body = await openFile(row.image, ASSETS_DIR, ASSET_NAME, ASSET_URL);
    if (!body) throw fail('文件不存在或已被删除');
    await sql`update service_gallery set download_count = coalesce(download_count, 0) + 1 where gallery_id = ${id}`.execute(db);
    const ext = extOf(row.image);
    return attachment(reply, `${row.title}.${ext}`, MIME[ext] ?? 'application/octet-stream').send(body);
  });

  read('/dev-api/api/MarketingGallery/schools', SERVICE_PERM.galleryList, async (p) => {
    const keyword = typeof p.keyword === 'string' ? p.keyword.trim().slice(0, 30) : '';
    let q = db.selectFrom('gkSchool').select(['schoolId', 'name', 'schoolCode', 'examProvince', 'province', 'city']);
    if (keyword) q = q.where((eb) => eb.or([contains('name', keyword), contains('schoolCode', keyword)]));
    return ok(await q.orderBy('schoolCode').limit(30).execute());
  });

  app.post('/dev-api/api/MarketingGallery/poster', { config: { permission: SERVICE_PERM.galleryList, write: false } }, async (request, reply) => {
    const data = await posterData(db, requestParams(request).schoolId);
    const platform = await db.selectFrom('sysPlatform').select('title').executeTakeFirst();
    const png = renderPng(posterSvg(data, platform?.title || '志愿填报'));
    return attachment(reply, `${data.name}-录取海报.png`, 'image/png').send(png);
  });

  // ---- 资源下载: download (counted). ----
  app.post('/dev-api/api/ManagerResource/download', { config: { permission: SERVICE_PERM.resourceDownload, write: true } }, async (request, reply) => {
    const id = intParam(requestParams(request).resourceId);
    if (id == null) throw fail('请选择资源');
    const row = (
      await sql<{
        title: string;
        file: string;
        fileName: string | null;
      }>`select title, file, file_name from service_resource where resource_id = ${id} and status = '1'`.execute(db)
    ).rows[0];
    if (!row) throw fail('资源不存在或已下架');
    const body = await openFile(row.file, RESOURCES_DIR, RESOURCE_NAME, 'builtin:');
    if (!body) throw fail('文件不存在或已被删除');
    await sql`update service_resource set download_count = coalesce(download_count, 0) + 1 where resource_id = ${id}`.execute(db);
    const ext = extOf(row.file);
    const name = row.fileName || `${row.title}.${ext}`;
    return attachment(reply, name, MIME[ext] ?? 'application/octet-stream').send(body);
  });

  // Built-in images of the seeded apps and materials (not an API route: <img> tags load them).
  app.get<{ Params: { name: string } }>('/service/assets/:name', (request, reply) => {
    const name = request.params.name;
    const abs = path.join(ASSETS_DIR, name);
    if (!ASSET_NAME.test(name) || !fs.existsSync(abs)) return reply.status(404).type('text/plain; charset=utf-8').send('Not Found');
    return reply
      .type(MIME[extOf(name)] ?? 'application/octet-stream')
      .header('cache-control', 'public, max-age=86400')
      .header('x-content-type-options', 'nosniff')
      .send(fs.readFileSync(abs));
  });
}
