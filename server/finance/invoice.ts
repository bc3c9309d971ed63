import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { INVOICE_STATUS, taxNoProblem, yuanText } from '../../common/finance/checks.js';
import type { Db } from '../db/types.js';
import { fail } from '../http/envelope.js';
import { intParam, text } from '../http/params.js';
import type { Actor } from '../security/actor.js';
import { audit } from './audit.js';
import { yuan } from './ledger.js';
import { fenParam } from './storeScope.js';
import { invoicedAmount, paidToHeadquarters } from './wallet.js';

/**
 * Invoices (invoice / upInvoice: headers; applyInvoice / invoiceList; headquarters issue / reject). States (spec §4):
 * 0 待开票 → 1 已开票 (headquarters uploads the invoice PDF) | 2 已驳回 (with a reason; the amount becomes
 * invoiceable again). A store may apply for at most what it paid headquarters out of its balance and has not applied
 * for yet (待开票 + 已开票); applications of one store are serialised by a row lock on the store.
 */

type Params = Record<string, unknown>;
export const INVOICE = { pending: 0, issued: 1, rejected: 2 } as const;
export const MAX_PDF_BYTES = 10 * 1024 * 1024;

/** Where issued invoice PDFs are kept: under the data dir, never under the public /profile/ files. */
export const invoiceRoot = (dataDir: string) => path.join(dataDir, 'finance', 'invoices');

export async function listHeaders(db: Db, storeId: number | undefined) {
  let q = db
    .selectFrom('finInvoiceHeader')
    .select(['headerId', 'storeId', 'title', 'taxNo', 'address', 'phone', 'bankName', 'bankAccount', 'createTime', 'version'])
    .where('status', '=', '0');
  if (storeId !== undefined) q = q.where('storeId', '=', storeId);
  const rows = await q.orderBy('headerId', 'desc').execute();
  return rows.map((r) => ({ ...r, createTime: Number(r.createTime) }));
}

function headerFields(p: Params) {
  const title = text(p.title, 100, '发票抬头', true) as string;
  const taxNo = String(p.taxNo ?? '').trim();
  const problem = taxNoProblem(taxNo);
  if (problem) throw fail(problem);
  const phone = text(p.phone, 30, '电话');
  if (phone && !/^[0-9+\-() ]{5,30}$/.test(phone)) throw fail('电话只能包含数字、空格、+、-、括号');
  const bankAccount = text(p.bankAccount, 40, '银行账号');
  if (bankAccount && !/^[0-9 -]{5,40}$/.test(bankAccount)) throw fail('银行账号只能包含数字');
  return { title, taxNo, address: text(p.address, 200, '地址'), phone, bankName: text(p.bankName, 60, '开户银行'), bankAccount };
}

/** upInvoice: adds (no headerId) or changes an invoice header of the store. */
export async function saveHeader(db: Db, actor: Actor, storeId: number, p: Params) {
  const fields = headerFields(p);
  const headerId = intParam(p.headerId);
  if (!headerId) {
    const row = await db
      .insertInto('finInvoiceHeader')
      .values({ storeId, ...fields, status: '0', createBy: actor.userName, createTime: Date.now(), version: 1 })
      .returning('headerId')
      .executeTakeFirstOrThrow();
    return { headerId: row.headerId };
  }
  const old = await db.selectFrom('finInvoiceHeader').select('storeId').where('headerId', '=', headerId).where('status', '=', '0').executeTakeFirst();
  if (!old || old.storeId !== storeId) throw fail('发票抬头不存在或已被删除');
  const version = intParam(p.version);
  let q = db
    .updateTable('finInvoiceHeader')
    .set({ ...fields, version: sql`version + 1` })
    .where('headerId', '=', headerId);
  if (version !== undefined) q = q.where('version', '=', version);
  const res = await q.executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw fail('发票抬头已被他人修改，请刷新后重试');
  return { headerId };
}

export async function removeHeader(db: Db, storeId: number, headerId: number | undefined) {
  const old = headerId
    ? await db.selectFrom('finInvoiceHeader').select('storeId').where('headerId', '=', headerId).where('status', '=', '0').executeTakeFirst()
    : undefined;
  if (!headerId || !old || old.storeId !== storeId) throw fail('发票抬头不存在或已被删除');
  await db.updateTable('finInvoiceHeader').set({ status: '1', version: sql`version + 1` }).where('headerId', '=', headerId).execute();
}

export async function applyInvoice(db: Db, actor: Actor, storeId: number, p: Params) {
  const amount = fenParam(p.amountFen ?? p.amount, '开票金额');
  const headerId = intParam(p.headerId);
  const remark = text(p.remark, 200, '备注');
  return db.transaction().execute(async (trx) => {
    // Serialise this store's applications (a row lock on PostgreSQL; SQLite runs one write transaction at a time).
    await trx.updateTable('cusStore').set({ storeId: sql`store_id` }).where('storeId', '=', storeId).execute();
    const header = headerId
      ? await trx.selectFrom('finInvoiceHeader').selectAll().where('headerId', '=', headerId).where('status', '=', '0').executeTakeFirst()
      : undefined;
    if (!header || header.storeId !== storeId) throw fail('请选择发票抬头');
    const invoiceable = (await paidToHeadquarters(trx, storeId)) - (await invoicedAmount(trx, storeId));
    if (amount > invoiceable) throw fail(`开票金额超过可开票金额：本次申请 ${yuan(amount)} 元，可开票 ${yuan(Math.max(0, invoiceable))} 元`);
    const now = Date.now();
    const snapshot = {
      title: header.title,
      taxNo: header.taxNo,
      address: header.address,
      phone: header.phone,
      bankName: header.bankName,
      bankAccount: header.bankAccount,
    };
    const row = await trx
      .insertInto('finInvoice')
      .values({
        storeId,
        headerId: header.headerId,
        title: header.title,
        taxNo: header.taxNo,
        headerJson: JSON.stringify(snapshot),
        amount,
        status: INVOICE.pending,
        remark,
        reason: null,
        invoiceNo: null,
        fileName: null,
        filePath: null,
        createBy: actor.userName,
        createTime: now,
        updateTime: now,
        version: 1,
      })
      .returning('invoiceId')
      .executeTakeFirstOrThrow();
    await audit(trx, actor, {
      targetType: 'invoice',
      targetId: row.invoiceId,
      storeId,
      action: '申请开票',
      from: null,
      to: INVOICE.pending,
      detail: `${yuan(amount)} 元`,
    });
    return { invoiceId: row.invoiceId, amountFen: amount };
  });
}

export async function listInvoices(db: Db, storeId: number | undefined, p: Params, paging: { pageSize: number; offset: number }) {
  const status = intParam(p.status);
  const base = () => {
    let q = db.selectFrom('finInvoice as i').innerJoin('cusStore as s', 's.storeId', 'i.storeId');
    if (storeId !== undefined) q = q.where('i.storeId', '=', storeId);
    if (status !== undefined) q = q.where('i.status', '=', status);
    return q;
  };
  const count = await base()
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirst();
  const rows = await base()
    .select([
      'i.invoiceId',
      'i.storeId',
      's.storeName',
      'i.headerId',
      'i.title',
      'i.taxNo',
      'i.headerJson',
      'i.amount',
      'i.status',
      'i.remark',
      'i.reason',
      'i.invoiceNo',
      'i.fileName',
      'i.createBy',
      'i.createTime',
      'i.updateTime',
      'i.version',
    ])
    .orderBy('i.invoiceId', 'desc')
    .limit(paging.pageSize)
    .offset(paging.offset)
    .execute();
  return {
    total: Number(count?.n ?? 0),
    rows: rows.map(({ amount, headerJson, fileName, ...r }) => ({
      ...r,
      header: JSON.parse(headerJson) as Record<string, string | null>,
      amountFen: Number(amount),
      // The console's 驳回 text names the amount in yuan (schemas/finance/fin_invoice.json).
      amountYuan: yuanText(Number(amount)),
      statusName: INVOICE_STATUS[r.status] ?? String(r.status),
      hasFile: !!fileName,
      fileName,
      createTime: Number(r.createTime),
      updateTime: r.updateTime == null ? null : Number(r.updateTime),
    })),
  };
}

/** A PDF by content: the %PDF- signature at the start and an %%EOF marker near the end. */
export function isPdf(b: Buffer): boolean {
  return b.length > 8 && b.subarray(0, 5).toString('latin1') === '%PDF-' && b.subarray(Math.max(0, b.length - 1024)).includes('%%EOF');
}

async function pendingInvoice(trx: Db, invoiceId: number | undefined) {
  const row = invoiceId ? await trx.selectFrom('finInvoice').selectAll().where('invoiceId', '=', invoiceId).executeTakeFirst() : undefined;
  if (!invoiceId || !row) throw fail('发票申请不存在');
  if (row.status !== INVOICE.pending) throw fail(`该发票申请当前为“${INVOICE_STATUS[row.status]}”，不能再处理`);
  return row;
}

/** Headquarters issues an invoice: the PDF is checked by content, kept under the data dir, then the state moves. */
export async function issueInvoice(
  db: Db,
  actor: Actor,
  dataDir: string,
  p: Params,
  file: { buffer: Buffer; fileName: string; truncated: boolean } | undefined,
) {
  const invoiceId = intParam(p.invoiceId);
  const invoiceNo = text(p.invoiceNo, 40, '发票号码', true) as string;
  if (!file || file.buffer.length === 0) throw fail('请上传发票 PDF 文件');
  if (file.truncated || file.buffer.length > MAX_PDF_BYTES) throw fail('发票文件不能超过 10 MB');
  if (!isPdf(file.buffer)) throw fail('发票文件必须是 PDF 格式');
  const row = await pendingInvoice(db, invoiceId);
  const dir = path.join(invoiceRoot(dataDir), String(row.storeId));
  fs.mkdirSync(dir, { recursive: true });
  const stored = `${row.invoiceId}-${crypto.randomBytes(8).toString('hex')}.pdf`;
  const full = path.join(dir, stored);
  fs.writeFileSync(full, file.buffer, { flag: 'wx' });
  try {
    await db.transaction().execute(async (trx) => {
      const res = await trx
        .updateTable('finInvoice')
        .set({
          status: INVOICE.issued,
          invoiceNo,
          fileName: `发票-${invoiceNo}.pdf`,
          filePath: path.posix.join(String(row.storeId), stored),
          updateTime: Date.now(),
          version: sql`version + 1`,
        })
        .where('invoiceId', '=', row.invoiceId)
        .where('status', '=', INVOICE.pending)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) throw fail('该发票申请已被他人处理，请刷新后重试');
      await audit(trx, actor, {
        targetType: 'invoice',
        targetId: row.invoiceId,
        storeId: row.storeId,
        action: '开票',
        from: INVOICE.pending,
        to: INVOICE.issued,
        detail: `发票号码 ${invoiceNo}`,
      });
    });
  } catch (error) {
    fs.rmSync(full, { force: true }); // nothing stays of a refused issue
    throw error;
  }
}

export async function rejectInvoice(db: Db, actor: Actor, p: Params) {
  const invoiceId = intParam(p.invoiceId);
  const reason = text(p.reason, 200, '驳回原因', true) as string;
  await db.transaction().execute(async (trx) => {
    const row = await pendingInvoice(trx, invoiceId);
    const res = await trx
      .updateTable('finInvoice')
      .set({ status: INVOICE.rejected, reason, updateTime: Date.now(), version: sql`version + 1` })
      .where('invoiceId', '=', row.invoiceId)
      .where('status', '=', INVOICE.pending)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw fail('该发票申请已被他人处理，请刷新后重试');
    await audit(trx, actor, {
      targetType: 'invoice',
      targetId: row.invoiceId,
      storeId: row.storeId,
      action: '驳回',
      from: INVOICE.pending,
      to: INVOICE.rejected,
      detail: reason,
    });
  });
}

/** The issued PDF of an invoice, confined to the invoice folder (a stored path leading elsewhere is refused). */
export async function invoiceFile(db: Db, dataDir: string, invoiceId: number | undefined, mayRead: (storeId: number) => void) {
  const row = invoiceId
    ? await db.selectFrom('finInvoice').select(['storeId', 'status', 'fileName', 'filePath']).where('invoiceId', '=', invoiceId).executeTakeFirst()
    : undefined;
  if (!row) throw fail('发票申请不存在');
  mayRead(row.storeId);
  if (row.status !== INVOICE.issued || !row.filePath) throw fail('该发票尚未开具');
  const root = path.resolve(invoiceRoot(dataDir));
  const full = path.resolve(root, row.filePath);
  if (!full.startsWith(root + path.sep) || !fs.existsSync(full)) throw fail('发票文件不存在');
  return { storeId: row.storeId, fileName: row.fileName ?? '发票.pdf', full };
}
