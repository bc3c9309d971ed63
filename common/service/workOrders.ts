/**
 * Work orders of 服务中心 (spec §4): the types, the statuses and the eight console forms, shared by the server
 * (server/service/) and the console (src/modules/service/). Spec §4 numbers seven types; 修改手机号 is a change to
 * the customer's account like 修改权限, so both forms carry type 4 and the form key tells them apart (docs/service.md).
 */

export const WORK_ORDER_STATUS = { pending: 0, processing: 1, handled: 2, rejected: 3 } as const;
export type WorkOrderStatus = (typeof WORK_ORDER_STATUS)[keyof typeof WORK_ORDER_STATUS];

export const WORK_ORDER_STATUS_NAMES: Record<number, string> = { 0: '待处理', 1: '处理中', 2: '已处理', 3: '已驳回' };

export const WORK_ORDER_TYPE_NAMES: Record<number, string> = {
  1: '订单退款',
  2: '会员卡退款',
  3: '修改年份',
  4: '修改权限',
  5: '注销用户',
  6: '修改分数',
  7: '意见反馈',
};

export type WorkOrderFormKey = 'cardRefund' | 'orderRefund' | 'changeScore' | 'changeYear' | 'changePermission' | 'changePhone' | 'feedback' | 'cancelUser';

export interface WorkOrderFormSpec {
  key: WorkOrderFormKey;
  /** Spec §4 type number. */
  type: number;
  name: string;
  /** What the form asks for besides 申请说明 and attachments. */
  fields: Array<'cardNo' | 'orderNo' | 'studentId' | 'score' | 'examYear' | 'userType' | 'mobile'>;
  /** Attachments the form requires at least (proof of a refund); at most WORK_ORDER_MAX_ATTACHMENTS. */
  minAttachments: number;
  /** What handling does, shown on the form (workOrderHint: 总部处理后将…) and in docs/service.md. */
  effect: string;
}

/** The form's one-line hint: what headquarters' handling will do (提交工单). */
export const workOrderHint = (spec: Pick<WorkOrderFormSpec, 'name' | 'effect'>) => `${spec.name}：总部处理后将${spec.effect}。`;

export const WORK_ORDER_FORMS: readonly WorkOrderFormSpec[] = [
  { key: 'cardRefund', type: 2, name: '会员卡退款', fields: ['cardNo'], minAttachments: 1, effect: '作废该会员卡，并把卡价退回门店余额' },
  { key: 'orderRefund', type: 1, name: '订单退款', fields: ['orderNo'], minAttachments: 1, effect: '按原路退回该订单的支付金额' },
  { key: 'changeScore', type: 6, name: '修改分数', fields: ['studentId', 'score'], minAttachments: 0, effect: '把该用户的高考分数改为申请的分数' },
  { key: 'changeYear', type: 3, name: '修改年份', fields: ['studentId', 'examYear'], minAttachments: 0, effect: '把该用户的高考年份改为申请的年份' },
  {
    key: 'changePermission',
    type: 4,
    name: '修改权限',
    fields: ['studentId', 'userType'],
    minAttachments: 0,
    effect: '把该用户的用户类型（权限）改为申请的类型',
  },
  { key: 'changePhone', type: 4, name: '修改手机号', fields: ['studentId', 'mobile'], minAttachments: 0, effect: '把该用户的手机号改为申请的号码' },
  { key: 'feedback', type: 7, name: '意见反馈', fields: [], minAttachments: 0, effect: '阅读并回复，不改动数据' },
  { key: 'cancelUser', type: 5, name: '注销用户', fields: ['studentId'], minAttachments: 0, effect: '把该用户移入回收站' },
];

export const WORK_ORDER_FORM_BY_KEY: Record<string, WorkOrderFormSpec> = Object.fromEntries(WORK_ORDER_FORMS.map((f) => [f.key, f]));

export const WORK_ORDER_MAX_ATTACHMENTS = 5;
/** Attachment types of a work order: images and the usual documents (checked by content on the server). */
export const WORK_ORDER_ATTACHMENT_TYPES: readonly string[] = ['png', 'jpg', 'jpeg', 'pdf', 'doc', 'docx', 'xls', 'xlsx'];
export const WORK_ORDER_REASON_MAX = 500;
export const WORK_ORDER_REPLY_MAX = 500;

/** Spec §3 user type (修改权限 chooses one). */
export const WORK_ORDER_USER_TYPES: Record<number, string> = { 0: '普通用户', 1: '志愿卡用户', 2: '升学卡用户', 3: '体验卡用户' };
