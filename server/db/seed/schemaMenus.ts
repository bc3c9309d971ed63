import type { EngineAction, EntitySchema } from '../../../common/engine/types.js';
import { DEFAULT_SCHEMAS_DIR, loadSchemas } from '../../engine/metaSchema.js';
import { BESPOKE_MENUS, type MenuSeed, SCHEMA_PAGE_BUTTONS } from './menus.js';

/**
 * The seeded menu = the hand-kept bespoke entries (menus.ts) + one page per schema with `x-menu`, so a new schema
 * file is all it takes for a screen to reach the menu (issue 26): its page sits in the directory `x-menu.parent`
 * names (a path of directory paths from the top, 'system/log'), at `x-menu.order`, with a button per permission of
 * `x-permissions` besides `list` (which guards the page itself). The seed writes this tree on a fresh database and
 * the start-up sync (menuSync.ts) adds what an installed database lacks, so both see the same entries.
 */

/** Button names of the engine's actions, in the order the buttons are listed (as RuoYi lists them). */
const BUTTONS: Array<[EngineAction, string]> = [
  ['query', '查询'],
  ['add', '新增'],
  ['edit', '修改'],
  ['remove', '删除'],
  ['export', '导出'],
  ['import', '导入'],
  ['clean', '清空'],
];

/** The page of one schema: buttons for its permissions (one per distinct string), then any bespoke buttons. */
export function schemaPage(schema: EntitySchema): MenuSeed | undefined {
  const menu = schema['x-menu'];
  if (!menu) return undefined;
  const permissions = schema['x-permissions'];
  // x-menu.perms: the page's own permission when it differs from the list route's (工单管理 over the shared list, whose
  // permission another page grants): no button for the list permission, which would make the page grantable with it.
  const pagePerms = menu.perms ?? permissions.list;
  const listed = new Set<string>([pagePerms, permissions.list].filter((p): p is string => Boolean(p)));
  const children: MenuSeed[] = [];
  for (const [action, name] of BUTTONS) {
    const perms = permissions[action];
    if (!perms || listed.has(perms)) continue; // 'clean' usually shares remove's string: one button grants both
    listed.add(perms);
    children.push({ name, type: 'F', perms });
  }
  for (const extra of SCHEMA_PAGE_BUTTONS[menu.component] ?? []) if (!listed.has(extra.perms ?? '')) children.push(extra);
  return {
    name: menu.title ?? schema.title,
    path: menu.path,
    type: 'C',
    component: menu.component,
    icon: menu.icon,
    perms: pagePerms,
    order: menu.order,
    children,
  };
}

const orderOf = (m: MenuSeed, index: number) => m.order ?? index + 1;

/**
 * The whole seeded tree for these schemas. Each directory lists its entries by order (a hand-kept entry without one
 * keeps its place), hand-kept first on a tie; a hand-kept directory no schema fills (运营管理 without its schemas)
 * is left out, and a directory a schema names that does not exist yet is made.
 */
export function menuTree(schemas: EntitySchema[]): MenuSeed[] {
  const tree = structuredClone(BESPOKE_MENUS);
  const pages = schemas.flatMap((s) => {
    const page = schemaPage(s);
    return page ? [{ schema: s, page }] : [];
  });
  for (const { schema, page } of pages) {
    const parent = schema['x-menu']?.parent ?? '';
    let level: MenuSeed[] = tree;
    let dir: MenuSeed | undefined;
    for (const step of parent.split('/')) {
      dir = level.find((m) => m.type === 'M' && m.path === step);
      if (!dir) {
        // A directory no seed has (代码生成 lets one be named freely): made under its path, after its siblings;
        // an administrator names it in 菜单管理 (the sync never renames).
        dir = { name: step, path: step, type: 'M', children: [] };
        level.push(dir);
      }
      dir.children ??= [];
      level = dir.children;
    }
    level.push(page);
  }
  const arrange = (items: MenuSeed[]): MenuSeed[] =>
    items
      .map((m, i) => ({ m, i, order: orderOf(m, i) }))
      .sort((a, b) => a.order - b.order || a.i - b.i)
      .map(({ m, order }) => ({ ...m, order, ...(m.children ? { children: arrange(m.children) } : {}) }))
      .filter((m) => m.type !== 'M' || (m.children?.length ?? 0) > 0);
  return arrange(tree);
}

/** The seeded tree for the schema files of a folder (SCHEMAS_DIR, else schemas/). */
export function seededMenus(schemasDir: string = DEFAULT_SCHEMAS_DIR): MenuSeed[] {
  return menuTree(loadSchemas(schemasDir).map((l) => l.schema));
}
