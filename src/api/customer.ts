import type { ReleaseResult } from '@common/customer/cards';
import { yuanText } from '@common/finance/checks';
import type { Envelope } from '@common/http/envelope';
import { download } from './download';
import { handleEnvelope, http, RequestError, request } from './request';
import type { TablePage } from './types';

/**
 * 会员卡 and 用户管理 calls (server/customer/routes.ts, docs/customer.md). Money is integer fen; card numbers are
 * text. The spec §3 user and VIP pay types are in common/customer/enums.ts. The lists of the schema screens (发卡记录,
 * 卡片二, 用户列表 …) and their declared calls (作废, 删除, 恢复 …) go through the engine's data provider, not here.
 */

export const CARD_KINDS: Record<number, string> = { 1: '志愿卡', 2: '升学卡', 3: '体验卡' };

/** Fen as yuan text for a table or card ('--' when there is none): yuanText's grouping, like every money figure. */
export const yuan = (fen: number | null | undefined) => (fen == null ? '--' : yuanText(fen));

function compact<T extends object>(query: T): Partial<T> {
  return Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== null && v !== '')) as Partial<T>;
}
async function table<T>(url: string, query: object): Promise<TablePage<T> & Record<string, unknown>> {
  const env = await request<never>({ url, method: 'get', params: compact(query) });
  return { ...env, rows: (env.rows ?? []) as T[], total: env.total ?? 0 };
}
async function send<T>(method: 'post' | 'put' | 'delete', url: string, data?: unknown): Promise<{ msg: string; data: T }> {
  const env = await request<T>({ url, method, data: data ?? {} });
  return { msg: env.msg, data: env.data as T };
}

// ---- stores ----
export interface Store {
  storeId: number;
  storeName: string;
  kind: string;
}
export async function listStores(): Promise<{ stores: Store[]; storeId: number; allStores: boolean }> {
  return (await request<{ stores: Store[]; storeId: number; allStores: boolean }>({ url: '/dev-api/customer/stores', method: 'get' })).data as never;
}

// ---- 发卡 ----
export interface ReleaseInfo {
  storeId: number;
  storeName: string;
  storeBalance: number;
  no_vip_num: number;
  no_vip_sx_num: number;
  no_vip_ty_num: number;
  kinds: Array<{ kind: number; name: string; vip_price: number; validDays: number }>;
  stores: Array<{ storeId: number; storeName: string; storeBalance: number }>;
  maxRelease: number;
}
/** The experts of one store (开卡's 服务专家: an expert serves the customers of their own store). */
export interface StoreExpert {
  userId: number;
  userName: string;
  nickName: string;
  studentCount: number;
}
export async function listStoreExperts(storeId: number): Promise<StoreExpert[]> {
  return (await request<StoreExpert[]>({ url: '/dev-api/api/AdvanceApproval/experts', method: 'get', params: { storeId } })).data ?? [];
}

export async function releaseInfo(storeId?: number): Promise<ReleaseInfo> {
  return (await request<ReleaseInfo>({ url: '/dev-api/card/release/info', method: 'get', params: compact({ storeId }) })).data as ReleaseInfo;
}

/**
 * 发卡: the server answers NDJSON while it makes the batch (progress lines, then the envelope line); the XHR's
 * growing responseText gives the progress. A refusal before any card is made is a plain JSON envelope.
 */
export async function releaseCards(
  body: { storeId: number; kind: number; card_num: number; vip_price: number; remark?: string },
  onProgress: (made: number, total: number) => void,
): Promise<{ msg: string; data: ReleaseResult }> {
  const lines = (text: string) =>
    text
      .split('\n')
      .filter((l) => l.trim())
      .flatMap((l) => {
        try {
          return [JSON.parse(l) as Record<string, unknown>];
        } catch {
          return []; // a line still arriving
        }
      });
  const response = await http.request<string>({
    url: '/dev-api/card/release',
    method: 'post',
    data: body,
    responseType: 'text',
    timeout: 300_000,
    options: { repeatSubmit: true },
    onDownloadProgress: (e) => {
      const xhr = (e.event as ProgressEvent | undefined)?.target as XMLHttpRequest | undefined;
      const last = lines(xhr?.responseText ?? '')
        .filter((l) => 'progress' in l)
        .at(-1);
      if (last) onProgress(Number(last.progress), Number(last.total));
    },
  });
  const all = lines(typeof response.data === 'string' ? response.data : JSON.stringify(response.data));
  const final = all.filter((l) => 'code' in l).at(-1) as Envelope<ReleaseResult> | undefined;
  if (!final) throw new RequestError('发卡结果未知，请到发卡记录查看', 0);
  await handleEnvelope(final); // shows and throws a refusal
  return { msg: final.msg, data: final.data as ReleaseResult };
}

// ---- 发卡记录 ----
export const downloadBatch = (b: { batchId: number; cardNoFirst: string; cardNoEnd: string }) =>
  download('/dev-api/card/record/download', { method: 'post', data: { batchId: b.batchId } }, `卡号列表_${b.cardNoFirst}-${b.cardNoEnd}.xlsx`);

// ---- 卡数据 ----
export interface CardDaily {
  days: Array<{ date: string; activated: number; expired: number }>;
  totals: { activated: number; expired: number };
}
export async function cardDaily(beginTime?: string, endTime?: string): Promise<CardDaily> {
  return (await request<CardDaily>({ url: '/dev-api/card/date/list', method: 'get', params: compact({ beginTime, endTime }) })).data as CardDaily;
}

// ---- 卡片二 ----
export const transferCards = (cardIds: number[], toStoreId: number) => send('post', '/dev-api/card/two/transfer', { cardIds: cardIds.join(','), toStoreId });

// ---- 用户列表 / 回收站 / 客户资料 ----
export interface Customer {
  studentId: number;
  name: string;
  mobile: string | null;
  province: string;
  examYear: number;
  score: number | null;
  subjects: string;
  subjectNames: string;
  userType: number;
  userTypeName: string;
  vipPayType: number;
  vipPayTypeName: string;
  cardNo: string | null;
  vipExpireTime: number | null;
  storeId: number;
  storeName: string;
  expertId: number | null;
  expertName: string | null;
  status: 'active' | 'recycled';
  recycleTime: number | null;
  purgeTime: number | null;
  address: string | null;
  receiver: string | null;
  receiverMobile: string | null;
  unread: number;
  version: number;
  createTime: number;
}
export interface CustomerQuery {
  pageNum: number;
  pageSize: number;
  name?: string;
  mobile?: string;
  userType?: number;
  storeId?: number;
  cardNo?: string;
}
export const listCustomers = (q: CustomerQuery) => table<Customer>('/dev-api/customer/list', q);
export const updateCustomer = (c: {
  studentId: number;
  version: number;
  name: string;
  mobile?: string;
  province: string;
  examYear: number;
  score?: number | null;
  subjects: string;
}) => send('put', '/dev-api/customer', c);
export const openCard = (studentId: number, cardNo: string, expertId?: number) =>
  send('post', '/dev-api/customer/openCard', compact({ studentId, cardNo, expertId }));
export interface CustomerAction {
  actionId: number;
  action: string;
  fromStatus: string | null;
  toStatus: string | null;
  userName: string | null;
  comment: string | null;
  createTime: number;
}
export async function customerHistory(studentId: number): Promise<CustomerAction[]> {
  return (await request<CustomerAction[]>({ url: '/dev-api/customer/history', method: 'get', params: { studentId } })).data ?? [];
}
export const updateAddress = (b: { studentId: number; receiver: string; receiverMobile: string; address: string }) =>
  send('put', '/dev-api/customer/client/address', b);
export const deliver = (b: { studentId: number; item: string; carrier: string; trackingNo: string }) => send('post', '/dev-api/customer/client/deliver', b);
/** One 邮寄记录 (read by 客户资料's expanded row through Refine, clientData/Deliveries.tsx). */
export interface Delivery {
  deliveryId: number;
  item: string;
  carrier: string;
  trackingNo: string;
  address: string | null;
  createByName: string | null;
  createTime: number;
}

// ---- 备忘录 ----
export interface Memo {
  memoId: number;
  studentId: number;
  studentName: string;
  content: string;
  createBy: number | null;
  createByName: string | null;
  createTime: number;
}
export const listMemos = (q: { pageNum: number; pageSize: number; content?: string; memoId?: number }) => table<Memo>('/dev-api/customer/memo/list', q);
export const addMemo = (studentId: number, content: string) => send('post', '/dev-api/customer/memo', { studentId, content });
export const editMemo = (memoId: number, content: string) => send('put', '/dev-api/customer/memo', { memoId, content });

// ---- 消息 ----
export const sendMessage = (b: { target: 'one' | 'selected' | 'all'; studentIds?: number[]; title: string; content: string }) =>
  send<{ sent: number }>('post', '/dev-api/customer/message', { ...b, studentIds: b.studentIds?.join(',') });

// ---- 测评 ----
export const downloadAppraisal = (a: { appraisalId: number; studentName: string }) =>
  download('/dev-api/customer/appraisal/download', { method: 'post', data: { appraisalId: a.appraisalId } }, `测评结果-${a.studentName}.pdf`);
