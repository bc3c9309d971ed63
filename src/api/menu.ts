import type { RouterItem } from '@common/menu/routes';
import { request } from './request';
import type { RuleList } from './types';

/** The signed-in user's menu tree (router shape), permissions and roles (spec §4 route generation step 1). */
export async function getRuleList(): Promise<RuleList> {
  const env = await request<RouterItem[]>({ url: '/dev-api/api/auth/getRuleList', method: 'post', data: {} });
  return {
    routes: env.data ?? [],
    permissions: (env.permissions as string[] | undefined) ?? [],
    roles: (env.roles as string[] | undefined) ?? [],
  };
}

/** Every route of the platform (step 4: routerDataAll). */
export async function getStoreRule(): Promise<RouterItem[]> {
  const env = await request<RouterItem[]>({ url: '/dev-api/api/auth/getStoreRule', method: 'post', data: {} });
  return env.data ?? [];
}
