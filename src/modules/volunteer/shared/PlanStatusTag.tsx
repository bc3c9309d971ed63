import { Tag } from 'antd';
import type { PlanStatus } from '@/api/volunteer';

const STATUS: Record<PlanStatus | 'withdrawn', { color: string; text: string }> = {
  none: { color: 'default', text: '未填报' },
  draft: { color: 'processing', text: '草稿' },
  submitted: { color: 'orange', text: '待审核' },
  approved: { color: 'success', text: '已通过' },
  rejected: { color: 'error', text: '已驳回' },
  withdrawn: { color: 'default', text: '已撤回' },
};

export const PLAN_STATUS_OPTIONS = (['none', 'draft', 'submitted', 'approved', 'rejected'] as const).map((value) => ({ value, label: STATUS[value].text }));

/** A plan status as a coloured tag (the server's Chinese name when given). */
export function PlanStatusTag({ status, name }: { status: PlanStatus | 'withdrawn' | null | undefined; name?: string | null }) {
  const s = STATUS[status ?? 'none'] ?? STATUS.none;
  return <Tag color={s.color}>{name || s.text}</Tag>;
}
