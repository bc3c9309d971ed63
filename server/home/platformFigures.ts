import type { Db } from '../db/types.js';
import { dayKey, dayNo, dayStart } from './days.js';
import type { PageViewCounter } from './pageViews.js';

/** 平台访问量 and 注册人数 as the home page shows them (docs/home.md). */

/** 注册人数: accounts that exist (not deleted); also written to the platform row that 平台设置 and platformInfo show. */
export async function refreshRegisterNum(db: Db): Promise<number> {
  const n = await countUsers(db);
  await db.updateTable('sysPlatform').set({ registerNum: n }).where('id', '=', 1).execute();
  return n;
}

async function countUsers(db: Db): Promise<number> {
  const r = await db
    .selectFrom('sysUser')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('delFlag', '=', '0')
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/**
 * 平台访问量 and 注册人数 now: the stored running total plus the views not written yet, and the accounts that exist.
 * platformInfo answers these rather than the cached platform row, whose stored totals are written later (page views in
 * batches, 注册人数 by the hourly job), so the sign-in page and 首页 always agree.
 */
export async function platformTotals(db: Db, counter: PageViewCounter): Promise<{ pv: number; registerNum: number }> {
  const [platform, users] = await Promise.all([db.selectFrom('sysPlatform').select('pv').where('id', '=', 1).executeTakeFirst(), countUsers(db)]);
  return { pv: Number(platform?.pv ?? 0) + counter.unwrittenTotal(), registerNum: users };
}

export async function platformFigures(db: Db, counter: PageViewCounter, now = Date.now()) {
  const today = dayNo(now);
  const [totals, todayViews, todayUsers] = await Promise.all([
    platformTotals(db, counter),
    db.selectFrom('homePageView').select('views').where('day', '=', dayKey(today)).executeTakeFirst(),
    db
      .selectFrom('sysUser')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('createTime', '>=', dayStart(today))
      .where('createTime', '<', dayStart(today + 1))
      .executeTakeFirst(),
  ]);
  const unwritten = counter.unwritten(today);
  return {
    pv: totals.pv,
    todayPv: Number(todayViews?.views ?? 0) + unwritten,
    registerNum: totals.registerNum,
    todayRegistrations: Number(todayUsers?.n ?? 0),
  };
}

/** Page views per day over [fromNo, toNo] (platform-wide), with the counts not written yet. */
export async function pageViewsByDay(db: Db, counter: PageViewCounter, fromNo: number, toNo: number): Promise<Map<number, number>> {
  const rows = await db.selectFrom('homePageView').select(['day', 'views']).where('day', '>=', dayKey(fromNo)).where('day', '<=', dayKey(toNo)).execute();
  const out = new Map<number, number>();
  for (let d = fromNo; d <= toNo; d++) out.set(d, counter.unwritten(d));
  for (const r of rows) {
    const d = Math.floor(Date.parse(`${r.day}T00:00:00Z`) / 86_400_000);
    out.set(d, (out.get(d) ?? 0) + Number(r.views));
  }
  return out;
}
