import { type DailyFigure, type DailyFigures, FIGURES } from '../../common/home/statistics.js';
import type { Db } from '../db/types.js';
import { DAY_MS, dayKey, dayNo, dayStart, keyNo } from './days.js';
import { activatedCards, approvedPlans, type DayCount, newCustomers, registrations, revenue, submittedPlans } from './sources.js';

/**
 * Daily figures (home_daily): per China-time day and store, computed from the sources and stored by the
 * `homeDailyFigures` job for past days; today is always computed live. A reader asking for a past day the job has
 * not stored yet gets it computed live too (one grouped query per source over the missing stretch), so an answer
 * never depends on whether the job has run — only its speed does. A row of store -1 (all zeros) marks a computed day.
 */

const SOURCES: Record<DailyFigure, (db: Db, from: number, to: number) => Promise<DayCount[]>> = {
  newCustomers,
  activatedCards,
  submittedPlans,
  approvedPlans,
  revenue,
  registrations,
};

/** The store id of the all-zero row that marks a stored day (no store has it). */
export const MARKER_STORE = -1;

export const zeroFigures = (): DailyFigures => ({ newCustomers: 0, activatedCards: 0, submittedPlans: 0, approvedPlans: 0, revenue: 0, registrations: 0 });

/** day number → store → figures, for the days [fromNo, toNo] (inclusive), straight from the sources. */
export async function computeDays(db: Db, fromNo: number, toNo: number): Promise<Map<number, Map<number, DailyFigures>>> {
  const out = new Map<number, Map<number, DailyFigures>>();
  const from = dayStart(fromNo);
  const to = dayStart(toNo + 1);
  const results = await Promise.all(FIGURES.map((f) => SOURCES[f](db, from, to)));
  FIGURES.forEach((figure, i) => {
    for (const r of results[i]) {
      const byStore = out.get(r.day) ?? new Map<number, DailyFigures>();
      out.set(r.day, byStore);
      const row = byStore.get(r.storeId) ?? zeroFigures();
      byStore.set(r.storeId, row);
      row[figure] += r.n;
    }
  });
  return out;
}

/**
 * The job's work: recompute and store the days [fromNo, toNo] (never today or later). Each day is replaced whole
 * in one transaction, so a reader sees a day either before or after, and a rerun gives the same rows.
 */
export async function storeDays(db: Db, fromNo: number, toNo: number, now = Date.now()): Promise<number> {
  const last = Math.min(toNo, dayNo(now) - 1);
  if (last < fromNo) return 0;
  const computed = await computeDays(db, fromNo, last);
  let days = 0;
  // Chunks of 31 days: a year of backfill is a dozen short transactions, not one long one.
  for (let start = fromNo; start <= last; start += 31) {
    const end = Math.min(last, start + 30);
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('homeDaily').where('day', '>=', dayKey(start)).where('day', '<=', dayKey(end)).execute();
      const rows = [];
      for (let d = start; d <= end; d++) {
        rows.push({ day: dayKey(d), storeId: MARKER_STORE, ...zeroFigures(), computedAt: now });
        for (const [storeId, f] of computed.get(d) ?? []) rows.push({ day: dayKey(d), storeId, ...f, computedAt: now });
      }
      for (let i = 0; i < rows.length; i += 200)
        await trx
          .insertInto('homeDaily')
          .values(rows.slice(i, i + 200))
          .execute();
    });
    days += end - start + 1;
  }
  return days;
}

/** The first day any source has data (the job's backfill starts there), or undefined when there is none. */
export async function firstActivityDay(db: Db): Promise<number | undefined> {
  const firsts = await Promise.all([
    db
      .selectFrom('volStudent')
      .select((eb) => eb.fn.min('createTime').as('t'))
      .executeTakeFirst(),
    db
      .selectFrom('card')
      .select((eb) => eb.fn.min('activateTime').as('t'))
      .executeTakeFirst(),
    db
      .selectFrom('volPlanAction')
      .select((eb) => eb.fn.min('createTime').as('t'))
      .executeTakeFirst(),
    db
      .selectFrom('sysUser')
      .select((eb) => eb.fn.min('createTime').as('t'))
      .executeTakeFirst(),
    db
      .selectFrom('finEntry')
      .select((eb) => eb.fn.min('createTime').as('t'))
      .executeTakeFirst(),
  ]);
  const times = firsts.map((r) => (r?.t == null ? Number.NaN : Number(r.t))).filter((t) => Number.isFinite(t));
  return times.length ? dayNo(Math.min(...times)) : undefined;
}

/** The job: the last `days` days before today, plus every earlier day never stored (the first run backfills). */
export async function refreshDaily(db: Db, days: number, now = Date.now()): Promise<{ recomputed: number; backfilled: number }> {
  const yesterday = dayNo(now) - 1;
  const recent = Math.max(0, days);
  const recentFrom = yesterday - recent + 1;
  let backfilled = 0;
  const stored = await db
    .selectFrom('homeDaily')
    .select((eb) => eb.fn.min('day').as('first'))
    .where('storeId', '=', MARKER_STORE)
    .executeTakeFirst();
  const first = await firstActivityDay(db);
  if (first !== undefined) {
    // Days between the first activity and the oldest stored day (or the recent window when nothing is stored).
    const storedFirst = stored?.first ? keyNo(String(stored.first)) : recentFrom;
    if (first < Math.min(storedFirst, recentFrom)) backfilled = await storeDays(db, first, Math.min(storedFirst, recentFrom) - 1, now);
    // Gaps inside the stored stretch (the job was paused): the marker rows tell which days are missing.
    backfilled += await fillGaps(db, Math.max(first, storedFirst), recentFrom - 1, now);
  }
  const recomputed = recent > 0 ? await storeDays(db, recentFrom, yesterday, now) : 0;
  return { recomputed, backfilled };
}

async function fillGaps(db: Db, fromNo: number, toNo: number, now: number): Promise<number> {
  if (toNo < fromNo) return 0;
  const have = new Set(
    (
      await db
        .selectFrom('homeDaily')
        .select('day')
        .where('storeId', '=', MARKER_STORE)
        .where('day', '>=', dayKey(fromNo))
        .where('day', '<=', dayKey(toNo))
        .execute()
    ).map((r) => keyNo(r.day)),
  );
  let n = 0;
  for (let d = fromNo; d <= toNo; d++) {
    if (have.has(d)) continue;
    let end = d;
    while (end + 1 <= toNo && !have.has(end + 1)) end++;
    n += await storeDays(db, d, end, now);
    d = end;
  }
  return n;
}

export interface DailyRow extends DailyFigures {
  date: string;
}

/**
 * Figures per day over [fromNo, toNo] for a store scope (undefined = every store): stored days from home_daily,
 * today and any day not stored yet computed live.
 */
export async function readDays(db: Db, fromNo: number, toNo: number, store: number | undefined, now = Date.now()): Promise<DailyRow[]> {
  const today = dayNo(now);
  const byDay = new Map<number, DailyFigures>();
  const lastStored = Math.min(toNo, today - 1);
  const known = new Set<number>();
  if (lastStored >= fromNo) {
    let q = db
      .selectFrom('homeDaily')
      .select([
        'day',
        (eb) => eb.fn.sum<number>('newCustomers').as('newCustomers'),
        (eb) => eb.fn.sum<number>('activatedCards').as('activatedCards'),
        (eb) => eb.fn.sum<number>('submittedPlans').as('submittedPlans'),
        (eb) => eb.fn.sum<number>('approvedPlans').as('approvedPlans'),
        (eb) => eb.fn.sum<number>('revenue').as('revenue'),
        (eb) => eb.fn.sum<number>('registrations').as('registrations'),
        (eb) => eb.fn.min('storeId').as('marker'),
      ])
      .where('day', '>=', dayKey(fromNo))
      .where('day', '<=', dayKey(lastStored));
    // The marker rides along so a day the store had nothing on still shows as computed.
    if (store !== undefined) q = q.where('storeId', 'in', [MARKER_STORE, store]);
    for (const r of await q.groupBy('day').execute()) {
      if (Number(r.marker) !== MARKER_STORE) continue; // no marker: not a stored day
      const no = keyNo(r.day);
      known.add(no);
      const f = zeroFigures();
      for (const k of FIGURES) f[k] = Number(r[k] ?? 0);
      byDay.set(no, f);
    }
  }
  // Missing stretches (today, days the job has not reached): live, one grouped pass over the whole stretch.
  const missing: number[] = [];
  for (let d = fromNo; d <= toNo; d++) if (!known.has(d) && d <= today) missing.push(d);
  if (missing.length) {
    const live = await computeDays(db, missing[0], missing[missing.length - 1]);
    for (const d of missing) {
      const f = zeroFigures();
      for (const [storeId, g] of live.get(d) ?? []) {
        if (store !== undefined && storeId !== store) continue;
        for (const k of FIGURES) f[k] += g[k];
      }
      byDay.set(d, f);
    }
  }
  const out: DailyRow[] = [];
  for (let d = fromNo; d <= toNo; d++) out.push({ date: dayKey(d), ...(byDay.get(d) ?? zeroFigures()) });
  return out;
}

export const totalsOf = (rows: DailyFigures[]): DailyFigures => {
  const t = zeroFigures();
  for (const r of rows) for (const k of FIGURES) t[k] += r[k];
  return t;
};

export { DAY_MS };
