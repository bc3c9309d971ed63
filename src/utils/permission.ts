/**
 * The one permission check of the console (spec §6, RuoYi auth plugin + v-hasPermi / v-hasRole directives).
 * Everything that hides a button, a menu or a route asks here, so the wildcard and super-role rules live in one place.
 */

/** Holding this permission passes every permission check. */
export const ALL_PERMISSION = '*:*:*';
/** Holding this role passes every role check. */
export const SUPER_ADMIN = 'admin';

/** Spec §5: permission and role tags must be non-empty arrays. */
export const EMPTY_PERMISSIONS_ERROR = '请设置操作权限标签值';
export const EMPTY_ROLES_ERROR = '请设置角色权限标签值';

function requirePermissions(values: readonly string[]): void {
  if (!Array.isArray(values) || values.length === 0) throw new Error(EMPTY_PERMISSIONS_ERROR);
}

function requireRoles(values: readonly string[]): void {
  if (!Array.isArray(values) || values.length === 0) throw new Error(EMPTY_ROLES_ERROR);
}

/** The user holds the wildcard or exactly this permission. An empty value never passes. */
export function hasPermi(perms: readonly string[], value: string): boolean {
  if (!value) return false;
  return perms.some((p) => p === ALL_PERMISSION || p === value);
}

/** Any of the listed permissions. Throws for an empty list (a missing tag is a coding error, not "deny"). */
export function hasPermiOr(perms: readonly string[], values: readonly string[]): boolean {
  requirePermissions(values);
  return values.some((v) => hasPermi(perms, v));
}

/** All of the listed permissions. Throws for an empty list. */
export function hasPermiAnd(perms: readonly string[], values: readonly string[]): boolean {
  requirePermissions(values);
  return values.every((v) => hasPermi(perms, v));
}

/** The user is admin or holds exactly this role. An empty value never passes. */
export function hasRole(roles: readonly string[], value: string): boolean {
  if (!value) return false;
  return roles.some((r) => r === SUPER_ADMIN || r === value);
}

/** Any of the listed roles. Throws for an empty list. */
export function hasRoleOr(roles: readonly string[], values: readonly string[]): boolean {
  requireRoles(values);
  return values.some((v) => hasRole(roles, v));
}

/** All of the listed roles. Throws for an empty list. */
export function hasRoleAnd(roles: readonly string[], values: readonly string[]): boolean {
  requireRoles(values);
  return values.every((v) => hasRole(roles, v));
}

export interface AccessUser {
  roles: readonly string[];
  permissions: readonly string[];
}

export interface AccessRule {
  permissions?: readonly string[];
  roles?: readonly string[];
}

/**
 * Element-level check behind <Access>: the element stays for the admin role, a listed role,
 * the wildcard permission or a listed permission (spec §6 "Element directives").
 * A rule that lists nothing, or lists an empty array, is a coding error and throws the spec's message.
 */
export function checkAccess(user: AccessUser, rule: AccessRule): boolean {
  if (rule.permissions !== undefined) requirePermissions(rule.permissions);
  if (rule.roles !== undefined) requireRoles(rule.roles);
  if (rule.permissions === undefined && rule.roles === undefined) throw new Error(EMPTY_PERMISSIONS_ERROR);

  if (user.roles.includes(SUPER_ADMIN) || user.permissions.includes(ALL_PERMISSION)) return true;
  if (rule.roles?.some((r) => user.roles.includes(r))) return true;
  return rule.permissions?.some((p) => user.permissions.includes(p)) ?? false;
}
