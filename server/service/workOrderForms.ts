import { ORDER_STATUS_NAMES, type OrderStatus } from '../../common/finance/orders.js';
import {
  WORK_ORDER_FORM_BY_KEY,
  WORK_ORDER_FORMS,
  WORK_ORDER_REASON_MAX,
  WORK_ORDER_USER_TYPES,
  type WorkOrderFormSpec,
} from '../../common/service/workOrders.js';
import { cardNoParam, customerChangeProblem, loadCustomer } from '../customer/index.js';
import type { Db } from '../db/types.js';
import { findOrder } from '../finance/index.js';
import { fail } from '../http/envelope.js';
import { intParam, text } from '../http/params.js';
import type { Actor } from '../security/actor.js';
import { requireStore } from '../security/storeScope.js';

/**
 * Each of the eight forms checks its own fields before anything is stored (attachments: attachments.ts). What a
 * form asks for is what handling later does (workOrderHandling.ts), so the checked values are kept in `content`.
 */

export interface CheckedForm {
  spec: WorkOrderFormSpec;
  title: string;
  storeId: number;
  studentId: number | null;
  cardNo: number | null;
  refOrderNo: string | null;
  /** The checked fields plus what they were (shown to headquarters and applied by handling). */
  content: Record<string, unknown>;
}

export function formOf(key: unknown): WorkOrderFormSpec {
  const spec = typeof key === 'string' ? WORK_ORDER_FORM_BY_KEY[key] : undefined;
  if (!spec) throw fail(`请选择工单类型（${WORK_ORDER_FORMS.map((f) => f.name).join('、')}）`);
  return spec;
}

const ORDER_NO = /^[A-Za-z0-9_-]{6,40}$/;

export async function checkForm(db: Db, actor: Actor, body: Record<string, unknown>): Promise<CheckedForm> {
  const spec = formOf(body.form);
  const reason = text(body.reason, WORK_ORDER_REASON_MAX, spec.key === 'feedback' ? '反馈内容' : '申请说明', true) as string;
  const base = { spec, storeId: requireStore(actor), studentId: null, cardNo: null, refOrderNo: null };

  switch (spec.key) {
    case 'cardRefund': {
      const cardNo = cardNoParam(body.cardNo);
      const card = await db.selectFrom('card').select(['cardId', 'storeId', 'status']).where('cardNo', '=', cardNo).executeTakeFirst();
      if (!card || (!actor.allStores && card.storeId !== actor.storeId)) throw fail('卡号不存在或不属于本门店');
      if (card.status !== 'unused') throw fail('只有未使用的会员卡可以申请退款');
      await noOpenOrder(db, 'cardNo', cardNo, '该卡已有待处理的退款工单');
      return { ...base, storeId: card.storeId, cardNo, title: `会员卡退款：卡号 ${cardNo}`, content: { reason, cardNo: String(cardNo) } };
    }
    case 'orderRefund': {
      const orderNo = text(body.orderNo, 40, '订单号', true) as string;
      if (!ORDER_NO.test(orderNo)) throw fail('请输入正确的订单号');
      // The payments module's own reader: a paid order of the actor's store (another store's answers like none).
      const order = await findOrder(db, orderNo);
      if (!order || (!actor.allStores && order.storeId !== actor.storeId)) throw fail('订单不存在或不属于本门店');
      if (order.status !== 'paid') throw fail(`订单${ORDER_STATUS_NAMES[order.status as OrderStatus] ?? order.status}，不能申请退款`);
      await noOpenOrder(db, 'refOrderNo', orderNo, '该订单已有待处理的退款工单');
      return { ...base, storeId: order.storeId, refOrderNo: orderNo, title: `订单退款：订单号 ${orderNo}`, content: { reason, orderNo } };
    }
    case 'feedback':
      return { ...base, title: `意见反馈：${reason.slice(0, 20)}`, content: { reason } };
    default:
      break;
  }

  // The customer forms: one of the store's active customers, and the new value by the customer module's rules.
  const c = await loadCustomer(db, actor, body.studentId, ['active']);
  const who = { ...base, storeId: c.storeId, studentId: c.studentId };
  const same = (what: string) => fail(`新${what}与当前${what}相同，无需修改`);
  switch (spec.key) {
    case 'changeScore': {
      const score = intParam(body.score);
      if (score === undefined || String(body.score).trim() !== String(score)) throw fail('分数应在 0 到 750 之间');
      const problem = customerChangeProblem({ score });
      if (problem) throw fail(problem);
      if (c.score === score) throw same('分数');
      return { ...who, title: `修改分数：${c.name} ${c.score ?? '-'} → ${score}`, content: { reason, name: c.name, score, before: c.score } };
    }
    case 'changeYear': {
      const examYear = intParam(body.examYear);
      const problem = examYear === undefined ? '请填写正确的高考年份' : customerChangeProblem({ examYear });
      if (problem || examYear === undefined) throw fail(problem ?? '请填写正确的高考年份');
      if (c.examYear === examYear) throw same('年份');
      return { ...who, title: `修改年份：${c.name} ${c.examYear} → ${examYear}`, content: { reason, name: c.name, examYear, before: c.examYear } };
    }
    case 'changePermission': {
      const userType = intParam(body.userType);
      if (userType === undefined || customerChangeProblem({ userType })) throw fail('请选择用户类型（权限）');
      if (c.userType === userType) throw same('权限');
      const names = WORK_ORDER_USER_TYPES;
      return {
        ...who,
        title: `修改权限：${c.name} ${names[c.userType] ?? c.userType} → ${names[userType]}`,
        content: { reason, name: c.name, userType, before: c.userType },
      };
    }
    case 'changePhone': {
      const mobile = text(body.mobile, 11, '新手机号', true) as string;
      const problem = customerChangeProblem({ mobile });
      if (problem) throw fail(problem);
      if (c.mobile === mobile) throw same('手机号');
      return { ...who, title: `修改手机号：${c.name} → ${mobile}`, content: { reason, name: c.name, mobile, before: c.mobile } };
    }
    case 'cancelUser':
      return { ...who, title: `注销用户：${c.name}`, content: { reason, name: c.name } };
    default:
      throw fail('工单类型不正确');
  }
}

async function noOpenOrder(db: Db, column: 'cardNo' | 'refOrderNo', value: number | string, message: string) {
  const open = await db
    .selectFrom('svcWorkOrder')
    .select('workOrderId')
    .where(column, '=', value as never)
    .where('status', 'in', [0, 1])
    .executeTakeFirst();
  if (open) throw fail(message);
}
