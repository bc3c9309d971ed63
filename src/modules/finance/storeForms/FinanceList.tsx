import { type ComponentType, type ReactNode, useEffect, useMemo } from 'react';
import { useLocation } from 'react-router';
import { EntityList } from '@/engine/pages/EntityList';
import { linkSearchOf } from '@/engine/pages/ResourcePage';
import type { ResourceDef } from '@/engine/resource';
import { closeDialog, type DialogRequest, useDialogRequest } from './dialogRequests';

/**
 * The list page of a finance schema screen: the generic list (opened with a link's search, e.g. the home page's
 * 待审核提现 → ?status=0, as ResourcePage would) with the screen's own content above it and the dialog its buttons
 * asked for. `dialogs` is one component per request kind, or — for a page whose dialogs need more than the request
 * (its own state, a dialog kept mounted) — a function of the open request of this resource (null when none). An open
 * dialog is closed when the page goes.
 */
export function FinanceList({
  resource,
  above,
  dialogs,
}: {
  resource: ResourceDef;
  above?: ReactNode;
  dialogs: Record<string, ComponentType<{ request: DialogRequest }>> | ((request: DialogRequest | null) => ReactNode);
}) {
  const { search } = useLocation();
  const linkSearch = useMemo(() => linkSearchOf(resource.schema, search), [resource.schema, search]);
  const request = useDialogRequest();
  useEffect(() => closeDialog, []);
  const mine = request?.ctx.resource.name === resource.name ? request : null;
  const Dialog = typeof dialogs === 'function' || !mine ? undefined : dialogs[mine.kind];
  return (
    <>
      {above}
      <EntityList key={search} resource={resource} linkSearch={linkSearch} />
      {typeof dialogs === 'function' ? dialogs(mine) : mine && Dialog && <Dialog request={mine} />}
    </>
  );
}
