/** 发卡: the final answer of a card release (server/customer/cards.ts makes the batch, src/modules/customer/release/ shows it). */
export interface ReleaseResult {
  batchId: number;
  cardNoFirst: string;
  cardNoEnd: string;
  card_num: number;
  totalFen: number;
  storeBalance: number;
}
