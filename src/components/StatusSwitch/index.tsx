import { useInvalidate } from '@refinedev/core';
import { App, Switch } from 'antd';
import { useState } from 'react';

/**
 * A 状态 column switch as RuoYi's handleStatusChange does it: 确认要"停用""<name>"<noun>吗？ → `change` → 停用成功 /
 * 启用成功, then the resource's list again (also after a refusal, which the http layer has shown, so the switch
 * shows the stored state). Status '0' is 正常 (on), '1' 停用. `locked` shows the state only.
 */
export function ConfirmStatusSwitch({
  resource,
  id,
  name,
  noun,
  status,
  locked,
  change,
}: {
  resource: string;
  id: number;
  name: string;
  noun: string;
  status: unknown;
  locked: boolean;
  change: (id: number, status: '0' | '1') => Promise<unknown>;
}) {
  const { modal, message } = App.useApp();
  const invalidate = useInvalidate();
  const [busy, setBusy] = useState(false);

  const toggle = (checked: boolean) => {
    const text = checked ? '启用' : '停用';
    modal.confirm({
      title: '系统提示',
      content: `确认要"${text}""${name}"${noun}吗？`,
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        setBusy(true);
        try {
          await change(id, checked ? '0' : '1');
          message.success(`${text}成功`);
        } catch {
          // The http layer has shown the refusal; the switch keeps the stored state.
        } finally {
          setBusy(false);
          await invalidate({ resource, invalidates: ['list', 'detail'] });
        }
      },
    });
  };

  return <Switch size="small" checked={status === '0'} loading={busy} aria-label={`状态${id}`} disabled={locked} onChange={toggle} />;
}
