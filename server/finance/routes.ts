import fs from 'node:fs';
import querystring from 'node:querystring';
import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BusinessType, type BusinessTypeCode, recordOperation } from '../engine/operlog.js';
import type { Q } from '../engine/store.js';
import { XlsxStreamWriter } from '../engine/xlsxStream.js';
import type { RoutePermission } from '../http/context.js';
import { ApiError, fail, ok, page } from '../http/envelope.js';
import { intParam, paging, requestParams } from '../http/params.js';
import { actorOf, assertStore } from '../security/actor.js';
import { listBanks, removeBank, saveBank, verifyBank } from './bank.js';
import { applyInvoice, invoiceFile, issueInvoice, listHeaders, listInvoices, MAX_PDF_BYTES, rejectInvoice, removeHeader, saveHeader } from './invoice.js';
import type { AccountKind } from './ledger.js';
import { ownedRow, storeFilter, storeOf } from './storeScope.js';
import { type StatementFilter, statement, statementAll, storeChoices, typesOf, walletSummary } from './wallet.js';
import { approveCash, commitCash, listWithdrawals, payCash, rejectCash, withdrawalDetail } from './withdraw.js';

/**
 * Spec §7.9 wallet, withdrawal and invoice calls (server/finance/README.md, docs/finance.md), mounted like the
 * other spec calls of the app under /appv2/api/: MoneyWallet/{wallet, walletIn, expenditure, tableList, bankList,
 * upBank, cashList, commitCash, invoice, applyInvoice, upInvoice, invoiceList}, recharge/moneyLogList, and the
 * headquarters review calls. Amounts are integer fen (fields ending in Fen).
 */

const WALLET = '/appv2/api/MoneyWallet';

/** Permission strings; each is a page or button of 财务管理 in server/db/seed/menus.ts. */
export const FINANCE_PERM = {
  balanceList: 'finance:balance:list',
  balanceExport: 'finance:balance:export',
  collectionList: 'finance:collection:list',
  paymentList: 'finance:payment:list',
  withdrawList: 'finance:withdraw:list',
  withdrawApply: 'finance:withdraw:apply',
  withdrawBank: 'finance:withdraw:bank',
  withdrawReview: 'finance:withdraw:review',
  invoiceList: 'finance:invoice:list',
  invoiceHeader: 'finance:invoice:header',
  invoiceApply: 'finance:invoice:apply',
  invoiceIssue: 'finance:invoice:issue',
} as const;

type Params = Record<string, unknown>;

/**
 * The day range of a statement: `beginTime` / `endTime`, or the names the console's schema lists send for a date
 * range (docs/schemas.md): `params: { beginTime }` in a JSON list body, `params[beginTime]` in the form of 导出.
 */
function dayRange(p: Params): Pick<StatementFilter, 'beginTime' | 'endTime'> {
  const nested = p.params && typeof p.params === 'object' ? (p.params as Params) : {};
  const pick = (key: string) => p[key] ?? nested[key] ?? p[`params[${key}]`];
  return { beginTime: pick('beginTime'), endTime: pick('endTime') };
}

const BALANCE_KINDS: AccountKind[] = ['balance'];
const STORE_KINDS: AccountKind[] = ['balance', 'collection', 'withdrawPending'];

export async function financeRoutes(app: FastifyInstance) {
  const db = app.db.kysely;
  const logDb = db as unknown as Q;
  const actor = (request: FastifyRequest) => actorOf(db, request.auth);
  // 导出 of the 账户余额 schema list posts its search fields form-encoded (src/api/engine.ts exportList), as it does to
  // the engine's own export routes; this context reads such a body like the engine's (server/engine/routes.ts).
  if (!app.hasContentTypeParser('application/x-www-form-urlencoded')) {
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, querystring.parse(body as string));
    });
  }

  const read = (url: string, permission: RoutePermission, handler: (p: Params, r: FastifyRequest) => Promise<unknown>) =>
    // write: false — a refreshed list (cashList starts like a write) is never a repeated submission.
    app.route({ method: ['GET', 'POST'], url, config: { permission, write: false }, handler: (request) => handler(requestParams(request), request) });

  /** A write: answered as {code, msg, data} and recorded in the operation log (refusals too). */
  const write = (
    url: string,
    permission: RoutePermission,
    log: { title: string; type: BusinessTypeCode; msg: string; idempotent?: boolean },
    handler: (p: Params, r: FastifyRequest) => Promise<unknown>,
  ) =>
    app.route({
      method: 'POST',
      url,
      // write: true — the repeated-submission guard (server/security/writeGuard.ts) covers every finance write;
      // idempotent: money moves, so two copies of one request have one effect (server/security/idempotency.ts).
      config: { permission, write: true, idempotent: log.idempotent === true },
      handler: async (request) => {
        const started = Date.now();
        const p = requestParams(request);
        const entry = { title: log.title, businessType: log.type, method: `finance.${url.split('/').pop()}`, param: p };
        try {
          const data = await handler(p, request);
          await recordOperation(logDb, request, { ...entry, result: data, status: 0, costTime: Date.now() - started });
          return ok(data ?? null, log.msg);
        } catch (error) {
          const msg = error instanceof ApiError ? error.message : '操作失败';
          await recordOperation(logDb, request, { ...entry, status: 1, errorMsg: msg, costTime: Date.now() - started });
          throw error;
        }
      },
    });

  async function entries(p: Params, r: FastifyRequest, kinds: AccountKind[], direction?: 'in' | 'out') {
    const a = await actor(r);
    const storeId = storeOf(a, p.storeId, '资金流水');
    const requestedKind = typeof p.kind === 'string' && (kinds as string[]).includes(p.kind) ? [p.kind as AccountKind] : kinds;
    const filter: StatementFilter = {
      storeId,
      kinds: requestedKind,
      direction,
      type: typeof p.type === 'string' && p.type ? p.type : undefined,
      ...dayRange(p),
    };
    const { total, rows } = await statement(db, filter, paging(p));
    return {
      ...page(rows, total),
      wallet: await walletSummary(db, storeId),
      types: typesOf(kinds),
      stores: a.allStores ? await storeChoices(db) : [],
    };
  }

  // ---- wallets ----
  read(`${WALLET}/wallet`, FINANCE_PERM.balanceList, async (p, r) => {
    const a = await actor(r);
    const storeId = storeOf(a, p.storeId, '钱包');
    return ok({ ...(await walletSummary(db, storeId)), stores: a.allStores ? await storeChoices(db) : [] });
  });
  read(`${WALLET}/tableList`, FINANCE_PERM.balanceList, (p, r) => entries(p, r, BALANCE_KINDS));
  read('/appv2/api/recharge/moneyLogList', FINANCE_PERM.balanceList, (p, r) => entries(p, r, STORE_KINDS));
  read(`${WALLET}/walletIn`, FINANCE_PERM.collectionList, (p, r) => entries(p, r, ['collection'], 'in'));
  read(`${WALLET}/expenditure`, FINANCE_PERM.paymentList, (p, r) => entries(p, r, BALANCE_KINDS, 'out'));

  /** 资金流水 as xlsx, with the filters of the list. */
  app.route({
    method: ['GET', 'POST'],
    url: `${WALLET}/tableList/export`,
    config: { permission: FINANCE_PERM.balanceExport, write: false },
    handler: async (request, reply) => {
      const p = requestParams(request);
      const a = await actor(request);
      const storeId = storeOf(a, p.storeId, '资金流水');
      const kinds = p.scope === 'all' ? STORE_KINDS : BALANCE_KINDS;
      const filter: StatementFilter = {
        storeId,
        kinds,
        type: typeof p.type === 'string' && p.type ? p.type : undefined,
        ...dayRange(p),
      };
      // Refuse a bad filter before the download starts (a started xlsx cannot become an error envelope).
      await statement(db, filter, { pageSize: 1, offset: 0 });
      const out = new PassThrough();
      const time = (ms: number) => new Date(ms + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
      const xlsx = new XlsxStreamWriter(out, '资金流水', [
        { header: '时间', width: 20 },
        { header: '账户', width: 12 },
        { header: '类型', width: 14 },
        { header: '金额（元）', width: 14 },
        { header: '变动后余额（元）', width: 18 },
        { header: '说明', width: 40 },
        { header: '操作人', width: 12 },
      ]);
      (async () => {
        for await (const e of statementAll(db, filter)) {
          await xlsx.addRow([
            time(e.createTime),
            e.kindName,
            e.typeName,
            (e.amountFen / 100).toFixed(2),
            (e.balanceAfterFen / 100).toFixed(2),
            e.memo,
            e.userName ?? '',
          ]);
        }
        await xlsx.end();
      })().catch((err) => {
        request.log.error({ err }, '资金流水导出失败');
        out.destroy(err as Error);
      });
      const name = encodeURIComponent('资金流水.xlsx');
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', `attachment; filename*=UTF-8''${name}`)
        .header('download-filename', name)
        .header('access-control-expose-headers', 'download-filename, content-disposition')
        .send(out);
    },
  });

  // ---- bank accounts ----
  read(`${WALLET}/bankList`, FINANCE_PERM.withdrawList, async (p, r) => {
    const a = await actor(r);
    return ok(await listBanks(db, storeFilter(a, p.storeId, '银行账户')));
  });
  write(`${WALLET}/upBank`, FINANCE_PERM.withdrawBank, { title: '银行账户', type: BusinessType.UPDATE, msg: '保存成功' }, async (p, r) => {
    const a = await actor(r);
    return saveBank(db, a, storeOf(a, p.storeId, '银行账户'), p);
  });
  write(`${WALLET}/delBank`, FINANCE_PERM.withdrawBank, { title: '银行账户', type: BusinessType.DELETE, msg: '删除成功' }, async (p, r) => {
    const a = await actor(r);
    const bank = await ownedRow(db, a, 'finBankAccount', p.bankId, '银行账户', '银行账户不存在或已被删除');
    return removeBank(db, a, bank.storeId, bank.id);
  });
  write(`${WALLET}/verifyBank`, FINANCE_PERM.withdrawReview, { title: '银行账户', type: BusinessType.UPDATE, msg: '核验成功' }, async (p, r) =>
    verifyBank(db, await actor(r), intParam(p.bankId)),
  );

  // ---- withdrawals ----
  read(`${WALLET}/cashList`, FINANCE_PERM.withdrawList, async (p, r) => {
    const a = await actor(r);
    const { total, rows } = await listWithdrawals(db, storeFilter(a, p.storeId, '提现记录'), p, paging(p));
    return page(rows, total);
  });
  read(`${WALLET}/cashTrail`, FINANCE_PERM.withdrawList, async (p, r) => {
    const a = await actor(r);
    const withdrawal = await ownedRow(db, a, 'finWithdrawal', p.withdrawId, '提现记录', '提现申请不存在');
    return ok(await withdrawalDetail(db, withdrawal.id));
  });
  write(
    `${WALLET}/commitCash`,
    FINANCE_PERM.withdrawApply,
    { title: '提现', type: BusinessType.INSERT, msg: '提现申请已提交', idempotent: true },
    async (p, r) => {
      const a = await actor(r);
      return commitCash(db, a, storeOf(a, p.storeId, '收款钱包'), p);
    },
  );
  write(`${WALLET}/approveCash`, FINANCE_PERM.withdrawReview, { title: '提现审核', type: BusinessType.UPDATE, msg: '已通过', idempotent: true }, async (p, r) =>
    approveCash(db, await actor(r), p),
  );
  write(`${WALLET}/payCash`, FINANCE_PERM.withdrawReview, { title: '提现打款', type: BusinessType.UPDATE, msg: '已标记打款', idempotent: true }, async (p, r) =>
    payCash(db, await actor(r), p),
  );
  write(`${WALLET}/rejectCash`, FINANCE_PERM.withdrawReview, { title: '提现审核', type: BusinessType.UPDATE, msg: '已驳回', idempotent: true }, async (p, r) =>
    rejectCash(db, await actor(r), p),
  );

  // ---- invoices ----
  read(`${WALLET}/invoice`, FINANCE_PERM.invoiceList, async (p, r) => {
    const a = await actor(r);
    return ok(await listHeaders(db, storeFilter(a, p.storeId, '发票抬头')));
  });
  write(`${WALLET}/upInvoice`, FINANCE_PERM.invoiceHeader, { title: '发票抬头', type: BusinessType.UPDATE, msg: '保存成功' }, async (p, r) => {
    const a = await actor(r);
    return saveHeader(db, a, storeOf(a, p.storeId, '发票抬头'), p);
  });
  write(`${WALLET}/delInvoice`, FINANCE_PERM.invoiceHeader, { title: '发票抬头', type: BusinessType.DELETE, msg: '删除成功' }, async (p, r) => {
    const a = await actor(r);
    const header = await ownedRow(db, a, 'finInvoiceHeader', p.headerId, '发票抬头', '发票抬头不存在或已被删除');
    return removeHeader(db, header.storeId, header.id);
  });
  write(`${WALLET}/applyInvoice`, FINANCE_PERM.invoiceApply, { title: '发票申请', type: BusinessType.INSERT, msg: '开票申请已提交' }, async (p, r) => {
    const a = await actor(r);
    return applyInvoice(db, a, storeOf(a, p.storeId, '发票'), p);
  });
  read(`${WALLET}/invoiceList`, FINANCE_PERM.invoiceList, async (p, r) => {
    const a = await actor(r);
    const { total, rows } = await listInvoices(db, storeFilter(a, p.storeId, '发票'), p, paging(p));
    return page(rows, total);
  });
  write(`${WALLET}/rejectInvoice`, FINANCE_PERM.invoiceIssue, { title: '发票审核', type: BusinessType.UPDATE, msg: '已驳回' }, async (p, r) =>
    rejectInvoice(db, await actor(r), p),
  );

  /** 开票: multipart (invoiceId, invoiceNo, file = the invoice PDF, checked by content). */
  write(`${WALLET}/issueInvoice`, FINANCE_PERM.invoiceIssue, { title: '发票开具', type: BusinessType.UPDATE, msg: '开票成功' }, async (_p, r) => {
    const a = await actor(r);
    const { fields, file } = await readPdfForm(r);
    await issueInvoice(db, a, app.config.dataDir, fields, file);
    return { invoiceId: Number(fields.invoiceId) };
  });

  /** The issued invoice PDF (the applying store or headquarters). */
  app.route({
    method: 'GET',
    url: `${WALLET}/invoiceFile`,
    config: { permission: FINANCE_PERM.invoiceList, write: false },
    handler: async (request, reply) => {
      const a = await actor(request);
      const f = await invoiceFile(db, app.config.dataDir, intParam(requestParams(request).invoiceId), (storeId) => assertStore(a, storeId, '发票'));
      const name = encodeURIComponent(f.fileName);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename*=UTF-8''${name}`)
        .header('download-filename', name)
        .header('x-content-type-options', 'nosniff')
        .header('access-control-expose-headers', 'download-filename, content-disposition')
        .send(fs.createReadStream(f.full));
    },
  });
}

/** Reads the issue form: its text fields and the one `file` part (at most MAX_PDF_BYTES are kept). */
async function readPdfForm(request: FastifyRequest) {
  const fields: Record<string, string> = {};
  let file: { buffer: Buffer; fileName: string; truncated: boolean } | undefined;
  if (!request.isMultipart()) throw fail('请上传发票 PDF 文件');
  const parts = request.parts({ limits: { fileSize: MAX_PDF_BYTES, files: 1 }, throwFileSizeLimit: false } as Parameters<FastifyRequest['parts']>[0]);
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      const buffer = await part.toBuffer();
      if (part.fieldname === 'file' && !file) file = { buffer, fileName: part.filename ?? '', truncated: part.file.truncated };
    }
  } catch (error) {
    request.raw.unpipe();
    request.raw.resume();
    if ((error as { code?: string }).code === 'FST_FILES_LIMIT') throw fail('一次只能上传一个发票文件');
    throw fail('上传的表单无法读取，请重新选择文件');
  }
  return { fields, file };
}
