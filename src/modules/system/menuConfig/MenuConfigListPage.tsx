import { App } from 'antd';
import { useEffect, useState } from 'react';
import type { MenuNode } from '@/api/system/menu';
import { EntityList } from '@/engine/pages/EntityList';
import type { EnginePageProps } from '@/engine/resource';
import { MenuConfigDialog, type MenuDialogState } from './MenuConfigDialog';
import { findMenu, loadMenuTree, requestMenuConfigAction, useMenuConfigAction } from './menuConfigActions';

/**
 * 菜单配置 (component system/menuConfig/index; schemas/system/sys_menu_config.json): the generic tree list of the
 * whole menu (menuConfig), plus the dialog its buttons open — 添加目录 / 添加菜单 in the toolbar, 修改 per row (the
 * fields of the menu's type, saved through menuSave). 删除 is the schema's `call` action (menuDel).
 */
export default function MenuConfigListPage({ resource }: EnginePageProps) {
  const { message } = App.useApp();
  const action = useMenuConfigAction();
  // The tree read afresh for each opening (parents to choose from; the stored menu a change starts from).
  const [open, setOpen] = useState<{ state: MenuDialogState; tree: MenuNode[] } | null>(null);

  useEffect(() => {
    setOpen(null);
    if (!action) return;
    let live = true;
    loadMenuTree()
      .then((tree) => {
        if (!live) return;
        if (action.kind === 'add') {
          setOpen({ state: { kind: action.type }, tree });
          return;
        }
        const record = findMenu(tree, action.menuId);
        if (record) setOpen({ state: { kind: record.menuType, record }, tree });
        else {
          message.error('菜单不存在或已被删除');
          action.refresh();
          requestMenuConfigAction(null);
        }
      })
      .catch(() => live && requestMenuConfigAction(null)); // the http layer has said why
    return () => {
      live = false;
    };
  }, [action, message]);

  return (
    <>
      <EntityList resource={resource} />
      {action && open && (
        <MenuConfigDialog
          state={open.state}
          tree={open.tree}
          onClose={(saved) => {
            if (saved) {
              message.success(action.kind === 'edit' ? '修改成功' : '新增成功');
              action.refresh();
            }
            requestMenuConfigAction(null);
          }}
        />
      )}
    </>
  );
}
