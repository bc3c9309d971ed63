import type { EngineEnv } from '../engine/context.js';
import { ensureModuleDicts, type ModuleDict } from '../engine/moduleDicts.js';
import { dictionary } from '../system/index.js';

/**
 * The dictionaries of the customer schemas (schemas/customer/, x-dict). Added at start when missing — also to a
 * database made before these screens came from schemas — and never changed afterwards (an administrator may relabel
 * them in 字典管理). Values are the stored ones: card kinds 1–3 (common/customer/cardKinds.ts), card states and the
 * read state of spec §4.
 */
export const CUSTOMER_DICTS: ModuleDict[] = [
  dictionary('cus_card_kind', '会员卡类型', ['1', '志愿卡', 'primary'], ['2', '升学卡', 'success'], ['3', '体验卡', 'warning']),
  dictionary(
    'cus_card_status',
    '会员卡状态',
    ['unused', '未使用', 'primary'],
    ['activated', '已激活', 'success'],
    ['expired', '已过期', 'default'],
    ['voided', '已作废', 'danger'],
  ),
  dictionary('cus_read_status', '消息状态', ['0', '未读', 'primary'], ['1', '已读', 'default']),
  // 用户列表 / 回收站 / 客户资料: spec §3 user type (common/customer/enums.ts USER_TYPES).
  dictionary(
    'cus_user_type',
    '用户类型',
    ['0', '普通用户', 'default'],
    ['1', '志愿卡用户', 'warning'],
    ['2', '升学卡用户', 'warning'],
    ['3', '体验卡用户', 'warning'],
  ),
  // 用户列表 / 回收站 开通方式: spec §3 VIP pay type (common/customer/enums.ts VIP_PAY_TYPES).
  dictionary('cus_vip_pay_type', '开通方式', ['0', '普通'], ['1', '用户绑卡'], ['2', '后台绑卡'], ['3', '在线购买'], ['4', '专家一对一']),
];

export const ensureCustomerDicts = (env: EngineEnv) => ensureModuleDicts(env, CUSTOMER_DICTS);
