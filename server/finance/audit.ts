import type { Db } from '../db/types.js';
import type { Actor } from '../security/actor.js';

/** One row of the audit trail of the finance state machines (withdrawals, invoices, bank accounts). */
export async function audit(
  trx: Db,
  actor: Actor,
  a: {
    targetType: 'withdrawal' | 'invoice' | 'bank';
    targetId: number;
    storeId: number;
    action: string;
    from: number | null;
    to: number | null;
    detail?: string;
  },
): Promise<void> {
  await trx
    .insertInto('finAction')
    .values({
      targetType: a.targetType,
      targetId: a.targetId,
      storeId: a.storeId,
      action: a.action,
      fromStatus: a.from,
      toStatus: a.to,
      detail: a.detail ?? null,
      userId: actor.userId,
      userName: actor.userName,
      createTime: Date.now(),
    })
    .execute();
}

/** The trail of one target, oldest first. */
export async function trail(db: Db, targetType: string, targetId: number) {
  const rows = await db
    .selectFrom('finAction')
    .select(['action', 'fromStatus', 'toStatus', 'detail', 'userName', 'createTime'])
    .where('targetType', '=', targetType)
    .where('targetId', '=', targetId)
    .orderBy('actionId')
    .execute();
  return rows.map((r) => ({ ...r, createTime: Number(r.createTime) }));
}

/** Who moved a payment state machine: a signed-in user, or nobody (a provider notification, a scheduled job). */
export interface PayActor {
  userId?: number | null;
  userName?: string | null;
}

/** One row of the audit trail of the payment state machines (orders, recharges, coupon batches, licence renewals). */
export async function recordAction(
  db: Db,
  a: { targetType: string; targetId: string | number; storeId: number; action: string; from?: string | null; to?: string | null; detail?: string | null },
  actor?: PayActor,
): Promise<void> {
  await db
    .insertInto('finPayAction')
    .values({
      targetType: a.targetType,
      targetId: String(a.targetId),
      storeId: a.storeId,
      action: a.action,
      fromStatus: a.from ?? null,
      toStatus: a.to ?? null,
      detail: a.detail ?? null,
      userId: actor?.userId ?? null,
      userName: actor?.userName ?? null,
      createTime: Date.now(),
    })
    .execute();
}
