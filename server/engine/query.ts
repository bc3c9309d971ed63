import { type RawBuilder, sql } from 'kysely';
import type { Dialect } from '../db/connection.js';
import { ApiError, Code } from '../http/envelope.js';
import { WatchedCache, type WriteWatch, watchOf } from '../security/writeWatch.js';
import { capitalise, type Entity, type Field, parseTime } from './model.js';
import { aliveCondition, andAll, col, fromClause, type Q, type Row, selectList } from './store.js';

/**
 * List requests: pageNum / pageSize, filters on x-search fields only (with their ops), sorting on x-sortable columns
 * only (orderByColumn + isAsc), default order x-sort. Anything not declared is refused with a Chinese message.
 */

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 500;

export type Params = Record<string, unknown>;

const bad = (msg: string) => new ApiError(Code.BAD_REQUEST, msg);

/** A query string / form / JSON body as flat text values; a nested `params` object becomes params[key]. */
export function flattenParams(...sources: unknown[]): Params {
  const out: Params = {};
  for (const src of sources) {
    if (!src || typeof src !== 'object' || Array.isArray(src)) continue;
    for (const [key, raw] of Object.entries(src as Record<string, unknown>)) {
      if (key === 'params' && raw && typeof raw === 'object' && !Array.isArray(raw)) {
        for (const [k, v] of Object.entries(raw as Record<string, unknown>)) out[`params[${k}]`] = v;
        continue;
      }
      out[key] = Array.isArray(raw) ? raw[0] : raw;
    }
  }
  return out;
}

const text = (v: unknown): string | undefined => {
  if (v === undefined || v === null) return undefined;
  const s = String(v).trim();
  return s === '' ? undefined : s;
};

/** A search value typed for its column; a 400 naming the field when it cannot be. */
function typed(field: Field, raw: string): unknown {
  if (field.kind === 'integer' || field.kind === 'number') {
    const n = Number(raw);
    if (!Number.isFinite(n) || (field.kind === 'integer' && !Number.isInteger(n)))
      throw bad(`${field.title}格式不正确，应为${field.kind === 'integer' ? '整数' : '数字'}`);
    return n;
  }
  if (field.kind === 'boolean') return raw === 'true' || raw === '1' ? 1 : 0;
  return raw;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The WHERE conditions of a list or export request. */
export function filters(entity: Entity, params: Params, dialect: Dialect): RawBuilder<unknown> {
  const conditions: Array<RawBuilder<unknown> | null> = [aliveCondition(entity)];
  // x-filter: the resource's preset rows are its row scope (owner.ts rowScope); a client's value for them is ignored.
  const preset = entity.schema['x-filter'] ?? {};
  for (const f of entity.fields) {
    if (f.name in preset) continue;
    const c = col('t', f.column);
    switch (f.search) {
      case 'eq': {
        const v = text(params[f.name]);
        if (v !== undefined) conditions.push(sql`${c} = ${typed(f, v)}`);
        break;
      }
      case 'like': {
        const v = text(params[f.name]);
        if (v === undefined) break;
        const pattern = `%${escapeLike(v)}%`;
        const target = f.textColumn ? c : sql`cast(${c} as text)`;
        conditions.push(dialect === 'postgres' ? sql`${target} ilike ${pattern} escape '\\'` : sql`${target} like ${pattern} escape '\\'`);
        break;
      }
      case 'subtree': {
        // The node itself and every node below it (RuoYi's dept filter: ancestors holds the path "0,100,101").
        const v = text(params[f.name]);
        if (v === undefined || !f.subtree) break;
        const id = typed(f, v);
        const tree = f.subtree;
        conditions.push(sql`${c} in (select ${sql.id(tree.key)} from ${sql.table(tree.table)}
          where ${sql.id(tree.key)} = ${id} or (',' || ${sql.id(tree.ancestors)} || ',') like ${`%,${String(id)},%`})`);
        break;
      }
      case 'range': {
        const begin = text(params[`params[begin${capitalise(f.name)}]`]);
        const end = text(params[`params[end${capitalise(f.name)}]`]);
        if (begin !== undefined) conditions.push(sql`${c} >= ${typed(f, begin)}`);
        if (end !== undefined) conditions.push(sql`${c} <= ${typed(f, end)}`);
        break;
      }
      case 'dateRange': {
        const begin = text(params['params[beginTime]']);
        const end = text(params['params[endTime]']);
        if (begin !== undefined) {
          const ms = parseTime(begin);
          if (ms === null) throw bad(`${f.title}开始时间格式不正确（应为 YYYY-MM-DD 或 YYYY-MM-DD HH:mm:ss）`);
          conditions.push(sql`${c} >= ${ms}`);
        }
        if (end !== undefined) {
          const ms = parseTime(end, true);
          if (ms === null) throw bad(`${f.title}结束时间格式不正确（应为 YYYY-MM-DD 或 YYYY-MM-DD HH:mm:ss）`);
          conditions.push(sql`${c} <= ${ms}`);
        }
        break;
      }
      default:
        break;
    }
  }
  return andAll(conditions);
}

/**
 * What paging by key needs of a list's table: its name and primary key. An Entity is one; a module's own list over
 * its table (the customer list, server/customer/customers.ts) passes just these, to page the same way.
 */
export interface KeyedTable {
  table: string;
  pk: SortColumn;
}

/** The sort column of a keyed list: the primary key itself, or a column (textColumn: compared as bytes on PostgreSQL). */
export type SortColumn = Pick<Field, 'column' | 'textColumn'>;

export interface Order {
  field: SortColumn;
  desc: boolean;
}

/** orderByColumn / isAsc, whitelisted to x-sortable columns; the schema's x-sort when absent. */
export function ordering(entity: Entity, params: Params): Order {
  const column = text(params.orderByColumn);
  const dir = text(params.isAsc);
  if (column === undefined) return entity.sort;
  const field = entity.byName.get(column) ?? entity.fields.find((f) => f.column === column);
  if (!field?.sortable) {
    const allowed = entity.fields.filter((f) => f.sortable).map((f) => `${f.name}（${f.title}）`);
    throw bad(`不支持按"${column}"排序${allowed.length ? `，可排序的列：${allowed.join('、')}` : '，此列表没有可排序的列'}`);
  }
  if (dir !== undefined && !['ascending', 'descending', 'asc', 'desc'].includes(dir)) throw bad('排序方向只能是 ascending 或 descending');
  return { field, desc: dir === 'descending' || dir === 'desc' };
}

/**
 * ORDER BY: the column (text by code point on both databases, nulls first ascending), then the primary key in the
 * same direction so pages never overlap.
 */
export function orderClause(entity: KeyedTable, order: Order, dialect: Dialect): RawBuilder<unknown> {
  const term = (f: SortColumn, desc: boolean) => {
    const c = dialect === 'postgres' && f.textColumn ? sql`${col('t', f.column)} collate "C"` : sql`${col('t', f.column)}`;
    return desc ? sql`${c} desc nulls last` : sql`${c} asc nulls first`;
  };
  const parts = [term(order.field, order.desc)];
  if (order.field !== entity.pk) parts.push(term(entity.pk, order.desc));
  return sql.join(parts);
}

/**
 * "After this row" in the order of `orderClause` (keyset paging for exports: each batch starts where the last one
 * ended, so reading every row costs the same per batch however deep it is).
 */
export function keysetAfter(entity: KeyedTable, order: Order, dialect: Dialect, last: Row): RawBuilder<unknown> {
  const f = order.field;
  const c = dialect === 'postgres' && f.textColumn ? sql`${col('t', f.column)} collate "C"` : sql`${col('t', f.column)}`;
  const pk = col('t', entity.pk.column);
  const lastPk = last[entity.pk.column];
  const value = last[f.column];
  const beyond = order.desc ? sql`<` : sql`>`;
  if (f === entity.pk) return sql`${pk} ${beyond} ${lastPk}`;
  if (value === null || value === undefined) {
    // Nulls come first ascending (then every non-null value), last descending.
    return order.desc ? sql`(${c} is null and ${pk} < ${lastPk})` : sql`((${c} is null and ${pk} > ${lastPk}) or ${c} is not null)`;
  }
  const tail = order.desc ? sql` or ${c} is null` : sql``;
  return sql`((${c}, ${pk}) ${beyond} (${value}, ${lastPk})${tail})`;
}

export interface Paging {
  pageNum: number;
  pageSize: number;
}

export function paging(params: Params): Paging {
  const num = text(params.pageNum);
  const size = text(params.pageSize);
  const pageNum = num === undefined ? 1 : Number(num);
  const pageSize = size === undefined ? DEFAULT_PAGE_SIZE : Number(size);
  if (!Number.isInteger(pageNum) || pageNum < 1) throw bad('页码必须是大于 0 的整数');
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) throw bad(`每页条数必须是 1 到 ${MAX_PAGE_SIZE} 之间的整数`);
  return { pageNum, pageSize };
}

export interface ListQuery {
  where: RawBuilder<unknown>;
  order: RawBuilder<unknown>;
  /** The same order backwards (nulls included), so a page nearer the end of the list is found from the end. */
  reverse?: RawBuilder<unknown>;
  /** The sort as parsed, for seeking a page from a remembered row (page anchors). */
  sort?: Order;
}

/** Parses (and checks) everything of a list / export request before any row is read. */
export function listQuery(entity: Entity, params: Params, dialect: Dialect): ListQuery {
  const order = ordering(entity, params);
  return {
    where: filters(entity, params, dialect),
    order: orderClause(entity, order, dialect),
    reverse: orderClause(entity, { ...order, desc: !order.desc }, dialect),
    sort: order,
  };
}

/**
 * One page (or, without `limit`, every row) of an entity with its relation labels.
 *
 * A page is found by key, not by reading the rows before it: the page's primary keys come from the sort index alone
 * (no row data, no relation joins for the rows skipped), then only those rows are read. With `total` known, a page
 * in the second half of the list is counted from the end in the reversed order, so the last page of a million rows
 * costs what the first does (docs/benchmarks.md, console section).
 */
export async function selectRows(
  k: Q,
  entity: Entity,
  entities: Map<string, Entity>,
  q: ListQuery,
  limit?: number,
  offset = 0,
  total?: number,
): Promise<Row[]> {
  const { from, labelColumns } = fromClause(entity, entities, true);
  const select = labelColumns.length ? sql`${selectList(entity)}, ${sql.join(labelColumns)}` : selectList(entity);
  if (limit === undefined) return (await sql<Row>`select ${select} from ${from} where ${q.where} order by ${q.order}`.execute(k)).rows;

  const keys = await pageKeys(k, entity, q, limit, offset, total);
  if (!keys) return [];
  return pageRows(k, sql<Row>`select ${select} from ${from} where ${col('t', entity.pk.column)} in (${keys}) order by ${q.order}`);
}

/**
 * The primary keys of one page, as a subquery over `t` (selectRows, and module lists that page their own table the
 * same way: server/customer/customers.ts). Found from the sort index alone; with `total` known, a page in the second
 * half is counted from the end in the reversed order, and a deep page seeks from its nearest anchor (PAGE_ANCHORS).
 * Null when the page lies beyond the end.
 */
export async function pageKeys(k: Q, entity: KeyedTable, q: ListQuery, limit: number, offset: number, total?: number): Promise<RawBuilder<unknown> | null> {
  const pk = col('t', entity.pk.column);
  const table = sql.table(entity.table);
  if (q.reverse && total !== undefined && offset > total / 2) {
    const count = Math.min(limit, total - offset);
    if (count <= 0) return null;
    const back = total - offset - count;
    // The same list read backwards is a list of its own, with its own anchors counted from the end.
    const backwards: ListQuery = { where: q.where, order: q.reverse, reverse: q.order, sort: q.sort && { ...q.sort, desc: !q.sort.desc } };
    return (
      (await anchoredKeys(k, entity, backwards, count, back)) ??
      sql`select ${pk} from ${table} as t where ${q.where} order by ${q.reverse} limit ${count} offset ${back}`
    );
  }
  return (
    (total !== undefined ? await anchoredKeys(k, entity, q, limit, offset) : null) ??
    sql`select ${pk} from ${table} as t where ${q.where} order by ${q.order} limit ${limit} offset ${offset}`
  );
}

export const LIST_PAGE = {
  /** A page this many rows deep or deeper is read total first (see listPage); tests lower it to reach that path. */
  oneStatementMaxOffset: 1000,
};

/**
 * One page of a list and its total (what a list request answers).
 *
 * Where this process is the sole writer of its database (embedded SQLite) both are kept between requests (countRows,
 * pageRows), so the two statements of a miss cost nothing on a hit. On PostgreSQL the total rides in the page's
 * statement as an uncorrelated scalar subquery — computed once, from the same snapshot as the rows: one round trip
 * instead of two — and, where the processes share their writes through Redis (WriteWatch.share), page and total are
 * kept together like SQLite's, filed under the generations of every table the statement reads. Two cases keep the
 * separate count: a page beyond the end (no row to carry the total: counted then, a request that is rare), and a page
 * LIST_PAGE.oneStatementMaxOffset rows deep or deeper, which selectRows finds from the nearer end and so must know the
 * total first. The rows carry an extra `__total` column, which rowToRecord does not read.
 */
export async function listPage(
  k: Q,
  entity: Entity,
  entities: Map<string, Entity>,
  q: ListQuery,
  limit: number,
  offset: number,
): Promise<{ rows: Row[]; total: number }> {
  const watch = watchOf(k.getExecutor().adapter);
  if (watch?.soleWriter || offset >= LIST_PAGE.oneStatementMaxOffset) {
    const total = await countRows(k, entity, q);
    return { rows: await selectRows(k, entity, entities, q, limit, offset, total), total };
  }
  const { from, labelColumns } = fromClause(entity, entities, true);
  const pk = col('t', entity.pk.column);
  const table = sql.table(entity.table);
  const total = sql`(select count(*) from ${table} as t where ${q.where}) as __total`;
  const select = labelColumns.length ? sql`${selectList(entity)}, ${sql.join(labelColumns)}, ${total}` : sql`${selectList(entity)}, ${total}`;
  const keys = sql`select ${pk} from ${table} as t where ${q.where} order by ${q.order} limit ${limit} offset ${offset}`;
  const compiled = sql<Row>`select ${select} from ${from} where ${pk} in (${keys}) order by ${q.order}`.compile(k);
  const read = async () => {
    const rows = (await k.executeQuery<Row>(compiled)).rows;
    if (rows.length === 0) return { rows, total: offset === 0 ? 0 : await countRows(k, entity, q) };
    return { rows, total: Number(rows[0].__total) };
  };
  if (!watch?.caching || !PAGE_ROWS.enabled) return read();
  const cache = pageCaches.get(watch) ?? new WatchedCache<string, { rows: Row[]; total: number }>(watch, [], COUNT_TTL_MS, PAGE_ROWS.maxPages);
  pageCaches.set(watch, cache);
  const key = `${watch.version(tablesOf(compiled.sql))}|${compiled.sql}|${JSON.stringify(compiled.parameters)}`;
  return cache.get(key, read, readTablesOf(compiled.sql));
}

const pageCaches = new WeakMap<WriteWatch, WatchedCache<string, { rows: Row[]; total: number }>>();

/**
 * One page's rows, kept like the list's total (countRows): per compiled query and the generations of every table it
 * reads, so any write to one of them (this server is the sole writer of its embedded SQLite) drops it at once, and for
 * COUNT_TTL_MS at most. Several users watching the same list, a tab brought back, a refresh: the page is read once. The
 * rows are shared between requests and never changed (rowToRecord builds new records). On PostgreSQL only where the processes share their writes through Redis (WriteWatch.share).
 * LIST_ROWS_CACHE=0 turns it off (the console bench measures both).
 */
async function pageRows(k: Q, query: RawBuilder<Row>): Promise<Row[]> {
  const watch = watchOf(k.getExecutor().adapter);
  if (!watch?.caching || !PAGE_ROWS.enabled) return (await query.execute(k)).rows;
  const cache = rowCaches.get(watch) ?? new WatchedCache<string, Row[]>(watch, [], COUNT_TTL_MS, PAGE_ROWS.maxPages);
  rowCaches.set(watch, cache);
  const compiled = query.compile(k);
  const key = `${watch.version(tablesOf(compiled.sql))}|${compiled.sql}|${JSON.stringify(compiled.parameters)}`;
  return cache.get(key, async () => (await k.executeQuery<Row>(compiled)).rows, readTablesOf(compiled.sql));
}

export const PAGE_ROWS = {
  enabled: process.env.LIST_ROWS_CACHE !== '0',
  /** Pages kept per database; a page is at most MAX_PAGE_SIZE rows. */
  maxPages: 500,
};
const rowCaches = new WeakMap<WriteWatch, WatchedCache<string, Row[]>>();

/** Every quoted name in a compiled query: its tables (and columns, which only add a 0 to the version). */
function tablesOf(compiledSql: string): string[] {
  return [...new Set([...compiledSql.matchAll(/"([A-Za-z_][\w]*)"/g)].map((m) => m[1]))];
}

/**
 * The tables a compiled query reads (every quoted name after FROM or JOIN, subqueries included): what a value shared
 * between processes is filed under (WriteWatch.token), one Redis key each, so columns are left out.
 */
function readTablesOf(compiledSql: string): string[] {
  return [...new Set([...compiledSql.matchAll(/\b(?:from|join)\s+(?:"\w+"\.)?"([A-Za-z_]\w*)"/gi)].map((m) => m[1]))];
}

/**
 * How many rows a list's filters match. count(*) reads the whole match (about 100 ms at a million rows), and a user
 * paging through one list asks the same question on every page, so the answer is kept per table and filter set
 * (the compiled WHERE and its values) until the table is written, or for COUNT_TTL_MS at most (writes by another
 * process). The total shown is therefore always exact for this server's own writes; never an estimate.
 */
export async function countRows(k: Q, entity: Pick<KeyedTable, 'table'>, q: Pick<ListQuery, 'where'>): Promise<number> {
  const query = sql<{ n: number | string }>`select count(*) as n from ${sql.table(entity.table)} as t where ${q.where}`;
  const run = async () => Number((await query.execute(k)).rows[0]?.n ?? 0);
  const watch = watchOf(k.getExecutor().adapter);
  if (!watch) return run();
  const cache = countCaches.get(watch) ?? new WatchedCache<string, number>(watch, [], COUNT_TTL_MS);
  countCaches.set(watch, cache);
  const compiled = query.compile(k);
  // The generations of every table the count reads are part of the key: the list's own table, and those of its
  // filters' subqueries (data scope, dept subtree). Every quoted name is taken; a column's name only adds a 0.
  const key = `${watch.version([entity.table, ...tablesOf(compiled.sql)])}|${compiled.sql}|${JSON.stringify(compiled.parameters)}`;
  return cache.get(key, run, readTablesOf(compiled.sql));
}

export const COUNT_TTL_MS = 10_000;
const countCaches = new WeakMap<WriteWatch, WatchedCache<string, number>>();

/**
 * Page anchors: every PAGE_ANCHORS.every-th row's sort key of one list (table, filters, order), so a page deep inside a
 * long list seeks to the nearest anchor by key and walks fewer than `every` index entries, instead of walking from
 * the nearer end (the middle page of a million rows walked half a million). A list read backwards (a page in the
 * second half, see selectRows) has its own anchors counted from the end. Found on first need as a chain, each anchor
 * `every` rows after the one before (the first request for a deep page walks to it once, like plain paging did; a
 * window function over the whole list cost more), only as far as the page asked for, and kept exactly like the
 * cached total: only where this process is the sole writer (embedded SQLite), dropped by any write to the tables the
 * list reads, and after COUNT_TTL_MS at most. PostgreSQL pages as before.
 */
export const PAGE_ANCHORS = {
  every: 1000,
  /** Below this many rows from the nearer end a walk costs about a millisecond: no anchors are built for it. */
  minWalk: 50_000,
  /** LIST_ANCHORS=0 turns them off (the console bench measures with and without). */
  enabled: process.env.LIST_ANCHORS !== '0',
};

/** One list's anchors: rows[i] holds the sort key of the row at position (i + 1) * every - 1; `end` once past the last. */
interface Anchors {
  rows: Row[];
  end: boolean;
  /** The extension under way (requests for the same list extend it one after another). */
  extending: Promise<void>;
}

const anchorCaches = new WeakMap<WriteWatch, WatchedCache<string, Anchors>>();

/** The page's primary keys found from the nearest anchor, or null where anchors do not apply (or do not help). */
async function anchoredKeys(k: Q, entity: KeyedTable, q: ListQuery, limit: number, offset: number): Promise<RawBuilder<unknown> | null> {
  const { every, minWalk, enabled } = PAGE_ANCHORS;
  // A page near the start of `q` (selectRows reads from the nearer end) is cheap to walk to already.
  if (!enabled || !q.sort || offset < Math.max(every, minWalk)) return null;
  const watch = watchOf(k.getExecutor().adapter);
  if (!watch?.soleWriter) return null;
  const cache = anchorCaches.get(watch) ?? new WatchedCache<string, Anchors>(watch, [], COUNT_TTL_MS, 1000);
  anchorCaches.set(watch, cache);

  const sort = q.sort;
  const pk = col('t', entity.pk.column);
  const table = sql.table(entity.table);
  const keyColumns = sort.field === entity.pk ? pk : sql`${col('t', sort.field.column)}, ${pk}`;
  // The row `every` rows after `previous` (or the every-th row of the list); `page_anchor` marks the statement.
  const next = (previous: Row | undefined) =>
    sql<Row>`select ${keyColumns}, 1 as page_anchor from ${table} as t
      where ${q.where}${previous ? sql` and ${keysetAfter(entity, sort, 'sqlite', previous)}` : sql``}
      order by ${q.order} limit 1 offset ${every - 1}`;

  const compiled = next(undefined).compile(k);
  // The generations of every table the list reads are part of the key (as for the cached total in countRows).
  const names = [entity.table, ...tablesOf(compiled.sql)];
  const key = `${watch.version([...new Set(names)])}|${compiled.sql}|${JSON.stringify(compiled.parameters)}`;
  const anchors = await cache.get(key, async () => ({ rows: [], end: false, extending: Promise.resolve() }));

  const a = Math.floor(offset / every);
  const extend = async () => {
    while (anchors.rows.length < a && !anchors.end) {
      const row = (await next(anchors.rows.at(-1)).execute(k)).rows[0];
      if (row) anchors.rows.push(row);
      else anchors.end = true;
    }
  };
  anchors.extending = anchors.extending.then(extend, extend);
  await anchors.extending;

  const anchor = anchors.rows[a - 1];
  if (!anchor) return null; // the list changed under the cache (another process): plain paging is always right
  return sql`select ${pk} from ${table} as t where ${q.where} and ${keysetAfter(entity, sort, 'sqlite', anchor)}
    order by ${q.order} limit ${limit} offset ${offset - a * every}`;
}
