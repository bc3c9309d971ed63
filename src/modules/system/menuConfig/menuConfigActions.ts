import type { MenuType } from '@common/menu/menuSave';
import { type MenuNode, menuConfig } from '@/api/system/menu';
import { createActionChannel } from '@/utils/actionChannel';

/**
 * The toolbar buttons 添加目录 / 添加菜单 and the row button 修改 of 菜单配置 are plain callbacks (overrides.tsx); the
 * list page (MenuConfigListPage) opens the dialog for them. An action channel (src/utils/actionChannel.ts) carries the
 * request from one to the other.
 */
export type MenuConfigAction = { kind: 'add'; type: MenuType; refresh: () => void } | { kind: 'edit'; menuId: number; refresh: () => void };

const channel = createActionChannel<MenuConfigAction>();

export const requestMenuConfigAction = channel.request;
export const useMenuConfigAction = channel.use;

/** The tree without empty children lists. */
function prune(list: MenuNode[]): MenuNode[] {
  return list.map(({ children, ...m }) => (children && children.length > 0 ? { ...m, children: prune(children) } : m));
}

/** The whole menu tree (menuConfig): the parents the dialogs offer, and the stored menu a change starts from. */
export async function loadMenuTree(): Promise<MenuNode[]> {
  return prune(await menuConfig());
}

/** One menu of the tree by its id. */
export function findMenu(list: MenuNode[], menuId: number): MenuNode | undefined {
  for (const m of list) {
    if (m.menuId === menuId) return m;
    const below = m.children ? findMenu(m.children, menuId) : undefined;
    if (below) return below;
  }
  return undefined;
}
