import { Form, Input } from 'antd';
import { savePass } from '@/api/account';

/** The values of the 修改密码 form (spec §3 Password form). */
export interface PasswordValues {
  oldPassword?: string;
  newPassword: string;
  confirmPassword: string;
}

/**
 * 旧密码 / 新密码 / 确认密码 with the spec's rules and messages (§5): the old password is optional (a new user has
 * none), the new one 6–20 characters, the confirmation equal to it. Used by the navbar's dialog and 个人中心.
 */
export function PasswordFields({ oldPlaceholder }: { oldPlaceholder: string }) {
  return (
    <>
      <Form.Item label="旧密码" name="oldPassword">
        <Input.Password placeholder={oldPlaceholder} maxLength={20} autoComplete="current-password" />
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
    </>
  );
}

/** Saves the form's values for the signed-in user (or the account of `mobile`); answers the server's message. */
export const savePassword = (values: PasswordValues, mobile?: string) =>
  savePass({ mobile, oldpass: values.oldPassword || undefined, qrPass: values.confirmPassword, pass: values.newPassword });
