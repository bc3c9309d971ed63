import type { BaseRecord } from '@refinedev/core';
import { App, Form, Input, Modal } from 'antd';
import { useEffect, useState } from 'react';
import { resetUserPwd } from '@/api/system/user';

/** The rules the server applies to a new password (spec §5, RuoYi's refused characters), in the same words. */
export function newPasswordProblem(value: string | undefined): string | null {
  if (!value) return '新密码不能为空';
  if (value.length < 6 || value.length > 20) return '长度在 6 到 20 个字符';
  if (/[<>"'|\\]/.test(value)) return '不能包含非法字符：< > " \' \\ |';
  return null;
}

/**
 * 重置密码 (RuoYi handleResetPwd): 提示 dialog 请输入"xx"的新密码 → resetPwd → 修改成功，新密码是：xx. The user is signed
 * out everywhere by the server.
 */
export function ResetPwdDialog({ record, onClose }: { record: BaseRecord | null; onClose: () => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ password: string }>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (record) form.resetFields();
  }, [record, form]);

  const submit = async () => {
    if (!record) return;
    let password: string;
    try {
      ({ password } = await form.validateFields());
    } catch {
      return;
    }
    setBusy(true);
    try {
      await resetUserPwd(Number(record.userId), password);
      message.success(`修改成功，新密码是：${password}`);
      onClose();
    } catch {
      // The http layer has shown the refusal; the dialog stays open.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      title="提示"
      open={Boolean(record)}
      width={420}
      maskClosable={false}
      destroyOnHidden
      okText="确定"
      cancelText="取消"
      confirmLoading={busy}
      onOk={submit}
      onCancel={onClose}
    >
      <Form form={form} layout="vertical" onFinish={submit} preserve={false}>
        <Form.Item
          name="password"
          label={`请输入"${String(record?.userName ?? '')}"的新密码`}
          rules={[
            {
              validator: (_r, value: string | undefined) => {
                const problem = newPasswordProblem(value);
                return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
              },
            },
          ]}
        >
          <Input autoFocus autoComplete="new-password" maxLength={20} placeholder="请输入新密码" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
