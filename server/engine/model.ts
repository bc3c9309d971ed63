import type { AuditKind, EngineAction, EntitySchema, PropertySchema, SearchOp } from '../../common/engine/types.js';
import { baseTypes } from './metaSchema.js';
import type { LoadedSchema } from './types.js';
import { compileValidators, type RecordValidators, VERSION, VERSION_TITLE } from './validate.js';

/** What a column holds; decides its SQL type, how values are read back and how they compare. */
export type Kind = 'text' | 'integer' | 'number' | 'boolean' | 'json';

export interface Field {
  name: string;
  column: string;
  title: string;
  kind: Kind;
  nullable: boolean;
  prop: PropertySchema;
  readOnly: boolean;
  writeOnly: boolean;
  audit?: AuditKind;
  dict?: string;
  unique: boolean;
  search?: SearchOp;
  sortable: boolean;
  /** Epoch-ms time value (audit time, dateRange search, date/datetime render). */
  time: boolean;
  /** Shown as YYYY-MM-DD only. */
  dateOnly: boolean;
  richText: boolean;
  /**
   * The stored column is text (sorted with COLLATE "C" on PostgreSQL). Normally kind text / json; the table sync
   * corrects it when a column's real type differs from the schema (a type change waiting for its migration).
   */
  textColumn: boolean;
  relation?: { schema: string; label: string; key?: string; as: string };
  /** x-search subtree: the related tree's table, key and ancestors columns (filled in once every schema is loaded). */
  subtree?: { table: string; key: string; ancestors: string };
}

export interface Entity {
  id: string;
  title: string;
  file: string;
  schema: EntitySchema;
  /** The table ('' for a module-served schema without x-table). */
  table: string;
  /** x-endpoint.module: the module serves the routes; the engine registers none and syncs no table. */
  moduleServed: boolean;
  pk: Field;
  /** Every property (the primary key included); the hidden version column is not a property. */
  fields: Field[];
  byName: Map<string, Field>;
  versioned: boolean;
  tree?: { parent: Field; label: Field; ancestors?: Field };
  softDelete?: { column: string; deleted: string; active: string };
  permissions: Partial<Record<EngineAction, string>>;
  sensitive: boolean;
  sort: { field: Field; desc: boolean };
  /** Columns of the list table and of exports, in x-list order (writeOnly never). */
  listFields: Field[];
  /** Fields a client may send (not readOnly). */
  writable: Field[];
  /** Fields answered to clients (not writeOnly). */
  output: Field[];
  validators: RecordValidators;
  // hooks?: EntityHooks — the schema's server-side overrides — is added to Entity by hooks.ts (their types need
  // Entity, so naming them here would make an import circle).
}

/** camelCase → snake_case, the same rule as Kysely's CamelCasePlugin (configName → config_name). */
export function snakeCase(name: string): string {
  let out = name[0]?.toLowerCase() ?? '';
  for (let i = 1; i < name.length; i++) {
    const ch = name[i];
    const isUpper = ch !== ch.toLowerCase();
    const prevUpper = name[i - 1] !== name[i - 1].toLowerCase();
    out += isUpper && !prevUpper ? `_${ch.toLowerCase()}` : ch.toLowerCase();
  }
  return out;
}

/** Capitalised property name, for range parameters: postSort → PostSort (params[beginPostSort]). */
export const capitalise = (name: string) => name[0].toUpperCase() + name.slice(1);

function kindOf(prop: PropertySchema): Kind {
  const t = baseTypes(prop).types[0];
  if (t === 'integer') return 'integer';
  if (t === 'number') return 'number';
  if (t === 'boolean') return 'boolean';
  if (t === 'array') return 'json';
  return 'text';
}

function buildField(name: string, prop: PropertySchema): Field {
  const render = prop['x-list']?.render;
  const audit = prop['x-audit'];
  const rel = prop['x-relation'];
  return {
    name,
    column: snakeCase(name),
    title: prop.title,
    kind: kindOf(prop),
    nullable: baseTypes(prop).nullable,
    prop,
    readOnly: Boolean(prop.readOnly),
    writeOnly: Boolean(prop.writeOnly),
    audit,
    dict: prop['x-dict'],
    unique: Boolean(prop['x-unique']),
    search: prop['x-search']?.op,
    sortable: Boolean(prop['x-sortable']),
    time: audit === 'createTime' || audit === 'updateTime' || prop['x-search']?.op === 'dateRange' || render === 'date' || render === 'datetime',
    dateOnly: render === 'date',
    richText: prop['x-ui']?.widget === 'richText',
    textColumn: kindOf(prop) === 'text' || kindOf(prop) === 'json',
    relation: rel ? { ...rel, as: rel.as ?? rel.label } : undefined,
  };
}

/** The hidden version column as a field (never a schema property). */
export function versionField(): Field {
  return buildField(VERSION, { type: 'integer', title: VERSION_TITLE, readOnly: true });
}

export function buildEntity({ file, schema }: LoadedSchema): Entity {
  const fields = Object.entries(schema.properties).map(([name, prop]) => buildField(name, prop));
  const byName = new Map(fields.map((f) => [f.name, f]));
  const pk = byName.get(schema['x-primaryKey']) as Field;
  const tree = schema['x-tree'];
  const sort = schema['x-sort'];
  const listed = fields.filter((f) => f.prop['x-list'] && !f.writeOnly);
  listed.sort((a, b) => (a.prop['x-list']?.order ?? 999) - (b.prop['x-list']?.order ?? 999));
  return {
    id: schema.$id,
    title: schema.title,
    file,
    schema,
    table: schema['x-table'] ?? '',
    moduleServed: schema['x-endpoint'].module === true,
    pk,
    fields,
    byName,
    versioned: schema['x-version'] !== false,
    tree: tree
      ? {
          parent: byName.get(tree.parent) as Field,
          label: byName.get(tree.label) as Field,
          ancestors: tree.ancestors ? byName.get(tree.ancestors) : undefined,
        }
      : undefined,
    softDelete: schema['x-softDelete'],
    permissions: schema['x-permissions'],
    sensitive: Boolean(schema['x-sensitive']),
    sort: sort ? { field: byName.get(sort.default) as Field, desc: sort.order === 'desc' } : { field: pk, desc: false },
    listFields: listed.length ? listed : fields.filter((f) => !f.writeOnly),
    writable: fields.filter((f) => !f.readOnly),
    output: fields.filter((f) => !f.writeOnly),
    validators: compileValidators(schema),
  };
}

/** A stored value as a client sees it (booleans as booleans, arrays parsed). */
export function fromDb(field: Field, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (field.kind) {
    case 'boolean':
      return value === true || value === 1 || value === '1';
    case 'json':
      try {
        return typeof value === 'string' ? JSON.parse(value) : value;
      } catch {
        return null;
      }
    case 'integer':
    case 'number':
      return typeof value === 'string' ? Number(value) : value;
    default:
      return value;
  }
}

/** A validated value as stored. */
export function toDb(field: Field, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (field.kind) {
    case 'boolean':
      return value ? 1 : 0;
    case 'json':
      return JSON.stringify(value);
    default:
      return value;
  }
}

/** A database row (snake_case keys) as the record answered to clients. */
export function rowToRecord(entity: Entity, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of entity.output) out[f.name] = fromDb(f, row[f.column]);
  if (entity.versioned) out[VERSION] = row[VERSION] === undefined || row[VERSION] === null ? null : Number(row[VERSION]);
  for (const f of entity.fields) if (f.relation && `__rel_${f.name}` in row) out[f.relation.as] = row[`__rel_${f.name}`] ?? null;
  return out;
}

/** Times are shown and parsed in China Standard Time (UTC+8, no daylight saving), whatever the server's zone. */
export const CST_OFFSET_MS = 8 * 60 * 60 * 1000;

/** Epoch ms → 'YYYY-MM-DD HH:mm:ss' (or 'YYYY-MM-DD') in UTC+8. */
export function formatTime(ms: number, dateOnly = false): string {
  const iso = new Date(ms + CST_OFFSET_MS).toISOString();
  return dateOnly ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

/**
 * 'YYYY-MM-DD', 'YYYY-MM-DD HH:mm[:ss]' (UTC+8) or epoch ms digits → epoch ms; `endOfDay` makes a bare date mean
 * the last millisecond of that day (the end of a date range). Null when the text is not a time.
 */
export function parseTime(text: string, endOfDay = false): number | null {
  const t = text.trim();
  if (/^\d{10,}$/.test(t)) return Number(t);
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(t);
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m;
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h ?? 0), Number(mi ?? 0), Number(s ?? 0));
  if (Number.isNaN(utc)) return null;
  const check = new Date(utc);
  if (check.getUTCDate() !== Number(d) || check.getUTCMonth() !== Number(mo) - 1) return null;
  const ms = utc - CST_OFFSET_MS;
  return endOfDay && h === undefined ? ms + 24 * 60 * 60 * 1000 - 1 : ms;
}

/** Fills in where each x-search subtree field looks: the related tree schema's table, key and ancestors columns. */
export function linkSubtrees(entities: Map<string, Entity>): void {
  for (const entity of entities.values()) {
    for (const f of entity.fields) {
      if (f.search !== 'subtree' || !f.relation) continue;
      const target = entities.get(f.relation.schema);
      const ancestors = target?.tree?.ancestors;
      if (target && ancestors) f.subtree = { table: target.table, key: target.pk.column, ancestors: ancestors.column };
    }
  }
}
