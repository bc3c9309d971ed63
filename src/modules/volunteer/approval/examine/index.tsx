import { useInvalidate } from '@refinedev/core';
import { Button } from 'antd';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { ExamineRow } from '@/api/volunteer';
import { Access } from '@/components/Access';
import { EntityList } from '@/engine/pages/EntityList';
import type { EnginePageProps } from '@/engine/resource';
import { PlanHistoryDialog } from '@/modules/volunteer/shared/PlanHistoryDialog';
import { linkedSearch } from '../opener';
import { planHistory, viewPlan } from './openers';
import { PlanViewDrawer } from './PlanViewDrawer';
import { ReviewDialog, type ReviewTarget } from './ReviewDialog';

/**
 * 志愿审核 (Examine/index, schemas/volunteer/vol_examine.json): the engine's list of plans (待审核 unless a status is
 * chosen) with 通过 / 驳回 declared in the schema, plus 查看 (the plan drawer, which can approve too) and 记录 (the
 * history). Also the 待审批方案 tab of 领导审批.
 */
export default function ExaminePage({ resource }: EnginePageProps) {
  const viewing = viewPlan.use();
  const history = planHistory.use();
  const [review, setReview] = useState<{ target: ReviewTarget; mode: 'approve' | 'reject' } | null>(null);
  const invalidate = useInvalidate();
  const [params] = useSearchParams();
  const link = params.toString();
  const initialSearch = useMemo(() => linkedSearch(params, ['status']), [link]);

  const start = (r: ExamineRow, mode: 'approve' | 'reject') =>
    setReview({ mode, target: { studentId: r.studentId, studentName: r.studentName, version: r.version, itemCount: r.itemCount } });
  const drawerButtons =
    viewing?.status === 'submitted' ? (
      <Access permissions={['volunteer:examine:approve']}>
        <Button type="link" size="small" onClick={() => start(viewing, 'approve')}>
          通过
        </Button>
        <Button type="link" size="small" danger onClick={() => start(viewing, 'reject')}>
          驳回
        </Button>
      </Access>
    ) : null;

  return (
    <>
      <EntityList key={link} resource={resource} initialSearch={initialSearch} />
      <PlanViewDrawer studentId={viewing?.studentId ?? null} onClose={() => viewPlan.close()} actions={drawerButtons} />
      <ReviewDialog
        target={review?.target ?? null}
        mode={review?.mode ?? 'approve'}
        onClose={() => setReview(null)}
        onDone={() => {
          setReview(null);
          viewPlan.close();
          invalidate({ resource: resource.name, invalidates: ['list'] });
        }}
      />
      <PlanHistoryDialog
        open={history != null}
        title="审批记录"
        source="examine"
        studentId={history?.studentId ?? 0}
        studentName={history?.studentName}
        onClose={() => planHistory.close()}
      />
    </>
  );
}
