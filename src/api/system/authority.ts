import type { AuthorityChange, AuthorityMatrix } from '@common/system/authority';
import { request } from '../request';

/** 权限 (server/system/authority.ts): the role × menu matrix and saving changed roles. */

const BASE = '/dev-api/system/authority';

export async function authorityMatrix(): Promise<AuthorityMatrix> {
  const env = await request<AuthorityMatrix>({ url: `${BASE}/matrix`, method: 'get' });
  return env.data ?? { roles: [], menus: [], grants: {} };
}

/** Saves the new menu sets of the changed roles, each on the version it was read on; answers the server's message. */
export async function saveAuthority(changes: AuthorityChange[]): Promise<string> {
  return (await request({ url: BASE, method: 'put', data: { changes } })).msg;
}
