import { CheckCircleOutlined, KeyOutlined } from '@ant-design/icons';
import { createElement } from 'react';
import type { ResourceOverride } from '@/engine/resource';
import { StatusSwitch } from './StatusSwitch';
import { StoreName } from './StoreName';
import { requestUserAction } from './userActions';

/**
 * 用户管理 overrides of the generic sys_user screens (src/resources/): the list with the department tree, the
 * status switch through changeStatus, 重置密码 / 分配角色 per row (not for the super admin), and the user form with
 * 岗位 / 角色 (password only when adding).
 */
export const userOverride: ResourceOverride = {
  pages: {
    list: () => import('./UserListPage'),
    create: () => import('./UserFormDialog'),
    edit: () => import('./UserFormDialog'),
  },
  cells: {
    status: (_value, record) => createElement(StatusSwitch, { record }),
    storeId: (value) => createElement(StoreName, { storeId: value == null ? null : Number(value) }),
  },
  rowActions: [
    {
      key: 'resetPwd',
      label: '重置密码',
      permission: 'system:user:resetPwd',
      icon: createElement(KeyOutlined),
      visible: (record) => Number(record.userId) !== 1,
      onClick: (record) => requestUserAction({ kind: 'resetPwd', record }),
    },
    {
      key: 'authRole',
      label: '分配角色',
      permission: 'system:user:edit',
      icon: createElement(CheckCircleOutlined),
      visible: (record) => Number(record.userId) !== 1,
      onClick: (record) => requestUserAction({ kind: 'authRole', userId: Number(record.userId) }),
    },
  ],
};

/** The overrides of this module by schema $id, found by src/resources/ (every overrides.tsx under src/modules/). */
export const overrides: Record<string, ResourceOverride> = { sys_user: userOverride };
