import type { Db } from '../db/types.js';
import { fail } from '../http/envelope.js';
import { contains } from '../http/like.js';
import { idList, intParam, paging, text } from '../http/params.js';
import type { Actor } from '../security/actor.js';
import { loadCustomer } from './customers.js';

/** 消息: staff send to one customer, a selection or every customer of their store(s); read status 0 / 1 (spec §4). */

export async function sendMessage(db: Db, actor: Actor, body: Record<string, unknown>) {
  const title = text(body.title, 50, '消息标题', true) as string;
  const content = text(body.content, 2000, '消息内容', true) as string;
  const target = body.target;
  return db.transaction().execute(async (trx) => {
    let recipients: Array<{ studentId: number; storeId: number }>;
    if (target === 'all') {
      let q = trx.selectFrom('volStudent').select(['studentId', 'storeId']).where('cusStatus', '=', 'active');
      if (!actor.allStores) q = q.where('storeId', '=', actor.storeId);
      recipients = await q.execute();
    } else if (target === 'one' || target === 'selected') {
      const ids = idList(body.studentIds);
      if (!ids.length) throw fail('请选择接收消息的用户');
      if (target === 'one' && ids.length !== 1) throw fail('单发消息只能选择一个用户');
      recipients = [];
      for (const id of ids) recipients.push(await loadCustomer(trx, actor, id));
    } else throw fail('请选择发送范围（单个用户、所选用户或全部用户）');
    if (!recipients.length) throw fail('没有可以接收消息的用户');
    const now = Date.now();
    for (let i = 0; i < recipients.length; i += 500) {
      await trx
        .insertInto('cusMessage')
        .values(
          recipients.slice(i, i + 500).map((r) => ({
            studentId: r.studentId,
            storeId: r.storeId,
            title,
            content,
            readStatus: 0,
            readTime: null,
            createBy: actor.userId,
            createByName: actor.userName,
            createTime: now,
          })),
        )
        .execute();
    }
    return { sent: recipients.length };
  });
}

export async function listMessages(db: Db, actor: Actor, q: Record<string, unknown>) {
  const { pageSize, offset } = paging(q);
  let base = db.selectFrom('cusMessage as m').innerJoin('volStudent as s', 's.studentId', 'm.studentId');
  if (!actor.allStores) base = base.where('m.storeId', '=', actor.storeId);
  const read = intParam(q.readStatus);
  if (read === 0 || read === 1) base = base.where('m.readStatus', '=', read);
  const student = intParam(q.studentId);
  if (student != null) base = base.where('m.studentId', '=', student);
  const title = typeof q.title === 'string' ? q.title.trim() : '';
  if (title) base = base.where(contains('m.title', title));
  const total = Number((await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
  const rows = await base.selectAll('m').select('s.name as studentName').orderBy('m.messageId', 'desc').limit(pageSize).offset(offset).execute();
  let unreadQ = db
    .selectFrom('cusMessage')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('readStatus', '=', 0);
  if (!actor.allStores) unreadQ = unreadQ.where('storeId', '=', actor.storeId);
  const unread = Number((await unreadQ.executeTakeFirst())?.n ?? 0);
  return { rows, total, unread };
}

export async function removeMessages(db: Db, actor: Actor, idsParam: unknown) {
  const ids = idList(idsParam);
  if (!ids.length) throw fail('请选择消息');
  return db.transaction().execute(async (trx) => {
    const rows = await trx.selectFrom('cusMessage').select(['messageId', 'storeId']).where('messageId', 'in', ids).execute();
    if (rows.length !== ids.length || rows.some((r) => !actor.allStores && r.storeId !== actor.storeId)) throw fail('消息不存在或无权访问');
    await trx.deleteFrom('cusMessage').where('messageId', 'in', ids).execute();
    return { deleted: ids.length };
  });
}

/** The app side: the signed-in family's own messages and unread count; reading marks them read (0 → 1 only). */
export async function myMessages(db: Db, appUserId: number) {
  const me = await db.selectFrom('volStudent').select('studentId').where('appUserId', '=', appUserId).where('cusStatus', '=', 'active').executeTakeFirst();
  if (!me) return { rows: [], unread: 0 };
  const rows = await db.selectFrom('cusMessage').selectAll().where('studentId', '=', me.studentId).orderBy('messageId', 'desc').limit(100).execute();
  return { rows, unread: rows.filter((r) => r.readStatus === 0).length };
}

export async function readMyMessage(db: Db, appUserId: number, messageId: unknown) {
  const id = intParam(messageId);
  const me = await db.selectFrom('volStudent').select('studentId').where('appUserId', '=', appUserId).where('cusStatus', '=', 'active').executeTakeFirst();
  if (id == null || !me) throw fail('消息不存在');
  const res = await db
    .updateTable('cusMessage')
    .set({ readStatus: 1, readTime: Date.now() })
    .where('messageId', '=', id)
    .where('studentId', '=', me.studentId)
    .where('readStatus', '=', 0)
    .executeTakeFirst();
  return { changed: Number(res.numUpdatedRows) };
}
