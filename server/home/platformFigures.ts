import type { Db } from '../customer/common.js';
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

export async function platformFigures(db: Db, counter: PageViewCounter, now = Date.now()) {
  const today = dayNo(now);
  const [platform, todayViews, users, todayUsers] = await Promise.all([
    db.selectFrom('sysPlatform').select('pv').where('id', '=', 1).executeTakeFirst(),
    db.selectFrom('homePageView').select('views').where('day', '=', dayKey(today)).executeTakeFirst(),
    countUsers(db),
    db
      .selectFrom('sysUser')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('createTime', '>=', dayStart(today))
      .where('createTime', '<', dayStart(today + 1))
      .executeTakeFirst(),
  ]);
  const unwritten = counter.unwritten(today);
  return {
    pv: Number(platform?.pv ?? 0) + counter.unwrittenTotal(),
    todayPv: Number(todayViews?.views ?? 0) + unwritten,
    registerNum: users,
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
