import { type ReactNode, useEffect, useMemo } from 'react';
import { useLocation } from 'react-router';
import { EntityList } from '@/engine/pages/EntityList';
import { linkSearchOf } from '@/engine/pages/ResourcePage';
import type { ResourceDef } from '@/engine/resource';
import { closeDialog, type DialogRequest, useDialogRequest } from './dialogRequests';

/**
 * The list page of a finance schema screen: the generic list (opened with a link's search, e.g. the home page's
 * 待审核提现 → ?status=0, as ResourcePage would) with the screen's own content above it and the dialog its buttons
 * asked for (`dialogs` gets the open request of this resource, or null). An open dialog is closed when the page goes.
 */
export function FinanceList({ resource, above, dialogs }: { resource: ResourceDef; above?: ReactNode; dialogs: (request: DialogRequest | null) => ReactNode }) {
  const { search } = useLocation();
  const linkSearch = useMemo(() => linkSearchOf(resource.schema, search), [resource.schema, search]);
  const request = useDialogRequest();
  useEffect(() => closeDialog, []);
  return (
    <>
      {above}
      <EntityList key={search} resource={resource} linkSearch={linkSearch} />
      {dialogs(request?.ctx.resource.name === resource.name ? request : null)}
    </>
  );
}
