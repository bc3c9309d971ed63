import { describe, expect, it } from 'vitest';
import { checkAccess, hasPermi, hasPermiAnd, hasPermiOr, hasRole, hasRoleAnd, hasRoleOr } from '@/utils/permission';

const PERMS = ['system:user:list', 'system:user:edit'];
const ROLES = ['leader', 'expert'];

describe('permission checks', () => {
  it('hasPermi: exact match or wildcard', () => {
    expect(hasPermi(PERMS, 'system:user:edit')).toBe(true);
    expect(hasPermi(PERMS, 'system:user:remove')).toBe(false);
    expect(hasPermi(PERMS, 'system:user')).toBe(false);
    expect(hasPermi(['*:*:*'], 'anything:at:all')).toBe(true);
    expect(hasPermi([], 'system:user:list')).toBe(false);
    expect(hasPermi(['*:*:*'], '')).toBe(false);
  });

  it('hasPermiOr: any listed permission', () => {
    expect(hasPermiOr(PERMS, ['x:y:z', 'system:user:list'])).toBe(true);
    expect(hasPermiOr(PERMS, ['x:y:z', 'a:b:c'])).toBe(false);
    expect(hasPermiOr(['*:*:*'], ['x:y:z'])).toBe(true);
  });

  it('hasPermiAnd: all listed permissions', () => {
    expect(hasPermiAnd(PERMS, ['system:user:list', 'system:user:edit'])).toBe(true);
    expect(hasPermiAnd(PERMS, ['system:user:list', 'system:user:remove'])).toBe(false);
    expect(hasPermiAnd(['*:*:*'], ['a', 'b'])).toBe(true);
  });

  it('list variants throw 请设置操作权限标签值 for an empty permission list', () => {
    expect(() => hasPermiOr(PERMS, [])).toThrow(new Error('请设置操作权限标签值'));
    expect(() => hasPermiAnd(['*:*:*'], [])).toThrow(new Error('请设置操作权限标签值'));
  });
});

describe('role checks', () => {
  it('hasRole: exact match or admin', () => {
    expect(hasRole(ROLES, 'leader')).toBe(true);
    expect(hasRole(ROLES, 'operator')).toBe(false);
    expect(hasRole(['admin'], 'operator')).toBe(true);
    expect(hasRole(['administrator'], 'operator')).toBe(false);
    expect(hasRole(ROLES, '')).toBe(false);
  });

  it('hasRoleOr / hasRoleAnd', () => {
    expect(hasRoleOr(ROLES, ['operator', 'expert'])).toBe(true);
    expect(hasRoleOr(ROLES, ['operator'])).toBe(false);
    expect(hasRoleAnd(ROLES, ['leader', 'expert'])).toBe(true);
    expect(hasRoleAnd(ROLES, ['leader', 'operator'])).toBe(false);
    expect(hasRoleAnd(['admin'], ['leader', 'operator'])).toBe(true);
  });

  it('list variants throw 请设置角色权限标签值 for an empty role list', () => {
    expect(() => hasRoleOr(ROLES, [])).toThrow(new Error('请设置角色权限标签值'));
    expect(() => hasRoleAnd(['admin'], [])).toThrow(new Error('请设置角色权限标签值'));
  });
});

describe('checkAccess (element-level <Access>)', () => {
  const user = { roles: ROLES, permissions: PERMS };

  it('keeps the element for a listed permission or a listed role', () => {
    expect(checkAccess(user, { permissions: ['system:user:edit'] })).toBe(true);
    expect(checkAccess(user, { roles: ['expert'] })).toBe(true);
    expect(checkAccess(user, { permissions: ['finance:x'], roles: ['leader'] })).toBe(true);
  });

  it('removes it when nothing matches', () => {
    expect(checkAccess(user, { permissions: ['finance:wallet:list'] })).toBe(false);
    expect(checkAccess(user, { roles: ['operator'] })).toBe(false);
    expect(checkAccess(user, { permissions: ['finance:x'], roles: ['operator'] })).toBe(false);
  });

  it('keeps it for the admin role or the wildcard permission, whatever is listed', () => {
    expect(checkAccess({ roles: ['admin'], permissions: [] }, { permissions: ['finance:x'] })).toBe(true);
    expect(checkAccess({ roles: [], permissions: ['*:*:*'] }, { roles: ['operator'] })).toBe(true);
  });

  it('throws the spec messages for empty or missing tag values', () => {
    expect(() => checkAccess(user, { permissions: [] })).toThrow('请设置操作权限标签值');
    expect(() => checkAccess(user, { roles: [] })).toThrow('请设置角色权限标签值');
    expect(() => checkAccess(user, {})).toThrow('请设置操作权限标签值');
    // Even an admin gets the error: an untagged element is a coding mistake, not a grant.
    expect(() => checkAccess({ roles: ['admin'], permissions: ['*:*:*'] }, { roles: [] })).toThrow('请设置角色权限标签值');
  });
});
