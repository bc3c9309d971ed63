import type { BaseRecord } from '@refinedev/core';
import { changeUserStatus } from '@/api/system/user';
import { useAccess } from '@/components/Access';
import { ConfirmStatusSwitch } from '@/components/StatusSwitch';

/**
 * 状态 column of 用户管理 (RuoYi handleStatusChange): 确认要"停用""xx"用户吗？ → changeStatus → 停用成功, then the list
 * again. Without system:user:edit, and for the super admin, the switch only shows the state.
 */
export function StatusSwitch({ record }: { record: BaseRecord }) {
  const { can } = useAccess();
  const userId = Number(record.userId);
  return (
    <ConfirmStatusSwitch
      resource="sys_user"
      id={userId}
      name={String(record.userName)}
      noun="用户"
      status={record.status}
      locked={!can('system:user:edit') || userId === 1}
      change={changeUserStatus}
    />
  );
}
