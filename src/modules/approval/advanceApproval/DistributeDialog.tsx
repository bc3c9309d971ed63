import { App, Form, Modal, Select, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { distribute, type Expert, type Student } from '@/api/volunteer';

export interface DistributeDialogProps {
  open: boolean;
  students: Student[];
  experts: Expert[];
  onClose: () => void;
  onDone: () => void;
}

/** 批量分配: hands the selected students to one expert (all or nothing). */
export function DistributeDialog({ open, students, experts, onClose, onDone }: DistributeDialogProps) {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ expertId: number }>();
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (open) form.resetFields();
  }, [open, form]);

  const submit = async ({ expertId }: { expertId: number }) => {
    setSaving(true);
    try {
      message.success(
        await distribute(
          students.map((s) => s.studentId),
          expertId,
        ),
      );
      onDone();
    } catch {
      // shown by the http layer; nothing was changed
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal open={open} title="批量分配学生" okText="分配" cancelText="取消" confirmLoading={saving} onOk={() => form.submit()} onCancel={onClose} forceRender>
      <Typography.Paragraph>
        已选 {students.length} 名学生：
        {students.slice(0, 12).map((s) => (
          <Tag key={s.studentId} style={{ marginTop: 4 }}>
            {s.name}
          </Tag>
        ))}
        {students.length > 12 ? `等 ${students.length} 名` : ''}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item label="分配给专家" name="expertId" rules={[{ required: true, message: '请选择要分配给的专家' }]}>
          <Select
            showSearch
            optionFilterProp="label"
            placeholder="选择专家"
            options={experts.map((e) => ({ value: e.userId, label: `${e.nickName || e.userName}（现有 ${e.studentCount} 名学生）` }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
