import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { fail } from '../http/envelope.js';
import { type EngineEnv, writeContext } from './context.js';
import { Slicer } from './excel.js';
import type { Entity } from './model.js';
import { applyUpdate, insertRecord, MISSING_MESSAGE } from './records.js';
import { findRow } from './store.js';

/** One checked row of an import: insert its values, or update the row `id` with them. */
export interface ImportPlan {
  values: Record<string, unknown>;
  id?: number;
}

/** Most rows per write transaction of a batched import (SQLite); a transaction also ends when its time slice is used up. */
export const IMPORT_WRITE_BATCH = 100;

/**
 * Writes the checked rows of an import, all or nothing.
 *
 * On SQLite a transaction holds the database's single connection, so one transaction over 50 000 rows made every
 * other request wait for all of it (9 s measured, bench `import`). There an import of new rows only is written in
 * transactions of IMPORT_WRITE_BATCH rows with a turn of the event loop between them, so waiting reads go first;
 * if a batch fails, the rows of the batches before it are deleted again and the import fails whole. Other users can
 * see an import's rows while it is being written. An import that updates rows (updateSupport) keeps one transaction,
 * since undoing an update would mean restoring the old values.
 *
 * On PostgreSQL reads never wait for a writer: the import stays one transaction.
 */
export async function writeImport(env: EngineEnv, request: FastifyRequest, entity: Entity, plans: ImportPlan[]) {
  if (env.dialect === 'postgres' || plans.some((p) => p.id !== undefined)) {
    return env.k.transaction().execute(async (trx) => {
      const tx = writeContext(env, request, trx);
      let inserted = 0;
      let updated = 0;
      for (const plan of plans) {
        if (plan.id === undefined) {
          await insertRecord(tx, entity, plan.values);
          inserted++;
        } else {
          const existing = await findRow(trx, entity, plan.id);
          if (!existing) throw fail(MISSING_MESSAGE);
          await applyUpdate(tx, entity, plan.id, plan.values, undefined, existing);
          updated++;
        }
      }
      return { inserted, updated, total: plans.length };
    });
  }
  const written: number[] = [];
  const slicer = new Slicer();
  try {
    let next = 0;
    while (next < plans.length) {
      // One short transaction: at most IMPORT_WRITE_BATCH rows and no longer than one slice, then waiting requests go.
      const from = next;
      const ids = await env.k.transaction().execute(async (trx) => {
        const tx = writeContext(env, request, trx);
        const end = Math.min(plans.length, from + IMPORT_WRITE_BATCH);
        const out: number[] = [];
        for (let i = from; i < end; i++) {
          out.push(await insertRecord(tx, entity, plans[i].values));
          if (slicer.due()) break;
        }
        return out;
      });
      // Only committed ids count: a rolled-back batch's ids may be another user's rows by the time the undo runs.
      written.push(...ids);
      next = from + ids.length;
      await slicer.pause();
    }
  } catch (err) {
    await env.k.transaction().execute(async (trx) => {
      for (let i = 0; i < written.length; i += 500) {
        const ids = written.slice(i, i + 500);
        await sql`delete from ${sql.table(entity.table)} where ${sql.id(entity.pk.column)} in (${sql.join(ids)})`.execute(trx);
      }
    });
    throw err;
  }
  return { inserted: written.length, updated: 0, total: plans.length };
}
