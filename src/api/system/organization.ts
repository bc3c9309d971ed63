import type { OrgStaff, OrgTree } from '@common/system/organization';
import { request } from '../request';
import type { TablePage } from '../types';

/** 组织机构 (server/system/organization.ts): the tree of 总部, stores and departments; a node's staff. */

const BASE = '/dev-api/system/organization';

export async function organizationTree(): Promise<OrgTree> {
  const env = await request<OrgTree>({ url: `${BASE}/tree`, method: 'get' });
  return env.data ?? { nodes: [], total: 0 };
}

/** The staff of a node: a store ('none': accounts without one) and optionally a department and those below it. */
export async function organizationStaff(query: {
  storeId: number | 'none' | null;
  deptId?: number | 'none' | null;
  pageNum: number;
  pageSize: number;
}): Promise<TablePage<OrgStaff>> {
  const params: Record<string, unknown> = { pageNum: query.pageNum, pageSize: query.pageSize };
  if (query.storeId !== null) params.storeId = query.storeId;
  if (query.deptId !== undefined && query.deptId !== null) params.deptId = query.deptId;
  const env = await request({ url: `${BASE}/staff`, method: 'get', params });
  return { rows: (env.rows ?? []) as OrgStaff[], total: env.total ?? 0 };
}
