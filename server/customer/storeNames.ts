import type { Kysely } from 'kysely';
import type { Database } from '../db/types.js';

/**
 * The names of stores by id (the customer module owns cus_store): for other modules' lists that show which store a
 * row belongs to (领导审批's students and experts, so a leader picks an expert of the student's own store).
 */
export async function storeNames(db: Kysely<Database>, ids: Iterable<number | null | undefined>): Promise<Map<number, string>> {
  const wanted = [...new Set([...ids].filter((id): id is number => typeof id === 'number'))];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom('cusStore').select(['storeId', 'storeName']).where('storeId', 'in', wanted).execute();
  return new Map(rows.map((r) => [r.storeId, r.storeName]));
}
