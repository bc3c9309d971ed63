import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { logged, writeContext } from '../engine/context.js';
import { rowToRecord } from '../engine/model.js';
import { BusinessType } from '../engine/operlog.js';
import { publicRecord, publishedRows } from '../engine/publish.js';
import { createRecord, updateRecord } from '../engine/records.js';
import { findRow } from '../engine/store.js';
import { ApiError, Code, ok, page } from '../http/envelope.js';
import { ensureContentDicts } from './dicts.js';
import { PreviewTokens, registerPreviewToken } from './preview.js';
import { registerSite } from './site.js';
import { registerVideoUpload } from './video.js';

/**
 * Routes of the content module beyond the engine (server/content/README.md): the rest of spec §7.7
 * ManagerClassroom (addClassType, addClassRoomPrice, roomVideo, delRoomVideo, bannerInfo, classroomBanner), the
 * submitter's side of 意见反馈, the resumable video upload and the public site /site/. Needs the engine.
 */

const CLASSROOM = '/appv2/api/ManagerClassroom';
const bodyOf = (request: FastifyRequest) => (request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : {});

export async function contentRoutes(app: FastifyInstance): Promise<void> {
  const env = app.schemaEngine.env;
  await ensureContentDicts(env);
  const entity = (id: string) => {
    const e = env.entities.get(id);
    if (!e) throw new Error(`缺少 schema ${id}`);
    return e;
  };
  const classType = entity('content_class_type');
  const classroom = entity('content_classroom');
  const video = entity('content_classroom_video');
  const banner = entity('content_banner');
  const feedback = entity('content_feedback');

  // addClassType: RuoYi-style alias of saveClassType for a new type (same validation, same log).
  app.post(`${CLASSROOM}/addClassType`, { config: { permission: 'operation:classtype:add', write: true } }, (request) =>
    logged(env, request, { title: classType.title, businessType: BusinessType.INSERT, method: 'content_class_type.add', param: request.body }, async () => {
      const body = { ...bodyOf(request) };
      delete body.classTypeId;
      const { id, version } = await env.k.transaction().execute((trx) => createRecord(writeContext(env, request, trx), classType, body));
      return ok({ classTypeId: id, version }, '新增成功');
    }),
  );

  // addClassRoomPrice: { classroomId, price (fen), version } — only the price changes.
  app.post(`${CLASSROOM}/addClassRoomPrice`, { config: { permission: 'operation:classroom:edit', write: true } }, (request) =>
    logged(env, request, { title: classroom.title, businessType: BusinessType.UPDATE, method: 'content_classroom.price', param: request.body }, async () => {
      const b = bodyOf(request);
      if (b.price === undefined || b.price === null || b.price === '') throw new ApiError(Code.BAD_REQUEST, '价格（分）不能为空');
      const patch = { classroomId: b.classroomId, version: b.version, price: b.price };
      const { id, version } = await env.k.transaction().execute((trx) => updateRecord(writeContext(env, request, trx), classroom, patch, 'patch'));
      return ok({ classroomId: id, version }, '修改成功');
    }),
  );

  // roomVideo: every video of one classroom in play order (published or not: this is the back office).
  app.post(`${CLASSROOM}/roomVideo`, { config: { permission: 'operation:video:list', write: false } }, async (request) => {
    const id = Number(bodyOf(request).classroomId);
    if (!Number.isSafeInteger(id) || id < 1) throw new ApiError(Code.BAD_REQUEST, '所属课堂不能为空');
    const res = await sql<Record<string, unknown>>`select * from content_classroom_video where classroom_id = ${id} order by sort, video_id`.execute(env.k);
    return page(
      res.rows.map((r) => rowToRecord(video, r)),
      res.rows.length,
    );
  });

  // delRoomVideo: takes a video out of its classroom (deletes it; the file stays in storage for other uses).
  app.post(`${CLASSROOM}/delRoomVideo`, { config: { permission: 'operation:video:remove', write: true } }, (request) =>
    logged(
      env,
      request,
      { title: video.title, businessType: BusinessType.DELETE, method: 'content_classroom_video.delRoomVideo', param: request.body },
      async () => {
        const b = bodyOf(request);
        const id = Number(b.videoId);
        const row = Number.isSafeInteger(id) ? await findRow(env.k, video, id) : undefined;
        if (!row || (b.classroomId !== undefined && Number(row.classroom_id) !== Number(b.classroomId))) throw new ApiError(Code.ERROR, '数据不存在或已被删除');
        await sql`delete from content_classroom_video where video_id = ${id}`.execute(env.k);
        return ok({ deleted: 1 }, '删除成功');
      },
    ),
  );

  // bannerInfo / classroomBanner: the published banners of the classroom page (position 2), as the app shows them.
  const classroomBanners = async () => {
    const rows = (await publishedRows(env, banner, { where: { position: '2' } })).map((r) => publicRecord(banner, r));
    return page(rows, rows.length);
  };
  app.post(`${CLASSROOM}/bannerInfo`, { config: { permission: 'operation:banner:list', write: false } }, classroomBanners);
  app.post(`${CLASSROOM}/classroomBanner`, { config: { permission: 'public', write: false } }, classroomBanners);

  // 意见反馈, the submitter's side: their own feedback with replies, and marking a reply read (read status 1).
  app.get('/appv2/api/feedback/mine', { config: { permission: 'login', write: false } }, async (request) => {
    const res = await sql<
      Record<string, unknown>
    >`select * from content_feedback where user_name = ${request.auth?.userName ?? ''} order by feedback_id desc limit 100`.execute(env.k);
    return page(
      res.rows.map((r) => rowToRecord(feedback, r)),
      res.rows.length,
    );
  });
  app.post('/appv2/api/feedback/read', { config: { permission: 'login', write: true } }, async (request) => {
    const id = Number(bodyOf(request).feedbackId);
    const res = await sql`update content_feedback set read_status = '1' where feedback_id = ${Number.isSafeInteger(id) ? id : -1}
      and user_name = ${request.auth?.userName ?? ''} and reply is not null`.execute(env.k);
    if (!Number(res.numAffectedRows ?? 0)) throw new ApiError(Code.ERROR, '反馈不存在或尚未回复');
    return ok(undefined, '已读');
  });

  await registerVideoUpload(app);
  const previews = new PreviewTokens(app.config.dataDir);
  registerPreviewToken(app, env, previews);
  registerSite(app, () => env, previews);
}
