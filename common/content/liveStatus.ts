/**
 * The status of a live broadcast (直播列表, schemas/content/live_broadcast.json), derived from its times so
 * that a 预告 never outlives its start (docs/content.md "直播"). Every reader uses this one rule: the /site/live page,
 * ManagerLive/list and the public live API (through the engine's `present` hook, server/content/liveStatus.ts), the
 * console's list column and preview, and the 首页 直播 tab.
 *
 * - By time: before 开始时间 预告 (also when no start time is set: 时间待定); from 开始时间 until 结束时间 直播中; after it
 *   已结束. Without an end time (or one not after the start) a broadcast is taken to run LIVE_DEFAULT_MS.
 * - The stored 直播状态 is the operator's hand, and it only moves the status forward: 直播中 before the start is an
 *   early start, 已结束 at any time ends (or cancels) it. A stored 预告 never holds a broadcast back, and a stored
 *   直播中 does not outlive the end time — that staleness is what the rule is for.
 * - 已结束 with a 回放地址 reads 回放.
 */

/** A broadcast without an end time runs this long (2 hours). */
export const LIVE_DEFAULT_MS = 2 * 60 * 60 * 1000;

/** The codes of dictionary live_status (server/content/dicts.ts). */
export type LiveStatus = '0' | '1' | '2';
export type LiveStatusText = '预告' | '直播中' | '已结束' | '回放';

export const LIVE_STATUS_TEXT: Record<LiveStatus, LiveStatusText> = { '0': '预告', '1': '直播中', '2': '已结束' };

/** The fields of a broadcast the status depends on (as stored or answered: epoch ms, dictionary code, URL). */
export interface LiveTimes {
  startTime?: unknown;
  endTime?: unknown;
  liveStatus?: unknown;
  replayUrl?: unknown;
  /** Any other field of the record (a whole row or answered record may be passed). */
  [field: string]: unknown;
}

const ms = (v: unknown): number | null => {
  if (v === null || v === undefined || v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
};

/** The end a broadcast is taken to have: its end time when after its start, else start + LIVE_DEFAULT_MS. */
export function liveEnd(times: LiveTimes): number | null {
  const start = ms(times.startTime);
  if (start === null) return null;
  const end = ms(times.endTime);
  return end !== null && end > start ? end : start + LIVE_DEFAULT_MS;
}

/** The status by the clock alone. */
export function liveStatusByTime(times: LiveTimes, now: number): LiveStatus {
  const start = ms(times.startTime);
  if (start === null || now < start) return '0';
  return now < (liveEnd(times) as number) ? '1' : '2';
}

/** The status every reader shows: by time, moved forward (never back) by the stored 直播状态. */
export function liveStatusOf(times: LiveTimes, now: number): LiveStatus {
  const byTime = liveStatusByTime(times, now);
  const stored = String(times.liveStatus ?? '');
  if (stored !== '1' && stored !== '2') return byTime;
  return Number(stored) > Number(byTime) ? stored : byTime; // the codes are in order: 预告 < 直播中 < 已结束
}

/** The status as a word: 预告, 直播中, 已结束, or 回放 when an ended broadcast has a replay address. */
export function liveStatusText(times: LiveTimes, now: number): LiveStatusText {
  const status = liveStatusOf(times, now);
  if (status === '2' && String(times.replayUrl ?? '').trim()) return '回放';
  return LIVE_STATUS_TEXT[status];
}
