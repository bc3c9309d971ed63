import type { Db } from '../db/types.js';
import type { Actor } from '../security/actor.js';

/** One row of the customer audit trail (cus_action): state changes, 开卡, 重置信息, edits. */
export async function recordCustomerAction(
  trx: Db,
  actor: Actor | null,
  studentId: number,
  action: string,
  from: string | null,
  to: string | null,
  comment: string | null,
): Promise<void> {
  await trx
    .insertInto('cusAction')
    .values({
      studentId,
      action,
      fromStatus: from,
      toStatus: to,
      userId: actor?.userId ?? null,
      userName: actor?.userName ?? '系统',
      comment,
      createTime: Date.now(),
    })
    .execute();
}
