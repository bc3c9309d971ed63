import { yuanText, yuanToFen } from '@common/finance/checks';
import { Form, Input, Modal, Select } from 'antd';
import { useEffect, useState } from 'react';
import { useSubmit } from '@/utils/useSubmit';

/**
 * The one application dialog of 提现 (申请提现: to a verified bank account, at most 可提现金额) and 发票管理 (申请开票:
 * to an invoice header, at most 可开票金额): a target, an amount typed in yuan (sent in fen, checked against what is
 * available before the server checks it again) and a remark. It shows once `load` has answered (a failed read closes
 * it: the http layer has said why); `send` makes the call and answers its message (toasted), then `onSent` runs.
 */
export interface ApplyDialogProps {
  title: string;
  /** What may be applied for (in fen) and the targets to choose from, read when the dialog opens. */
  load: () => Promise<{ availableFen: number; targets: Array<{ value: number; label: string }> }>;
  /** 可提现金额 / 可开票金额. */
  availableLabel: string;
  targetLabel: string;
  targetRequired: string;
  /** Shown under the target select when there is none to choose. */
  noTargetHint: string;
  amountLabel: string;
  amountRequired: string;
  amountPlaceholder: string;
  overMessage: string;
  send: (v: { targetId: number; amountFen: number; remark?: string }) => Promise<string>;
  onSent: () => void;
  onClose: () => void;
}

export function ApplyDialog(props: ApplyDialogProps) {
  const [form] = Form.useForm<{ targetId: number; amount: string; remark?: string }>();
  const [data, setData] = useState<Awaited<ReturnType<ApplyDialogProps['load']>> | null>(null);
  const { load, onClose } = props;
  useEffect(() => {
    load()
      .then(setData)
      .catch(() => onClose());
  }, [load, onClose]);
  const { busy, submit } = useSubmit(form, (v) => props.send({ targetId: v.targetId, amountFen: yuanToFen(v.amount) as number, remark: v.remark }), {
    done: props.onSent,
  });
  if (!data) return null;
  const { availableFen, targets } = data;
  return (
    <Modal title={props.title} open onOk={submit} onCancel={props.onClose} okText="提交" cancelText="取消" confirmLoading={busy} destroyOnHidden>
      <Form form={form} layout="vertical" preserve={false}>
        <p>
          {props.availableLabel}：{yuanText(availableFen)} 元
        </p>
        <Form.Item
          label={props.targetLabel}
          name="targetId"
          rules={[{ required: true, message: props.targetRequired }]}
          extra={targets.length === 0 ? props.noTargetHint : undefined}
        >
          <Select placeholder="请选择" options={targets} />
        </Form.Item>
        <Form.Item
          label={props.amountLabel}
          name="amount"
          rules={[
            { required: true, message: props.amountRequired },
            {
              validator: (_, v: string) => {
                if (!v) return Promise.resolve();
                const fen = yuanToFen(String(v));
                if (fen == null) return Promise.reject(new Error('金额必须大于 0，最多两位小数'));
                if (fen > availableFen) return Promise.reject(new Error(props.overMessage));
                return Promise.resolve();
              },
            },
          ]}
        >
          <Input placeholder={props.amountPlaceholder} suffix="元" />
        </Form.Item>
        <Form.Item label="备注" name="remark">
          <Input maxLength={200} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
