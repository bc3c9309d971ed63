import type { FastifyInstance } from 'fastify';
import { schemaEngineRoutes } from '../engine/routes.js';
import { genRoutes } from '../gen/routes.js';
import { SYSTEM_HOOKS } from '../system/hooks.js';
import { roleRoutes } from '../system/roleRoutes.js';
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
  await app.register(schemaEngineRoutes, { hooks: SYSTEM_HOOKS }); // schemas/*.json (docs/schemas.md); a bad schema stops the start
  await app.register(roleRoutes); // 角色管理 extras (menu / dept trees, data scope, 分配用户); needs the engine
  await app.register(userRoutes); // 用户管理 extras (resetPwd, changeStatus, authRole, deptTree, form choices); needs the engine
  await app.register(volunteerRoutes);
  await app.register(genRoutes); // 代码生成 (server/gen/): table → schema file; needs the engine
}
