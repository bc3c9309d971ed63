import type { CreatedOrder } from '@common/finance/orders';
import type { RenewalPlan } from '@common/finance/renewal';
import { App, Form, Modal, Radio, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { payConfig, renewalInfo, startRenewal, yuan } from '@/api/pay';
import { useSubmit } from '@/utils/useSubmit';
import { PayDialog } from '../rechargeManage/PayDialog';

/**
 * 续费 dialog (账户续费 page and /beOverdue): a plan and how to pay — online (扫码) or at once from the store's 余额.
 * `onRenewed` runs once the server says the renewal is paid (the licence date has then moved).
 */
export function RenewDialog({ open, onClose, onRenewed }: { open: boolean; onClose: () => void; onRenewed: () => void }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ planId: string; payType: string }>();
  const [plans, setPlans] = useState<RenewalPlan[]>([]);
  const [methods, setMethods] = useState<Array<{ value: string; label: string }>>([]);
  const [order, setOrder] = useState<CreatedOrder | null>(null);

  useEffect(() => {
    if (!open) return;
    Promise.all([renewalInfo(), payConfig()])
      .then(([info, config]) => {
        setPlans(info.plans);
        const m = [...config.providers.map((p) => ({ value: p.provider, label: p.name })), { value: 'balance', label: '账户余额' }];
        setMethods(m);
        form.setFieldsValue({ planId: info.plans[0]?.planId, payType: m[0]?.value });
      })
      .catch(() => undefined);
  }, [open, form]);

  // Paid from 余额 at once: toasted and done; paid online: the order's QR code follows (PayDialog), no toast yet.
  const { busy, submit } = useSubmit(form, async (v) => {
    const { data, msg } = await startRenewal(v);
    if (data.status !== 'paid') {
      setOrder(data);
      return;
    }
    message.success(`${msg}，已从账户余额支付`);
    onClose();
    onRenewed();
  });

  return (
    <>
      <Modal open={open && !order} title="账户续费" okText="确认续费" cancelText="取消" confirmLoading={busy} onOk={submit} onCancel={onClose}>
        <Form form={form} layout="vertical">
          <Form.Item label="续费套餐" name="planId" rules={[{ required: true, message: '请选择续费套餐' }]}>
            <Radio.Group>
              {plans.map((p) => (
                <Radio.Button key={p.planId} value={p.planId} style={{ height: 'auto', lineHeight: '22px', padding: '6px 14px' }}>
                  <div>{p.name}</div>
                  <Typography.Text type="danger">¥ {yuan(p.priceFen)}</Typography.Text>
                </Radio.Button>
              ))}
            </Radio.Group>
          </Form.Item>
          <Form.Item label="支付方式" name="payType" rules={[{ required: true, message: '请选择支付方式' }]}>
            <Radio.Group options={methods} />
          </Form.Item>
        </Form>
      </Modal>
      <PayDialog
        order={order}
        title="续费支付"
        onDone={(status) => {
          setOrder(null);
          onClose();
          if (status === 'paid') onRenewed();
        }}
      />
    </>
  );
}
