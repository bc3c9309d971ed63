import { useInvalidate } from '@refinedev/core';
import { App, Typography } from 'antd';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { EntityList } from '@/engine/pages/EntityList';
import type { EnginePageProps } from '@/engine/resource';
import { fillingHref, useViewPath, VIEW } from '@/modules/volunteer/shared/useViewPath';
import { CustomerFormDialog } from './CustomerFormDialog';
import { HistoryDrawer } from './HistoryDrawer';
import { OpenCardDialog } from './OpenCardDialog';
import { closeCustomerDialog, useCustomerRequest } from './requests';

/**
 * 用户列表 and 回收站 (spec §2.3 manage): the engine's list of the schema (search, columns, 重置信息 / 删除 / 恢复 /
 * 彻底删除 declared as module calls) with the dialogs of the bespoke row buttons (override.tsx): 开卡, 修改, 记录, and
 * 志愿方案 opening the filling page for the customer.
 */
export default function CustomerListPage({ resource }: EnginePageProps) {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const invalidate = useInvalidate();
  const fillingPath = useViewPath(VIEW.filling);
  const request = useCustomerRequest(resource.name);
  const close = (saved: boolean) => {
    closeCustomerDialog();
    if (saved) invalidate({ resource: resource.name, invalidates: ['list'] });
  };

  useEffect(() => {
    if (request?.dialog !== 'fill') return;
    closeCustomerDialog();
    if (!fillingPath) message.warning('你没有「专家填报」菜单的权限，请联系管理员授权');
    else navigate(fillingHref(fillingPath, request.customer.studentId));
  }, [request, resource.name, fillingPath, navigate, message]);

  return (
    <>
      {resource.name === 'cus_recycle' && (
        <Typography.Text type="secondary" style={{ display: 'block', padding: '16px 16px 0' }}>
          回收站中的用户 30 天后自动彻底删除
        </Typography.Text>
      )}
      <EntityList resource={resource} />
      <OpenCardDialog customer={request?.dialog === 'openCard' ? request.customer : null} onClose={close} />
      <CustomerFormDialog customer={request?.dialog === 'edit' ? request.customer : null} onClose={close} />
      <HistoryDrawer customer={request?.dialog === 'history' ? request.customer : null} onClose={() => close(false)} />
    </>
  );
}
