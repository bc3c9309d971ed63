import { sql } from 'kysely';
import { liveStatusOf, liveStatusText } from '../../common/content/liveStatus.js';
import { TABS, type Tab } from '../../common/home/tabs.js';
import type { Db } from '../db/types.js';
import { fail } from '../http/envelope.js';
import { latestGallery, latestResources, recommendedApps } from '../service/index.js';

/**
 * The dashboard tabs (spec §2.3: 推荐应用, 资源下载, 营销图库, 直播; §7.8 tabList): one small reader per source. The
 * service centre's lists come from server/service/tabs.ts; 直播 reads the engine table of schemas/content/live_broadcast.json.
 */

/** Spec §9: the dashboard table shows page 1, size 30. */
export const TAB_SIZE = 30;

export interface LiveItem {
  liveId: number;
  title: string;
  poster: string | null;
  anchor: string | null;
  startTime: number | null;
  endTime: number | null;
  replayUrl: string | null;
  /** Derived from the times (common/content/liveStatus.ts), as on /site/live and in 直播列表. */
  liveStatus: string;
  liveStatusText: string;
}

/** Published broadcasts, the coming and running ones first, then the latest. */
export async function latestLives(db: Db, n: number): Promise<LiveItem[]> {
  const res = await sql<Record<string, unknown>>`select live_id, title, poster, anchor, start_time, end_time, live_status, replay_url from live_broadcast
    where published = '1' order by start_time desc, live_id desc limit ${Math.max(1, Math.min(50, n))}`.execute(db);
  const now = Date.now();
  return res.rows.map((r) => ({
    liveId: Number(r.liveId),
    title: String(r.title),
    poster: (r.poster as string | null) ?? null,
    anchor: (r.anchor as string | null) ?? null,
    startTime: r.startTime == null ? null : Number(r.startTime),
    endTime: r.endTime == null ? null : Number(r.endTime),
    replayUrl: (r.replayUrl as string | null) ?? null,
    liveStatus: liveStatusOf(r, now),
    liveStatusText: liveStatusText(r, now),
  }));
}

const READERS: Record<Tab, (db: Db, n: number) => Promise<unknown[]>> = {
  app: recommendedApps,
  resource: latestResources,
  gallery: latestGallery,
  live: latestLives,
};

export async function tabList(db: Db, tab: unknown, size: unknown) {
  if (typeof tab !== 'string' || !(tab in TABS)) throw fail(`标签不正确，可选：${Object.keys(TABS).join('、')}`);
  const n = size == null || size === '' ? TAB_SIZE : Number(size);
  if (!Number.isInteger(n) || n < 1 || n > 50) throw fail('每页条数应在 1 到 50 之间');
  return { tab, title: TABS[tab as Tab], rows: await READERS[tab as Tab](db, n) };
}
