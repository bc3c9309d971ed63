import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseLimits } from '../engine/sheetReader.js';
import type { RoutePermission } from '../http/context.js';
import { fail, ok, page } from '../http/envelope.js';
import { markBackground } from '../http/foreground.js';
import { requestParams } from '../http/params.js';
import { actorOf as storeActorOf } from '../security/actor.js';
import { getSettings } from '../system/index.js';
import { addAppointment, appointmentInfo, editAppointment, listAppointments, remakeAppointment, removeAppointment } from './appointments.js';
import { actorOf } from './common.js';
import { ensureVolunteerDicts } from './dicts.js';
import { type ExportFile, planExcel, planPdf } from './export.js';
import {
  advanceChance,
  areaChilds,
  autofillPlan,
  enrollmentChance,
  getProvince,
  gkbInfo,
  likeAdd,
  likeDel,
  likeList,
  majorDetail,
  majorRecommend,
  ordinaryBatchFilter,
  resolveSubject,
  schoolHome,
  scoreSchool,
  scoreStageFilter,
  scoreStageInfo,
} from './filling.js';
import { importGroups, isGroupKind } from './groups/import.js';
import { groupOptionsFor } from './groups/list.js';
import { groupProvincesWanted, seedGroupProvinces } from './groups/seed.js';
import { importAdmission } from './import/apply.js';
import { historyWanted, seedShandongHistory } from './import/history.js';
import { majorClassTree } from './majorClass.js';
import { planInfo, savePlan, sortPlan, transition } from './plans.js';
import { actionHistory, distribute, examineList, expertList, finalPlan, planReport, submissionHistory } from './review.js';
import { schoolMajorLines } from './schoolDetail.js';
import { schoolSubjectEvaluate } from './schoolEvaluate.js';
import { seedDemoDraft } from './seed.js';
import { createShare, shareInfo } from './share.js';
import { registerSharePage } from './sharePage.js';
import { simulateDraft } from './simulateDraft.js';
import { importStudents, STUDENT_IMPORT_MAX_BYTES, STUDENT_IMPORT_MAX_ROWS, studentTemplate } from './studentImport.js';
import { createStudent, editStudent, listStudents, loadStudent, studentView } from './students.js';

/** Permission strings (server/db/seed/menus.ts). */
export const PERM = {
  filling: 'volunteer:filling:list',
  planList: 'volunteer:plan:list',
  planSave: 'volunteer:plan:save',
  planSubmit: 'volunteer:plan:submit',
  studentAdd: 'volunteer:student:add',
  studentEdit: 'volunteer:student:edit',
  examineList: 'volunteer:examine:list',
  examineApprove: 'volunteer:examine:approve',
  approvalList: 'volunteer:approval:list',
  approvalDistribute: 'volunteer:approval:distribute',
  appointmentList: 'volunteer:appointment:list',
  appointmentAdd: 'volunteer:appointment:add',
  appointmentEdit: 'volunteer:appointment:edit',
  appointmentRemove: 'volunteer:appointment:remove',
  majorRecommend: 'volunteer:major:recommend',
  /** Admission data import (admin: every permission). */
  dataImport: 'volunteer:data:import',
} as const;

type Params = Record<string, unknown>;
type Handler = (p: Params, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

function sendFile(reply: FastifyReply, f: ExportFile) {
  const name = encodeURIComponent(f.filename);
  return reply
    .header('content-type', f.contentType)
    .header('content-disposition', `attachment; filename*=UTF-8''${name}`)
    .header('download-filename', name)
    .header('access-control-expose-headers', 'download-filename, content-disposition')
    .send(f.data);
}

export async function volunteerRoutes(app: FastifyInstance) {
  const db = app.db.kysely;
  // The dictionaries of schemas/volunteer/ (方案状态, 审核状态, 预约状态).
  await ensureVolunteerDicts(app.schemaEngine.env);

  // The store scope of the caller (customer module), resolved once per request before the handler runs, so that
  // every list and write below sees only the caller's store (headquarters and the super admin see all).
  const stores = new WeakMap<FastifyRequest, { storeId: number | null; allStores: boolean }>();
  const route = (methods: Array<'GET' | 'POST'>, url: string, permission: RoutePermission, write: boolean, handler: Handler, sensitive = false) => {
    app.route({
      method: methods,
      url,
      config: { permission, sensitive, write },
      handler: async (request, reply) => {
        if (request.auth) {
          const { storeId, allStores } = await storeActorOf(db, request.auth);
          stores.set(request, { storeId, allStores });
        }
        return handler(requestParams(request), request, reply);
      },
    });
  };
  // Whether a call writes is declared, never guessed from its name (server/security/writeGuard.ts): `post` writes,
  // `ask` is a POST that only reads, `read` answers GET and POST and only reads.
  const post = (url: string, permission: RoutePermission, handler: Handler, sensitive = false) => route(['POST'], url, permission, true, handler, sensitive);
  const ask = (url: string, permission: RoutePermission, handler: Handler, sensitive = false) => route(['POST'], url, permission, false, handler, sensitive);
  const read = (url: string, permission: RoutePermission, handler: Handler) => route(['GET', 'POST'], url, permission, false, handler);
  // Without a resolved scope (no route of this file) the actor is confined to no store at all.
  const actor = (request: FastifyRequest) => ({ ...actorOf(request.auth), ...(stores.get(request) ?? { storeId: null, allStores: false }) });

  // Shandong's years (whatever server/db/seed/data/gaokao-shandong holds) through the administrator's import path;
  // each start imports only what the database lacks (import/history.ts).
  // Reference data, loaded with or without demo data (server/db/seed/index.ts); ADMISSION_HISTORY=0 turns it off.
  // Then the demo draft (demo data only), on the catalogue just loaded (seed.ts seedDemoDraft).
  app.addHook('onReady', async () => {
    if (historyWanted()) {
      const t0 = performance.now();
      const done = await seedShandongHistory(db);
      if (done) {
        const years = [...new Set(done.map((r) => r.year).filter((y): y is number => y != null))].sort((a, b) => a - b);
        app.log.info({ ms: Math.round(performance.now() - t0), files: done.length, years }, `山东 ${years.join('、')} 年招生数据已导入`);
      }
    }
    await seedDemoDraft(db);
  });

  // Hubei and Guangdong 2025 by 院校专业组, through the same import path, once per database (groups/seed.ts).
  if (groupProvincesWanted()) {
    app.addHook('onReady', async () => {
      const done = await seedGroupProvinces(db);
      if (done.length) app.log.info({ files: done.length }, '湖北、广东 2025 院校专业组数据已导入');
    });
  }

  // ---- admission data import ----
  post('/dev-api/volunteer/admission/import', PERM.dataImport, async (p) => {
    // 院校专业组 files (3+1+2 provinces): groups/import.ts, same row-level contract.
    if (isGroupKind(p.kind)) {
      const csv = typeof p.csv === 'string' ? p.csv : '';
      return ok(await importGroups(db, { province: typeof p.province === 'string' ? p.province : '', kind: p.kind, year: p.year, csv }), '导入成功');
    }
    const report = await importAdmission(db, {
      province: typeof p.province === 'string' ? p.province : '',
      kind: p.kind as never,
      year: p.year == null || p.year === '' ? null : Number(p.year),
      csv: typeof p.csv === 'string' ? p.csv : '',
      batch: typeof p.batch === 'string' ? p.batch : undefined,
      track: typeof p.track === 'string' ? p.track : undefined,
    });
    return ok(report, '导入成功');
  });

  // ---- 院校专业组 acceptance query (3+1+2 provinces) ----
  ask('/dev-api/volunteer/groups/options', PERM.filling, async (p, r) => ok(await groupOptionsFor(db, await loadStudent(db, actor(r), p.studentId), p)));

  // ---- students ----
  read('/dev-api/api/index/subscriber', PERM.planList, async (p, r) => {
    const { rows, total } = await listStudents(db, actor(r), p);
    return page(rows, total);
  });
  ask('/dev-api/api/Subscriber/info', PERM.planList, async (p, r) => ok(await studentView(db, await loadStudent(db, actor(r), p.studentId))));
  post('/dev-api/api/Subscriber/add', PERM.studentAdd, async (p, r) => ok(await createStudent(db, actor(r), p), '新增成功'));
  post('/appv2/api/index/editUser', PERM.studentEdit, async (p, r) => ok(await editStudent(db, actor(r), p), '修改成功'));
  // 学生导入 (spec §7.2): multipart `file`, an .xlsx from the template; all rows or none (studentImport.ts).
  post('/appv2/api/ExcelImport/import', PERM.studentAdd, async (_p, r) => {
    if (!r.isMultipart()) throw fail('请选择要导入的文件（.xlsx）');
    const file = await r.file({ limits: { fileSize: STUDENT_IMPORT_MAX_BYTES, files: 1 }, throwFileSizeLimit: false });
    if (!file) throw fail('请选择要导入的文件（.xlsx）');
    const buffer = await file.toBuffer();
    if (file.file.truncated) throw fail(`导入文件大小不能超过 ${STUDENT_IMPORT_MAX_BYTES / 1024 / 1024} MB`);
    markBackground(r); // the import steps aside for other users' requests (server/http/foreground.ts)
    const res = await importStudents(db, actor(r), { filename: file.filename, buffer }, parseLimits(r.server.config, STUDENT_IMPORT_MAX_ROWS));
    return ok(res, `导入成功，共 ${res.count} 名学生`);
  });
  read('/appv2/api/ExcelImport/template', PERM.studentAdd, async (_p, _r, reply) =>
    sendFile(reply, {
      filename: '学生导入模板.xlsx',
      contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      data: await studentTemplate(),
    }),
  );
  post('/dev-api/api/FillingSelectAll/updateEnterScore', PERM.studentEdit, async (p, r) =>
    ok(
      await editStudent(db, actor(r), { studentId: p.studentId, version: p.version, score: p.score, ...('rank' in p ? { rank: p.rank } : { rank: null }) }),
      '修改成功',
    ),
  );

  // ---- filling queries ----
  const chance = async (p: Params, r: FastifyRequest, forceAll = false) => {
    const { cat, subject } = await resolveSubject(db, actor(r), p);
    const { rows, total, ...extra } = await enrollmentChance(db, cat, subject, forceAll ? { ...p, all: 1 } : p);
    return { ...page(rows, total), ...extra };
  };
  ask('/appv2/api/Filling/schoolEnrollChance', PERM.filling, (p, r) => chance(p, r));
  ask('/appv2/api/index/schoolEnrollChance', PERM.filling, (p, r) => chance(p, r), true);
  read('/dev-api/api/FillingSelectAll/schoolEnrollChance1', PERM.filling, (p, r) => chance(p, r, true));
  const advance = async (p: Params, r: FastifyRequest) => {
    const { msg, rows, total, ...extra } = await advanceChance(db, actor(r), p);
    return { ...page(rows, total), msg, ...extra };
  };
  ask('/appv2/api/Filling/schoolEnrollChance_pre', PERM.filling, advance);
  ask('/appv2/api/Filling/pre_batch', PERM.filling, advance);
  ask('/appv2/api/Filling/schoolEnrollChance_auto', PERM.filling, async (p, r) => {
    if (p.studentId == null || p.studentId === '') throw fail('请选择学生');
    const { cat, subject } = await resolveSubject(db, actor(r), p);
    return ok(await autofillPlan(db, cat, subject, p));
  });
  // The editor's unsaved plan simulated on every edit (issue 24): only reads, so `ask` (not a write, never a repeat).
  ask('/appv2/api/Filling/simulatePlan', PERM.filling, async (p, r) => {
    const { view, msg } = await simulateDraft(db, actor(r), p);
    return ok(view, msg);
  });
  ask('/dev-api/api/FillingSelectAll/scoreSchool', PERM.filling, async (p, r) => ok(await scoreSchool(db, actor(r), p)));
  read('/appv2/api/index/scoreStageFilter', PERM.filling, async (p) => ok(await scoreStageFilter(db, p)));
  read('/appv2/api/index/scoreStageInfo', PERM.filling, async (p) => {
    const { rows, total, ...extra } = await scoreStageInfo(db, p);
    return { ...page(rows, total), ...extra };
  });
  read('/appv2/api/index/gkbInfo', PERM.filling, async (p) => ok(await gkbInfo(db, p)));
  read('/appv2/api/index/schoolHome', PERM.filling, async (p, r) => ok(await schoolHome(db, actor(r), p)));
  read('/appv2/api/index/schoolYXMajor', PERM.filling, async (p) => ok(await schoolMajorLines(db, p)));
  read('/appv2/api/index/schoolSubjectEvaluate', PERM.filling, async (p) => ok(await schoolSubjectEvaluate(db, p)));
  read('/appv2/api/index/majorDetail', PERM.filling, async (p, r) => ok(await majorDetail(db, actor(r), p)));
  read('/appv2/api/index/areaChilds', PERM.filling, async (p) => ok(await areaChilds(db, p)));
  // 门类 → 专业类 of the 2025 本科专业目录 for the preference picker (issue 24): fixed data, read only.
  read('/appv2/api/Filling/majorClasses', PERM.filling, async () => ok(majorClassTree()));
  ask('/dev-api/api/toolbox/getProvince', PERM.filling, async () => ok(await getProvince(db)));
  ask('/dev-api/api/toolbox/OrdinaryBatchFiter', PERM.filling, async (p) => ok(await ordinaryBatchFilter(db, p)));
  ask('/appv2/api/index/likeList', PERM.filling, async (p, r) => ok(await likeList(db, actor(r), p.studentId)));
  post('/appv2/api/index/likeAdd', PERM.filling, async (p, r) => ok(await likeAdd(db, actor(r), p), '收藏成功'));
  post('/appv2/api/index/likeDel', PERM.filling, async (p, r) => {
    await likeDel(db, actor(r), p);
    return ok(undefined, '已取消收藏');
  });
  ask('/dev-api/api/majorRecommend/list', PERM.majorRecommend, async (p, r) => ok(await majorRecommend(db, actor(r), p)));

  // ---- plans ----
  const save: Handler = async (p, r) => ok(await savePlan(db, actor(r), p), '保存成功');
  post('/dev-api/api/Subscriber/save', PERM.planSave, save);
  post('/appv2/api/index/zySave', PERM.planSave, save);
  post('/appv2/api/index/saveSort', PERM.planSave, async (p, r) => ok(await sortPlan(db, actor(r), p), '排序已保存'));
  ask('/appv2/api/index/zyInfo', PERM.planList, async (p, r) => ok(await planInfo(db, actor(r), p.studentId)));
  post('/dev-api/api/Subscriber/submit', PERM.planSubmit, async (p, r) => {
    const res = await transition(db, actor(r), 'submit', p);
    return ok(res.data, res.msg);
  });
  post('/dev-api/api/Subscriber/unsubmit', PERM.planSubmit, async (p, r) => {
    const res = await transition(db, actor(r), 'unsubmit', p);
    return ok(res.data, res.msg);
  });
  ask('/appv2/api/Subscriber/submitHis', PERM.planList, async (p, r) => ok(await submissionHistory(db, actor(r), p.studentId)));
  ask('/dev-api/api/Subscriber/history', PERM.planList, async (p, r) => ok(await actionHistory(db, actor(r), p.studentId)));
  ask('/dev-api/api/Subscriber/report', PERM.planList, async (p, r) => ok(await planReport(db, actor(r), p.studentId)));
  ask('/appv2/api/index/downloadZYpdf', PERM.planList, async (p, r, reply) => sendFile(reply, await planPdf(db, actor(r), p.studentId)));
  ask('/dev-api/api/Subscriber/exportZY', PERM.planList, async (p, r, reply) => sendFile(reply, await planExcel(db, actor(r), p.studentId)));
  post('/appv2/api/index/shareZY', PERM.planSave, async (p, r) => ok(await createShare(db, actor(r), p, false), '分享链接已生成'));
  post('/appv2/api/index/shareZYNew', PERM.planSave, async (p, r) => ok(await createShare(db, actor(r), p, true), '新的分享链接已生成'));
  app.get('/appv2/api/index/shareInfo', { config: { permission: 'public', write: false } }, async (request) =>
    ok(await shareInfo(db, requestParams(request).token)),
  );
  // The page the share link opens, for a visitor without a session (sharePage.ts).
  registerSharePage(app, db);

  // ---- approvals ----
  read('/dev-api/api/Examine/list', PERM.examineList, async (p, r) => {
    const { rows, total } = await examineList(db, actor(r), p);
    return page(rows, total);
  });
  post('/dev-api/api/Examine/approve', PERM.examineApprove, async (p, r) => {
    const res = await transition(db, actor(r), 'approve', p);
    return ok(res.data, res.msg);
  });
  post('/dev-api/api/Examine/reject', PERM.examineApprove, async (p, r) => {
    const res = await transition(db, actor(r), 'reject', p);
    return ok(res.data, res.msg);
  });
  // The review rules of 审核配置 the 志愿审核 screen needs (reviewers hold no system:audit:list).
  read('/dev-api/api/Examine/config', PERM.examineList, async () => {
    const audit = await getSettings(db, 'audit');
    return ok({ submitNeedsReview: audit.submitNeedsReview, rejectNeedsComment: audit.rejectNeedsComment });
  });
  ask('/dev-api/api/Examine/history', PERM.examineList, async (p, r) => ok(await actionHistory(db, actor(r), p.studentId)));
  ask('/dev-api/api/experts/finalPlan', PERM.planList, async (p, r) => ok(await finalPlan(db, actor(r), p.studentId)));

  // ---- leader advance approval ----
  read('/dev-api/api/AdvanceApproval/experts', PERM.approvalList, async (p, r) => ok(await expertList(db, actor(r), p)));
  read('/dev-api/api/AdvanceApproval/students', PERM.approvalList, async (p, r) => {
    const { rows, total } = await listStudents(db, actor(r), p);
    return page(rows, total);
  });
  post('/dev-api/api/AdvanceApproval/distribute', PERM.approvalDistribute, async (p, r) => {
    const res = await distribute(db, actor(r), p);
    return ok({ count: res.count, expertId: res.expertId }, `已将 ${res.count} 名学生分配给 ${res.expertName}`);
  });

  // ---- appointments ----
  read('/dev-api/api/appointment/list', PERM.appointmentList, async (p, r) => {
    const { rows, total } = await listAppointments(db, actor(r), p);
    return page(rows, total);
  });
  ask('/dev-api/api/appointment/info', PERM.appointmentList, async (p, r) => ok(await appointmentInfo(db, actor(r), p.appointmentId)));
  post('/dev-api/api/appointment/add', PERM.appointmentAdd, async (p, r) => ok(await addAppointment(db, actor(r), p), '预约成功'));
  post('/dev-api/api/appointment/edit', PERM.appointmentEdit, async (p, r) => ok(await editAppointment(db, actor(r), p), '修改成功'));
  post('/dev-api/api/appointment/remake', PERM.appointmentEdit, async (p, r) => ok(await remakeAppointment(db, actor(r), p), '改约成功'));
  post('/dev-api/api/appointment/remove', PERM.appointmentRemove, async (p, r) => {
    await removeAppointment(db, actor(r), p);
    return ok(undefined, '删除成功');
  });
}
