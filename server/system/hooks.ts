import type { HooksRegistry } from '../engine/hooks.js';
import { deptHooks } from './deptHooks.js';
import { menuHooks } from './menuHooks.js';
import { roleHooks } from './roleHooks.js';
import { userHooks } from './userHooks.js';

/**
 * Server-side overrides of schema entities, by schema $id (server/engine/hooks.ts, docs/schemas.md "Hooks"). Each
 * system screen that needs rules beyond its schema keeps them in its own file here and is listed once below.
 */
export const SYSTEM_HOOKS: HooksRegistry = {
  sys_dept: deptHooks,
  sys_menu: menuHooks,
  sys_role: roleHooks,
  sys_user: userHooks,
};
