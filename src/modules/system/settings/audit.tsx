import type { SettingValues } from '@/api/settings';
import { SettingsPage } from './SettingsPage';

/** 审核配置 (system/auditConfiguration/index): the review of submitted volunteer plans (志愿审核). */
export default function AuditConfiguration() {
  return (
    <SettingsPage
      group="audit"
      title="审核配置"
      description="专家提交志愿方案后的审核流程：是否需要审核、由哪些角色审核、超时提醒与驳回要求。"
      editPermission="system:audit:edit"
      fields={[
        { key: 'submitNeedsReview', label: '志愿提交需要审核', widget: 'switch', on: '需要', off: '不需要', help: '关闭后提交的志愿方案无需审核' },
        {
          key: 'reviewerRoleKeys',
          label: '审核人角色',
          widget: 'roles',
          help: '拥有这些角色的用户可以审核志愿方案（超级管理员始终可以审核）',
          required: (v: SettingValues) => Boolean(v.submitNeedsReview),
        },
        {
          key: 'reviewTimeoutHours',
          label: '审核超时提醒(小时)',
          widget: 'number',
          min: 0,
          max: 720,
          suffix: '小时',
          help: '提交后超过该时长仍未审核时提醒审核人；0 表示不提醒',
        },
        { key: 'rejectNeedsComment', label: '驳回需填写意见', widget: 'switch', on: '需要', off: '不需要', help: '开启后驳回志愿方案时必须填写驳回意见' },
      ]}
    />
  );
}
