import type { MenuSaveBody, MenuType } from '@common/menu/menuSave';
import { request } from '../request';

/**
 * 菜单配置 calls (spec §7): the whole menu as a tree and save (create without menuId, update with it); its list and
 * delete (menuDel, a `call` action) go through the schema engine (schemas/system/sys_menu_config.json), as does
 * 菜单管理 (schemas/system/sys_menu.json).
 */

/** A menu as stored (sys_menu), with its children in the tree answer. */
export interface MenuNode {
  menuId: number;
  parentId: number;
  menuName: string;
  orderNum: number;
  path: string;
  component: string | null;
  query: string | null;
  isFrame: number;
  isCache: number;
  menuType: MenuType;
  visible: string;
  status: string;
  perms: string | null;
  icon: string | null;
  activeMenu: string | null;
  createTime: number;
  children?: MenuNode[];
}

/** POST /dev-api/api/auth/menuConfig (system:menu:config): every menu, buttons included, as a tree. */
export async function menuConfig(): Promise<MenuNode[]> {
  const env = await request<MenuNode[]>({ url: '/dev-api/api/auth/menuConfig', method: 'post', data: {} });
  return env.data ?? [];
}

/** POST /dev-api/api/auth/menuSave (system:menu:edit; creating also system:menu:add): answers 新增成功 / 修改成功. */
export async function menuSave(body: MenuSaveBody): Promise<{ menuId: number; msg: string }> {
  const env = await request<{ menuId: number }>({ url: '/dev-api/api/auth/menuSave', method: 'post', data: body });
  return { menuId: env.data?.menuId ?? body.menuId ?? 0, msg: env.msg };
}
