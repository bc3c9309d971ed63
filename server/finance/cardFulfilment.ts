import type { Db } from '../db/types.js';

/**
 * Who hands over a membership card once its order is paid, and takes it back on a refund. Finance sells cards and
 * the customer module owns them; the customer module registers its delivery here when its routes are registered
 * (server/customer/routes.ts), so finance never imports customer and customer reaches finance only through its
 * facade (the ledger postings of a card release). Both calls run inside finance's payment or refund transaction.
 */
export interface CardPurchase {
  orderNo: string;
  appUserId: number | null;
  userName: string;
  storeId: number;
  kind: number;
  priceFen: number;
}

export interface CardFulfilment {
  /** Hands the card over (activated for a known family, else a batch of one for the store); the answer is not read. */
  deliver(trx: Db, purchase: CardPurchase): Promise<unknown>;
  /** Voids the order's unused cards; refuses (a Chinese message) when one is already activated. */
  takeBack(trx: Db, orderNo: string, reason: string): Promise<void>;
}

let registered: CardFulfilment | null = null;

export function provideCardFulfilment(fulfilment: CardFulfilment): void {
  registered = fulfilment;
}

export function cardFulfilment(): CardFulfilment {
  // A server without the customer module cannot take card payments: fail the transaction rather than take money.
  if (!registered) throw new Error('card fulfilment is not registered: the customer module must be registered before payments');
  return registered;
}
