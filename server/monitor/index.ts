// The facade of the monitor module: the few functions other modules may call (../shared/notes/module-layout.md). Nothing
// else of server/monitor/ is imported from outside it; .dependency-cruiser.cjs checks that.
export { registerJobHandler } from './handlers.js';
