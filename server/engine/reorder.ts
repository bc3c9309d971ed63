import { sql } from 'kysely';
import { ApiError, Code } from '../http/envelope.js';
import type { Entity } from './model.js';
import { parseIds, type WriteContext } from './records.js';
import { aliveCondition, andAll, col, type Row } from './store.js';

/**
 * Drag-to-sort (x-dragSort): the client sends the primary keys of the rows it shows, in their new order. The rows
 * keep the sort slots they held between them (sorted ascending; equal values are spread to distinct ones), handed
 * out in the new order — so rows on other pages keep their place. Each moved row gets a new version; one
 * transaction; every id must exist, else nothing changes. Returns how many rows were placed.
 */
export async function reorderRecords(ctx: WriteContext, entity: Entity, raw: unknown): Promise<number> {
  const name = entity.schema['x-dragSort'];
  const field = name ? entity.byName.get(name) : undefined;
  if (!field) throw new ApiError(Code.ERROR, '此数据不支持拖动排序');
  const ids = parseIds(entity, raw);
  const found = await sql<Row>`select ${col('t', entity.pk.column)} as id, ${col('t', field.column)} as slot from ${sql.table(entity.table)} as t
    where ${andAll([sql`${col('t', entity.pk.column)} in (${sql.join(ids)})`, aliveCondition(entity)])}`.execute(ctx.k);
  if (found.rows.length !== ids.length) throw new ApiError(Code.ERROR, '数据不存在或已被删除，请刷新后重试');
  const slots = found.rows.map((r) => Number(r.slot ?? 0)).sort((a, b) => a - b);
  for (let i = 1; i < slots.length; i++) if (slots[i] <= slots[i - 1]) slots[i] = slots[i - 1] + 1;
  const current = new Map(found.rows.map((r) => [Number(r.id), Number(r.slot ?? 0)]));
  const version = entity.versioned ? sql`, ${sql.id('version')} = ${sql.id('version')} + 1` : sql``;
  for (const [i, id] of ids.entries()) {
    if (current.get(id) === slots[i]) continue;
    await sql`update ${sql.table(entity.table)} set ${sql.id(field.column)} = ${slots[i]}${version} where ${sql.id(entity.pk.column)} = ${id}`.execute(ctx.k);
  }
  return ids.length;
}
