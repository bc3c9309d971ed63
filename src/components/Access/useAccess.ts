import { useCallback } from 'react';
import { useSession } from '@/session/sessionStore';
import { type AccessRule, checkAccess, hasPermi, hasRole } from '@/utils/permission';

/**
 * Permission checks from the local session (no server call per row or button):
 * `can('system:config:remove')`, `hasRole('leader')`, `allowed({permissions: [...], roles: [...]})`.
 */
export function useAccess() {
  const { permissions, roles } = useSession();
  const can = useCallback((permission: string) => hasPermi(permissions, permission) || roles.includes('admin'), [permissions, roles]);
  const isRole = useCallback((role: string) => hasRole(roles, role), [roles]);
  const allowed = useCallback((rule: AccessRule) => checkAccess({ permissions, roles }, rule), [permissions, roles]);
  return { can, hasRole: isRole, allowed, permissions, roles };
}
