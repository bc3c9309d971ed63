import type { ResourceOverride } from '@/engine/resource';
import { formatDate } from '../shared/format';
import { storeSearchField } from '../storeSearch';
import { dialogAction as action } from './requests';

/**
 * 用户列表 (schemas/customer/cus_customer.json) and 回收站 (cus_recycle.json): the schemas declare 重置信息, 删除,
 * 恢复 and 彻底删除 (module routes, confirmed); the bespoke buttons here open the dialogs of CustomerListPage —
 * 开卡, 修改 (the customer's own data), 志愿方案 (the filling page) and 记录 (the audit trail).
 */

export const dash = (value: unknown) => (value === null || value === undefined || value === '' ? '--' : String(value));
const day = (value: unknown) => formatDate(value as number | null);

const cells: ResourceOverride['cells'] = {
  mobile: dash,
  score: dash,
  subjectNames: dash,
  cardNo: dash,
  vipExpireTime: day,
  expertName: (value) => (value == null || value === '' ? '未分配' : String(value)),
  recycleTime: day,
  purgeTime: day,
};

// Every button stays in the row, as on the hand-written page (开卡 … 删除).
const common: ResourceOverride = {
  pages: { list: () => import('./CustomerListPage') },
  cells,
  searchFields: { storeId: storeSearchField },
  inlineRowActions: true,
};

export const customerOverride: ResourceOverride = {
  ...common,
  rowActions: [
    action('cus_customer', 'openCard', '开卡', 'manage:user:openCard'),
    action('cus_customer', 'edit', '修改', 'manage:user:edit'),
    action('cus_customer', 'fill', '志愿方案'),
    action('cus_customer', 'history', '记录'),
  ],
};

export const recycleOverride: ResourceOverride = {
  ...common,
  rowActions: [action('cus_recycle', 'edit', '修改', 'manage:user:edit'), action('cus_recycle', 'history', '记录')],
};
