import { Drawer, Timeline } from 'antd';
import { useEffect, useState } from 'react';
import { type Customer, type CustomerAction, customerHistory } from '@/api/customer';
import { formatTime } from '../shared/format';

const ACTIONS: Record<string, string> = {
  openCard: '开卡',
  activate: '用户绑卡',
  assign: '分配专家',
  reset: '重置信息',
  update: '修改资料',
  address: '修改地址',
  deliver: '邮寄',
  recycle: '移入回收站',
  restore: '恢复',
  purge: '彻底删除',
  expire: '会员到期',
};

/** The customer's audit trail: every state change, 开卡, 重置信息 and edit, newest first. */
export function HistoryDrawer({ customer, onClose }: { customer: Customer | null; onClose: () => void }) {
  const [rows, setRows] = useState<CustomerAction[]>([]);
  useEffect(() => {
    if (!customer) return;
    customerHistory(customer.studentId)
      .then(setRows)
      .catch(() => setRows([]));
  }, [customer]);
  return (
    <Drawer title={`操作记录 - ${customer?.name ?? ''}`} open={customer != null} onClose={onClose} width={420}>
      <Timeline
        items={rows.map((r) => ({
          children: (
            <div>
              <strong>{ACTIONS[r.action] ?? r.action}</strong> · {r.userName ?? '系统'}
              <div style={{ color: '#909399' }}>{formatTime(r.createTime)}</div>
              {r.comment && <div>{r.comment}</div>}
            </div>
          ),
        }))}
      />
      {rows.length === 0 && <div style={{ color: '#909399' }}>暂无记录</div>}
    </Drawer>
  );
}
