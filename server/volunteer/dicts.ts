import type { EngineEnv } from '../engine/context.js';
import { ensureModuleDicts, type ModuleDict } from '../engine/moduleDicts.js';
import { APPOINTMENT_STATUS_NAMES, PLAN_STATUS_NAMES } from './common.js';

/**
 * The dictionaries of the volunteer module's schemas (x-dict of schemas/volunteer/: 志愿审核, 领导审批, 预约管理),
 * added at start when missing and never changed afterwards (an administrator may relabel them in 字典管理). The
 * values are the module's own (common.ts); the labels start as its names.
 */
const PLAN_CLASSES: Record<string, string> = {
  none: 'info',
  draft: 'default',
  submitted: 'warning',
  approved: 'success',
  rejected: 'danger',
  withdrawn: 'info',
};
const APPOINTMENT_CLASSES: Record<string, string> = { pending: 'primary', done: 'success', cancelled: 'default', remade: 'warning' };

export const VOLUNTEER_DICTS: ModuleDict[] = [
  {
    type: 'vol_plan_status',
    name: '方案状态',
    entries: Object.entries(PLAN_STATUS_NAMES).map(([v, label]) => [v, label, PLAN_CLASSES[v] ?? 'default']),
  },
  {
    // 志愿审核's status filter: the plans a reviewer looks at, 全部 = every status (Examine/list status=all).
    type: 'vol_examine_status',
    name: '审核状态',
    entries: [
      ['submitted', '待审核', 'warning'],
      ['approved', '已通过', 'success'],
      ['rejected', '已驳回', 'danger'],
      ['all', '全部', 'default'],
    ],
  },
  {
    type: 'vol_appointment_status',
    name: '预约状态',
    entries: Object.entries(APPOINTMENT_STATUS_NAMES).map(([v, label]) => [v, label, APPOINTMENT_CLASSES[v] ?? 'default']),
  },
];

export const ensureVolunteerDicts = (env: EngineEnv) => ensureModuleDicts(env, VOLUNTEER_DICTS);
