/**
 * The membership card kinds: name, list price (integer fen), validity and the 平台设置 stock key. Customer releases and
 * activates them; finance sells them (checkout, coupons, orders) — a fact both modules read, so it lives here rather
 * than making finance import customer (the card delivery after payment is customer's, registered with finance:
 * server/finance/cardFulfilment.ts).
 */
export const CARD_KINDS: Record<number, { name: string; price: number; validDays: number; stockKey: string }> = {
  1: { name: '志愿卡', price: 39_800, validDays: 365, stockKey: 'no_vip_num' },
  2: { name: '升学卡', price: 59_800, validDays: 365, stockKey: 'no_vip_sx_num' },
  3: { name: '体验卡', price: 9_900, validDays: 30, stockKey: 'no_vip_ty_num' },
};
