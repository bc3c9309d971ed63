import { CheckCircleOutlined, UserOutlined } from '@ant-design/icons';
import { createElement } from 'react';
import type { ResourceOverride } from '@/engine/resource';
import { RoleStatusSwitch } from './RoleStatusSwitch';
import { requestRoleAction } from './roleActions';

/**
 * 角色管理 overrides of the generic sys_role screens (src/resources/): the role dialog with the menu tree, the
 * status switch through changeStatus, and per row 数据权限 / 分配用户 (not for the super admin role).
 */
export const roleOverride: ResourceOverride = {
  pages: {
    list: () => import('./RoleListPage'),
    create: () => import('./RoleFormDialog'),
    edit: () => import('./RoleFormDialog'),
  },
  cells: { status: (_value, record) => createElement(RoleStatusSwitch, { record }) },
  rowActions: [
    {
      key: 'dataScope',
      label: '数据权限',
      permission: 'system:role:edit',
      icon: createElement(CheckCircleOutlined),
      visible: (record) => record.roleKey !== 'admin',
      onClick: (record, ctx) => requestRoleAction({ kind: 'dataScope', record, refresh: ctx.refresh }),
    },
    {
      key: 'authUser',
      label: '分配用户',
      permission: 'system:role:edit',
      icon: createElement(UserOutlined),
      visible: (record) => record.roleKey !== 'admin',
      onClick: (record) => requestRoleAction({ kind: 'authUser', roleId: Number(record.roleId) }),
    },
  ],
};

/** The overrides of this module by schema $id, found by src/resources/ (every overrides.tsx under src/modules/). */
export const overrides: Record<string, ResourceOverride> = { sys_role: roleOverride };
