import { App, Input, Modal, Select, Space } from 'antd';
import { useEffect, useState } from 'react';
import { assignWorkOrder, type WorkOrderRow, workOrderHandlers } from '@/api/service';

/** 指派 (待处理 → 处理中): a headquarters handler (default: oneself) and an optional reply the submitter sees. */
export function AssignDialog({ row, onClose, onDone }: { row: WorkOrderRow | null; onClose: () => void; onDone: () => void }) {
  const { message } = App.useApp();
  const [handlers, setHandlers] = useState<Array<{ userId: number; nickName: string }>>([]);
  const [assigneeId, setAssigneeId] = useState<number | undefined>();
  const [reply, setReply] = useState('');
  const [saving, setSaving] = useState(false);
  const open = row != null;
  useEffect(() => {
    if (!open) return;
    setAssigneeId(undefined);
    setReply('');
    workOrderHandlers()
      .then(setHandlers)
      .catch(() => undefined);
  }, [open]);

  const submit = async () => {
    if (!row) return;
    setSaving(true);
    try {
      message.success((await assignWorkOrder(row.workOrderId, assigneeId, reply.trim() || undefined)).msg);
      onDone();
    } catch {
      // the server's reason is shown by the http layer; the dialog stays
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal open={open} title={row ? `指派工单 ${row.orderNo}` : ''} okText="指派" cancelText="取消" confirmLoading={saving} onOk={submit} onCancel={onClose}>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Select
          style={{ width: '100%' }}
          placeholder="处理人（默认本人）"
          allowClear
          value={assigneeId}
          onChange={setAssigneeId}
          options={handlers.map((h) => ({ value: h.userId, label: h.nickName }))}
        />
        <Input.TextArea rows={2} maxLength={500} placeholder="回复内容（选填，提交人可见）" value={reply} onChange={(e) => setReply(e.target.value)} />
      </Space>
    </Modal>
  );
}
