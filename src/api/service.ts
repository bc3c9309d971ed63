import type { WorkOrderFormKey } from '@common/service/workOrders';
import { download, fetchFile } from './download';
import { request } from './request';
import type { TablePage } from './types';

/**
 * 服务中心 calls beyond the schema engine (server/service/routes.ts, docs/service.md): work orders, the app store's
 * countApp, downloads of gallery materials and resources, the generated school posters and help reading.
 */

const WO = '/dev-api/api/WorkOrder';

export interface WorkOrderRow {
  workOrderId: number;
  orderNo: string;
  type: number;
  typeName: string;
  form: WorkOrderFormKey;
  formName: string;
  status: number;
  statusName: string;
  storeId: number;
  storeName: string;
  title: string;
  content: Record<string, unknown>;
  attachments: Array<{ name: string; url: string }>;
  cardNo: string | null;
  submitByName: string;
  assigneeName: string | null;
  reply: string | null;
  result: string | null;
  handleByName: string | null;
  handleTime: number | null;
  createTime: number;
  version: number;
}

export interface WorkOrderLog {
  logId: number;
  action: string;
  toStatus: number;
  toStatusName: string;
  userName: string | null;
  comment: string | null;
  createTime: number;
}

export interface WorkOrderQuery {
  pageNum: number;
  pageSize: number;
  status?: number;
  form?: string;
  storeId?: number;
  orderNo?: string;
  mine?: 1;
}

function compact<T extends object>(query: T): Partial<T> {
  return Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== null && v !== '')) as Partial<T>;
}

export async function listWorkOrders(query: WorkOrderQuery): Promise<TablePage<WorkOrderRow> & Record<string, unknown>> {
  const env = await request<never>({ url: `${WO}/list`, method: 'get', params: compact(query) });
  return { ...env, rows: (env.rows ?? []) as WorkOrderRow[], total: env.total ?? 0 };
}

export async function workOrderInfo(workOrderId: number): Promise<WorkOrderRow & { logs: WorkOrderLog[] }> {
  return (await request<WorkOrderRow & { logs: WorkOrderLog[] }>({ url: `${WO}/info`, method: 'get', params: { workOrderId } })).data as WorkOrderRow & {
    logs: WorkOrderLog[];
  };
}

async function send<T>(url: string, data: unknown): Promise<{ msg: string; data: T }> {
  const env = await request<T>({ url, method: 'post', data });
  return { msg: env.msg, data: env.data as T };
}

export const submitWorkOrder = (body: Record<string, unknown>) => send<{ workOrderId: number; orderNo: string }>(`${WO}/saveWorkOrder`, body);
export const assignWorkOrder = (workOrderId: number, assigneeId?: number, reply?: string) => send(`${WO}/assign`, { workOrderId, assigneeId, reply });

export interface WorkOrderCustomer {
  studentId: number;
  name: string;
  mobile: string | null;
  score: number | null;
  examYear: number;
  userType: number;
}

export async function workOrderCustomers(keyword: string): Promise<WorkOrderCustomer[]> {
  return ((await request<WorkOrderCustomer[]>({ url: `${WO}/customers`, method: 'get', params: compact({ keyword }) })).data ?? []) as WorkOrderCustomer[];
}

export async function workOrderHandlers(): Promise<Array<{ userId: number; nickName: string }>> {
  return ((await request<Array<{ userId: number; nickName: string }>>({ url: `${WO}/handlers`, method: 'get' })).data ?? []) as Array<{
    userId: number;
    nickName: string;
  }>;
}

/** 营销图库 / 资源下载: the file, counted by the server. */
export const downloadGallery = (galleryId: number) => download('/dev-api/api/MarketingGallery/download', { method: 'post', data: { galleryId } }, '素材');
export const downloadResource = (resourceId: number) => download('/dev-api/api/ManagerResource/download', { method: 'post', data: { resourceId } }, '资源');

export interface PosterSchool {
  schoolId: number;
  name: string;
  schoolCode: string;
  examProvince: string;
}

export async function posterSchools(keyword: string): Promise<PosterSchool[]> {
  return ((await request<PosterSchool[]>({ url: '/dev-api/api/MarketingGallery/schools', method: 'get', params: compact({ keyword }) })).data ??
    []) as PosterSchool[];
}

/** The generated poster of a school as a PNG blob (shown, then saved on request). */
export const fetchPoster = (schoolId: number) => fetchFile('/dev-api/api/MarketingGallery/poster', { method: 'post', data: { schoolId } }, '海报.png');

export interface HelpArticle {
  helpId: number;
  title: string;
  category: string;
  keywords: string | null;
  content: string;
  viewCount: number;
  updateTime: number | null;
  createTime: number;
}

export async function readHelp(helpId: number): Promise<HelpArticle> {
  return (await request<HelpArticle>({ url: '/dev-api/api/Help/read', method: 'get', params: { helpId } })).data as HelpArticle;
}

/** countApp: the shelf's counts, and with appId one more install of that app. */
export async function countApp(appId?: number): Promise<{ total: number; categories: Record<string, number>; installCount?: number }> {
  return (
    await request<{ total: number; categories: Record<string, number>; installCount?: number }>({
      url: '/dev-api/api/ManagerAppStore/countApp',
      method: 'post',
      data: appId ? { appId } : {},
    })
  ).data as { total: number; categories: Record<string, number>; installCount?: number };
}
