import { App, Form, Input, Modal, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { approvePlan, rejectPlan, reviewConfig } from '@/api/volunteer';

export interface ReviewTarget {
  studentId: number;
  studentName: string;
  version: number;
  itemCount: number;
}

export interface ReviewDialogProps {
  target: ReviewTarget | null;
  mode: 'approve' | 'reject';
  onClose: () => void;
  onDone: () => void;
}

/** 审批通过 (comment optional) or 驳回 (comment required unless 审核配置 says otherwise; up to 500 characters). */
export function ReviewDialog({ target, mode, onClose, onDone }: ReviewDialogProps) {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ comment?: string }>();
  const [saving, setSaving] = useState(false);
  const approve = mode === 'approve';
  // 审核配置 驳回需填写意见: required until the server says otherwise.
  const [commentRequired, setCommentRequired] = useState(true);

  useEffect(() => {
    if (target) form.resetFields();
  }, [target, form]);

  useEffect(() => {
    if (!target || approve) return;
    let live = true;
    reviewConfig()
      .then((config) => {
        if (live) setCommentRequired(config.rejectNeedsComment);
      })
      .catch(() => {
        // Keep asking for a comment; the server decides in the end.
      });
    return () => {
      live = false;
    };
  }, [target, approve]);

  const submit = async ({ comment }: { comment?: string }) => {
    if (!target) return;
    setSaving(true);
    try {
      const text = comment?.trim() || undefined;
      const msg = approve ? await approvePlan(target.studentId, target.version, text) : await rejectPlan(target.studentId, target.version, text ?? '');
      message.success(msg || (approve ? '审批通过' : '已驳回'));
      onDone();
    } catch {
      // The server's reason has been shown (e.g. the plan was withdrawn meanwhile); the comment stays.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={target != null}
      title={approve ? '审批通过' : '驳回志愿方案'}
      okText={approve ? '通过' : '驳回'}
      okButtonProps={{ danger: !approve }}
      cancelText="取消"
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      forceRender
      // Opened from the plan drawer too: stay above it.
      zIndex={1100}
    >
      {target ? (
        <Typography.Paragraph>
          学生 <b>{target.studentName}</b> 的志愿方案（{target.itemCount} 个志愿，版本 {target.version}）。
          {approve ? '通过后方案定稿，专家不能再修改。' : '驳回后专家需按意见修改并重新提交。'}
        </Typography.Paragraph>
      ) : null}
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item
          label={approve ? '审批意见（选填）' : commentRequired ? '驳回意见' : '驳回意见（选填）'}
          name="comment"
          rules={[
            ...(approve || !commentRequired ? [] : [{ required: true, whitespace: true, message: '请填写驳回意见，告诉专家需要怎样修改' }]),
            { max: 500, message: '意见不能超过 500 个字' },
          ]}
        >
          <Input.TextArea rows={4} maxLength={500} showCount placeholder={approve ? '如：梯度合理，同意' : '请说明需要修改的地方'} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
