import type { BaseRecord } from '@refinedev/core';
import { changeRoleStatus } from '@/api/system/role';
import { useAccess } from '@/components/Access';
import { ConfirmStatusSwitch } from '@/components/StatusSwitch';

/**
 * 状态 column of 角色管理 (RuoYi handleStatusChange): 确认要"停用""xx"角色吗？ → changeStatus → 停用成功, then the list
 * again. Without system:role:edit, and for the super admin role, the switch only shows the state.
 */
export function RoleStatusSwitch({ record }: { record: BaseRecord }) {
  const { can } = useAccess();
  return (
    <ConfirmStatusSwitch
      resource="sys_role"
      id={Number(record.roleId)}
      name={String(record.roleName)}
      noun="角色"
      status={record.status}
      locked={!can('system:role:edit') || record.roleKey === 'admin'}
      change={changeRoleStatus}
    />
  );
}
