import { createElement } from 'react';
import type { ResourceOverride } from '@/engine/resource';
import { dash } from '../userList/override';
import { dialogAction } from '../userList/requests';
import { Deliveries } from './Deliveries';

/**
 * 客户资料 (schemas/customer/cus_client.json): the engine's list of customers with their postal data; 修改资料 and 邮寄
 * open the dialogs of ClientDataPage, and each row expands to the customer's 邮寄记录 (the routes are the customer
 * module's, server/customer/customers.ts).
 */
export const clientOverride: ResourceOverride = {
  pages: { list: () => import('./ClientDataPage') },
  cells: {
    mobile: dash,
    receiver: dash,
    receiverMobile: dash,
    address: (value) =>
      value == null || value === ''
        ? createElement('span', { style: { color: '#909399' } }, '未填写')
        : createElement('span', { title: String(value) }, String(value)),
  },
  rowActions: [dialogAction('cus_client', 'address', '修改资料', 'manage:client:edit'), dialogAction('cus_client', 'deliver', '邮寄', 'manage:client:deliver')],
  inlineRowActions: true,
  expandedRow: (record) => createElement(Deliveries, { record }),
};
