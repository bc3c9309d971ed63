import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/connection.js';
import { DEFAULT_SCHEMAS_DIR, loadSchemas } from './metaSchema.js';
import { buildEntity, type Entity, type Field, toDb } from './model.js';
import { aliveCondition, andAll, engineDb, insertRows, type Q, type Row } from './store.js';

/**
 * Synthetic records from a schema: valid values for every property (strings from the title plus a random suffix
 * within maxLength, first enum / dictionary value, existing relation targets). The conformance tests create records
 * with them; benches bulk-insert many with `insertSyntheticRows`.
 */

export interface SynthSources {
  /** Values of a dictionary type (seeded sys_dict_data). */
  dict(type: string): string[];
  /** Existing target keys of an x-relation property. */
  relation(field: Field): unknown[];
}

export interface SynthOptions {
  /** Spread values over enums, dictionaries, relations and time (benches); default: first values (tests). */
  vary?: boolean;
  /** Also fill readOnly properties (audit columns…) as a direct insert needs; the primary key never. */
  includeReadOnly?: boolean;
  /** Reference time for time columns (epoch ms). */
  now?: number;
}

export const randomSuffix = () => crypto.randomBytes(3).toString('hex');

function fitText(field: Field, base: string, tail: string): string {
  const max = field.prop.maxLength ?? 200;
  const min = field.prop.minLength ?? 0;
  let s = `${base}${tail}`;
  if (s.length > max) s = tail.length <= max ? `${base.slice(0, max - tail.length)}${tail}` : tail.slice(-max);
  while (s.length < min) s += 'x';
  return s;
}

/** One valid value for a property. `seq` makes values differ between records (unique columns stay unique). */
export function synthValue(field: Field, seq: number, sources: SynthSources, options: SynthOptions = {}): unknown {
  const { vary = false, now = Date.now() } = options;
  const prop = field.prop;
  const pick = <T>(list: T[]): T => list[vary ? seq % list.length : 0];
  if (field.audit === 'createBy' || field.audit === 'updateBy') return 'admin';
  if (field.time) return now - (vary ? seq * 60_000 : 0);
  if (prop.examples?.length && !field.unique) return pick(prop.examples);
  if (prop.enum?.length) return pick(prop.enum.filter((v) => v !== null));
  if (field.dict) {
    const values = sources.dict(field.dict);
    if (values.length) {
      const v = pick(values);
      return field.kind === 'integer' || field.kind === 'number' ? Number(v) : v;
    }
  }
  if (field.relation) {
    const values = sources.relation(field);
    if (values.length) return pick(values);
  }
  const suffix = `${seq}${randomSuffix()}`;
  switch (field.kind) {
    case 'integer': {
      const min = prop.minimum ?? (prop.exclusiveMinimum !== undefined ? prop.exclusiveMinimum + 1 : 0);
      const max = prop.maximum ?? (prop.exclusiveMaximum !== undefined ? prop.exclusiveMaximum - 1 : min + 1_000_000);
      if (field.unique) return min + ((seq * 7919 + Number.parseInt(randomSuffix(), 16)) % (max - min + 1));
      return min + (seq % (max - min + 1));
    }
    case 'number':
      return Math.min(prop.maximum ?? Number.MAX_SAFE_INTEGER, (prop.minimum ?? 0) + (seq % 1000) + 0.5);
    case 'boolean':
      return seq % 2 === 0;
    case 'json':
      return prop.items?.enum ? [prop.items.enum[0]] : prop.items?.type === 'string' ? [`项${seq}`] : [seq];
    default:
      break;
  }
  if (prop.format === 'email') return fitText(field, 'u', `${suffix}@example.com`);
  if (prop.format === 'mobile' || prop.pattern === '^1[3-9]\\d{9}$')
    return `139${String(seq * 7919 + Number.parseInt(randomSuffix(), 16))
      .padStart(8, '0')
      .slice(-8)}`;
  if (prop.format === 'uri' || prop.format === 'url') return fitText(field, 'https://example.com/', suffix);
  if (prop.format === 'date') return '2026-01-01';
  if (prop.pattern) return fitText(field, 'a', `_${suffix}`);
  if (field.richText) return `<p>${fitText(field, field.title, suffix)}</p>`;
  return fitText(field, field.title, `_${suffix}`);
}

/** A record with a value for every property a client may send (and the readOnly ones when asked), by property name. */
export function synthRecord(entity: Entity, seq: number, sources: SynthSources, options: SynthOptions = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of entity.fields) {
    if (f === entity.pk) continue;
    if (f.readOnly && !options.includeReadOnly) continue;
    if (entity.tree?.ancestors === f) {
      out[f.name] = '0';
      continue;
    }
    if (entity.tree?.parent === f && !sources.relation(f).length) {
      out[f.name] = 0;
      continue;
    }
    out[f.name] = synthValue(f, seq, sources, options);
  }
  return out;
}

/** Reads what synthetic values may point at: dictionary values and existing relation targets (first 1000). */
export async function loadSources(k: Q, entities: Map<string, Entity>, entity: Entity): Promise<SynthSources> {
  const dicts = new Map<string, string[]>();
  const relations = new Map<string, unknown[]>();
  const hasDicts = [...entities.values()].some((e) => e.table === 'sys_dict_data');
  for (const f of entity.fields) {
    if (f.dict && hasDicts && !dicts.has(f.dict)) {
      const res = await sql<{ dict_value: string }>`select dict_value from sys_dict_data where dict_type = ${f.dict} order by dict_sort, dict_code`.execute(k);
      dicts.set(
        f.dict,
        res.rows.map((r) => String(r.dict_value)),
      );
    }
    if (f.relation) {
      const target = entities.get(f.relation.schema);
      const key = target?.byName.get(f.relation.key ?? target.pk.name);
      if (target && key) {
        const res = await sql<Row>`select t.${sql.id(key.column)} as v from ${sql.table(target.table)} as t where ${andAll([aliveCondition(target)])}
          order by t.${sql.id(target.pk.column)} limit 1000`.execute(k);
        relations.set(
          f.name,
          res.rows.map((r) => r.v),
        );
      }
    }
  }
  return { dict: (type) => dicts.get(type) ?? [], relation: (field) => relations.get(field.name) ?? [] };
}

/**
 * Bench hook: bulk-inserts `n` synthetic rows of a schema straight into its table (values spread over enums,
 * dictionaries, relations and the last n minutes; audit columns filled), in transactions of `batchSize` rows.
 * The tables must exist (build the app first). Returns the number of rows inserted.
 *
 *   const app = await buildApp({ config, serveConsole: false });
 *   await insertSyntheticRows(app.db, 'sys_config', 100_000);
 */
export async function insertSyntheticRows(
  db: Db,
  schemaId: string,
  n: number,
  options: { schemasDir?: string; batchSize?: number; now?: number } = {},
): Promise<number> {
  const entities = new Map(loadSchemas(options.schemasDir ?? DEFAULT_SCHEMAS_DIR).map((l) => [l.schema.$id, buildEntity(l)] as const));
  const entity = entities.get(schemaId);
  if (!entity) throw new Error(`没有 schema ${schemaId}`);
  const k = engineDb(db);
  const sources = await loadSources(k, entities, entity);
  const batchSize = options.batchSize ?? 5000;
  const now = options.now ?? Date.now();
  for (let start = 0; start < n; start += batchSize) {
    const rows: Row[] = [];
    for (let seq = start; seq < Math.min(n, start + batchSize); seq++) {
      const record = synthRecord(entity, seq, sources, { vary: true, includeReadOnly: true, now });
      const row: Row = {};
      for (const [name, value] of Object.entries(record)) {
        const f = entity.byName.get(name) as Field;
        row[f.column] = toDb(f, value);
      }
      rows.push(row);
    }
    await k.transaction().execute((trx) => insertRows(trx, entity, rows));
  }
  return n;
}
