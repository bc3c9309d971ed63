import { request } from './request';
import type { TablePage } from './types';

export interface OnlineSession {
  tokenId: string;
  userName: string;
  deptName: string | null;
  ipaddr: string;
  loginLocation: string;
  browser: string;
  os: string;
  loginTime: number;
}

export interface OnlineQuery {
  pageNum: number;
  pageSize: number;
  userName?: string;
  ipaddr?: string;
}

/** 在线用户: live server-side sessions (monitor:online:list). */
export async function listOnline(query: OnlineQuery): Promise<TablePage<OnlineSession>> {
  const env = await request({ url: '/dev-api/monitor/online/list', method: 'get', params: { ...query } });
  return { rows: (env.rows ?? []) as OnlineSession[], total: env.total ?? 0 };
}

/** 强退: revokes one session (monitor:online:forceLogout). */
export async function forceLogout(tokenId: string): Promise<string> {
  const env = await request({ url: `/dev-api/monitor/online/${tokenId}`, method: 'delete' });
  return env.msg;
}
