import type { MenuSaveBody, MenuType } from '@common/menu/menuSave';
import { request } from '../request';

/**
 * 菜单配置 calls (server/routes/menu.ts, spec §7): the whole menu as a tree, save (create without menuId, update with
 * it) and delete. 菜单管理 itself goes through the schema engine's data provider (schemas/sys_menu.json).
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

/** POST /dev-api/api/auth/menuDel (system:menu:remove): refused (601) while it has children or a role holds it. */
export async function menuDel(menuId: number): Promise<string> {
  const env = await request({ url: '/dev-api/api/auth/menuDel', method: 'post', data: { menuId } });
  return env.msg;
}
