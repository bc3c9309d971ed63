import { expect } from 'vitest';
import { checkLedger } from '../../../server/finance/ledger.js';
import type { TestServer } from '../harness.js';

/**
 * The ledger's invariant, asserted after every finance test (afterEach): all entries sum to 0 and every account's
 * cached balance equals the sum of its entries; no account but the world is negative.
 */
export async function expectLedgerBalanced(s: TestServer): Promise<void> {
  const db = s.app.db.kysely;
  const { total, mismatches } = await checkLedger(db);
  expect(mismatches, 'cached balances equal the sums of their entries').toEqual([]);
  expect(total, 'the sum of all ledger entries').toBe(0);
  const negative = await db.selectFrom('finAccount').select(['storeId', 'kind', 'balance']).where('kind', '<>', 'world').where('balance', '<', 0).execute();
  expect(negative, 'no account but the world is below 0').toEqual([]);
}
