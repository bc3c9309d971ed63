import type { OpenApiDocument, OpenApiOperation } from '@/api/tool';

export interface OperationRow {
  key: string;
  method: string;
  path: string;
  tag: string;
  summary: string;
  permission: string;
  operation: OpenApiOperation;
}

const METHODS = ['get', 'post', 'put', 'delete', 'patch'];

/** Flattens the document into one row per operation, grouped by its first tag ('其他' without one). */
export function operationRows(doc: OpenApiDocument): OperationRow[] {
  const rows: OperationRow[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      rows.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        tag: operation.tags?.[0] ?? '其他',
        summary: operation.summary ?? '',
        permission: operation['x-permission'] ?? '',
        operation,
      });
    }
  }
  return rows.sort((a, b) => a.tag.localeCompare(b.tag, 'zh') || a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

/** Rows whose path, summary, tag or permission contains the text (case-insensitive). */
export function filterRows(rows: readonly OperationRow[], text: string): OperationRow[] {
  const q = text.trim().toLowerCase();
  if (!q) return [...rows];
  return rows.filter((r) => [r.path, r.summary, r.tag, r.permission, r.method].some((v) => v.toLowerCase().includes(q)));
}

/** Inlines local `$ref`s (#/components/...) so a schema reads on its own; cycles stop at the reference name. */
export function resolveRefs(value: unknown, doc: OpenApiDocument, seen: readonly string[] = []): unknown {
  if (Array.isArray(value)) return value.map((v) => resolveRefs(v, doc, seen));
  if (!value || typeof value !== 'object') return value;
  const ref = (value as { $ref?: unknown }).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/')) {
    if (seen.includes(ref)) return { $ref: ref };
    let target: unknown = doc;
    for (const part of ref.slice(2).split('/')) target = (target as Record<string, unknown> | undefined)?.[part];
    return target === undefined ? value : resolveRefs(target, doc, [...seen, ref]);
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveRefs(v, doc, seen)]));
}
