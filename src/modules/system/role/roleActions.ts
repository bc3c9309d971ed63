import type { BaseRecord } from '@refinedev/core';
import { createActionChannel } from '@/utils/actionChannel';

/**
 * Row buttons of 角色管理 are plain callbacks (overrides.tsx rowActions); what they open (the 数据权限 dialog, the
 * 分配用户 page) is handled by the list page (RoleListPage). An action channel (src/utils/actionChannel.ts) carries the request from one to the other.
 */
export type RoleAction = { kind: 'dataScope'; record: BaseRecord; refresh: () => void } | { kind: 'authUser'; roleId: number };

const channel = createActionChannel<RoleAction>();

export const requestRoleAction = channel.request;
export const useRoleAction = channel.use;
