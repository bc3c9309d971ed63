import { SendOutlined } from '@ant-design/icons';
import type { ResourceOverride } from '@/engine/resource';
import { requestSend } from './sendRequest';

/**
 * 消息管理 (cus_message, manage/message/index): the generic list of schemas/customer/cus_message.json (未读消息 above
 * it, search by 标题 / 状态, batch 删除) plus 发送消息 — to one customer, a selection, or all of them.
 */
export const messageOverride: ResourceOverride = {
  pages: { list: () => import('./MessagePage') },
  toolbar: [
    {
      key: 'send',
      label: '发送消息',
      type: 'primary',
      permission: 'manage:message:add',
      icon: <SendOutlined />,
      onClick: (ctx) => requestSend({ refresh: ctx.refresh }),
    },
  ],
};
