import { Button, Form, message } from 'antd';
import { useState } from 'react';
import { PasswordFields, type PasswordValues, savePassword } from '@/components/PasswordFields';

/** Change password (spec §3 Password form, §5 rules and messages); old password optional for new users. */
export function PasswordForm({ mobile, onDone }: { mobile?: string; onDone?: () => void }) {
  const [form] = Form.useForm<PasswordValues>();
  const [saving, setSaving] = useState(false);
  const submit = async (v: PasswordValues) => {
    setSaving(true);
    try {
      message.success(await savePassword(v, mobile));
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
      <PasswordFields oldPlaceholder="请输入旧密码（新用户无需填写旧密码）" />
      <Form.Item label=" " colon={false}>
        <Button type="primary" htmlType="submit" loading={saving}>
          保存
        </Button>
      </Form.Item>
    </Form>
  );
}
