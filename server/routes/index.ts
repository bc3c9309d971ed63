import type { FastifyInstance } from 'fastify';
import { schemaEngineRoutes } from '../engine/routes.js';
import { SYSTEM_HOOKS } from '../system/hooks.js';
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
  await app.register(filesRoutes);
  await app.register(toolboxRoutes);
  await app.register(versionRoutes);
  await app.register(schemaEngineRoutes, { hooks: SYSTEM_HOOKS }); // schemas/*.json (docs/schemas.md); a bad schema stops the start
  await app.register(volunteerRoutes);
}
