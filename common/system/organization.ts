/**
 * 组织机构 (server/system/organization.ts, src/modules/system/organization/): headquarters and each store with the
 * departments their staff are in. Both sides read these shapes; the labels are the words the screen shows.
 */

/** 数据权限 of a role (sys_role.data_scope), as 角色管理 names them. */
export const DATA_SCOPE_LABELS: Record<string, string> = {
  '1': '全部数据权限',
  '2': '自定数据权限',
  '3': '本部门数据权限',
  '4': '本部门及以下数据权限',
  '5': '仅本人数据权限',
};

/** How many of a node's staff hold one role, with that role's data scope. */
export interface OrgRoleCount {
  roleId: number;
  roleName: string;
  dataScope: string;
  count: number;
}

/**
 * One node: a store (总部 is the store of kind hq), the accounts without a store, or a department under one of those.
 * `staff` counts the accounts in the node and every node below it.
 */
export interface OrgNode {
  /** 'store:2', 'store:none', 'dept:2:101', 'dept:2:none' (staff of store 2 without a department). */
  key: string;
  kind: 'hq' | 'store' | 'unassigned' | 'dept';
  name: string;
  /** The store of the node (null: accounts without a store). */
  storeId: number | null;
  /** The department of a dept node; null on store nodes and on 未分配部门. */
  deptId: number | null;
  staff: number;
  roles: OrgRoleCount[];
  /** Store nodes: what their staff can see across stores (the store scope). */
  scope?: string;
  /** '0' 正常, '1' 停用 (store or department). */
  status: string;
  children?: OrgNode[];
}

export interface OrgTree {
  nodes: OrgNode[];
  /** Accounts counted in the whole tree. */
  total: number;
}

/** One account of a node's staff list. */
export interface OrgStaff {
  userId: number;
  userName: string;
  nickName: string;
  deptName: string | null;
  storeName: string | null;
  roleNames: string[];
  status: string;
}

export const STORE_SCOPE_TEXT = {
  hq: '总部员工可查看所有门店的数据',
  store: '本门店员工只能查看本门店的数据',
  unassigned: '未分配门店的账号看不到任何门店的数据，请在用户管理中为其选择所属门店',
} as const;
