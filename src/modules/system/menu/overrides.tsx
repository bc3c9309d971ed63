import { PlusOutlined } from '@ant-design/icons';
import { createElement } from 'react';
import { IconView } from '@/components/IconSelect';
import type { ResourceOverride } from '@/engine/resource';
import { requestMenuAction } from './menuActions';

/**
 * 菜单管理 overrides of the generic sys_menu screens (src/resources/): the icon drawn in the list, the form that
 * shows the fields of the chosen 菜单类型 (RuoYi), and per row 新增 (a child of that row; not under a button).
 */
export const menuOverride: ResourceOverride = {
  pages: {
    list: () => import('./MenuListPage'),
    create: () => import('./MenuFormDialog'),
    edit: () => import('./MenuFormDialog'),
  },
  cells: { icon: (value) => createElement(IconView, { name: value }) },
  rowActions: [
    {
      key: 'addChild',
      label: '新增',
      permission: 'system:menu:add',
      icon: createElement(PlusOutlined),
      visible: (record) => record.menuType !== 'F',
      onClick: (record, ctx) => requestMenuAction({ kind: 'addChild', parent: record, refresh: ctx.refresh }),
    },
  ],
};

/** The overrides of this module by schema $id, found by src/resources/ (every overrides.tsx under src/modules/). */
export const overrides: Record<string, ResourceOverride> = { sys_menu: menuOverride };
