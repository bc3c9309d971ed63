// The facade of the finance module: the few functions other modules may call (../shared/notes/module-layout.md). Nothing
// else of server/finance/ is imported from outside it; .dependency-cruiser.cjs checks that.
export { listInvoices } from './invoice.js';
export { findOrder, refundOrder } from './orders.js';
export { storeFilter } from './storeScope.js';
export { listWithdrawals } from './withdraw.js';
