import type { EngineEnv } from '../engine/context.js';
import { ensureModuleDicts, type ModuleDict } from '../engine/moduleDicts.js';
import { type DictEntry, dictionary } from '../system/index.js';
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

/** The entries of a status dictionary: the module's values and names in their order, each with its list class. */
const named = (names: Record<string, string>, classes: Record<string, string>): DictEntry[] =>
  Object.entries(names).map(([value, label]) => [value, label, classes[value] ?? 'default']);

export const VOLUNTEER_DICTS: ModuleDict[] = [
  dictionary('vol_plan_status', '方案状态', ...named(PLAN_STATUS_NAMES, PLAN_CLASSES)),
  // 志愿审核's status filter: the plans a reviewer looks at, 全部 = every status (Examine/list status=all).
  dictionary(
    'vol_examine_status',
    '审核状态',
    ['submitted', '待审核', 'warning'],
    ['approved', '已通过', 'success'],
    ['rejected', '已驳回', 'danger'],
    ['all', '全部', 'default'],
  ),
  dictionary('vol_appointment_status', '预约状态', ...named(APPOINTMENT_STATUS_NAMES, APPOINTMENT_CLASSES)),
];

export const ensureVolunteerDicts = (env: EngineEnv) => ensureModuleDicts(env, VOLUNTEER_DICTS);
