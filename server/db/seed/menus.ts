/**
 * The hand-kept part of the seeded menu tree (spec §2.3 areas): the directories and the bespoke pages. Directories
 * (M) hold pages (C); pages hold buttons (F) that only carry permission strings. Components are view paths resolved
 * by the console's component registry. The page of a generic entity is not kept here: its schema's `x-menu` says
 * where it goes and schemaMenus.ts adds it (with a button per `x-permissions`), so a new schema file needs no entry.
 */
export interface MenuSeed {
  name: string;
  path?: string;
  type: 'M' | 'C' | 'F';
  component?: string;
  icon?: string;
  perms?: string;
  hidden?: boolean;
  noCache?: boolean;
  link?: string;
  activeMenu?: string;
  /** The place among its siblings (sys_menu.order_num); without one, its position in the list. */
  order?: number;
  children?: MenuSeed[];
}

/** The sys_menu row of a seeded entry (the seed and the start-up menu sync write the same row). */
export function seededMenuRow(m: MenuSeed, parentId: number, order: number, now: number) {
  return {
    menuName: m.name,
    parentId,
    orderNum: order,
    path: m.path ?? '',
    component: m.type === 'C' ? (m.component ?? null) : null,
    query: null,
    routeName: null,
    isFrame: m.link ? 0 : 1,
    isCache: m.noCache ? 1 : 0,
    menuType: m.type,
    visible: m.hidden ? '1' : '0',
    status: '0',
    perms: m.perms ?? null,
    icon: m.type === 'F' ? '#' : (m.icon ?? '#'),
    activeMenu: m.activeMenu ?? null,
    affix: 0,
    createTime: now,
    remark: null,
  };
}

const page = (name: string, path: string, component: string, icon: string, perms: string, children: MenuSeed[] = []): MenuSeed => ({
  name,
  path,
  type: 'C',
  component,
  icon,
  perms,
  children,
});

export const BESPOKE_MENUS: MenuSeed[] = [
  {
    name: '志愿填报',
    path: 'volunteer',
    type: 'M',
    icon: 'edit',
    children: [
      page('专家填报', 'Filling', 'Filling/index', 'edit', 'volunteer:filling:list', [
        { name: '保存志愿', type: 'F', perms: 'volunteer:plan:save' },
        { name: '提交志愿', type: 'F', perms: 'volunteer:plan:submit' },
        // Next year's admission data (POST /dev-api/volunteer/admission/import): administrators only by default.
        { name: '导入录取数据', type: 'F', perms: 'volunteer:data:import' },
      ]),
      // 学生志愿 2: schemas/volunteer/vol_student.json (its buttons in SCHEMA_PAGE_BUTTONS)
      { ...page('提前批志愿', 'advance', 'leader/volunteerAdvance/index', 'documentation', 'volunteer:advance:list'), order: 3 },
      // 志愿审核 4, 领导审批 5, 预约管理 6: schemas/volunteer/vol_examine.json, vol_approval.json, vol_appointment.json
      // (their workflow buttons in SCHEMA_PAGE_BUTTONS)
      { ...page('专业推荐', 'majorRecommend', 'majorRecommend/index', 'star', 'volunteer:major:recommend'), order: 7 },
      // 志愿保存 8: schemas/volunteer/vol_saved_plan.json
    ],
  },
  {
    name: '会员卡',
    path: 'card',
    type: 'M',
    icon: 'money',
    children: [
      page('发卡', 'release', 'card/release/index', 'guide', 'card:release:list', [{ name: '发卡', type: 'F', perms: 'card:release:add' }]),
      // 发卡记录 2 and 卡片二 4: schemas/customer/card_batch.json, card.json
      { ...page('卡数据', 'date', 'card/date/index', 'chart', 'card:date:list'), order: 3 },
    ],
  },
  {
    name: '财务管理',
    path: 'finance',
    type: 'M',
    icon: 'shopping',
    children: [
      // 账户余额 (1, with 导出), 收款钱包 (2), 付款钱包 (3), 充值管理 (4), 提现 (5), 发票管理 (6), 账户续费 (7), 优惠券 (8)
      // come from schemas/finance/ (x-menu), with their review / apply buttons in SCHEMA_PAGE_BUTTONS below.
      {
        ...page('对账', 'reconcile', 'finance/reconcile/index', 'chart', 'finance:reconcile:list', [
          { name: '导出', type: 'F', perms: 'finance:reconcile:export' },
        ]),
        order: 9,
      },
    ],
  },
  {
    // 客户管理, not 用户管理: 系统管理 › 用户管理 is the console's accounts (migration 014 renames existing installs).
    name: '客户管理',
    path: 'manage',
    type: 'M',
    icon: 'user',
    // Every page is a schema's (schemas/customer/): 用户列表 1, 回收站 2, 测评管理 3, 客户资料 4, 备忘录 5, 消息管理 6;
    // the buttons of 用户列表 / 回收站 / 客户资料 are in SCHEMA_PAGE_BUTTONS.
    children: [],
  },
  {
    name: '运营管理',
    path: 'operation',
    type: 'M',
    icon: 'component',
    children: [], // every page a schema (schemas/content/content_*.json)
  },
  {
    name: '官网管理',
    path: 'showManage',
    type: 'M',
    icon: 'international',
    children: [], // every page a schema (schemas/content/site_*.json)
  },
  {
    name: '直播管理',
    path: 'liveBroadcast',
    type: 'M',
    icon: 'monitor',
    children: [], // schemas/content/live_broadcast.json
  },
  {
    name: '服务中心',
    path: 'serviceCenter',
    type: 'M',
    icon: 'guide',
    children: [
      // 应用商店, 帮助指南, 营销图库, 资源下载 (orders 1–4), 提交工单 5 and 工单管理 6 (headquarters only through
      // x-menu.perms service:workorder:handle, which ROLE_GRANTS gives to no store role): schemas/service/
    ],
  },
  {
    // 用户管理 1, 角色管理 2, 菜单管理 3, 部门管理 5, 岗位管理 6, 字典管理 7, 参数设置 8, 通知公告 9: schemas/system/sys_*.json
    name: '系统管理',
    path: 'system',
    type: 'M',
    icon: 'system',
    children: [
      // 菜单配置 4: schemas/system/sys_menu_config.json
      {
        ...page('平台设置', 'platform', 'system/platform/index', 'example', 'system:platform:query', [
          { name: '修改', type: 'F', perms: 'system:platform:edit' },
        ]),
        order: 10,
      },
      {
        ...page('注册设置', 'registerSettings', 'system/registerSettings/index', 'form', 'system:register:list', [
          { name: '修改', type: 'F', perms: 'system:register:edit' },
        ]),
        order: 11,
      },
      {
        ...page('测评设置', 'evaluationSettings', 'system/evaluationSettings/index', 'skill', 'system:evaluation:list', [
          { name: '修改', type: 'F', perms: 'system:evaluation:edit' },
        ]),
        order: 12,
      },
      {
        ...page('审核配置', 'auditConfiguration', 'system/auditConfiguration/index', 'checkbox', 'system:audit:list', [
          { name: '修改', type: 'F', perms: 'system:audit:edit' },
        ]),
        order: 13,
      },
      // 组织机构 and 权限 (server/system/organization.ts, authority.ts; docs/system.md): administrators only by default.
      { ...page('组织机构', 'organization', 'system/organization/index', 'tree-table', 'system:organization:list'), order: 15 },
      {
        ...page('权限', 'authority', 'system/authority/index', 'lock', 'system:authority:list', [{ name: '修改', type: 'F', perms: 'system:authority:edit' }]),
        order: 16,
      },
      // 用户资料 (docs/system.md): look up an account, reset its password.
      {
        ...page('用户资料', 'userData', 'system/userData/index', 'peoples', 'system:userData:list', [
          { name: '重置密码', type: 'F', perms: 'system:user:resetPwd' },
        ]),
        order: 17,
      },
      // 操作日志 1, 登录日志 2: schemas/monitor/sys_oper_log.json, sys_logininfor.json
      { name: '日志管理', path: 'log', type: 'M', icon: 'log', order: 14, children: [] },
    ],
  },
  {
    // 在线用户 1 and 定时任务 2: schemas/monitor/sys_user_online.json, sys_job.json
    name: '系统监控',
    path: 'monitor',
    type: 'M',
    icon: 'monitor',
    children: [
      { ...page('数据监控', 'druid', 'monitor/druid/index', 'druid', 'monitor:druid:list'), order: 3 },
      { ...page('服务监控', 'server', 'monitor/server/index', 'server', 'monitor:server:list'), order: 4 },
      { ...page('缓存监控', 'cache', 'monitor/cache/index', 'redis', 'monitor:cache:list'), order: 5 },
      { ...page('缓存列表', 'cacheList', 'monitor/cache/list', 'redis-list', 'monitor:cache:list'), order: 6 },
      // 监控总览 (server/monitor/overview.ts, docs/monitor.md): the other pages' health figures on one page.
      { ...page('监控总览', 'overview', 'monitor/overview/index', 'dashboard', 'monitor:overview:list'), order: 7 },
    ],
  },
  {
    name: '系统工具',
    path: 'tool',
    type: 'M',
    icon: 'tool',
    // 代码生成 1: schemas/gen/gen_table.json
    children: [{ ...page('系统接口', 'swagger', 'tool/swagger/index', 'swagger', 'tool:swagger:list'), order: 2 }],
  },
  // 平台中心 (server/home/, docs/home.md): 统计, 帮助中心 and 版本管理 (schemas/home/sys_version_log.json); migration 018 adds it to older installs.
  {
    name: '平台中心',
    path: 'center',
    type: 'M',
    icon: 'chart',
    children: [
      page('统计', 'statistics', 'statistics/index', 'chart', 'home:statistics:list'),
      page('帮助中心', 'helpCenter', 'helpCenter/index', 'question', 'home:help:list'),
      // 版本管理 3: schemas/home/sys_version_log.json; 备忘录 4: schemas/system/sys_memo.json (every staff member's own notes)
    ],
  },
];

/**
 * Buttons of a schema's page that its `x-permissions` cannot say (bespoke routes and row buttons of the console's
 * overrides), by the page's component; listed after the buttons the schema gives it.
 */
export const SCHEMA_PAGE_BUTTONS: Record<string, MenuSeed[]> = {
  'system/user/index': [{ name: '重置密码', type: 'F', perms: 'system:user:resetPwd' }],
  'monitor/logininfor/index': [{ name: '账户解锁', type: 'F', perms: 'monitor:logininfor:unlock' }],
  'monitor/online/index': [{ name: '强退', type: 'F', perms: 'monitor:online:forceLogout' }],
  'tool/gen/index': [
    { name: '生成查询', type: 'F', perms: 'tool:gen:query' },
    { name: '导入代码', type: 'F', perms: 'tool:gen:import' },
    { name: '预览代码', type: 'F', perms: 'tool:gen:preview' },
    { name: '生成代码', type: 'F', perms: 'tool:gen:code' },
  ],
  'serviceCenter/marketingGallery/index': [{ name: '下载', type: 'F', perms: 'service:gallery:download' }],
  'serviceCenter/resourceDownload/index': [{ name: '下载', type: 'F', perms: 'service:resource:download' }],
  // Workflow steps of module-served screens (their routes' permissions; the schemas declare only list).
  'serviceCenter/submitWorkOrder/index': [{ name: '提交', type: 'F', perms: 'service:workorder:add' }],
  'Examine/index': [{ name: '审批', type: 'F', perms: 'volunteer:examine:approve' }],
  'leader/AdvanceApproval/index': [{ name: '分配学生', type: 'F', perms: 'volunteer:approval:distribute' }],
  'appointment/index': [
    { name: '新增预约', type: 'F', perms: 'volunteer:appointment:add' },
    { name: '修改预约', type: 'F', perms: 'volunteer:appointment:edit' },
    { name: '删除预约', type: 'F', perms: 'volunteer:appointment:remove' },
  ],
  // 财务管理 (schemas/finance/): a store applies (充值, 提现申请, 银行账户, 发票抬头, 申请开票, 续费); headquarters reviews,
  // issues and confirms (充值审核, 提现审核, 开票: not granted to the store leader, see ROLE_GRANTS).
  'finance/rechargeManage/index': [
    { name: '充值', type: 'F', perms: 'finance:recharge:apply' },
    { name: '充值审核', type: 'F', perms: 'finance:recharge:review' },
  ],
  'finance/withdraw/index': [
    { name: '提现申请', type: 'F', perms: 'finance:withdraw:apply' },
    { name: '银行账户', type: 'F', perms: 'finance:withdraw:bank' },
    { name: '提现审核', type: 'F', perms: 'finance:withdraw:review' },
  ],
  'finance/invoice/index': [
    { name: '发票抬头', type: 'F', perms: 'finance:invoice:header' },
    { name: '申请开票', type: 'F', perms: 'finance:invoice:apply' },
    { name: '开票', type: 'F', perms: 'finance:invoice:issue' },
  ],
  'finance/renewal/index': [{ name: '续费', type: 'F', perms: 'finance:renewal:pay' }],
  'finance/coupon/index': [{ name: '发放管理', type: 'F', perms: 'finance:coupon:issue' }],
  'card/record/index': [{ name: '下载', type: 'F', perms: 'card:record:download' }],
  'card/two/index': [
    { name: '作废', type: 'F', perms: 'card:two:void' },
    { name: '调拨', type: 'F', perms: 'card:two:transfer' },
  ],
  'manage/appraisal/index': [{ name: '下载结果', type: 'F', perms: 'manage:appraisal:download' }],
  'manage/message/index': [{ name: '发送', type: 'F', perms: 'manage:message:add' }],
  // 用户列表 / 回收站 / 客户资料 (schemas/customer/): module calls and the override's dialogs, each behind its button.
  'manage/userList/index': [
    { name: '修改', type: 'F', perms: 'manage:user:edit' },
    { name: '开卡', type: 'F', perms: 'manage:user:openCard' },
    { name: '重置信息', type: 'F', perms: 'manage:user:reset' },
    { name: '删除', type: 'F', perms: 'manage:user:remove' },
  ],
  'manage/recycle/index': [
    { name: '恢复', type: 'F', perms: 'manage:recycle:restore' },
    { name: '彻底删除', type: 'F', perms: 'manage:recycle:remove' },
  ],
  'manage/clientData/index': [
    { name: '修改资料', type: 'F', perms: 'manage:client:edit' },
    { name: '邮寄', type: 'F', perms: 'manage:client:deliver' },
  ],
  // 学生志愿 (schemas/volunteer/vol_student.json): 新增学生 / 导入 and 编辑 in the student drawer.
  'volunteer/index': [
    { name: '新增学生', type: 'F', perms: 'volunteer:student:add' },
    { name: '修改学生', type: 'F', perms: 'volunteer:student:edit' },
  ],
};

/**
 * Which seeded roles get which pages and buttons, by permission string; a directory is granted when any of its
 * children is. Admin needs none: it holds *:*:*.
 */
export const ROLE_GRANTS: Record<string, (perms: string) => boolean> = {
  leader: (p) =>
    (p.startsWith('volunteer:') && !p.startsWith('volunteer:data:')) ||
    p.startsWith('card:') ||
    // 财务: a store applies; headquarters reviews, issues and confirms (finance:*:review|issue|confirm, admin only).
    (p.startsWith('finance:') && !/^finance:[a-zA-Z]+:(review|issue|confirm)$/.test(p)) ||
    p.startsWith('manage:') ||
    // 服务中心 for a store: read and download, submit work orders — never handle them (service:workorder:handle).
    /^service:(app|help|gallery|resource):(list|query|download)$/.test(p) ||
    p === 'service:workorder:list' ||
    p === 'service:workorder:add',
  expert: (p) =>
    [
      'volunteer:filling:list',
      'volunteer:plan:save',
      'volunteer:plan:submit',
      'volunteer:plan:list',
      'volunteer:student:add',
      'volunteer:student:edit',
      'volunteer:appointment:list',
      'volunteer:appointment:add',
      'volunteer:appointment:edit',
      'volunteer:appointment:remove',
      'volunteer:major:recommend',
      'volunteer:plan:saved',
    ].includes(p),
  operator: (p) =>
    p.startsWith('operation:') ||
    p.startsWith('show:') ||
    p.startsWith('live:') ||
    p.startsWith('service:') ||
    [
      'system:config:list',
      'system:config:query',
      'system:config:add',
      'system:config:edit',
      'system:config:export',
      'system:dict:list',
      'system:dict:query',
      'system:notice:list',
      'system:notice:query',
      'system:notice:add',
      'system:notice:edit',
    ].includes(p),
};

/** 平台中心 grants (server/home/): 统计 for 机构负责人, 帮助中心 for every seeded role; 版本管理 stays with admin. */
const HOME_GRANTS: Record<string, (perms: string) => boolean> = {
  leader: (p) => p === 'home:statistics:list' || p === 'home:help:list',
  expert: (p) => p === 'home:help:list',
  operator: (p) => p === 'home:help:list',
};
for (const [role, extra] of Object.entries(HOME_GRANTS)) {
  const base = ROLE_GRANTS[role];
  ROLE_GRANTS[role] = base ? (p) => base(p) || extra(p) : extra;
}

// 备忘录 (schemas/system/sys_memo.json) is every staff member's own notebook: each seeded role gets it whole (x-owner
// keeps every user to their own notes).
for (const role of ['leader', 'expert', 'operator']) {
  const base = ROLE_GRANTS[role];
  ROLE_GRANTS[role] = (p) => base(p) || p.startsWith('system:memo:');
}
