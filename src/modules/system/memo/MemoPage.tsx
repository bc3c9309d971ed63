import { useInvalidate } from '@refinedev/core';
import { EntityList } from '@/engine/pages/EntityList';
import type { EnginePageProps } from '@/engine/resource';
import { DueMemos } from './DueMemos';

/**
 * 备忘录 (system/memo/index, schemas/system/sys_memo.json): the user's own notes — the server keeps everyone to their
 * own (x-owner) — with the due ones on top (到期提醒).
 */
export default function MemoPage({ resource }: EnginePageProps) {
  const invalidate = useInvalidate();
  // 完成 in the panel: the list reads the stored rows again (its cached page would still say 否).
  const reloadList = () => void invalidate({ resource: resource.name, invalidates: ['list', 'detail'] });
  return (
    <>
      <DueMemos resource={resource} onDone={reloadList} />
      <EntityList resource={resource} />
    </>
  );
}
