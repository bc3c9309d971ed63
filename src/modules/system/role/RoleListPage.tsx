import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { EntityList } from '@/engine/pages/EntityList';
import type { EnginePageProps } from '@/engine/resource';
import { DataScopeDialog } from './DataScopeDialog';
import { requestRoleAction, useRoleAction } from './roleActions';

/**
 * 角色管理 (RuoYi system/role/index): the generic list of sys_role, plus what its row buttons open — 数据权限 (dialog)
 * and 分配用户 (the hidden page /system/role-auth/user/{roleId}).
 */
export default function RoleListPage({ resource }: EnginePageProps) {
  const navigate = useNavigate();
  const action = useRoleAction();

  useEffect(() => {
    if (action?.kind !== 'authUser') return;
    requestRoleAction(null);
    navigate(`/system/role-auth/user/${action.roleId}`);
  }, [action, navigate]);

  return (
    <>
      <EntityList resource={resource} />
      <DataScopeDialog
        record={action?.kind === 'dataScope' ? action.record : null}
        onClose={(saved) => {
          if (saved && action?.kind === 'dataScope') action.refresh();
          requestRoleAction(null);
        }}
      />
    </>
  );
}
