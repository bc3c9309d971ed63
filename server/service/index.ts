// The facade of the service module: the few functions other modules may call (../shared/notes/module-layout.md). Nothing
// else of server/service/ is imported from outside it; .dependency-cruiser.cjs checks that.
export { latestGallery, latestResources, recommendedApps } from './tabs.js';
export { pendingWorkOrderCount } from './workOrders.js';
