// The facade of the customer module: the few functions other modules may call (../shared/notes/module-layout.md). Nothing
// else of server/customer/ is imported from outside it; .dependency-cruiser.cjs checks that.

// Card delivery after an online purchase is registered with finance (server/finance/cardFulfilment.ts) in routes.ts.
export { voidCardsInTransaction } from './cards.js';
export { changeCustomerInTransaction, customerChangeProblem, loadCustomer, transitionCustomersInTransaction } from './customers.js';
export { cardNoParam } from './rules.js';
export { credit, yuan } from './storeBalance.js';
export { type StoreBrief, storeList } from './storeList.js';
export { storeNames } from './storeNames.js';
