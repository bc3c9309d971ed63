import type { Kysely } from 'kysely';
import type { Migration } from './helpers.js';

/**
 * Two menus were both called 用户管理: 系统管理 › 用户管理 (console accounts) and the top-level customers directory
 * (path manage). Menus are seeded once, so installs seeded before the rename get it here; a name an administrator
 * already changed is left alone.
 */
export const migration014: Migration = {
  name: '014_customer_menu_name',
  async up(db: Kysely<unknown>) {
    const menus = db as unknown as Kysely<{ sys_menu: { menu_name: string; path: string; parent_id: number; menu_type: string } }>;
    await menus
      .updateTable('sys_menu')
      .set({ menu_name: '客户管理' })
      .where('path', '=', 'manage')
      .where('parent_id', '=', 0)
      .where('menu_type', '=', 'M')
      .where('menu_name', '=', '用户管理')
      .execute();
  },
};
