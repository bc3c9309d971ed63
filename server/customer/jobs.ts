import { registerJobHandler } from '../monitor/index.js';
import { expireCards } from './cards.js';
import { purgeExpiredRecycled } from './customers.js';
import { RECYCLE_RETENTION_DAYS } from './rules.js';

/**
 * The customer module's scheduled work (定时任务, docs/monitor.md): card expiry and the 回收站 purge. The jobs that run
 * them are seeded by migration 015 (daily); an administrator may change their times or pause them.
 */
let registered = false;

export function registerCustomerJobs(): void {
  if (registered) return;
  registered = true;

  registerJobHandler({
    name: 'expireCards',
    title: '会员卡到期',
    description: '把已过有效期的已激活会员卡置为已过期（写入卡片操作记录）',
    async run({ db, now }) {
      const n = await expireCards(db.kysely, now);
      return `已将 ${n} 张会员卡置为已过期`;
    },
  });

  registerJobHandler<{ retentionDays?: number }>({
    name: 'purgeRecycledCustomers',
    title: '回收站清理',
    description: `彻底删除在回收站中超过保留天数的客户（抹去个人信息，保留操作记录）；默认 ${RECYCLE_RETENTION_DAYS} 天`,
    paramsSchema: {
      properties: { retentionDays: { type: 'integer', title: '保留天数', minimum: 1, maximum: 3650, default: RECYCLE_RETENTION_DAYS } },
    },
    async run({ db, now }, { retentionDays = RECYCLE_RETENTION_DAYS }) {
      const n = await purgeExpiredRecycled(db.kysely, now, retentionDays);
      return `已彻底删除 ${n} 位回收站客户`;
    },
  });
}
