import type { AccessControlProvider } from '@refinedev/core';
import { sessionStore } from '@/session/sessionStore';
import { hasPermi } from '@/utils/permission';

/** Refine action → RuoYi permission suffix (e.g. resource system:config + delete → system:config:remove). */
const ACTION_SUFFIX: Record<string, string> = {
  list: 'list',
  show: 'query',
  create: 'add',
  edit: 'edit',
  delete: 'remove',
  export: 'export',
  import: 'import',
};

/**
 * Refine's access control answered from the local permission list. A resource declares its permission prefix in
 * meta.permission (e.g. 'system:config'); resources without one are not restricted on the client (the server still
 * enforces every call).
 */
export const accessControlProvider: AccessControlProvider = {
  async can({ action, resource, params }) {
    const prefix = (params?.resource?.meta?.permission as string | undefined) ?? undefined;
    if (!prefix || !resource) return { can: true };
    const { permissions, roles } = sessionStore.get();
    const needed = `${prefix}:${ACTION_SUFFIX[action] ?? action}`;
    const can = roles.includes('admin') || hasPermi(permissions, needed);
    return can ? { can } : { can, reason: `没有权限（需要 ${needed}）` };
  },
  options: { buttons: { enableAccessControl: true, hideIfUnauthorized: true } },
};
