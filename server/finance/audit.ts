import type { Actor, Db } from '../customer/common.js';

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
