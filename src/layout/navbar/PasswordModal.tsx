import { App, Form, Modal } from 'antd';
import { memo, useState } from 'react';
import { PasswordFields, type PasswordValues, savePassword } from '@/components/PasswordFields';

/** 修改密码 (spec §3 Password form, §5 rules and messages, §9 dialog width 500). */
// Memoised: the navbar renders on every page switch (its breadcrumb changes), this need not.
export const PasswordModal = memo(function PasswordModal({ open, mobile, onClose }: { open: boolean; mobile?: string; onClose: () => void }) {
  const [form] = Form.useForm<PasswordValues>();
  const [saving, setSaving] = useState(false);
  const { message } = App.useApp();

  const submit = async () => {
    let values: PasswordValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      await savePassword(values, mobile);
      message.success('修改成功');
      form.resetFields();
      onClose();
    } catch {
      // The http layer has shown the server's reason (e.g. a wrong old password); the form keeps its values.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title="修改密码"
      open={open}
      width={500}
      okText="确定"
      cancelText="取消"
      confirmLoading={saving}
      onOk={submit}
      onCancel={() => {
        form.resetFields();
        onClose();
      }}
      forceRender
    >
      <Form form={form} labelCol={{ flex: '90px' }} autoComplete="off">
        <PasswordFields oldPlaceholder="新用户无需填写旧密码" />
      </Form>
    </Modal>
  );
});
