import type { CreatedOrder, OrderStatus } from '@common/finance/orders';
import type { ReconcileReport } from '@common/finance/reconcile';
import type { RenewalPlan } from '@common/finance/renewal';
import { download } from './download';
import { request } from './request';

/**
 * Finance payments (server/finance/payRoutes.ts, docs/finance-payments.md): online orders, 充值管理, 账户续费, 优惠券,
 * 对账. Money is integer fen on the wire; the screens show yuan with two decimals and convert what is typed.
 */

export { yuan } from './customer';

/** A yuan amount as typed (at most two decimals) → integer fen; null when it is not one. */
export function yuanToFen(v: number | string | null | undefined): number | null {
  const s = typeof v === 'number' ? v.toFixed(2) : String(v ?? '').trim();
  const m = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(s);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

function compact<T extends object>(query: T): Partial<T> {
  return Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== null && v !== '')) as Partial<T>;
}
async function send<T>(url: string, data: object = {}, method: 'post' | 'put' = 'post'): Promise<{ msg: string; data: T }> {
  const env = await request<T>({ url, method, data });
  return { msg: env.msg, data: env.data as T };
}
async function read<T>(url: string, params: object = {}, method: 'get' | 'post' = 'get'): Promise<T> {
  const env = await request<T>(
    method === 'get' ? { url, method, params: compact(params) } : { url, method, data: compact(params), options: { repeatSubmit: false } },
  );
  return env.data as T;
}

// ---- orders ----
export const ORDER_STATUS: Record<OrderStatus, { text: string; color: string }> = {
  created: { text: '待支付', color: 'processing' },
  paid: { text: '已支付', color: 'success' },
  refunded: { text: '已退款', color: 'warning' },
  closed: { text: '已关闭', color: 'default' },
};

export interface PayOrder {
  orderNo: string;
  purposeName: string;
  subject: string;
  provider: string;
  providerName: string;
  amountFen: number;
  status: OrderStatus;
  statusName: string;
  userName: string | null;
  createTime: number;
  expireTime: number;
  paidTime: number | null;
}

export const orderStatus = (orderNo: string) => read<PayOrder>('/dev-api/finance/pay/order', { orderNo });

export interface PayConfig {
  providers: Array<{ provider: string; name: string }>;
  defaultProvider: string | null;
  sandbox: boolean;
  orderTimeoutMinutes: number;
}
export const payConfig = () => read<PayConfig>('/appv2/api/index/kdConfig', {}, 'post');

// ---- 充值管理 ----
// The recharge list and its 确认到账 / 驳回 are the 充值管理 schema screen's (schemas/finance/fin_recharge.json).
export interface RechargeTypes {
  online: Array<{ provider: string; name: string }>;
  offline: { accountName: string; bankName: string; cardNo: string };
}

export const rechargeTypes = () => read<RechargeTypes>('/appv2/api/index/rechargeType', {}, 'post');
export const rechargeOnline = (body: { amountFen: number; provider: string; storeId?: number; remark?: string }) =>
  send<CreatedOrder & { rechargeId: number }>('/appv2/api/MoneyWallet/commitRecharge', body);
export const rechargeOffline = (body: { amountFen: number; voucherUrl: string; voucherName?: string; storeId?: number; remark?: string }) =>
  send<{ rechargeId: number }>('/appv2/api/MoneyWallet/commitRecharg', body);
export async function uploadVoucher(file: File): Promise<{ url: string; fileName: string }> {
  const form = new FormData();
  form.append('file', file, file.name);
  const env = await request<{ url: string; fileName: string }>({
    url: '/appv2/api/MoneyWallet/upVoucher',
    method: 'post',
    data: form,
    headers: { 'Content-Type': 'multipart/form-data' },
  });
  return env.data as { url: string; fileName: string };
}

// ---- 账户续费 ----
export interface RenewalInfo {
  plans: RenewalPlan[];
  expiredate: string;
  expired: boolean;
}
export const renewalInfo = () => read<RenewalInfo>('/appv2/api/index/freeNum', {}, 'post');
export const startRenewal = (body: { planId: string; payType: string }) =>
  send<CreatedOrder & { status?: OrderStatus }>('/appv2/api/wxpay/channelRenewal', body);

// ---- 优惠券 ----
// The list of batches is the 优惠券 schema screen's (schemas/finance/fin_coupon_batch.json); 停用 / 启用 are its call actions.
export const addCouponBatch = (body: Record<string, unknown>) => send<{ batchId: number }>('/appv2/api/Coupon/addMoney', body);

// ---- 对账 ----
export const reconcile = (q: { date: string; storeId?: number }) => read<ReconcileReport>('/dev-api/finance/reconcile', q);
export const exportReconcile = (q: { date: string; storeId?: number }) =>
  download('/dev-api/finance/reconcile/export', { params: compact(q) }, `对账_${q.date}.xlsx`);
