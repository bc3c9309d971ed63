import { registerJobHandler } from '../monitor/index.js';
import { closeExpiredOrders } from './orders.js';
import { activeProviders } from './pay/index.js';

/**
 * The payments' scheduled work (定时任务, docs/monitor.md): closing unpaid orders past their time. The job is seeded
 * by migration 017 (every 5 minutes); orders are also closed when someone looks at them (orderStatus).
 */
let registered = false;

export function registerPayJobs(): void {
  if (registered) return;
  registered = true;
  registerJobHandler({
    name: 'closeExpiredPayOrders',
    title: '关闭超时订单',
    description: '关闭超过支付时限仍未支付的在线支付订单（先在支付渠道关单；释放锁定的优惠券）',
    async run({ db, now }) {
      const n = await closeExpiredOrders(db.kysely, now, activeProviders());
      return `已关闭 ${n} 笔超时订单`;
    },
  });
}
