import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/types.js';
import { rowToRecord } from '../engine/model.js';
import type { Row } from '../engine/store.js';
import { ok } from '../http/envelope.js';

/**
 * 备忘录 reminders (schemas/system/sys_memo.json, docs/system.md "备忘录"). The notes themselves are generic CRUD,
 * limited to their owner by the schema's x-owner; what the schema cannot say is "due": a note whose 提醒时间 has
 * come and that is not done. Its owner sees those on the 备忘录 page (GET /dev-api/system/memo/due) and as the 首页
 * to-do tile 到期备忘 (dueMemoCount through the facade).
 */

/** Due and not done: remind_at reached, done = 'N' (a note without 提醒时间 never falls due). */
const due = (userId: number, now: number) => sql`user_id = ${userId} and done = 'N' and remind_at is not null and remind_at <= ${now}`;

/** How many of the user's notes are due now. */
export async function dueMemoCount(k: Db, userId: number, now = Date.now()): Promise<number> {
  const res = await sql<{ n: number | string }>`select count(*) as n from sys_memo where ${due(userId, now)}`.execute(k);
  return Number(res.rows[0]?.n ?? 0);
}

/** The most a due list answers: a reminder panel, not a second list page. */
export const DUE_LIMIT = 50;

/**
 * GET /dev-api/system/memo/due: the caller's due notes, oldest reminder first, as the list answers them (with
 * version, so 完成 can update one). Always the caller's own: the owner is the session's user, not a parameter.
 */
export async function memoRoutes(app: FastifyInstance): Promise<void> {
  const entity = app.schemaEngine?.entities.get('sys_memo');
  if (!entity) return;
  const db = app.db.kysely;
  // The engine's connection answers columns as stored (remind_at), which rowToRecord reads.
  const { k } = app.schemaEngine.env;
  app.get(
    `${entity.schema['x-endpoint'].base}/due`,
    { config: { permission: entity.permissions.list ?? 'system:memo:list', write: false } },
    async (request) => {
      const userId = request.auth?.userId ?? 0;
      const now = Date.now();
      const res = await sql<Row>`select * from sys_memo where ${due(userId, now)} order by remind_at, memo_id limit ${DUE_LIMIT}`.execute(k);
      return ok({ now, total: await dueMemoCount(db, userId, now), rows: res.rows.map((r) => rowToRecord(entity, r)) });
    },
  );
}
