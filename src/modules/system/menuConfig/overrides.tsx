import { EditOutlined, FolderAddOutlined, PlusOutlined } from '@ant-design/icons';
import { Tag } from 'antd';
import { createElement } from 'react';
import { useAccess } from '@/components/Access';
import { IconView } from '@/components/IconSelect';
import type { ResourceOverride } from '@/engine/resource';
import { requestMenuConfigAction } from './menuConfigActions';

/** Adding saves through menuSave, which needs system:menu:edit besides system:menu:add: offered to holders of both. */
function useMayAdd(): boolean {
  return useAccess().allowed({ permissions: ['system:menu:edit'] });
}

/** 类型 of a menu as a coloured tag. */
const TYPE_TAG: Record<string, { label: string; color?: string }> = {
  M: { label: '目录', color: 'blue' },
  C: { label: '菜单', color: 'green' },
  F: { label: '按钮' },
};

/**
 * 菜单配置 overrides of the generic sys_menu_config screens (schemas/system/sys_menu_config.json): the icon drawn,
 * 类型 as a tag, the toolbar's 添加目录 / 添加菜单 and the row's 修改, whose dialogs show the fields of the menu's type
 * (MenuConfigListPage). They save through menuSave (system:menu:edit; adding also system:menu:add). The schema
 * declares no `edit`: its menu page keeps no button of its own (菜单管理's buttons grant these permissions).
 */
export const menuConfigOverride: ResourceOverride = {
  pages: { list: () => import('./MenuConfigListPage') },
  cells: {
    icon: (value) => createElement(IconView, { name: value }),
    menuType: (value) => {
      const t = TYPE_TAG[String(value)];
      return t ? createElement(Tag, { color: t.color }, t.label) : String(value ?? '');
    },
  },
  rowActions: [
    {
      key: 'edit',
      label: '修改',
      permission: 'system:menu:edit',
      icon: createElement(EditOutlined),
      onClick: (record, ctx) => requestMenuConfigAction({ kind: 'edit', menuId: Number(record.menuId), refresh: ctx.refresh }),
    },
  ],
  toolbar: [
    {
      key: 'addDir',
      label: '添加目录',
      permission: 'system:menu:add',
      visible: useMayAdd,
      icon: createElement(FolderAddOutlined),
      onClick: (ctx) => requestMenuConfigAction({ kind: 'add', type: 'M', refresh: ctx.refresh }),
    },
    {
      key: 'addPage',
      label: '添加菜单',
      permission: 'system:menu:add',
      visible: useMayAdd,
      icon: createElement(PlusOutlined),
      onClick: (ctx) => requestMenuConfigAction({ kind: 'add', type: 'C', refresh: ctx.refresh }),
    },
  ],
};

/** The overrides of this screen by schema $id, found by src/resources/ (every overrides.tsx under src/modules/). */
export const overrides: Record<string, ResourceOverride> = { sys_menu_config: menuConfigOverride };
