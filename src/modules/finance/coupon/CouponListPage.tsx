import { DatePicker, Form, Input, InputNumber, Modal, Radio } from 'antd';
import type { Dayjs } from 'dayjs';
import { addCouponBatch, yuanToFen } from '@/api/pay';
import type { EnginePageProps } from '@/engine/resource';
import { useSubmit } from '@/utils/useSubmit';
import { closeAndRefresh, closeDialog, type DialogRequest } from '../storeForms/dialogRequests';
import { FinanceList } from '../storeForms/FinanceList';

interface BatchForm {
  name: string;
  kind: 'amount' | 'discount';
  amount?: number;
  discountPct?: number;
  min?: number;
  valid: [Dayjs, Dayjs];
  total: number;
  perUserLimit: number;
}

/**
 * 新增优惠券 (the toolbar button 新增 of schemas/finance/fin_coupon_batch.json): a 满减券 (an amount off, above a threshold) or
 * a 折扣券 (percent paid), with validity, total and per-user limit. Amounts are typed in yuan and sent in fen to the
 * spec route Coupon/addMoney; a batch's remaining count is only ever changed by the server.
 */
export function CouponForm({ request }: { request: DialogRequest }) {
  const [form] = Form.useForm<BatchForm>();
  const kind = Form.useWatch('kind', form);
  const { busy, submit } = useSubmit(
    form,
    async (v) =>
      (
        await addCouponBatch({
          name: v.name,
          kind: v.kind,
          amountFen: v.kind === 'amount' ? yuanToFen(v.amount ?? null) : undefined,
          discountPct: v.kind === 'discount' ? v.discountPct : undefined,
          minFen: v.min ? yuanToFen(v.min) : 0,
          validFrom: v.valid[0].startOf('day').valueOf(),
          validTo: v.valid[1].endOf('day').valueOf(),
          total: v.total,
          perUserLimit: v.perUserLimit,
        })
      ).msg,
    { done: () => closeAndRefresh(request) },
  );

  return (
    <Modal open title="新增优惠券" okText="确定" cancelText="取消" confirmLoading={busy} onOk={submit} onCancel={closeDialog} width={560}>
      <Form form={form} name="couponBatch" layout="vertical" initialValues={{ kind: 'amount', perUserLimit: 1 }}>
        <Form.Item label="名称" name="name" rules={[{ required: true, message: '请输入优惠券名称' }]}>
          <Input maxLength={50} placeholder="如：开学季立减" />
        </Form.Item>
        <Form.Item label="类型" name="kind">
          <Radio.Group
            options={[
              { value: 'amount', label: '满减券' },
              { value: 'discount', label: '折扣券' },
            ]}
          />
        </Form.Item>
        {kind === 'discount' ? (
          <Form.Item label="支付比例（%）" name="discountPct" rules={[{ required: true, message: '请输入支付比例' }]} extra="80 表示按原价的 80% 支付（八折）">
            <InputNumber min={1} max={99} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        ) : (
          <Form.Item label="减免金额（元）" name="amount" rules={[{ required: true, message: '请输入减免金额' }]}>
            <InputNumber min={0.01} max={1000000} precision={2} style={{ width: '100%' }} />
          </Form.Item>
        )}
        <Form.Item label="使用门槛（元）" name="min" extra="订单金额达到该值才能使用；不填为无门槛">
          <InputNumber min={0} max={1000000} precision={2} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item label="有效期" name="valid" rules={[{ required: true, message: '请选择有效期' }]}>
          <DatePicker.RangePicker style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item label="发放总量" name="total" rules={[{ required: true, message: '请输入发放总量' }]}>
          <InputNumber min={1} max={1000000} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item label="每人限领" name="perUserLimit" rules={[{ required: true, message: '请输入每人限领张数' }]}>
          <InputNumber min={1} max={100} precision={0} style={{ width: '100%' }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 优惠券 (finance/coupon/index): the generic list of batches (停用 / 启用 declared in the schema) and the 新增 dialog. */
export default function CouponListPage({ resource }: EnginePageProps) {
  return <FinanceList resource={resource} dialogs={{ add: CouponForm }} />;
}
