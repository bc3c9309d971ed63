import type { HooksRegistry } from '../engine/hooks.js';

/**
 * Server-side overrides of schema entities, by schema $id (server/engine/hooks.ts, docs/schemas.md "Hooks"). Each
 * system screen that needs rules beyond its schema keeps them in its own file here and is listed once below.
 */
export const SYSTEM_HOOKS: HooksRegistry = {};
