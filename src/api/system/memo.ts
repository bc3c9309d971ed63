import type { BaseRecord } from '@refinedev/core';

/**
 * 备忘录 beyond the schema engine's CRUD (server/system/memos.ts): the answer of GET /dev-api/system/memo/due, the
 * caller's due notes, oldest reminder first (read by src/modules/system/memo/DueMemos.tsx through Refine's useCustom).
 */
export interface DueMemos {
  /** The server's time of the reading (epoch ms). */
  now: number;
  total: number;
  rows: BaseRecord[];
}
