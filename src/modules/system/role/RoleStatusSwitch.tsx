import { type BaseRecord, useInvalidate } from '@refinedev/core';
import { App, Switch } from 'antd';
import { useState } from 'react';
import { changeRoleStatus } from '@/api/system/role';
import { useAccess } from '@/components/Access';

/**
 * 状态 column of 角色管理 (RuoYi handleStatusChange): 确认要"停用""xx"角色吗？ → changeStatus → 停用成功, then the list
 * again. Without system:role:edit, and for the super admin role, the switch only shows the state.
 */
export function RoleStatusSwitch({ record }: { record: BaseRecord }) {
  const { modal, message } = App.useApp();
  const { can } = useAccess();
  const invalidate = useInvalidate();
  const [busy, setBusy] = useState(false);
  const roleId = Number(record.roleId);

  const toggle = (checked: boolean) => {
    const text = checked ? '启用' : '停用';
    modal.confirm({
      title: '系统提示',
      content: `确认要"${text}""${String(record.roleName)}"角色吗？`,
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        setBusy(true);
        try {
          await changeRoleStatus(roleId, checked ? '0' : '1');
          message.success(`${text}成功`);
        } catch {
          // The http layer has shown the refusal; the switch keeps the stored state.
        } finally {
          setBusy(false);
          await invalidate({ resource: 'sys_role', invalidates: ['list', 'detail'] });
        }
      },
    });
  };

  return (
    <Switch
      size="small"
      checked={record.status === '0'}
      loading={busy}
      aria-label={`状态${roleId}`}
      disabled={!can('system:role:edit') || record.roleKey === 'admin'}
      onChange={toggle}
    />
  );
}
