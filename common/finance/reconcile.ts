/**
 * 对账 (docs/finance-payments.md): one day's report, per store, of the orders paid against the provider notifications
 * and the ledger postings. server/finance/reconcile.ts builds it (GET /dev-api/finance/reconcile); the console's
 * 对账 screen shows it. Amounts in integer fen.
 */

export interface ReconcileStore {
  storeId: number;
  storeName: string;
  paidCount: number;
  paidFen: number;
  notifiedFen: number;
  ledgerFen: number;
  refundedFen: number;
  mismatchCount: number;
}

/** A difference found, or a notification that needs a person (late, rejected). */
export interface ReconcileMismatch {
  storeId: number;
  storeName: string;
  orderNo: string | null;
  kind: string;
  detail: string;
}

/** An order paid that day. */
export interface ReconcileOrder {
  orderNo: string;
  storeId: number;
  purposeName: string;
  providerName: string;
  amountFen: number;
  statusName: string;
  paidTime: number;
}

export interface ReconcileReport {
  /** YYYY-MM-DD, server local time. */
  date: string;
  stores: ReconcileStore[];
  total: Omit<ReconcileStore, 'storeId' | 'storeName'>;
  mismatches: ReconcileMismatch[];
  orders: ReconcileOrder[];
}
