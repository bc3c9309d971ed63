import type { Kysely } from 'kysely';
import type { Database } from '../db/types.js';

/**
 * Demo stores (first start only, inside the seed transaction): headquarters (store 1, made by migration 012) gets a
 * balance, and two agency stores are added with theirs. Balances are integer fen. With SEED=0 none of this happens
 * and headquarters starts at 0.
 */
export const DEMO_STORES = [
  { storeId: 2, storeName: '济南门店', balance: 5_000_000 },
  { storeId: 3, storeName: '青岛门店', balance: 2_000_000 },
] as const;
export const HQ_DEMO_BALANCE = 100_000_000;

export async function seedCustomer(k: Kysely<Database>, now = Date.now()): Promise<void> {
  await k.updateTable('cusStore').set({ balance: HQ_DEMO_BALANCE }).where('storeId', '=', 1).execute();
  for (const s of DEMO_STORES) {
    await k
      .insertInto('cusStore')
      .values({ storeId: s.storeId, storeName: s.storeName, kind: 'agency', balance: s.balance, status: '0', createTime: now, version: 1 })
      .execute();
    await k
      .insertInto('cusBalanceLog')
      .values({
        storeId: s.storeId,
        amount: s.balance,
        balanceAfter: s.balance,
        reason: '期初余额',
        refType: null,
        refId: null,
        userId: null,
        userName: '系统',
        createTime: now,
      })
      .execute();
  }
  await k
    .insertInto('cusBalanceLog')
    .values({
      storeId: 1,
      amount: HQ_DEMO_BALANCE,
      balanceAfter: HQ_DEMO_BALANCE,
      reason: '期初余额',
      refType: null,
      refId: null,
      userId: null,
      userName: '系统',
      createTime: now,
    })
    .execute();
}
