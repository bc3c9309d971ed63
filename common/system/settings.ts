/**
 * The settings groups of 注册设置 / 测评设置 / 审核配置: the values of each group and the stored state GET/PUT
 * /dev-api/system/settings/<group> answer. server/system/settings.ts checks and stores them; the console's settings
 * screen edits them (src/api/settings.ts).
 */

export interface RegisterSettings {
  /** 开放注册: stored in sys_platform.register_enabled. */
  registerEnabled: boolean;
  /** 注册默认角色: role key given to self-registered accounts. */
  defaultRoleKey: string;
  /** 需要短信验证码: /dev-api/register asks for the mobile number and a 'register' SMS code. */
  smsRequired: boolean;
  /** 注册协议 (sanitised HTML); when not empty the register page asks to accept it. */
  agreement: string;
}

export interface EvaluationSettings {
  /** 测评开放 */
  evaluationEnabled: boolean;
  /** 每人测评次数上限 (0 = 不限) */
  maxAttempts: number;
  /** 测评结果有效期(天) */
  resultValidDays: number;
  /** 报告说明 (sanitised HTML) */
  reportNote: string;
}

export interface AuditSettings {
  /** 志愿提交需要审核 */
  submitNeedsReview: boolean;
  /** 审核人角色 (role keys; the admin role may always review) */
  reviewerRoleKeys: string[];
  /** 审核超时提醒(小时) (0 = 不提醒) */
  reviewTimeoutHours: number;
  /** 驳回需填写意见 */
  rejectNeedsComment: boolean;
}

export interface SettingsOf {
  register: RegisterSettings;
  evaluation: EvaluationSettings;
  audit: AuditSettings;
}

export type SettingGroup = keyof SettingsOf;

/** A group as stored: the answer of GET and PUT /dev-api/system/settings/<group>. */
export interface SettingsState<G extends SettingGroup> {
  group: G;
  values: SettingsOf[G];
  /** 0 while nothing was ever saved (the defaults apply). */
  version: number;
  updateBy: string | null;
  updateTime: number | null;
}
