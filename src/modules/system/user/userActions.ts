import type { BaseRecord } from '@refinedev/core';
import { createActionChannel } from '@/utils/actionChannel';

/**
 * Row buttons of 用户管理 are plain callbacks (overrides.tsx rowActions); the dialogs they open live in the list
 * page (UserListPage). An action channel (src/utils/actionChannel.ts) carries the request from one to the other.
 */
export type UserAction = { kind: 'resetPwd'; record: BaseRecord } | { kind: 'authRole'; userId: number };

const channel = createActionChannel<UserAction>();

export const requestUserAction = channel.request;
export const useUserAction = channel.use;
