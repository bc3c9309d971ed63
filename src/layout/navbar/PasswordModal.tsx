import { App, Form, Input, Modal } from 'antd';
import { memo, useState } from 'react';
import { savePass } from '@/api/account';

export interface PasswordValues {
  oldPassword?: string;
  newPassword: string;
  confirmPassword: string;
}

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
      await savePass({ mobile, oldpass: values.oldPassword || undefined, qrPass: values.confirmPassword, pass: values.newPassword });
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
        <Form.Item label="旧密码" name="oldPassword">
          <Input.Password placeholder="新用户无需填写旧密码" maxLength={20} autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          label="新密码"
          name="newPassword"
          rules={[
            { required: true, message: '新密码不能为空' },
            { min: 6, max: 20, message: '长度在 6 到 20 个字符' },
          ]}
        >
          <Input.Password placeholder="请输入新密码" maxLength={20} autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          label="确认密码"
          name="confirmPassword"
          dependencies={['newPassword']}
          rules={[
            { required: true, message: '确认密码不能为空' },
            ({ getFieldValue }) => ({
              validator: (_rule, value: string | undefined) =>
                !value || value === getFieldValue('newPassword') ? Promise.resolve() : Promise.reject(new Error('两次输入的密码不一致')),
            }),
          ]}
        >
          <Input.Password placeholder="请确认新密码" maxLength={20} autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
});
