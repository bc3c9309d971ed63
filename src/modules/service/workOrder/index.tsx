import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { EntityList } from '@/engine/pages/EntityList';
import type { EnginePageProps } from '@/engine/resource';
import { WorkOrderDrawer } from '../shared/WorkOrderParts';
import { AssignDialog } from './AssignDialog';
import { showWorkOrder, useShownWorkOrder } from './openers';

/** `?status=0` (the home page's 待处理工单) as the list's first search. */
export function statusOfLink(params: URLSearchParams): Record<string, unknown> | undefined {
  const raw = params.get('status');
  return raw !== null && /^[0-3]$/.test(raw) ? { status: Number(raw) } : undefined;
}

/**
 * 工单管理 (serviceCenter/workOrder/index, schemas/service/service_work_order.json; headquarters): every store's orders
 * in the engine's list, 处理 / 驳回 declared in the schema (server state machine: server/service/workOrders.ts), plus
 * 详情 (the drawer with the trail) and 指派 (a handler and a reply).
 */
export default function WorkOrderManagePage({ resource }: EnginePageProps) {
  const shown = useShownWorkOrder();
  const [params] = useSearchParams();
  const link = params.toString();
  const initialSearch = useMemo(() => statusOfLink(params), [link]);
  return (
    <>
      <EntityList key={link} resource={resource} initialSearch={initialSearch} />
      <WorkOrderDrawer workOrderId={shown.detail?.resource === resource.name ? shown.detail.id : null} onClose={() => showWorkOrder({ detail: null })} />
      <AssignDialog
        row={shown.assign?.row ?? null}
        onClose={() => showWorkOrder({ assign: null })}
        onDone={() => {
          shown.assign?.refresh();
          showWorkOrder({ assign: null });
        }}
      />
    </>
  );
}
