import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BusinessType, type BusinessTypeCode, recordOperation } from '../engine/operlog.js';
import type { Q } from '../engine/store.js';
import { XlsxStreamWriter } from '../engine/xlsxStream.js';
import { provideCardFulfilment } from '../finance/index.js';
import type { RoutePermission } from '../http/context.js';
import { ApiError, fail, ok, page } from '../http/envelope.js';
import { requestParams } from '../http/params.js';
import { actorOf } from '../security/actor.js';
import { appraisalPdf, listAppraisals, problems, submitAppraisal } from './appraisal.js';
import { currentCardKeys, loadOrCreateCardKeys, useCardKeys } from './cardSecrets.js';
import {
  batchForDownload,
  cardDaily,
  checkRelease,
  deliverPurchasedCard,
  listBatches,
  listCards,
  releaseCards,
  releaseInfo,
  takeBackPurchasedCard,
  transferCards,
  voidCards,
} from './cards.js';
import {
  activateByFamily,
  customerHistory,
  deliver,
  deliveries,
  listCustomers,
  openCard,
  resetCustomer,
  transitionCustomers,
  updateAddress,
  updateCustomer,
} from './customers.js';
import { ensureCustomerDicts } from './dicts.js';
import { registerCustomerJobs } from './jobs.js';
import { listMemos, removeMemos, saveMemo } from './memos.js';
import { listMessages, myMessages, readMyMessage, removeMessages, sendMessage } from './messages.js';

/** Permission strings; each is a page or button of 会员卡 / 用户管理 in server/db/seed/menus.ts. */
export const PERM = {
  releaseList: 'card:release:list',
  releaseAdd: 'card:release:add',
  recordList: 'card:record:list',
  recordDownload: 'card:record:download',
  dateList: 'card:date:list',
  twoList: 'card:two:list',
  twoVoid: 'card:two:void',
  twoTransfer: 'card:two:transfer',
  userList: 'manage:user:list',
  userEdit: 'manage:user:edit',
  userOpenCard: 'manage:user:openCard',
  userReset: 'manage:user:reset',
  userRemove: 'manage:user:remove',
  recycleList: 'manage:recycle:list',
  recycleRestore: 'manage:recycle:restore',
  recycleRemove: 'manage:recycle:remove',
  appraisalList: 'manage:appraisal:list',
  appraisalDownload: 'manage:appraisal:download',
  clientList: 'manage:client:list',
  clientEdit: 'manage:client:edit',
  clientDeliver: 'manage:client:deliver',
  memoList: 'manage:memo:list',
  memoAdd: 'manage:memo:add',
  memoEdit: 'manage:memo:edit',
  memoRemove: 'manage:memo:remove',
  messageList: 'manage:message:list',
  messageAdd: 'manage:message:add',
  messageRemove: 'manage:message:remove',
} as const;

type Params = Record<string, unknown>;

function attachment(reply: FastifyReply, filename: string, contentType: string) {
  const name = encodeURIComponent(filename);
  return reply
    .header('content-type', contentType)
    .header('content-disposition', `attachment; filename*=UTF-8''${name}`)
    .header('download-filename', name)
    .header('access-control-expose-headers', 'download-filename, content-disposition');
}

export async function customerRoutes(app: FastifyInstance) {
  registerCustomerJobs();
  await ensureCustomerDicts(app.schemaEngine.env); // the x-dict of schemas/customer/
  const db = app.db.kysely;
  const logDb = db as unknown as Q; // the operation log is written with untyped SQL
  const keys = loadOrCreateCardKeys(app.config.dataDir);
  useCardKeys(keys);
  // Finance hands a paid card purchase to us and asks us to take the card back on a refund (finance/cardFulfilment.ts).
  provideCardFulfilment({
    deliver: (trx, purchase) => deliverPurchasedCard(trx, currentCardKeys(), purchase),
    takeBack: takeBackPurchasedCard,
  });
  const actor = (request: FastifyRequest) => actorOf(db, request.auth);

  const read = (method: 'GET' | 'POST', url: string, permission: RoutePermission, handler: (p: Params, r: FastifyRequest) => Promise<unknown>) =>
    app.route({ method, url, config: { permission, write: false }, handler: (request) => handler(requestParams(request), request) });

  /** A write: answered as {code, msg, data} and recorded in the operation log (refusals too). */
  const write = (
    method: 'POST' | 'PUT' | 'DELETE',
    url: string,
    permission: RoutePermission,
    log: { title: string; type: BusinessTypeCode; method: string; msg: string; idempotent?: boolean },
    handler: (p: Params, r: FastifyRequest) => Promise<unknown>,
  ) =>
    app.route({
      method,
      url,
      // idempotent: money or cards move, so two copies of one request have one effect (server/security/idempotency.ts).
      config: { permission, write: true, idempotent: log.idempotent === true },
      handler: async (request) => {
        const started = Date.now();
        const p = requestParams(request);
        try {
          const data = await handler(p, request);
          await recordOperation(logDb, request, {
            title: log.title,
            businessType: log.type,
            method: log.method,
            param: p,
            result: data,
            status: 0,
            costTime: Date.now() - started,
            secretKeys: ['secret'],
          });
          return ok(data, log.msg);
        } catch (error) {
          const msg = error instanceof ApiError ? error.message : '操作失败';
          await recordOperation(logDb, request, {
            title: log.title,
            businessType: log.type,
            method: log.method,
            param: p,
            status: 1,
            errorMsg: msg,
            costTime: Date.now() - started,
            secretKeys: ['secret'],
          });
          throw error;
        }
      },
    });

  // ---- 会员卡 ----
  read('GET', '/dev-api/card/release/info', PERM.releaseList, async (p, r) => ok(await releaseInfo(db, await actor(r), p.storeId)));

  /**
   * 发卡: answered as NDJSON while the batch is made — `{"progress":n,"total":N}` lines, then the envelope line
   * `{"code":200,"msg":"发卡成功","data":{…}}` (or a refusal). A refusal found before any card is made (bad input,
   * 余额不足) is an ordinary JSON answer. All cards, the debit and the batch are one transaction.
   */
  app.route({
    method: 'POST',
    url: '/dev-api/card/release',
    config: { permission: PERM.releaseAdd, write: true, idempotent: true }, // debits the store's balance
    handler: async (request, reply) => {
      const started = Date.now();
      const p = requestParams(request);
      const a = await actor(request);
      const log = (status: 0 | 1, result?: unknown, errorMsg?: string) =>
        recordOperation(logDb, request, {
          title: '发卡',
          businessType: BusinessType.INSERT,
          method: 'card.release',
          param: p,
          result,
          status,
          errorMsg,
          costTime: Date.now() - started,
        });
      let req: Awaited<ReturnType<typeof checkRelease>>;
      try {
        req = await checkRelease(db, a, p);
      } catch (error) {
        await log(1, undefined, error instanceof ApiError ? error.message : '发卡失败');
        throw error;
      }
      const out = new PassThrough();
      reply.header('content-type', 'application/x-ndjson; charset=utf-8').header('cache-control', 'no-cache').header('x-accel-buffering', 'no');
      const line = (v: unknown) => out.write(`${JSON.stringify(v)}\n`);
      line({ progress: 0, total: req.cardNum });
      let last = 0;
      releaseCards(db, keys, a, req, async (made, total) => {
        // At most ~50 progress lines per batch; each yields to the event loop so the line is flushed.
        if (made === total || made - last >= Math.max(1, Math.floor(total / 50))) {
          last = made;
          line({ progress: made, total });
          await new Promise((r) => setImmediate(r));
        }
      })
        .then(async (result) => {
          await log(0, result);
          line({ code: 200, msg: '发卡成功', data: result });
        })
        .catch(async (error: unknown) => {
          const msg = error instanceof ApiError ? error.message : '发卡失败，未写入任何数据';
          if (!(error instanceof ApiError)) request.log.error({ err: error }, '发卡失败');
          await log(1, undefined, msg);
          line({ code: 500, msg });
        })
        .finally(() => out.end());
      return reply.send(out);
    },
  });

  read('GET', '/dev-api/card/record/list', PERM.recordList, async (p, r) => {
    const res = await listBatches(db, await actor(r), p);
    return page(res.rows, res.total);
  });

  app.route({
    method: 'POST',
    url: '/dev-api/card/record/download',
    config: { permission: PERM.recordDownload, write: false },
    handler: async (request, reply) => {
      const p = requestParams(request);
      const started = Date.now();
      const { batch, rows } = await batchForDownload(db, keys, await actor(request), p.batchId);
      await recordOperation(logDb, request, {
        title: '发卡记录',
        businessType: BusinessType.EXPORT,
        method: 'card.record.download',
        param: p,
        status: 0,
        costTime: Date.now() - started,
      });
      const out = new PassThrough();
      const day = (ms: number | null) => (ms ? new Date(ms + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ') : '');
      const xlsx = new XlsxStreamWriter(out, '卡号列表', [
        { header: '卡号', width: 14 },
        { header: '卡密', width: 16 },
        { header: '卡类型', width: 10 },
        { header: '状态', width: 10 },
        { header: '用户', width: 12 },
        { header: '激活时间', width: 20 },
        { header: '到期时间', width: 20 },
      ]);
      (async () => {
        for await (const c of rows()) await xlsx.addRow([c.cardNo, c.secret, c.kind, c.status, c.customer, day(c.activateTime), day(c.expireTime)]);
        await xlsx.end();
      })().catch((err) => {
        request.log.error({ err }, '卡号列表导出失败');
        out.destroy(err as Error);
      });
      attachment(reply, `卡号列表_${batch.cardNoFirst}-${batch.cardNoEnd}.xlsx`, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      return reply.send(out);
    },
  });

  read('GET', '/dev-api/card/date/list', PERM.dateList, async (p, r) => ok(await cardDaily(db, await actor(r), p)));

  read('GET', '/dev-api/card/two/list', PERM.twoList, async (p, r) => {
    const res = await listCards(db, await actor(r), p);
    return { ...page(res.rows, res.total), counts: res.counts };
  });
  write('POST', '/dev-api/card/two/void', PERM.twoVoid, { title: '会员卡', type: BusinessType.UPDATE, method: 'card.void', msg: '作废成功' }, async (p, r) =>
    voidCards(db, await actor(r), p.cardIds, p.reason),
  );
  write(
    'POST',
    '/dev-api/card/two/transfer',
    PERM.twoTransfer,
    { title: '会员卡', type: BusinessType.UPDATE, method: 'card.transfer', msg: '调拨成功' },
    async (p, r) => transferCards(db, await actor(r), p.cardIds, p.toStoreId),
  );

  // ---- 用户管理 ----
  read('GET', '/dev-api/customer/stores', 'login', async (_p, r) => {
    const a = await actor(r);
    let q = db.selectFrom('cusStore').select(['storeId', 'storeName', 'kind']).where('status', '=', '0');
    if (!a.allStores) q = q.where('storeId', '=', a.storeId);
    return ok({ stores: await q.orderBy('storeId').execute(), storeId: a.storeId, allStores: a.allStores });
  });
  read('GET', '/dev-api/customer/list', PERM.userList, async (p, r) => {
    const res = await listCustomers(db, await actor(r), p, 'active');
    return page(res.rows, res.total);
  });
  read('GET', '/dev-api/customer/recycle/list', PERM.recycleList, async (p, r) => {
    const res = await listCustomers(db, await actor(r), p, 'recycled');
    return page(res.rows, res.total);
  });
  read('GET', '/dev-api/customer/client/list', PERM.clientList, async (p, r) => {
    const res = await listCustomers(db, await actor(r), p, 'active');
    return page(res.rows, res.total);
  });
  read('GET', '/dev-api/customer/history', PERM.userList, async (p, r) => ok(await customerHistory(db, await actor(r), p.studentId)));

  const userLog = (method: string, msg: string, type: BusinessTypeCode = BusinessType.UPDATE) => ({
    title: '用户管理',
    type,
    method: `customer.${method}`,
    msg,
  });
  write('PUT', '/dev-api/customer', PERM.userEdit, userLog('update', '修改成功'), async (p, r) => updateCustomer(db, await actor(r), p));
  write('POST', '/dev-api/customer/openCard', PERM.userOpenCard, userLog('openCard', '开卡成功'), async (p, r) => openCard(db, keys, await actor(r), p));
  write('POST', '/dev-api/customer/resetInfo', PERM.userReset, userLog('resetInfo', '重置成功'), async (p, r) => resetCustomer(db, await actor(r), p));
  write('POST', '/dev-api/customer/recycle', PERM.userRemove, userLog('recycle', '已移入回收站', BusinessType.DELETE), async (p, r) =>
    transitionCustomers(db, await actor(r), 'recycle', p.ids),
  );
  write('POST', '/dev-api/customer/restore', PERM.recycleRestore, userLog('restore', '恢复成功'), async (p, r) =>
    transitionCustomers(db, await actor(r), 'restore', p.ids),
  );
  write('POST', '/dev-api/customer/purge', PERM.recycleRemove, userLog('purge', '已彻底删除', BusinessType.DELETE), async (p, r) =>
    transitionCustomers(db, await actor(r), 'purge', p.ids),
  );

  // 客户资料
  write(
    'PUT',
    '/dev-api/customer/client/address',
    PERM.clientEdit,
    { title: '客户资料', type: BusinessType.UPDATE, method: 'customer.address', msg: '保存成功' },
    async (p, r) => updateAddress(db, await actor(r), p),
  );
  write(
    'POST',
    '/dev-api/customer/client/deliver',
    PERM.clientDeliver,
    { title: '客户资料', type: BusinessType.INSERT, method: 'customer.deliver', msg: '邮寄登记成功' },
    async (p, r) => deliver(db, await actor(r), p),
  );
  read('GET', '/dev-api/customer/client/deliveries', PERM.clientList, async (p, r) => ok(await deliveries(db, await actor(r), p.studentId)));

  // 备忘录
  read('GET', '/dev-api/customer/memo/list', PERM.memoList, async (p, r) => {
    const res = await listMemos(db, await actor(r), p);
    return page(res.rows, res.total);
  });
  write(
    'POST',
    '/dev-api/customer/memo',
    PERM.memoAdd,
    { title: '备忘录', type: BusinessType.INSERT, method: 'customer.memo.add', msg: '新增成功' },
    async (p, r) => saveMemo(db, await actor(r), { ...p, memoId: undefined }),
  );
  write(
    'PUT',
    '/dev-api/customer/memo',
    PERM.memoEdit,
    { title: '备忘录', type: BusinessType.UPDATE, method: 'customer.memo.edit', msg: '修改成功' },
    async (p, r) => {
      if (p.memoId == null) throw fail('请选择备忘');
      return saveMemo(db, await actor(r), p);
    },
  );
  write(
    'DELETE',
    '/dev-api/customer/memo/:ids',
    PERM.memoRemove,
    { title: '备忘录', type: BusinessType.DELETE, method: 'customer.memo.remove', msg: '删除成功' },
    async (p, r) => removeMemos(db, await actor(r), p.ids),
  );

  // 消息
  read('GET', '/dev-api/customer/message/list', PERM.messageList, async (p, r) => {
    const res = await listMessages(db, await actor(r), p);
    return { ...page(res.rows, res.total), unread: res.unread };
  });
  write(
    'POST',
    '/dev-api/customer/message',
    PERM.messageAdd,
    { title: '消息管理', type: BusinessType.INSERT, method: 'customer.message.send', msg: '发送成功' },
    async (p, r) => sendMessage(db, await actor(r), p),
  );
  write(
    'DELETE',
    '/dev-api/customer/message/:ids',
    PERM.messageRemove,
    { title: '消息管理', type: BusinessType.DELETE, method: 'customer.message.remove', msg: '删除成功' },
    async (p, r) => removeMessages(db, await actor(r), p.ids),
  );

  // 测评
  read('GET', '/dev-api/customer/appraisal/list', PERM.appraisalList, async (p, r) => {
    const res = await listAppraisals(db, await actor(r), p);
    return page(res.rows, res.total);
  });
  app.route({
    method: 'POST',
    url: '/dev-api/customer/appraisal/download',
    config: { permission: PERM.appraisalDownload, write: false },
    handler: async (request, reply) => {
      const file = await appraisalPdf(db, await actor(request), requestParams(request).appraisalId);
      return attachment(reply, file.filename, 'application/pdf').send(file.data);
    },
  });

  // ---- App side (the family, signed in as an app user) ----
  const appUser = async (request: FastifyRequest) => {
    const u = await db
      .selectFrom('sysUser')
      .select(['userId', 'nickName', 'mobile'])
      .where('userId', '=', request.auth?.userId ?? 0)
      .executeTakeFirst();
    if (!u) throw fail('用户不存在');
    return u;
  };
  write(
    'POST',
    '/appv2/api/card/activate',
    'login',
    { title: '会员卡激活', type: BusinessType.UPDATE, method: 'card.activate', msg: '激活成功' },
    async (p, r) => activateByFamily(db, keys, await appUser(r), p),
  );
  app.route({ method: ['GET', 'POST'], url: '/appv2/api/judg/problem', config: { permission: 'login', write: false }, handler: async () => ok(problems()) });
  write('POST', '/appv2/api/judg/submit', 'login', { title: '测评', type: BusinessType.INSERT, method: 'appraisal.submit', msg: '提交成功' }, async (p, r) =>
    submitAppraisal(db, (await appUser(r)).userId, p.answers),
  );
  read('POST', '/appv2/api/message/list', 'login', async (_p, r) => ok(await myMessages(db, (await appUser(r)).userId)));
  // Marks the message read: a write, though its name says read.
  app.route({
    method: 'POST',
    url: '/appv2/api/message/read',
    config: { permission: 'login', write: true },
    handler: async (request) => ok(await readMyMessage(db, (await appUser(request)).userId, requestParams(request).messageId)),
  });
}
