import type { Db } from '../db/types.js';
import { fail } from '../http/envelope.js';
import { contains } from '../http/like.js';
import { idList, intParam, paging, text } from '../http/params.js';
import type { Actor } from '../security/actor.js';
import { loadCustomer } from './customers.js';

/**
 * 备忘录: staff notes on a customer, private to the store — even headquarters reads only the notes written in its
 * own store (a note is the store's working knowledge, not platform data). Only the author edits or deletes a note.
 */

export async function listMemos(db: Db, actor: Actor, q: Record<string, unknown>) {
  const { pageSize, offset } = paging(q);
  let base = db.selectFrom('cusMemo as m').innerJoin('volStudent as s', 's.studentId', 'm.studentId').where('m.storeId', '=', actor.storeId);
  const student = intParam(q.studentId);
  if (student != null) base = base.where('m.studentId', '=', student);
  const memo = intParam(q.memoId); // one note (the 修改 dialog loads it so)
  if (memo != null) base = base.where('m.memoId', '=', memo);
  const content = typeof q.content === 'string' ? q.content.trim() : '';
  if (content) base = base.where(contains('m.content', content));
  const total = Number((await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
  const rows = await base.selectAll('m').select('s.name as studentName').orderBy('m.memoId', 'desc').limit(pageSize).offset(offset).execute();
  // `mine`: the caller wrote it — only then may they change or delete it (the console's x-rowWhen shows 修改 / 删除 by it).
  return { rows: rows.map((r) => ({ ...r, mine: r.createBy === actor.userId })), total };
}

export async function saveMemo(db: Db, actor: Actor, body: Record<string, unknown>) {
  const content = text(body.content, 1000, '备忘内容', true) as string;
  const memoId = intParam(body.memoId);
  return db.transaction().execute(async (trx) => {
    if (memoId == null) {
      const c = await loadCustomer(trx, actor, body.studentId);
      const row = await trx
        .insertInto('cusMemo')
        .values({
          studentId: c.studentId,
          storeId: actor.storeId ?? c.storeId,
          content,
          createBy: actor.userId,
          createByName: actor.userName,
          createTime: Date.now(),
        })
        .returning('memoId')
        .executeTakeFirstOrThrow();
      return { memoId: row.memoId };
    }
    const memo = await trx.selectFrom('cusMemo').selectAll().where('memoId', '=', memoId).executeTakeFirst();
    if (!memo || memo.storeId !== actor.storeId) throw fail('备忘不存在或无权访问');
    if (memo.createBy !== actor.userId) throw fail('只能修改自己写的备忘');
    await trx.updateTable('cusMemo').set({ content }).where('memoId', '=', memoId).execute();
    return { memoId };
  });
}

export async function removeMemos(db: Db, actor: Actor, idsParam: unknown) {
  const ids = idList(idsParam);
  if (!ids.length) throw fail('请选择备忘');
  return db.transaction().execute(async (trx) => {
    const rows = await trx.selectFrom('cusMemo').selectAll().where('memoId', 'in', ids).execute();
    if (rows.length !== ids.length || rows.some((r) => r.storeId !== actor.storeId)) throw fail('备忘不存在或无权访问');
    if (rows.some((r) => r.createBy !== actor.userId)) throw fail('只能删除自己写的备忘');
    await trx.deleteFrom('cusMemo').where('memoId', 'in', ids).execute();
    return { deleted: ids.length };
  });
}
