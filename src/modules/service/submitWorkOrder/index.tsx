import { useInvalidate } from '@refinedev/core';
import { Card, Typography } from 'antd';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { Access } from '@/components/Access';
import { EntityList } from '@/engine/pages/EntityList';
import type { EnginePageProps } from '@/engine/resource';
import { WorkOrderDrawer } from '../shared/WorkOrderParts';
import { statusOfLink } from '../workOrder';
import { showWorkOrder, useShownWorkOrder } from '../workOrder/openers';
import { WorkOrderForm } from './WorkOrderForm';

/**
 * 提交工单 (serviceCenter/submitWorkOrder/index, schemas/service/service_my_work_order.json): the eight forms, and
 * 我的工单 — the engine's list of the orders I submitted (x-filter mine=1) with their status and reply.
 */
export default function SubmitWorkOrderPage({ resource }: EnginePageProps) {
  const shown = useShownWorkOrder();
  const invalidate = useInvalidate();
  const [params] = useSearchParams();
  const link = params.toString();
  const initialSearch = useMemo(() => statusOfLink(params), [link]);
  return (
    <div style={{ display: 'flex', flexDirection: 'column' }}>
      <Access permissions={['service:workorder:add']}>
        <div style={{ padding: '16px 16px 0' }}>
          <Card title="提交工单" size="small">
            <WorkOrderForm onSubmitted={() => invalidate({ resource: resource.name, invalidates: ['list'] })} />
          </Card>
        </div>
      </Access>
      <Typography.Title level={5} style={{ margin: '16px 16px 0' }}>
        我的工单
      </Typography.Title>
      <EntityList key={link} resource={resource} initialSearch={initialSearch} />
      <WorkOrderDrawer workOrderId={shown.detail?.resource === resource.name ? shown.detail.id : null} onClose={() => showWorkOrder({ detail: null })} />
    </div>
  );
}
