import { CST_OFFSET_MS } from '../engine/model.js';

/** Day arithmetic of the home figures: days are China-time calendar days written YYYY-MM-DD (docs/home.md). */
export const DAY_MS = 86_400_000;

/** Days since 1970-01-01 in China time of an epoch-ms instant. */
export const dayNo = (ms: number) => Math.floor((ms + CST_OFFSET_MS) / DAY_MS);
export const dayKey = (no: number) => new Date(no * DAY_MS).toISOString().slice(0, 10);
export const keyNo = (key: string) => Math.floor(Date.parse(`${key}T00:00:00Z`) / DAY_MS);
/** First instant (epoch ms) of a China-time day number. */
export const dayStart = (no: number) => no * DAY_MS - CST_OFFSET_MS;
export const todayKey = (now = Date.now()) => dayKey(dayNo(now));

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

/** A YYYY-MM-DD day that exists in the calendar, else undefined. */
export function parseDay(v: unknown): number | undefined {
  if (typeof v !== 'string' || !DAY_RE.test(v)) return undefined;
  const no = keyNo(v);
  return Number.isFinite(no) && dayKey(no) === v ? no : undefined;
}
