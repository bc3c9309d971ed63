import { Button, Form, Input, message } from 'antd';
import { useState } from 'react';
import { savePass } from '@/api/account';

interface Values {
  oldPassword?: string;
  newPassword: string;
  confirmPassword: string;
}

/** Change password (spec §3 Password form, §5 rules and messages); old password optional for new users. */
export function PasswordForm({ mobile, onDone }: { mobile?: string; onDone?: () => void }) {
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const submit = async (v: Values) => {
    setSaving(true);
    try {
      message.success(await savePass({ mobile, oldpass: v.oldPassword || undefined, qrPass: v.confirmPassword, pass: v.newPassword }));
      form.resetFields();
      onDone?.();
    } catch {
      // The http layer has shown the server's reason (e.g. 旧密码错误); the form keeps its values.
    } finally {
      setSaving(false);
    }
  };
  return (
    <Form form={form} labelCol={{ flex: '90px' }} onFinish={submit} autoComplete="off">
      <Form.Item label="旧密码" name="oldPassword">
        <Input.Password placeholder="请输入旧密码（新用户无需填写旧密码）" maxLength={20} autoComplete="current-password" />
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
            validator: (_r, value) =>
              !value || value === getFieldValue('newPassword') ? Promise.resolve() : Promise.reject(new Error('两次输入的密码不一致')),
          }),
        ]}
      >
        <Input.Password placeholder="请确认新密码" maxLength={20} autoComplete="new-password" />
      </Form.Item>
      <Form.Item label=" " colon={false}>
        <Button type="primary" htmlType="submit" loading={saving}>
          保存
        </Button>
      </Form.Item>
    </Form>
  );
}
