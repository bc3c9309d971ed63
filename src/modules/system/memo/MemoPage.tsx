import { EntityList } from '@/engine/pages/EntityList';
import type { EnginePageProps } from '@/engine/resource';
import { DueMemos } from './DueMemos';

/**
 * 备忘录 (system/memo/index, schemas/system/sys_memo.json): the user's own notes — the server keeps everyone to their
 * own (x-owner) — with the due ones on top (到期提醒). The two halves refresh each other through Refine's
 * invalidation of this resource (DueMemos.tsx).
 */
export default function MemoPage({ resource }: EnginePageProps) {
  return (
    <>
      <DueMemos resource={resource} />
      <EntityList resource={resource} />
    </>
  );
}
