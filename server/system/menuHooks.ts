import type { EntityHooks } from '../engine/hooks.js';
import { ApiError, Code } from '../http/envelope.js';
import { assertMenuWritable, type MenuDb, menuDeleteProblem } from './menuRules.js';

/**
 * 菜单管理 (schemas/system/sys_menu.json) beyond its schema: RuoYi's menu rules (menuRules.ts) on every create / update /
 * import row, and deletes refused while a role holds the menu. The engine itself refuses a parent that is the menu
 * itself or below it and a menu with children, with the messages of the schema's x-tree.
 */
export const menuHooks: EntityHooks = {
  async beforeWrite({ ctx, values, existing }) {
    const stored = (name: string, column: string) => (name in values ? values[name] : existing?.[column]);
    await assertMenuWritable(
      ctx.k as MenuDb,
      {
        menuId: existing ? Number(existing.menu_id) : undefined,
        menuName: String(stored('menuName', 'menu_name') ?? ''),
        parentId: Number(stored('parentId', 'parent_id') ?? 0),
        menuType: String(stored('menuType', 'menu_type') ?? ''),
        path: stored('path', 'path') as string | null | undefined,
        isFrame: stored('isFrame', 'is_frame') as number | null | undefined,
      },
      existing ? '修改' : '新增',
    );
  },

  async beforeDelete(ctx, rows) {
    const problem = await menuDeleteProblem(
      ctx.k as MenuDb,
      rows.map((r) => Number(r.menu_id)),
    );
    if (problem) throw new ApiError(Code.ERROR, problem);
  },
};
