import { yuanText } from '@common/finance/checks';
import type { BaseRecord } from '@refinedev/core';
import { Tag } from 'antd';
import type { ReactNode } from 'react';
import { downloadInvoice } from '@/api/finance';
import type { ResourceOverride } from '@/engine/resource';
import { parseTime } from '@/utils/format';
import { openDialog } from './storeForms/dialogRequests';
import { storeSearch } from './storeForms/StoreSearch';

/**
 * 财务管理 overrides of the generic screens of schemas/finance/ (src/resources/ finds this file by its name). The lists,
 * their review steps (kind "call" row actions with `when` and a comment dialog) and their header figures are the
 * schemas'; what JSON cannot say is here: fen shown as yuan, composed cells, and the bespoke forms (申请提现,
 * 银行账户, 申请开票, 发票抬头, 开票 with its PDF, 在线充值 with the QR code, 线下转账充值 with a voucher, 立即续费, 新增优惠券)
 * opened from toolbar and row buttons into the screen's list page (the generic list plus those dialogs).
 */

const DAY = '{y}-{m}-{d}';
const fen = (value: unknown) => yuanText(Number(value ?? 0));
const orDash = (value: unknown) => (value === null || value === undefined || value === '' ? '--' : String(value));

const BATCH_COLOR: Record<string, string> = { 发放中: 'success', 已停用: 'default', 已过期: 'warning' };

/** The first of the row's notes that is set (a rejection's reason before the applicant's remark). */
const firstNote =
  (...keys: string[]) =>
  (_value: unknown, r: BaseRecord) =>
    orDash(keys.map((k) => r[k]).find((v) => v !== null && v !== undefined && v !== ''));

export const couponOverride: ResourceOverride = {
  pages: { list: () => import('./coupon/CouponListPage') },
  toolbar: [{ key: 'add', label: '新增', type: 'primary', permission: 'finance:coupon:issue', onClick: (ctx) => openDialog('add', ctx) }],
  cells: {
    offer: (_v, b) => (b.kind === 'amount' ? `减 ${fen(b.amountFen)} 元` : `${Number(b.discountPct) / 10} 折`),
    minFen: (v) => (Number(v) ? `满 ${fen(v)} 元` : '无门槛'),
    validTo: (_v, b) => `${parseTime(Number(b.validFrom), DAY)} 至 ${parseTime(Number(b.validTo), DAY)}`,
    remaining: (_v, b) => `${b.remaining} / ${b.total}`,
    statusName: (v): ReactNode => <Tag color={BATCH_COLOR[String(v)]}>{String(v ?? '')}</Tag>,
  },
};

export const withdrawalOverride: ResourceOverride = {
  searchFields: { storeId: storeSearch },
  pages: { list: () => import('./withdraw/WithdrawListPage') },
  cells: {
    amountFen: fen,
    cardNoMasked: (_v, r) => `${r.accountName} · ${r.bankName} ${r.cardNoMasked}`,
    remark: firstNote('reason', 'bankRef', 'remark'),
  },
  rowActions: [{ key: 'trail', label: '记录', onClick: (record, ctx) => openDialog('trail', ctx, record) }],
  toolbar: [
    { key: 'apply', label: '申请提现', type: 'primary', permission: 'finance:withdraw:apply', onClick: (ctx) => openDialog('apply', ctx) },
    { key: 'banks', label: '银行账户', onClick: (ctx) => openDialog('banks', ctx) },
  ],
};

export const invoiceOverride: ResourceOverride = {
  searchFields: { storeId: storeSearch },
  pages: { list: () => import('./invoice/InvoiceListPage') },
  cells: {
    amountFen: fen,
    invoiceNo: firstNote('invoiceNo', 'reason', 'remark'),
  },
  rowActions: [
    {
      key: 'download',
      label: '下载发票',
      visible: (r) => Boolean(r.hasFile),
      onClick: async (r) => {
        try {
          await downloadInvoice({ invoiceId: Number(r.invoiceId), invoiceNo: (r.invoiceNo as string | null) ?? null });
        } catch {
          // download() has shown the message
        }
      },
    },
    {
      key: 'issue',
      label: '开票',
      permission: 'finance:invoice:issue',
      visible: (r) => Number(r.status) === 0,
      onClick: (record, ctx) => openDialog('issue', ctx, record),
    },
  ],
  toolbar: [
    { key: 'apply', label: '申请开票', type: 'primary', permission: 'finance:invoice:apply', onClick: (ctx) => openDialog('apply', ctx) },
    { key: 'headers', label: '发票抬头', onClick: (ctx) => openDialog('headers', ctx) },
  ],
};

export const rechargeOverride: ResourceOverride = {
  searchFields: { storeId: storeSearch },
  pages: { list: () => import('./rechargeManage/RechargeListPage') },
  cells: {
    amountFen: fen,
    orderNo: orDash,
    voucherUrl: (url) =>
      url ? (
        <a href={String(url)} target="_blank" rel="noopener noreferrer">
          查看凭证
        </a>
      ) : (
        '--'
      ),
    remark: (_v, r) => String(r.reason ?? r.remark ?? ''),
    reviewBy: orDash,
  },
  toolbar: [
    { key: 'online', label: '在线充值', type: 'primary', permission: 'finance:recharge:apply', onClick: (ctx) => openDialog('online', ctx) },
    { key: 'offline', label: '线下转账充值', permission: 'finance:recharge:apply', onClick: (ctx) => openDialog('offline', ctx) },
  ],
};

export const renewalOverride: ResourceOverride = {
  pages: { list: () => import('./renewal/RenewalListPage') },
  cells: {
    amountFen: fen,
  },
  toolbar: [{ key: 'renew', label: '立即续费', type: 'primary', permission: 'finance:renewal:pay', onClick: (ctx) => openDialog('renew', ctx) }],
};

/** The overrides of this module by schema $id. */
export const overrides: Record<string, ResourceOverride> = {
  fin_coupon_batch: couponOverride,
  fin_withdrawal: withdrawalOverride,
  fin_invoice: invoiceOverride,
  fin_recharge: rechargeOverride,
  fin_renewal_order: renewalOverride,
};
