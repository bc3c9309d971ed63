/** 菜单配置 save (POST /dev-api/api/auth/menuSave): server/system/menuRoutes.ts checks and stores it, the console's dialog sends it. */

/** M directory, C page, F button. */
export type MenuType = 'M' | 'C' | 'F';

/** Create without menuId, update with it; what is left out takes RuoYi's defaults (parent 0, order 0, isFrame 1, …). */
export interface MenuSaveBody {
  menuId?: number;
  parentId?: number;
  menuName: string;
  menuType: MenuType;
  orderNum?: number;
  path?: string;
  component?: string | null;
  query?: string | null;
  isFrame?: number;
  isCache?: number;
  visible?: string;
  status?: string;
  perms?: string | null;
  icon?: string | null;
  activeMenu?: string | null;
}
