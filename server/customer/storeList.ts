import type { Kysely } from 'kysely';
import type { StoreBrief } from '../../common/customer/stores.js';
import type { Database } from '../db/types.js';

export type { StoreBrief };

/** Every store (the customer module owns cus_store), headquarters first, then by id. */
export async function storeList(db: Kysely<Database>): Promise<StoreBrief[]> {
  const rows = await db.selectFrom('cusStore').select(['storeId', 'storeName', 'kind', 'status']).orderBy('storeId').execute();
  return rows
    .map((r) => ({ storeId: Number(r.storeId), storeName: r.storeName, headquarters: r.kind === 'hq', status: r.status }))
    .sort((a, b) => Number(b.headquarters) - Number(a.headquarters) || a.storeId - b.storeId);
}
