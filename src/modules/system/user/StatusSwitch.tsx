import { type BaseRecord, useInvalidate } from '@refinedev/core';
import { App, Switch } from 'antd';
import { useState } from 'react';
import { changeUserStatus } from '@/api/system/user';
import { useAccess } from '@/components/Access';

/**
 * 状态 column of 用户管理 (RuoYi handleStatusChange): 确认要"停用""xx"用户吗？ → changeStatus → 停用成功, then the list
 * again. Without system:user:edit, and for the super admin, the switch only shows the state.
 */
export function StatusSwitch({ record }: { record: BaseRecord }) {
  const { modal, message } = App.useApp();
  const { can } = useAccess();
  const invalidate = useInvalidate();
  const [busy, setBusy] = useState(false);
  const enabled = record.status === '0';
  const userId = Number(record.userId);

  const toggle = (checked: boolean) => {
    const text = checked ? '启用' : '停用';
    modal.confirm({
      title: '系统提示',
      content: `确认要"${text}""${String(record.userName)}"用户吗？`,
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        setBusy(true);
        try {
          await changeUserStatus(userId, checked ? '0' : '1');
          message.success(`${text}成功`);
        } catch {
          // The http layer has shown the refusal; the switch keeps the stored state.
        } finally {
          setBusy(false);
          await invalidate({ resource: 'sys_user', invalidates: ['list', 'detail'] });
        }
      },
    });
  };

  return (
    <Switch size="small" checked={enabled} loading={busy} aria-label={`状态${userId}`} disabled={!can('system:user:edit') || userId === 1} onChange={toggle} />
  );
}
