import { Alert, App, Form, Modal, Select, Tag, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { distribute, type Expert, type Student } from '@/api/volunteer';

export interface DistributeDialogProps {
  open: boolean;
  students: Student[];
  experts: Expert[];
  onClose: () => void;
  onDone: () => void;
}

/**
 * 批量分配: hands the selected students to one expert (all or nothing). An expert serves the students of their own
 * store (the server refuses another store's), so only experts of the selected students' store are offered, each with
 * the store's name; students of several stores are assigned store by store.
 */
export function DistributeDialog({ open, students, experts, onClose, onDone }: DistributeDialogProps) {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ expertId: number }>();
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (open) form.resetFields();
  }, [open, form]);

  // The store(s) of the selected students (a row without a store — an older server — does not narrow the choice).
  const stores = useMemo(() => {
    const byId = new Map<number, string>();
    for (const s of students) if (s.storeId != null) byId.set(s.storeId, s.storeName || `门店 ${s.storeId}`);
    return byId;
  }, [students]);
  const mixed = stores.size > 1;
  const storeId = stores.size === 1 ? [...stores.keys()][0] : undefined;
  const offered = storeId === undefined ? experts : experts.filter((e) => e.storeId === storeId);

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
    <Modal
      open={open}
      title="批量分配学生"
      okText="分配"
      cancelText="取消"
      okButtonProps={{ disabled: mixed }}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      forceRender
    >
      <Typography.Paragraph>
        已选 {students.length} 名学生：
        {students.slice(0, 12).map((s) => (
          <Tag key={s.studentId} style={{ marginTop: 4 }}>
            {s.name}
          </Tag>
        ))}
        {students.length > 12 ? `等 ${students.length} 名` : ''}
      </Typography.Paragraph>
      {mixed ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          message={`所选学生属于 ${stores.size} 个门店（${[...stores.values()].join('、')}），专家只能服务本门店的学生；请按门店筛选后分别分配`}
        />
      ) : null}
      <Form form={form} layout="vertical" onFinish={submit} disabled={mixed}>
        <Form.Item
          label={storeId !== undefined ? `分配给专家（${stores.get(storeId)}）` : '分配给专家'}
          name="expertId"
          rules={[{ required: true, message: '请选择要分配给的专家' }]}
        >
          <Select
            showSearch
            optionFilterProp="label"
            placeholder={offered.length ? '选择专家' : '该门店暂无可分配的专家，请先在用户管理中为门店添加专家'}
            notFoundContent="没有匹配的专家"
            options={offered.map((e) => ({
              value: e.userId,
              label: `${e.nickName || e.userName}${e.storeName ? ` · ${e.storeName}` : ''}（现有 ${e.studentCount} 名学生）`,
            }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
