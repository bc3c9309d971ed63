import type { BaseRecord } from '@refinedev/core';
import { request } from '../request';

/** 备忘录 beyond the schema engine's CRUD (server/system/memos.ts): the caller's due notes, oldest reminder first. */
export interface DueMemos {
  /** The server's time of the reading (epoch ms). */
  now: number;
  total: number;
  rows: BaseRecord[];
}

export async function getDueMemos(): Promise<DueMemos> {
  const env = await request({ url: '/dev-api/system/memo/due', method: 'get' });
  return env.data as DueMemos;
}
