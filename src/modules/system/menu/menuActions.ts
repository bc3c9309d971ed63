import type { BaseRecord } from '@refinedev/core';
import { createActionChannel } from '@/utils/actionChannel';

/**
 * The row button 新增 of 菜单管理 is a plain callback (overrides.tsx rowActions); the list page (MenuListPage)
 * opens the dialog for a child of that row. An action channel (src/utils/actionChannel.ts) carries the request from one to the other.
 */
export type MenuAction = { kind: 'addChild'; parent: BaseRecord; refresh: () => void };

const channel = createActionChannel<MenuAction>();

export const requestMenuAction = channel.request;
export const useMenuAction = channel.use;
