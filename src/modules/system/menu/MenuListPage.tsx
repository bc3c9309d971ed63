import { EntityList } from '@/engine/pages/EntityList';
import type { EnginePageProps } from '@/engine/resource';
import MenuFormDialog from './MenuFormDialog';
import { requestMenuAction, useMenuAction } from './menuActions';

/** 菜单管理 (RuoYi system/menu/index): the generic tree list of sys_menu, plus the 新增 dialog a row button opens. */
export default function MenuListPage({ resource }: EnginePageProps) {
  const action = useMenuAction();
  const parent = action?.kind === 'addChild' ? action.parent : null;
  return (
    <>
      <EntityList resource={resource} />
      {parent && (
        <MenuFormDialog
          resource={resource}
          defaults={{ parentId: Number(parent.menuId), menuType: parent.menuType === 'M' ? 'C' : 'F' }}
          onClose={(saved) => {
            if (saved) action?.refresh();
            requestMenuAction(null);
          }}
        />
      )}
    </>
  );
}
