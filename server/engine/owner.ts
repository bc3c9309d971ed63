import { type RawBuilder, sql } from 'kysely';
import type { AuthContext } from '../http/context.js';
import type { Entity } from './model.js';
import { col, type Q } from './store.js';

/**
 * `x-owner` (docs/schemas.md): rows that belong to one user (备忘录). The named readOnly integer property holds the
 * owner's user id; the engine fills it on create and limits list, export, the single record, update and delete to the
 * caller's own rows — for every caller, the super admin included, since a private note is nobody else's business.
 */

/** The owner column condition over alias `t`, or null when the entity has no owner. No signed-in user: no rows. */
export function ownerCondition(entity: Entity, auth: AuthContext | undefined): RawBuilder<unknown> | null {
  const name = entity.schema['x-owner'];
  const field = name ? entity.byName.get(name) : undefined;
  if (!field) return null;
  if (!auth) return sql`1 = 0`;
  return sql`${col('t', field.column)} = ${auth.userId}`;
}

/** The owner's column and value a new row gets (none for an entity without x-owner). */
export function ownerColumn(entity: Entity, auth: AuthContext | undefined): [column: string, userId: number | null] | null {
  const name = entity.schema['x-owner'];
  const field = name ? entity.byName.get(name) : undefined;
  return field ? [field.column, auth?.userId ?? null] : null;
}

/**
 * `x-filter` (docs/schemas.md): the resource's rows are those holding the preset values (回收站 over the rows marked
 * deleted). The condition over alias `t`, or null without a preset.
 */
export function presetCondition(entity: Entity): RawBuilder<unknown> | null {
  const parts = Object.entries(entity.schema['x-filter'] ?? {})
    .map(([name, value]) => [entity.byName.get(name), value] as const)
    .filter(([f]) => f)
    .map(([f, value]) => sql`${col('t', (f as NonNullable<typeof f>).column)} = ${typeof value === 'boolean' ? Number(value) : value}`);
  return parts.length ? sql`(${sql.join(parts, sql` and `)})` : null;
}

/** The preset values a row written through this resource takes (x-filter), by property. */
export function presetValues(entity: Entity): Record<string, unknown> {
  return { ...(entity.schema['x-filter'] ?? {}) };
}

/**
 * Every row condition of the caller for this entity: its preset (x-filter), its owner (x-owner) and its data scope
 * (the listScope hook), all that apply; null for every row.
 */
export async function rowScope(k: Q, entity: Entity, auth: AuthContext | undefined): Promise<RawBuilder<unknown> | null> {
  const owner = ownerCondition(entity, auth);
  const hook = entity.hooks?.listScope ? await entity.hooks.listScope({ k, auth }) : null;
  const parts = [presetCondition(entity), owner, hook].filter((c): c is RawBuilder<unknown> => c !== null);
  if (parts.length === 0) return null;
  return parts.length === 1 ? parts[0] : sql`(${sql.join(parts, sql` and `)})`;
}
