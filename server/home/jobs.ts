import { registerJobHandler } from '../monitor/index.js';
import { refreshDaily } from './daily.js';
import { refreshRegisterNum } from './platformFigures.js';

/**
 * The home module's scheduled work (定时任务, docs/monitor.md): `homeDailyFigures` stores the daily figures of the
 * last days (and backfills every day never stored) and refreshes 注册人数. Seeded hourly by migration 018.
 */
let registered = false;

export function registerHomeJobs(): void {
  if (registered) return;
  registered = true;
  registerJobHandler<{ days?: number }>({
    name: 'homeDailyFigures',
    title: '首页每日统计',
    description: '重新汇总今天之前若干天的首页统计（新增客户、激活卡、提交/通过方案、收入、注册），并补齐从未汇总过的日期',
    paramsSchema: { properties: { days: { type: 'integer', title: '重算天数', minimum: 1, maximum: 60, default: 3 } } },
    async run({ db, now }, { days = 3 }) {
      const r = await refreshDaily(db.kysely, days, now);
      const users = await refreshRegisterNum(db.kysely);
      return `已重算 ${r.recomputed} 天，补齐 ${r.backfilled} 天；注册人数 ${users}`;
    },
  });
}
