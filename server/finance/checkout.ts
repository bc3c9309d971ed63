import { CARD_KINDS } from '../../common/customer/cardKinds.js';
import type { CreatedOrder } from '../../common/finance/orders.js';
import type { Db } from '../db/types.js';
import { fail } from '../http/envelope.js';
import { intParam } from '../http/params.js';
import type { Actor } from '../security/actor.js';
import { requireStore } from '../security/storeScope.js';
import { cardPrice } from './coupons.js';
import { createOrder, payFromBalance } from './orders.js';
import type { PayProviders } from './pay/index.js';
import type { ProviderName } from './pay/provider.js';
import { renewalPlans } from './renewal.js';

/**
 * Checkout: starting a payment for something bought (an online card purchase, a licence renewal). It sits above
 * orders.ts, coupons.ts and renewal.ts and composes them: an order locks, uses and releases a coupon and extends the
 * licence when paid, so orders.ts calls coupons.ts and renewal.ts; those two never call orders.ts, which keeps the
 * three free of an import circle.
 */

/**
 * Coupon/creatWeChatOrder: an online card purchase (在线购卡) at the card's list price, a coupon taking part of it.
 * Paid, it posts world → headquarters revenue (docs/finance-payments.md).
 */
export async function createCardOrder(db: Db, actor: Actor, p: Record<string, unknown>, providerDefault: ProviderName): Promise<CreatedOrder> {
  const kind = intParam(p.cardKind ?? p.kind) ?? 0;
  const amount = cardPrice(kind);
  const provider = (typeof p.provider === 'string' && p.provider ? p.provider : providerDefault) as ProviderName;
  return createOrder(db, {
    purpose: 'card_purchase',
    storeId: actor.storeId || 1,
    amountFen: amount,
    subject: `购买${CARD_KINDS[kind].name}`,
    provider,
    couponCode: p.couponId as string | number | undefined,
    userId: actor.userId,
    userName: actor.userName,
    meta: { cardKind: kind },
  });
}

/** wxpay/channelRenewal: an online renewal order, or a renewal paid at once from the store's balance. */
export async function startRenewal(db: Db, actor: Actor, p: Record<string, unknown>, providers: PayProviders): Promise<CreatedOrder | Record<string, unknown>> {
  const plan = renewalPlans().find((x) => x.planId === p.planId);
  if (!plan) throw fail('请选择续费套餐');
  const payType = typeof p.payType === 'string' && p.payType ? p.payType : providers.enabled()[0];
  const base = {
    purpose: 'renewal' as const,
    storeId: requireStore(actor),
    amountFen: plan.priceFen,
    subject: `平台账户续费 ${plan.name}`,
    userId: actor.userId,
    userName: actor.userName,
    meta: { planId: plan.planId, months: plan.months },
  };
  if (payType === 'balance') return payFromBalance(db, base);
  return createOrder(db, { ...base, provider: payType as ProviderName }, providers);
}
