import type { ReactNode } from 'react';
import type { AccessRule } from '@/utils/permission';
import { useAccess } from './useAccess';

/**
 * Renders its children only when the user passes the rule (spec §6 element directives v-hasPermi / v-hasRole):
 * the admin role, a listed role, the wildcard permission or a listed permission. An empty list throws
 * 请设置操作权限标签值 / 请设置角色权限标签值 — a missing tag is a coding error, not a silent deny.
 */
export function Access({ permissions, roles, fallback = null, children }: AccessRule & { fallback?: ReactNode; children: ReactNode }) {
  const { allowed } = useAccess();
  return <>{allowed({ permissions, roles }) ? children : fallback}</>;
}

export { useAccess };
