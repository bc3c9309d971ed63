import { changeCustomerInTransaction, credit, transitionCustomersInTransaction, voidCardsInTransaction, yuan } from '../customer/index.js';
import type { Db, SvcWorkOrderTable } from '../db/types.js';
import { findOrder, refundOrder } from '../finance/index.js';
import { fail } from '../http/envelope.js';
import { intParam } from '../http/params.js';
import type { Actor } from '../security/actor.js';

/**
 * What handling a work order does, by form, inside the handling transaction (workOrders.ts): a refusal here rolls
 * the status change back too, so an order is never 已处理 without its change, nor changed without being 已处理.
 * Each change goes through the owning module's own function, which writes that module's audit entry.
 * Answers one line saying what was done (stored as the order's result, shown to both sides).
 */

type Order = Pick<SvcWorkOrderTable, 'orderNo' | 'form' | 'storeId' | 'studentId' | 'cardNo' | 'refOrderNo' | 'content'> & { workOrderId: number };

export async function performWorkOrder(trx: Db, actor: Actor, order: Order): Promise<string> {
  const content = JSON.parse(order.content) as Record<string, unknown>;
  const note = `工单 ${order.orderNo}`;
  switch (order.form) {
    case 'cardRefund': {
      const card = await trx
        .selectFrom('card as c')
        .innerJoin('cardBatch as b', 'b.batchId', 'c.batchId')
        .select(['c.cardId', 'c.cardNo', 'c.storeId', 'b.vipPrice'])
        .where('c.cardNo', '=', Number(order.cardNo))
        .executeTakeFirst();
      if (!card) throw fail('卡不存在');
      // Voided first: a card no longer unused refuses here and nothing is refunded.
      await voidCardsInTransaction(trx, actor, [card.cardId], `${note} 会员卡退款`);
      const amount = Number(card.vipPrice);
      await credit(trx, {
        storeId: card.storeId,
        amount,
        reason: `会员卡退款：卡号 ${card.cardNo}（${note}）`,
        refType: 'work_order',
        refId: order.workOrderId,
        userId: actor.userId,
        userName: actor.userName,
      });
      return `卡号 ${card.cardNo} 已作废，已退回门店余额 ${yuan(amount)} 元`;
    }
    case 'orderRefund': {
      // The payments module refunds: paid → refunded, the ledger posting reversed, the provider refund.
      const orderNo = String(order.refOrderNo);
      const paid = await findOrder(trx, orderNo);
      if (!paid || paid.storeId !== order.storeId) throw fail('订单不存在或不属于本门店');
      await refundOrder(trx, orderNo, `${note}：${String(content.reason ?? '').slice(0, 100)}`, { userId: actor.userId, userName: actor.userName });
      return `订单 ${orderNo} 已退款 ${yuan(Number(paid.amountFen))} 元`;
    }
    case 'changeScore': {
      const score = intParam(content.score) as number;
      await changeCustomerInTransaction(trx, actor, Number(order.studentId), { score }, `${note}：分数 ${content.before ?? '-'} → ${score}`);
      return `分数已改为 ${score}`;
    }
    case 'changeYear': {
      const examYear = intParam(content.examYear) as number;
      await changeCustomerInTransaction(trx, actor, Number(order.studentId), { examYear }, `${note}：高考年份 ${content.before} → ${examYear}`);
      return `高考年份已改为 ${examYear}`;
    }
    case 'changePermission': {
      const userType = intParam(content.userType) as number;
      await changeCustomerInTransaction(trx, actor, Number(order.studentId), { userType }, `${note}：用户类型 ${content.before} → ${userType}`);
      return '用户类型（权限）已修改';
    }
    case 'changePhone': {
      const mobile = String(content.mobile);
      await changeCustomerInTransaction(trx, actor, Number(order.studentId), { mobile }, `${note}：手机号 ${content.before ?? '-'} → ${mobile}`);
      return `手机号已改为 ${mobile}`;
    }
    case 'cancelUser':
      await transitionCustomersInTransaction(trx, actor, 'recycle', [Number(order.studentId)], `${note} 注销用户`);
      return '用户已移入回收站';
    case 'feedback':
      return '已阅读并回复';
    default:
      throw fail('工单类型不正确');
  }
}
