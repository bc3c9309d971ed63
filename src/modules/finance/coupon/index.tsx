import { App, Button, Card, DatePicker, Form, Input, InputNumber, Modal, Radio, type TableProps, Tag } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { addCouponBatch, type CouponBatch, couponBatches, setCouponBatchStatus, yuan, yuanToFen } from '@/api/pay';
import { useAccess } from '@/components/Access';
import { formatTime } from '@/modules/customer/shared/format';
import { PagedTable, SearchForm } from '@/modules/customer/shared/SearchTable';
import { usePaged } from '@/modules/customer/shared/usePaged';

type Query = { pageNum: number; pageSize: number; name?: string };
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

const STATUS_COLOR: Record<string, string> = { 发放中: 'success', 已停用: 'default', 已过期: 'warning' };

/**
 * 优惠券 (finance/coupon/index): headquarters' coupon batches — 满减券 (an amount off, above a threshold) or 折扣券
 * (percent paid) — with validity, total and per-user limit; 停用 / 启用. A bespoke screen rather than a schema one:
 * amounts are typed in yuan and sent in fen, and a batch's remaining count is only ever changed by the server.
 */
export default function CouponPage() {
  const { message, modal } = App.useApp();
  const { can } = useAccess();
  const [form] = Form.useForm<{ name?: string }>();
  const [addForm] = Form.useForm<BatchForm>();
  const paged = usePaged(couponBatches, { pageNum: 1, pageSize: 20 } as Query);
  const { reload } = paged;
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const kind = Form.useWatch('kind', addForm);
  const issue = can('finance:coupon:issue');

  const submit = async () => {
    const v = await addForm.validateFields();
    setBusy(true);
    try {
      const { msg } = await addCouponBatch({
        name: v.name,
        kind: v.kind,
        amountFen: v.kind === 'amount' ? yuanToFen(v.amount ?? null) : undefined,
        discountPct: v.kind === 'discount' ? v.discountPct : undefined,
        minFen: v.min ? yuanToFen(v.min) : 0,
        validFrom: v.valid[0].startOf('day').valueOf(),
        validTo: v.valid[1].endOf('day').valueOf(),
        total: v.total,
        perUserLimit: v.perUserLimit,
      });
      message.success(msg);
      setOpen(false);
      addForm.resetFields();
      await reload();
    } catch {
      // shown by the http layer
    } finally {
      setBusy(false);
    }
  };

  const toggle = (b: CouponBatch) => {
    const stop = b.status === '0';
    modal.confirm({
      title: stop ? '停用优惠券' : '启用优惠券',
      content: stop ? `确认停用"${b.name}"吗？停用后不能再领取，已领取的仍可在有效期内使用。` : `确认重新启用"${b.name}"吗？`,
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        try {
          const { msg } = await setCouponBatchStatus(b.batchId, stop ? '1' : '0');
          message.success(msg);
          await reload();
        } catch {
          // shown by the http layer
        }
      },
    });
  };

  const columns: TableProps<CouponBatch>['columns'] = [
    { title: '编号', dataIndex: 'batchId', width: 70 },
    { title: '名称', dataIndex: 'name' },
    { title: '类型', dataIndex: 'kindName', width: 90 },
    { title: '优惠', key: 'off', width: 120, render: (_, b) => (b.kind === 'amount' ? `减 ${yuan(b.amountFen)} 元` : `${b.discountPct / 10} 折`) },
    { title: '使用门槛', dataIndex: 'minFen', width: 120, render: (v: number) => (v ? `满 ${yuan(v)} 元` : '无门槛') },
    { title: '有效期', key: 'valid', width: 200, render: (_, b) => `${formatTime(b.validFrom).slice(0, 10)} 至 ${formatTime(b.validTo).slice(0, 10)}` },
    { title: '剩余 / 总量', key: 'count', width: 110, render: (_, b) => `${b.remaining} / ${b.total}` },
    { title: '每人限领', dataIndex: 'perUserLimit', width: 90 },
    { title: '状态', dataIndex: 'statusName', width: 90, render: (s: string) => <Tag color={STATUS_COLOR[s]}>{s}</Tag> },
    { title: '创建人', dataIndex: 'createBy', width: 90 },
    { title: '创建时间', dataIndex: 'createTime', render: formatTime, width: 170 },
    ...(issue
      ? [
          {
            title: '操作',
            key: 'op',
            fixed: 'right' as const,
            width: 80,
            render: (_: unknown, b: CouponBatch) => (
              <Button type="link" size="small" danger={b.status === '0'} onClick={() => toggle(b)}>
                {b.status === '0' ? '停用' : '启用'}
              </Button>
            ),
          },
        ]
      : []),
  ];

  return (
    <Card className="zy-page">
      <SearchForm
        form={form}
        paged={paged}
        toQuery={(v) => v}
        extra={
          issue && (
            <Button type="primary" onClick={() => setOpen(true)}>
              新增
            </Button>
          )
        }
      >
        <Form.Item label="名称" name="name">
          <Input allowClear placeholder="请输入优惠券名称" style={{ width: 180 }} />
        </Form.Item>
      </SearchForm>
      <PagedTable<CouponBatch, Query> paged={paged} rowKey="batchId" columns={columns} scroll={{ x: 1400 }} />

      <Modal open={open} title="新增优惠券" okText="确定" cancelText="取消" confirmLoading={busy} onOk={submit} onCancel={() => setOpen(false)} width={560}>
        <Form form={addForm} name="couponBatch" layout="vertical" initialValues={{ kind: 'amount', perUserLimit: 1 }}>
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
            <Form.Item
              label="支付比例（%）"
              name="discountPct"
              rules={[{ required: true, message: '请输入支付比例' }]}
              extra="80 表示按原价的 80% 支付（八折）"
            >
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
    </Card>
  );
}
