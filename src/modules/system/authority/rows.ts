import type { AuthorityMenu } from '@common/system/authority';

/** A row of the matrix: a menu with the rows under it (antd's tree table reads `children`). */
export interface MatrixRow extends AuthorityMenu {
  children?: MatrixRow[];
}

/** The menus as a tree, in menu order; a menu whose parent is missing is a root. */
export function menuTree(menus: readonly AuthorityMenu[]): MatrixRow[] {
  const ids = new Set(menus.map((m) => m.menuId));
  const kids = new Map<number, AuthorityMenu[]>();
  for (const m of menus) {
    const parent = ids.has(m.parentId) && m.parentId !== m.menuId ? m.parentId : 0;
    kids.set(parent, [...(kids.get(parent) ?? []), m]);
  }
  const seen = new Set<number>();
  const build = (parent: number): MatrixRow[] =>
    (kids.get(parent) ?? [])
      .filter((m) => !seen.has(m.menuId) && seen.add(m.menuId))
      .sort((a, b) => a.orderNum - b.orderNum || a.menuId - b.menuId)
      .map((m) => {
        const children = build(m.menuId);
        return children.length ? { ...m, children } : { ...m };
      });
  return build(0);
}

/**
 * The rows a filter keeps: within one top-level directory (module) when given, rows whose name or permission string
 * holds the keyword, with the rows above them (to show where they are) and below them (a matched page keeps its
 * buttons).
 */
export function filterRows(rows: readonly MatrixRow[], module: number | null, keyword: string): MatrixRow[] {
  const k = keyword.trim().toLowerCase();
  const scoped = module === null ? rows : rows.filter((r) => r.menuId === module);
  if (!k) return [...scoped];
  const keep = (r: MatrixRow): MatrixRow | null => {
    if (r.menuName.toLowerCase().includes(k) || (r.perms ?? '').toLowerCase().includes(k)) return r;
    const children = (r.children ?? []).map(keep).filter((c): c is MatrixRow => c !== null);
    return children.length ? { ...r, children } : null;
  };
  return scoped.map(keep).filter((r): r is MatrixRow => r !== null);
}

/** Every row id of a (filtered) tree, and the ids of rows with children (to open them all). */
export function rowIds(rows: readonly MatrixRow[], all: number[] = [], parents: number[] = []) {
  for (const r of rows) {
    all.push(r.menuId);
    if (r.children?.length) {
      parents.push(r.menuId);
      rowIds(r.children, all, parents);
    }
  }
  return { all, parents };
}

/** Whether two id sets hold the same ids. */
export const sameSet = (a: ReadonlySet<number>, b: ReadonlySet<number>) => a.size === b.size && [...a].every((id) => b.has(id));
