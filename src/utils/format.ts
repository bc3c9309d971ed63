/**
 * Display and data-shaping helpers (spec §5 number and timestamp display, §3 tree building, §5 archive check).
 * Pure functions: no DOM, no framework.
 */

/**
 * Numbers of 10000 or more in ten-thousands with one decimal and suffix w (12345 → '1.2w').
 * Smaller values (and anything that is not a number) come back unchanged so callers can pass API fields as-is.
 */
export function formatWan<T extends number | string | null | undefined>(n: T): T | string {
  const value = typeof n === 'string' && n.trim() !== '' ? Number(n) : n;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 10000) return n;
  return `${(value / 10000).toFixed(1)}w`;
}

const WEEKDAYS = ['日', '一', '二', '三', '四', '五', '六'];

/** Below this a numeric timestamp is taken as seconds (10-digit Unix time), above it as milliseconds. */
const SECONDS_LIMIT = 1e11;

function toDate(time: number | string | Date): Date | null {
  if (time instanceof Date) return Number.isNaN(time.getTime()) ? null : time;
  let value: number | string = time;
  if (typeof value === 'string') {
    const text = value.trim();
    if (/^-?\d+$/.test(text)) value = Number(text);
    // Text with its own zone (ISO 'Z' or an offset) is exact as it stands.
    else if (/(Z|[+-]\d{2}:?\d{2})$/i.test(text)) value = text;
    // 'YYYY-MM-DD HH:mm:ss' is not reliably parsed by Date and a bare ISO date would be read as UTC;
    // the slash form is parsed everywhere and as local time, which is what the server means.
    else
      value = text
        .replace(/-/g, '/')
        .replace('T', ' ')
        .replace(/\.\d{3}/, '');
  }
  if (typeof value === 'number' && Math.abs(value) < SECONDS_LIMIT) value *= 1000;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * RuoYi parseTime: format a timestamp (ms, Unix seconds, Date or date text) in local time.
 * Pattern keys {y} {m} {d} {h} {i} {s} (zero-padded) and {a} (weekday 日…六). Null for empty or unparseable input.
 */
export function parseTime(time: number | string | Date | null | undefined, pattern = '{y}-{m}-{d} {h}:{i}:{s}'): string | null {
  if (time === null || time === undefined || time === '') return null;
  const date = toDate(time);
  if (!date) return null;
  const parts: Record<string, number> = {
    y: date.getFullYear(),
    m: date.getMonth() + 1,
    d: date.getDate(),
    h: date.getHours(),
    i: date.getMinutes(),
    s: date.getSeconds(),
    a: date.getDay(),
  };
  return pattern.replace(/{([ymdhisa])+}/g, (_match, key: string) => {
    const value = parts[key];
    if (key === 'a') return WEEKDAYS[value];
    return String(value).padStart(2, '0');
  });
}

/** A node of the tree built by handleTree: the original fields plus the children list under the chosen key. */
export type TreeNode<T> = T & { [key: string]: unknown };

/**
 * RuoYi handleTree: build a tree from a flat list linked by id / parentId.
 * Nodes whose parent is not in the list are roots. Input objects are not mutated (copies carry the children);
 * leaves get no children key, so tree widgets do not show an empty expander.
 */
export function handleTree<T extends object>(data: readonly T[], id = 'id', parentId = 'parentId', children = 'children'): TreeNode<T>[] {
  const field = (node: T, key: string): unknown => (node as Record<string, unknown>)[key];
  // Keys compared as text: the server mixes 0 and '0' for the same id.
  const keyOf = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

  const ids = new Set<string>();
  const byParent = new Map<string, T[]>();
  for (const node of data) {
    const own = keyOf(field(node, id));
    if (own !== null) ids.add(own);
    const parent = keyOf(field(node, parentId));
    if (parent === null) continue;
    const list = byParent.get(parent) ?? [];
    list.push(node);
    byParent.set(parent, list);
  }

  // Guards against duplicate ids that would otherwise make a node its own descendant.
  const seen = new Set<T>();
  const build = (node: T): TreeNode<T> => {
    seen.add(node);
    const copy: Record<string, unknown> = { ...(node as Record<string, unknown>) };
    const own = keyOf(field(node, id));
    const kids = own === null ? [] : (byParent.get(own) ?? []).filter((child) => !seen.has(child));
    if (kids.length > 0) copy[children] = kids.map(build);
    return copy as TreeNode<T>;
  };

  return data
    .filter((node) => {
      const parent = keyOf(field(node, parentId));
      return parent === null || !ids.has(parent);
    })
    .map(build);
}

const ARCHIVE = /\.(zip|rar|7z|tar|gz|bz2|xz|tgz|tar\.gz|iso)$/i;

/** True for archive files (zip, rar, 7z, tar, gz, bz2, xz, tgz, tar.gz, iso), any letter case. */
export function isArchive(filename: string): boolean {
  return ARCHIVE.test(filename.trim());
}

/** Links that leave the app (http, https, mailto, tel): opened in a new tab, never routed. Schemes are case-insensitive. */
export function isExternal(path: string): boolean {
  return /^(https?:|mailto:|tel:)/i.test(path);
}
