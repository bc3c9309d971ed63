import type { FastifyInstance } from 'fastify';
import { accountRoutes } from './account.js';
import { authRoutes } from './auth.js';
import { authorityRoutes } from './authority.js';
import { memoRoutes } from './memos.js';
import { menuRoutes } from './menuRoutes.js';
import { organizationRoutes } from './organization.js';
import { platformRoutes } from './platformRoutes.js';
import { profileRoutes } from './profile.js';
import { roleRoutes } from './roleRoutes.js';
import { settingsRoutes } from './settingsRoutes.js';
import { userDataRoutes } from './userData.js';
import { userRoutes } from './userRoutes.js';

/**
 * The system module's routes beside its schemas (server/system/README.md), registered in server/app.ts in two steps:
 * these before the schema engine (sign-in, password, the caller's menu and 菜单配置, platform, profile, settings groups) …
 */
export async function systemRoutes(app: FastifyInstance) {
  await app.register(authRoutes); // sign-in, sign-out, SMS codes, 注册 (auth.ts)
  await app.register(accountRoutes); // savePass: the caller's own password (account.ts)
  await app.register(menuRoutes); // getRuleList (the caller's menu), getStoreRule, 菜单配置 (menuRoutes.ts)
  await app.register(platformRoutes); // platform info, 平台设置 (platformRoutes.ts)
  await app.register(profileRoutes); // 个人中心 and avatar (profile.ts)
  await app.register(settingsRoutes); // 注册设置 / 测评设置 / 审核配置 (settingsRoutes.ts)
}

/** … and these after it (they use the engine's tables and registry). */
export async function systemEngineRoutes(app: FastifyInstance) {
  await app.register(roleRoutes); // 角色管理 extras (menu / dept trees, data scope, 分配用户)
  await app.register(userRoutes); // 用户管理 extras (resetPwd, changeStatus, authRole, deptTree, form choices)
  await app.register(organizationRoutes); // 组织机构: stores, departments, staff counts (organization.ts)
  await app.register(authorityRoutes); // 权限: the role × permission matrix, saved through 角色管理's update
  await app.register(userDataRoutes); // 用户资料: look up an account (userData.ts)
  await app.register(memoRoutes); // 备忘录: the caller's due notes (memos.ts)
}
