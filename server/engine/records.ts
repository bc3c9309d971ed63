import { sql } from 'kysely';
import type { AuthContext } from '../http/context.js';
import { ApiError, Code } from '../http/envelope.js';
import { type Entity, type Field, toDb } from './model.js';
import { ownerColumn, presetValues, rowScope } from './owner.js';
import { aliveCondition, andAll, col, countWhere, findRow, idsWhere, insertRow, type Q, type Row, selectList, updateRow } from './store.js';
import { type FieldError, fieldErrors, sanitizeRichText, VERSION } from './validate.js';

/**
 * Writes of schema entities, independent of HTTP: input reading and validation, business checks (dictionary values,
 * x-unique, relations, tree shape), audit columns, optimistic versions, guarded deletes. Routes and imports share them.
 */

export const STALE_MESSAGE = '数据已被他人修改，请刷新后重试';
export const MISSING_MESSAGE = '数据不存在或已被删除';
export const HAS_CHILDREN_MESSAGE = '存在下级，不允许删除';

/** Dictionary data (sys_dict_data) by type, read once per request. */
export class DictLookup {
  private readonly cache = new Map<string, Array<{ value: string; label: string }>>();
  constructor(private readonly available: boolean) {}

  async entries(k: Q, type: string): Promise<Array<{ value: string; label: string }>> {
    if (!this.available) return [];
    let hit = this.cache.get(type);
    if (!hit) {
      const res = await sql<{ dict_value: string; dict_label: string }>`select dict_value, dict_label from sys_dict_data
        where dict_type = ${type} order by dict_sort, dict_code`.execute(k);
      hit = res.rows.map((r) => ({ value: String(r.dict_value), label: String(r.dict_label) }));
      this.cache.set(type, hit);
    }
    return hit;
  }
}

export interface WriteContext {
  /** The connection or transaction to write on. */
  k: Q;
  entities: Map<string, Entity>;
  userName: string;
  /** The signed-in user (hooks check data scope with it); absent for seeds and tools. */
  auth?: AuthContext;
  now: number;
  dicts: DictLookup;
  /** The database kind (PostgreSQL serialises a singleton's first write with an advisory lock). */
  dialect?: 'sqlite' | 'postgres';
}

export type InputMode = 'create' | 'update' | 'patch';

/**
 * Reads a client body: only writable properties (readOnly and unknown keys are ignored), plus the primary key and
 * version for updates; validates it (coercing form/cell text, filling defaults on create) and sanitises rich text.
 */
export function readInput(entity: Entity, mode: InputMode, body: unknown): { values: Record<string, unknown>; errors: FieldError[] } {
  const src = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const input: Record<string, unknown> = {};
  for (const f of entity.writable) {
    if (!(f.name in src)) continue;
    const v = src[f.name];
    if (v === undefined) continue;
    if (v === null && !f.nullable) continue; // "not given": required fields then say 不能为空
    if (v === '' && f.kind !== 'text') {
      if (f.nullable) input[f.name] = null;
      continue;
    }
    input[f.name] = v;
  }
  if (mode !== 'create') {
    if (src[entity.pk.name] !== undefined && src[entity.pk.name] !== null) input[entity.pk.name] = src[entity.pk.name];
    if (entity.versioned && src[VERSION] !== undefined && src[VERSION] !== null) input[VERSION] = src[VERSION];
  }
  const validate = entity.validators[mode];
  const errors = validate(input) ? [] : fieldErrors(entity.schema, validate.errors);
  for (const f of entity.writable) if (f.richText && typeof input[f.name] === 'string') input[f.name] = sanitizeRichText(input[f.name] as string);
  return { values: input, errors };
}

/** Throws the first input error as a 400 with its Chinese message. */
export function assertValid(errors: FieldError[]): void {
  if (errors.length) throw new ApiError(Code.BAD_REQUEST, errors[0].message);
}

const bodyRecord = (body: unknown): Record<string, unknown> =>
  body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};

const display = (v: unknown) => (v === null || v === undefined ? '' : String(v));

async function descendants(k: Q, entity: Entity, id: number): Promise<Set<number>> {
  const tree = entity.tree as NonNullable<Entity['tree']>;
  const res = await sql<Row>`select ${col('t', entity.pk.column)}, ${col('t', tree.parent.column)} from ${sql.table(entity.table)} as t
    where ${andAll([aliveCondition(entity)])}`.execute(k);
  const children = new Map<number, number[]>();
  for (const r of res.rows) {
    const parent = Number(r[tree.parent.column]);
    children.set(parent, [...(children.get(parent) ?? []), Number(r[entity.pk.column])]);
  }
  const out = new Set<number>();
  const queue = [id];
  while (queue.length) {
    for (const c of children.get(queue.shift() as number) ?? []) {
      if (out.has(c)) continue;
      out.add(c);
      queue.push(c);
    }
  }
  return out;
}

/** Does a value exist as `key` of a (not deleted) row of the target entity? */
async function relationExists(k: Q, target: Entity, key: Field, value: unknown): Promise<boolean> {
  return (await countWhere(k, target.table, andAll([sql`${col('t', key.column)} = ${value}`, aliveCondition(target)]))) > 0;
}

/**
 * Business rules of a record about to be written: dictionary values, x-unique, existing relation targets and, for
 * trees, a parent that is neither the node nor below it. Returns every problem found.
 */
export async function checkRecord(ctx: WriteContext, entity: Entity, values: Record<string, unknown>, id?: number): Promise<FieldError[]> {
  const errors: FieldError[] = [];
  const add = (f: Field, message: string) => errors.push({ property: f.name, field: f.title, message });
  for (const f of entity.writable) {
    if (!(f.name in values)) continue;
    const v = values[f.name];
    if (v === null || v === undefined) continue;
    if (f.dict && f.kind !== 'json') {
      const entries = await ctx.dicts.entries(ctx.k, f.dict);
      if (entries.length && !entries.some((e) => e.value === String(v))) add(f, `${f.title}取值不在允许范围内（字典 ${f.dict}）`);
    }
    if (f.unique && (await idsWhere(ctx.k, entity, f, v, id)).length) add(f, `${id === undefined ? '新增' : '修改'}'${display(v)}'失败，${f.title}已存在`);
    if (f.relation) {
      const target = ctx.entities.get(f.relation.schema);
      const key = target?.byName.get(f.relation.key ?? target.pk.name);
      const isRoot = entity.tree?.parent === f && Number(v) === 0;
      if (target && key && !isRoot && !(await relationExists(ctx.k, target, key, v))) add(f, `${f.title}'${display(v)}'不存在`);
    }
  }
  const schedule = await scheduleProblem(ctx, entity, values, id);
  if (schedule) errors.push(schedule);
  const tree = entity.tree;
  if (tree && id !== undefined && tree.parent.name in values) {
    const parent = Number(values[tree.parent.name]);
    const self = entity.schema['x-tree']?.selfParentMessage;
    if (parent === id && self) add(tree.parent, self.replace('{label}', display(values[tree.label.name])));
    else if (parent === id || (await descendants(ctx.k, entity, id)).has(parent)) add(tree.parent, `${tree.parent.title}不能是自己或自己的下级`);
  }
  return errors;
}

/**
 * x-publish schedule: the end may not come before the start. A write that sends only one of them (the app's change)
 * is checked against the stored other one.
 */
async function scheduleProblem(ctx: WriteContext, entity: Entity, values: Record<string, unknown>, id?: number): Promise<FieldError | null> {
  const pub = entity.schema['x-publish'];
  const start = pub?.start ? entity.byName.get(pub.start) : undefined;
  const end = pub?.end ? entity.byName.get(pub.end) : undefined;
  if (!start || !end || !(start.name in values || end.name in values)) return null;
  let from = values[start.name];
  let to = values[end.name];
  if (id !== undefined && (!(start.name in values) || !(end.name in values))) {
    const stored = await findRow(ctx.k, entity, id);
    if (!(start.name in values)) from = stored?.[start.column];
    if (!(end.name in values)) to = stored?.[end.column];
  }
  if (from === null || from === undefined || to === null || to === undefined) return null;
  if (Number(to) < Number(from)) return { property: end.name, field: end.title, message: `${end.title}不能早于${start.title}` };
  return null;
}

/** Throws the first business error as a 500 (RuoYi error answer). */
export function assertBusiness(errors: FieldError[]): void {
  if (errors.length) throw new ApiError(Code.ERROR, errors[0].message);
}

async function ancestorsOf(k: Q, entity: Entity, parentId: number): Promise<string> {
  const tree = entity.tree as NonNullable<Entity['tree']>;
  if (!parentId || !tree.ancestors) return '0';
  const parent = await findRow(k, entity, parentId);
  return `${display(parent?.[tree.ancestors.column]) || '0'},${parentId}`;
}

/** Validated values as columns, with audit columns and the tree's ancestors filled in. */
async function toColumns(ctx: WriteContext, entity: Entity, values: Record<string, unknown>, creating: boolean): Promise<Row> {
  const row: Row = {};
  for (const f of entity.writable) if (f.name in values) row[f.column] = toDb(f, values[f.name]);
  const owner = creating ? ownerColumn(entity, ctx.auth) : null;
  if (owner) row[owner[0]] = owner[1];
  for (const f of entity.fields) {
    if (f.audit === (creating ? 'createTime' : 'updateTime')) row[f.column] = ctx.now;
    if (f.audit === (creating ? 'createBy' : 'updateBy')) row[f.column] = ctx.userName;
  }
  const tree = entity.tree;
  if (tree?.ancestors && (creating || tree.parent.name in values))
    row[tree.ancestors.column] = await ancestorsOf(ctx.k, entity, Number(values[tree.parent.name] ?? 0));
  return row;
}

/** Seed rows (x-seed) as columns: validated with defaults, audit filled by 'admin'. */
export function prepareSeed(entity: Entity, seed: Record<string, unknown>): Row {
  const values = structuredClone(seed);
  entity.validators.create(values);
  const row: Row = {};
  for (const f of entity.writable) {
    if (!(f.name in values)) continue;
    const v = f.richText && typeof values[f.name] === 'string' ? sanitizeRichText(values[f.name] as string) : values[f.name];
    row[f.column] = toDb(f, v);
  }
  const now = Date.now();
  for (const f of entity.fields) {
    if (f.audit === 'createTime') row[f.column] = now;
    if (f.audit === 'createBy') row[f.column] = 'admin';
  }
  if (entity.tree?.ancestors && row[entity.tree.ancestors.column] === undefined) row[entity.tree.ancestors.column] = '0';
  return row;
}

/**
 * x-singleton: the entity holds one record (关于我们, 网站设置), so a create or an import row is refused while one exists.
 * On PostgreSQL two first writes at the same moment are serialised by a transaction-scoped advisory lock on the table
 * name (SQLite runs one write transaction at a time).
 */
export const singletonMessage = (entity: Entity) => `${entity.title}只能有一条记录，请修改已有的记录`;
async function assertSingletonFree(ctx: WriteContext, entity: Entity): Promise<void> {
  if (ctx.dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${`singleton:${entity.table}`}))`.execute(ctx.k);
  if ((await countWhere(ctx.k, entity.table, andAll([aliveCondition(entity)]))) > 0) throw new ApiError(Code.ERROR, singletonMessage(entity));
}

/** Creates a record from validated, checked values; returns its primary key. */
export async function insertRecord(
  ctx: WriteContext,
  entity: Entity,
  values: Record<string, unknown>,
  body: Record<string, unknown> = values,
  mode: 'create' | 'import' = 'import',
): Promise<number> {
  const event = { ctx, mode, values, body };
  if (entity.schema['x-singleton']) await assertSingletonFree(ctx, entity);
  await entity.hooks?.beforeWrite?.(event);
  const id = await insertRow(ctx.k, entity, await toColumns(ctx, entity, values, true));
  await entity.hooks?.afterWrite?.({ ...event, id });
  return id;
}

/** POST {base}: validate, check, insert. */
export async function createRecord(ctx: WriteContext, entity: Entity, body: unknown): Promise<{ id: number; version: number | null }> {
  const { values, errors } = readInput(entity, 'create', body);
  assertValid(errors);
  Object.assign(values, presetValues(entity)); // x-filter: a row made through this resource is one of its rows
  assertBusiness(await checkRecord(ctx, entity, values));
  const id = await insertRecord(ctx, entity, values, bodyRecord(body), 'create');
  return { id, version: entity.versioned ? 1 : null };
}

/**
 * Updates a stored row from validated values. With `expectedVersion` a stale version refuses the write (nothing
 * changes); relation keys that other schemas point at are carried over to them, and a moved tree node takes its
 * subtree's ancestors along. Returns the new version.
 */
export async function applyUpdate(
  ctx: WriteContext,
  entity: Entity,
  id: number,
  values: Record<string, unknown>,
  expectedVersion: number | undefined,
  existing: Row,
  body: Record<string, unknown> = values,
  mode: 'update' | 'patch' | 'import' = 'import',
): Promise<number | null> {
  const event = { ctx, mode, values, body, existing };
  await entity.hooks?.beforeWrite?.(event);
  const row = await toColumns(ctx, entity, values, false);
  const changed = await updateRow(ctx.k, entity, id, row, expectedVersion);
  if (changed !== 1) throw new ApiError(Code.ERROR, STALE_MESSAGE);
  // Other schemas referring to a (non primary key) value of this row follow its change (dict_type → dict data).
  for (const other of ctx.entities.values()) {
    for (const f of other.fields) {
      if (f.relation?.schema !== entity.id || !f.relation.key || f.relation.key === entity.pk.name) continue;
      const key = entity.byName.get(f.relation.key);
      if (!key || !(key.name in values)) continue;
      const before = existing[key.column];
      const after = toDb(key, values[key.name]);
      if (before === after || before === null || before === undefined) continue;
      await sql`update ${sql.table(other.table)} set ${sql.id(f.column)} = ${after} where ${sql.id(f.column)} = ${before}`.execute(ctx.k);
    }
  }
  const tree = entity.tree;
  if (tree?.ancestors && tree.parent.name in values && Number(existing[tree.parent.column]) !== Number(values[tree.parent.name])) {
    const res = await sql<Row>`select ${col('t', entity.pk.column)}, ${col('t', tree.parent.column)} from ${sql.table(entity.table)} as t
      where ${andAll([aliveCondition(entity)])}`.execute(ctx.k);
    const children = new Map<number, number[]>();
    for (const r of res.rows) {
      const parent = Number(r[tree.parent.column]);
      children.set(parent, [...(children.get(parent) ?? []), Number(r[entity.pk.column])]);
    }
    const ancestors = new Map<number, string>([[id, String(row[tree.ancestors.column])]]);
    const queue = [id];
    while (queue.length) {
      const parent = queue.shift() as number;
      for (const child of children.get(parent) ?? []) {
        const value = `${ancestors.get(parent)},${parent}`;
        ancestors.set(child, value);
        queue.push(child);
        await sql`update ${sql.table(entity.table)} set ${sql.id(tree.ancestors.column)} = ${value} where ${sql.id(entity.pk.column)} = ${child}`.execute(
          ctx.k,
        );
      }
    }
  }
  await entity.hooks?.afterWrite?.({ ...event, id });
  return entity.versioned ? Number(existing.version ?? 0) + 1 : null;
}

/** PUT {base} (full record) or the app style's change (only the fields sent): primary key and version required. */
export async function updateRecord(
  ctx: WriteContext,
  entity: Entity,
  body: unknown,
  mode: 'update' | 'patch' = 'update',
): Promise<{ id: number; version: number | null }> {
  const { values, errors } = readInput(entity, mode, body);
  assertValid(errors);
  // x-filter: an edit through this resource keeps the row one of its rows.
  for (const [name, value] of Object.entries(presetValues(entity))) if (mode === 'update' || name in values) values[name] = value;
  const id = Number(values[entity.pk.name]);
  const expected = entity.versioned ? Number(values[VERSION]) : undefined;
  delete values[entity.pk.name];
  delete values[VERSION];
  const existing = await findRow(ctx.k, entity, id);
  if (!existing) throw new ApiError(Code.ERROR, MISSING_MESSAGE);
  await assertInScope(ctx, entity, [id]);
  if (expected !== undefined && Number(existing.version) !== expected) throw new ApiError(Code.ERROR, STALE_MESSAGE);
  assertBusiness(await checkRecord(ctx, entity, values, id));
  const version = await applyUpdate(ctx, entity, id, values, expected, existing, bodyRecord(body), mode);
  return { id, version };
}

/**
 * Rows outside the caller's data scope (the listScope hook) or not their own (x-owner) are neither changed nor deleted: 没有权限访问<title>数据！
 * Checked before any other rule, so the answer does not tell anything about rows the caller cannot see.
 */
async function assertInScope(ctx: WriteContext, entity: Entity, ids: number[]): Promise<void> {
  if (!ids.length) return;
  const scope = await rowScope(ctx.k, entity, ctx.auth);
  if (!scope) return;
  const visible = await countWhere(ctx.k, entity.table, andAll([sql`${col('t', entity.pk.column)} in (${sql.join(ids)})`, scope]));
  if (visible !== ids.length) throw new ApiError(Code.ERROR, `没有权限访问${entity.title}数据！`);
}

/** Parses "1,2,3" (or an array) into primary keys; throws a 400 naming the key field when one is not an id. */
export function parseIds(entity: Entity, raw: unknown): number[] {
  const parts = Array.isArray(raw) ? raw.map(String) : String(raw ?? '').split(',');
  const ids = parts.map((p) => p.trim()).filter(Boolean);
  if (!ids.length || ids.some((p) => !/^\d{1,15}$/.test(p))) throw new ApiError(Code.BAD_REQUEST, `${entity.pk.title}格式不正确`);
  return [...new Set(ids.map(Number))];
}

/**
 * Deletes rows (soft when x-softDelete) after the guards: no children left behind in a tree, no rows of other
 * schemas (x-relation) or other tables (x-referencedBy) pointing at them. Returns how many were deleted.
 */
export async function deleteRecords(ctx: WriteContext, entity: Entity, ids: number[]): Promise<number> {
  const k = ctx.k;
  const res = await sql<Row>`select ${selectList(entity)} from ${sql.table(entity.table)} as t
    where ${andAll([sql`${col('t', entity.pk.column)} in (${sql.join(ids)})`, aliveCondition(entity)])}`.execute(k);
  const rows = res.rows;
  if (!rows.length) throw new ApiError(Code.ERROR, MISSING_MESSAGE);
  const found = rows.map((r) => Number(r[entity.pk.column]));
  await assertInScope(ctx, entity, found);
  const tree = entity.tree;
  if (tree) {
    const children = await countWhere(
      k,
      entity.table,
      andAll([
        sql`${col('t', tree.parent.column)} in (${sql.join(found)})`,
        sql`${col('t', entity.pk.column)} not in (${sql.join(found)})`,
        aliveCondition(entity),
      ]),
    );
    if (children) throw new ApiError(Code.ERROR, entity.schema['x-tree']?.childrenMessage ?? HAS_CHILDREN_MESSAGE);
  }
  for (const other of ctx.entities.values()) {
    for (const f of other.fields) {
      if (f.relation?.schema !== entity.id || (other === entity && f === tree?.parent)) continue;
      // An x-referencedBy entry for the same column says it in its own words (部门存在用户，不允许删除) below.
      if (entity.schema['x-referencedBy']?.some((ref) => ref.table === other.table && ref.column === f.column)) continue;
      const key = entity.byName.get(f.relation.key ?? entity.pk.name);
      const label = entity.byName.get(f.relation.label);
      if (!key) continue;
      for (const r of rows) {
        const value = r[key.column];
        if (value === null || value === undefined) continue;
        const used = await countWhere(k, other.table, andAll([sql`${col('t', f.column)} = ${value}`, aliveCondition(other)]));
        if (used) throw new ApiError(Code.ERROR, `'${display(label ? r[label.column] : value)}'已被${other.title}使用，不允许删除`);
      }
    }
  }
  for (const ref of entity.schema['x-referencedBy'] ?? []) {
    const extra = ref.where ? sql.raw(ref.where) : null;
    const used = await countWhere(k, ref.table, andAll([sql`${col('t', ref.column)} in (${sql.join(found)})`, extra]));
    if (used) throw new ApiError(Code.ERROR, ref.message);
  }
  await entity.hooks?.beforeDelete?.(ctx, rows);
  const sd = entity.softDelete;
  if (sd) {
    await sql`update ${sql.table(entity.table)} set ${sql.id(sd.column)} = ${sd.deleted} where ${sql.id(entity.pk.column)} in (${sql.join(found)})`.execute(k);
  } else {
    await sql`delete from ${sql.table(entity.table)} where ${sql.id(entity.pk.column)} in (${sql.join(found)})`.execute(k);
  }
  await entity.hooks?.afterDelete?.(ctx, found);
  return found.length;
}
