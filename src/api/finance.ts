import type { StoreName } from '@common/customer/stores';
import { download } from './download';
import { request } from './request';

/**
 * 财务管理 calls of the ledger side (server/finance/routes.ts, docs/finance.md): wallet figures, bank accounts,
 * withdrawals, invoice headers and invoices (the 资金流水 lists are schema screens, read by the engine's data
 * provider). Every amount is integer fen (fields ending in Fen); the screens show yuan with two decimals (yuanText /
 * yuanToFen in common/finance/checks.ts).
 */

const W = '/appv2/api/MoneyWallet';

function compact<T extends object>(query: T): Partial<T> {
  return Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== null && v !== '')) as Partial<T>;
}
async function get<T>(url: string, query: object = {}): Promise<T> {
  return (await request<T>({ url, method: 'get', params: compact(query) })).data as T;
}
async function send<T>(url: string, data: unknown): Promise<{ msg: string; data: T }> {
  const env = await request<T>({ url, method: 'post', data });
  return { msg: env.msg, data: env.data as T };
}

// ---- wallets ----
/** A store the headquarters may choose (enabled stores; common/customer/stores.ts). */
export type StoreChoice = StoreName;
export interface WalletSummary {
  storeId: number;
  storeName: string;
  balanceFen: number;
  collectionFen: number;
  withdrawableFen: number;
  withdrawPendingFen: number;
  withdrawnFen: number;
  paidFen: number;
  invoicedFen: number;
  invoiceableFen: number;
  /** Headquarters only: the stores it may choose. */
  stores: StoreChoice[];
}
export const getWallet = (storeId?: number) => get<WalletSummary>(`${W}/wallet`, { storeId });

// ---- bank accounts ----
export interface BankAccount {
  bankId: number;
  storeId: number;
  storeName: string;
  accountName: string;
  bankName: string;
  branch: string | null;
  cardNo: string;
  cardNoMasked: string;
  verified: boolean;
  verifiedBy: string | null;
  version: number;
}
export const listBanks = (storeId?: number) => get<BankAccount[]>(`${W}/bankList`, { storeId });
export const saveBank = (b: { bankId?: number; storeId?: number; accountName: string; bankName: string; branch?: string; cardNo: string; version?: number }) =>
  send<{ bankId: number }>(`${W}/upBank`, b);
export const removeBank = (bankId: number) => send(`${W}/delBank`, { bankId });
export const verifyBank = (bankId: number) => send(`${W}/verifyBank`, { bankId });

// ---- withdrawals ----
// The list of withdrawals and its 通过 / 打款 / 驳回 are the 提现 schema screen's (schemas/finance/fin_withdrawal.json).
export const withdrawalTrail = (withdrawId: number) =>
  get<Array<{ action: string; detail: string | null; userName: string | null; createTime: number }>>(`${W}/cashTrail`, { withdrawId });
export const commitCash = (w: { storeId?: number; bankId: number; amountFen: number; remark?: string; requestKey: string }) =>
  send<{ withdrawId: number }>(`${W}/commitCash`, w);

// ---- invoices ----
export interface InvoiceHeader {
  headerId: number;
  storeId: number;
  title: string;
  taxNo: string;
  address: string | null;
  phone: string | null;
  bankName: string | null;
  bankAccount: string | null;
  version: number;
}
// The list of invoice applications and its 驳回 are the 发票管理 schema screen's (schemas/finance/fin_invoice.json).
export const listHeaders = (storeId?: number) => get<InvoiceHeader[]>(`${W}/invoice`, { storeId });
export const saveHeader = (h: Partial<InvoiceHeader> & { title: string; taxNo: string }) => send<{ headerId: number }>(`${W}/upInvoice`, h);
export const removeHeader = (headerId: number) => send(`${W}/delInvoice`, { headerId });
export const applyInvoice = (a: { storeId?: number; headerId: number; amountFen: number; remark?: string }) =>
  send<{ invoiceId: number }>(`${W}/applyInvoice`, a);
export async function issueInvoice(invoiceId: number, invoiceNo: string, file: File): Promise<string> {
  const form = new FormData();
  form.append('invoiceId', String(invoiceId));
  form.append('invoiceNo', invoiceNo);
  form.append('file', file, file.name);
  const env = await request({
    url: `${W}/issueInvoice`,
    method: 'post',
    data: form,
    headers: { 'Content-Type': 'multipart/form-data' },
    options: { repeatSubmit: false },
  });
  return env.msg;
}
export const downloadInvoice = (i: { invoiceId: number; invoiceNo: string | null }) =>
  download(`${W}/invoiceFile`, { method: 'get', params: { invoiceId: i.invoiceId } }, `发票-${i.invoiceNo ?? i.invoiceId}.pdf`);
