/** 账户续费: one plan the platform licence may be extended by (server/finance/renewal.ts offers them, GET freeNum answers them). */
export interface RenewalPlan {
  planId: string;
  name: string;
  months: number;
  priceFen: number;
}
