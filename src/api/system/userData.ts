import type { UserDataDetail, UserDataHit } from '@common/system/userData';
import { request } from '../request';
import type { TablePage } from '../types';

/** 用户资料 (server/system/userData.ts): look up accounts and read one; the reset goes through resetUserPwd (user.ts). */
export async function findUsers(keyword: string, pageNum = 1, pageSize = 10): Promise<TablePage<UserDataHit>> {
  const env = await request({ url: '/dev-api/system/userData/list', method: 'get', params: { keyword, pageNum, pageSize } });
  return { rows: (env.rows ?? []) as UserDataHit[], total: env.total ?? 0 };
}

export async function getUserData(userId: number): Promise<UserDataDetail> {
  const env = await request({ url: `/dev-api/system/userData/${userId}`, method: 'get' });
  return env.data as UserDataDetail;
}
