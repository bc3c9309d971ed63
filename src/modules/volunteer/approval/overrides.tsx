import { EditOutlined, EyeOutlined, HistoryOutlined, PlusOutlined, SwapOutlined, TeamOutlined, UsergroupAddOutlined } from '@ant-design/icons';
import type { BaseRecord } from '@refinedev/core';
import { Space } from 'antd';
import { createElement } from 'react';
import type { Appointment, ExamineRow, PlanStatus, Student, TierCounts } from '@/api/volunteer';
import type { ResourceOverride } from '@/engine/resource';
import { formatRank } from '@/modules/volunteer/shared/format';
import { PlanStatusTag } from '@/modules/volunteer/shared/PlanStatusTag';
import { TIER_STYLE } from '@/modules/volunteer/shared/tiers';
import { distributing, studentsOf } from './advanceApproval/openers';
import { appointmentDialog } from './appointment/openers';
import { planHistory, viewPlan } from './examine/openers';

/**
 * Overrides of the volunteer module's approval screens (schemas/volunteer/): what their JSON cannot say — the plan
 * drawer and history of 志愿审核, the distribute dialog and 查看学生 of 领导审批, the appointment dialog of 预约管理,
 * and a few cells. The pages (examine/, advanceApproval/, appointment/) hold the dialogs these buttons open.
 */
const rank = (v: unknown) => formatRank(v as number | null);
const orDash = (v: unknown) => (v == null || v === '' ? '--' : String(v));
const icon = (c: Parameters<typeof createElement>[0]) => createElement(c);

function tierCounts(v: unknown) {
  const counts = (v ?? {}) as Partial<TierCounts>;
  return (
    <Space size={8}>
      {(['冲', '稳', '保'] as const).map((t) => (
        <span key={t} style={{ color: TIER_STYLE[t].color }}>
          {t}
          {counts[t] ?? 0}
        </span>
      ))}
    </Space>
  );
}

const planStatus = (name: 'statusName' | 'planStatusName') => (v: unknown, r: BaseRecord) => (
  <PlanStatusTag status={v as PlanStatus} name={r[name] as string} />
);

export const examineOverride: ResourceOverride = {
  pages: { list: () => import('./examine') },
  cells: {
    score: orDash,
    rank,
    ownerId: (_v, r) => orDash(r.ownerName),
    tierCounts,
    status: planStatus('statusName'),
    reviewByName: orDash,
    reviewComment: orDash,
  },
  rowActions: [
    { key: 'view', label: '查看', icon: icon(EyeOutlined), onClick: (r) => viewPlan.open(r as unknown as ExamineRow) },
    { key: 'history', label: '记录', icon: icon(HistoryOutlined), onClick: (r) => planHistory.open(r as unknown as ExamineRow) },
  ],
};

export const approvalOverride: ResourceOverride = {
  pages: { list: () => import('./advanceApproval') },
  cells: {
    mobile: orDash,
    score: orDash,
    rank,
    storeName: orDash,
    ownerId: (_v, r) => (r.ownerName ? String(r.ownerName) : <span style={{ color: '#d46b08' }}>未分配</span>),
    planStatus: planStatus('planStatusName'),
  },
  toolbar: [
    {
      key: 'distribute',
      label: '批量分配',
      type: 'primary',
      permission: 'volunteer:approval:distribute',
      selection: 'multiple',
      icon: icon(UsergroupAddOutlined),
      onClick: (ctx) => distributing.open({ students: ctx.selectedRows as unknown as Student[], refresh: ctx.refresh }),
    },
  ],
};

export const expertOverride: ResourceOverride = {
  cells: { nickName: (v, r) => String(v || r.userName), mobile: orDash, storeName: orDash },
  rowActions: [{ key: 'students', label: '查看学生', icon: icon(TeamOutlined), onClick: (r) => studentsOf.open(Number(r.userId)) }],
};

const pending = (r: BaseRecord) => r.status === 'pending';
const asAppointment = (r: BaseRecord) => r as unknown as Appointment;

export const appointmentOverride: ResourceOverride = {
  pages: { list: () => import('./appointment') },
  cells: {
    expertId: (_v, r) => orDash(r.expertName),
    duration: (v) => `${v} 分钟`,
    remark: orDash,
    remadeFrom: (v) => (v ? `#${v}` : '--'),
  },
  toolbar: [
    {
      key: 'add',
      label: '新增预约',
      type: 'primary',
      permission: 'volunteer:appointment:add',
      icon: icon(PlusOutlined),
      onClick: (ctx) => appointmentDialog.open({ mode: { kind: 'add' }, refresh: ctx.refresh }),
    },
  ],
  rowActions: [
    {
      key: 'edit',
      label: '修改',
      permission: 'volunteer:appointment:edit',
      icon: icon(EditOutlined),
      visible: pending,
      onClick: (r, ctx) => appointmentDialog.open({ mode: { kind: 'edit', appointment: asAppointment(r) }, refresh: ctx.refresh }),
    },
    {
      key: 'remake',
      label: '改约',
      permission: 'volunteer:appointment:edit',
      icon: icon(SwapOutlined),
      visible: pending,
      onClick: (r, ctx) => appointmentDialog.open({ mode: { kind: 'remake', appointment: asAppointment(r) }, refresh: ctx.refresh }),
    },
  ],
};

/** By schema $id, found by src/resources/ (every overrides.tsx under src/modules/). */
export const overrides: Record<string, ResourceOverride> = {
  vol_examine: examineOverride,
  vol_approval: approvalOverride,
  vol_expert: expertOverride,
  vol_appointment: appointmentOverride,
};
