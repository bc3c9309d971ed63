/**
 * A store as the other modules show it: 所属门店 of 用户管理 (组织机构 answers every store) and the store pickers of
 * 财务管理. The customer module owns cus_store; headquarters is the store of kind 'hq'.
 */
export interface StoreBrief {
  storeId: number;
  storeName: string;
  headquarters: boolean;
  status: string;
}

/** The narrower choice the finance wallet pages get (enabled stores only, so kind and status are not sent). */
export type StoreName = Pick<StoreBrief, 'storeId' | 'storeName'>;
