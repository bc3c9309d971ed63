import type { FastifyInstance } from 'fastify';
import { CONTENT_HOOKS } from '../content/hooks.js';
import { contentRoutes } from '../content/routes.js';
import { customerRoutes } from '../customer/routes.js';
import { schemaEngineRoutes } from '../engine/routes.js';
import { payRoutes } from '../finance/payRoutes.js';
import { financeRoutes } from '../finance/routes.js';
import { genRoutes } from '../gen/routes.js';
import { homeRoutes } from '../home/routes.js';
import { MONITOR_HOOKS } from '../monitor/jobHooks.js';
import { monitorCorePlugin } from '../monitor/plugin.js';
import { monitorRoutes } from '../monitor/routes.js';
import { serviceRoutes } from '../service/routes.js';
import { authorityRoutes } from '../system/authority.js';
import { SYSTEM_HOOKS } from '../system/hooks.js';
import { memoRoutes } from '../system/memos.js';
import { organizationRoutes } from '../system/organization.js';
import { roleRoutes } from '../system/roleRoutes.js';
import { userDataRoutes } from '../system/userData.js';
import { userRoutes } from '../system/userRoutes.js';
import { toolboxRoutes } from '../toolbox/routes.js';
import { volunteerRoutes } from '../volunteer/routes.js';
import { accountRoutes } from './account.js';
import { authRoutes } from './auth.js';
import { clientConfigRoutes } from './client-config.js';
import { filesRoutes } from './files.js';
import { menuRoutes } from './menu.js';
import { onlineRoutes } from './online.js';
import { platformRoutes } from './platform.js';
import { profileRoutes } from './profile.js';
import { settingsRoutes } from './settings.js';
import { versionRoutes } from './versions.js';

/** Every route module of the server, in one place. */
export async function registerRoutes(app: FastifyInstance) {
  await app.register(monitorCorePlugin); // first: cache, metrics, job runner (server/monitor/plugin.ts) for every later route
  await app.register(homeRoutes); // 首页 (server/home/): to-dos, statistics, 快捷菜单, tabs; its page-view hook sees every later route
  await app.register(clientConfigRoutes);
  await app.register(authRoutes);
  await app.register(accountRoutes);
  await app.register(menuRoutes);
  await app.register(platformRoutes);
  await app.register(onlineRoutes);
  await app.register(profileRoutes);
  await app.register(settingsRoutes);
  await app.register(filesRoutes);
  await app.register(toolboxRoutes);
  await app.register(versionRoutes);
  await app.register(schemaEngineRoutes, { hooks: { ...SYSTEM_HOOKS, ...MONITOR_HOOKS, ...CONTENT_HOOKS } }); // schemas/*.json (docs/schemas.md); a bad schema stops the start
  await app.register(roleRoutes); // 角色管理 extras (menu / dept trees, data scope, 分配用户); needs the engine
  await app.register(userRoutes); // 用户管理 extras (resetPwd, changeStatus, authRole, deptTree, form choices); needs the engine
  await app.register(organizationRoutes); // 组织机构: stores, departments, staff counts (server/system/organization.ts)
  await app.register(authorityRoutes); // 权限: the role × permission matrix, saved through 角色管理's update (needs the engine)
  await app.register(userDataRoutes); // 用户资料: look up an account (server/system/userData.ts)
  await app.register(memoRoutes); // 备忘录: the caller's due notes (server/system/memos.ts); needs the engine
  await app.register(volunteerRoutes);
  await app.register(customerRoutes); // 会员卡 and 用户管理 (server/customer/)
  await app.register(payRoutes); // 财务: online payments, 充值, 续费, 优惠券, 对账, /pay/notify, the sandbox provider (server/finance/)
  await app.register(financeRoutes); // 财务: wallets, withdrawals, bank accounts, invoices (server/finance/routes.ts)
  await app.register(monitorRoutes); // 系统监控: job extras, cache, druid, server; /health /ready /metrics
  await app.register(contentRoutes); // 运营 / 官网 / 直播 extras, video upload (tus), the public site /site/ (server/content/); needs the engine
  await app.register(serviceRoutes); // 服务中心: work orders, app store / gallery / resource extras, posters (server/service/); needs the engine
  await app.register(genRoutes); // 代码生成 (server/gen/): table → schema file; needs the engine
}
