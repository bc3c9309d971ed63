// The facade of the finance module: the few functions other modules may call (../shared/notes/module-layout.md). Nothing
// else of server/finance/ is imported from outside it; .dependency-cruiser.cjs checks that.

// The ledger: a card release or refund is a posting (server/customer/storeBalance.ts); card delivery after payment is
// the customer module's, registered here (./cardFulfilment.ts) so that finance never imports customer.
export { provideCardFulfilment } from './cardFulfilment.js';
export { listInvoices } from './invoice.js';
export { balanceOf, HQ_STORE, post } from './ledger.js';
export { findOrder, refundOrder } from './orders.js';
export { storeFilter } from './storeScope.js';
export { listWithdrawals } from './withdraw.js';
