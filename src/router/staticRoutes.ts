/**
 * Fixed routes of the console (spec §2.1). Paths are patterns: ':name' is one segment.
 * PUBLIC_PATHS need no sign-in; CONSTANT_PATHS are inside the layout for everyone signed in;
 * GATED_ROUTES are hidden pages that need a permission (numeric parameter only).
 */
export const PUBLIC_PATHS = ['/login', '/register', '/appDetail'];

export const CONSTANT_PATHS = ['/', '/index', '/user/profile', '/redirect/:path', '/401', '/405', '/beOverdue', '/log', '/test1', '/test2'];

export interface GatedRoute {
  path: string;
  title: string;
  permissions: string[];
  /** The sidebar entry to highlight while on this page. */
  activeMenu: string;
  component: string;
}

export const GATED_ROUTES: GatedRoute[] = [
  {
    path: '/system/user-auth/role/:userId',
    title: '分配角色',
    permissions: ['system:user:edit'],
    activeMenu: '/system/user',
    component: 'system/user/authRole',
  },
  {
    path: '/system/role-auth/user/:roleId',
    title: '分配用户',
    permissions: ['system:role:edit'],
    activeMenu: '/system/role',
    component: 'system/role/authUser',
  },
  { path: '/system/dict-data/index/:dictId', title: '字典数据', permissions: ['system:dict:list'], activeMenu: '/system/dict', component: 'system/dict/data' },
  { path: '/monitor/job-log/index/:jobId', title: '调度日志', permissions: ['monitor:job:list'], activeMenu: '/monitor/job', component: 'monitor/job/log' },
  { path: '/tool/gen-edit/index/:tableId', title: '修改生成配置', permissions: ['tool:gen:edit'], activeMenu: '/tool/gen', component: 'tool/gen/editTable' },
];
