import {
  WORK_ORDER_ATTACHMENT_TYPES,
  WORK_ORDER_FORMS,
  WORK_ORDER_MAX_ATTACHMENTS,
  WORK_ORDER_REASON_MAX,
  WORK_ORDER_USER_TYPES,
  type WorkOrderFormSpec,
  workOrderHint,
} from '@common/service/workOrders';
import { Alert, App, Button, Form, Input, InputNumber, Radio, Select, Space } from 'antd';
import { useEffect, useState } from 'react';
import { submitWorkOrder, type WorkOrderCustomer, workOrderCustomers } from '@/api/service';
import { FileUpload } from '@/components/FileUpload';

interface Values {
  cardNo?: string;
  orderNo?: string;
  studentId?: number;
  score?: number;
  examYear?: number;
  userType?: number;
  mobile?: string;
  reason?: string;
  attachments?: string;
}

/** The store's active customers, searched by name or mobile (the customer forms). */
function CustomerPicker({ value, onChange }: { value?: number; onChange?: (v: number | undefined) => void }) {
  const [options, setOptions] = useState<WorkOrderCustomer[]>([]);
  const search = (keyword: string) =>
    workOrderCustomers(keyword)
      .then(setOptions)
      .catch(() => undefined);
  useEffect(() => {
    search('');
  }, []);
  return (
    <Select
      showSearch
      allowClear
      value={value}
      onChange={onChange}
      filterOption={false}
      onSearch={search}
      placeholder="输入姓名或手机号搜索用户"
      options={options.map((c) => ({
        value: c.studentId,
        label: `${c.name}${c.mobile ? `（${c.mobile}）` : ''} · ${c.examYear} 年 · ${c.score ?? '--'} 分 · ${WORK_ORDER_USER_TYPES[c.userType] ?? ''}`,
      }))}
    />
  );
}

/** 提交工单: choose one of the eight types, then fill its own form. */
export function WorkOrderForm({ onSubmitted }: { onSubmitted: () => void }) {
  const { message } = App.useApp();
  const [spec, setSpec] = useState<WorkOrderFormSpec>(WORK_ORDER_FORMS[0]);
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const has = (f: WorkOrderFormSpec['fields'][number]) => spec.fields.includes(f);

  const submit = async (v: Values) => {
    setSaving(true);
    setError(null);
    try {
      const attachments = (v.attachments ? v.attachments.split(',') : [])
        .filter(Boolean)
        .map((url) => ({ url, name: decodeURIComponent(url.split('/').pop() ?? url) }));
      const res = await submitWorkOrder({ ...v, form: spec.key, attachments });
      message.success(`${res.msg}，工单号 ${res.data.orderNo}`);
      form.resetFields();
      onSubmitted();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <Radio.Group
        value={spec.key}
        optionType="button"
        buttonStyle="solid"
        style={{ marginBottom: 16 }}
        onChange={(e) => {
          setSpec(WORK_ORDER_FORMS.find((f) => f.key === e.target.value) ?? WORK_ORDER_FORMS[0]);
          setError(null);
          form.resetFields();
        }}
        options={WORK_ORDER_FORMS.map((f) => ({ label: f.name, value: f.key }))}
      />
      <Alert type="info" showIcon style={{ marginBottom: 16 }} message={workOrderHint(spec)} />
      {error && <Alert type="error" showIcon style={{ marginBottom: 16 }} message={error} />}
      <Form form={form} layout="horizontal" labelCol={{ flex: '110px' }} style={{ maxWidth: 720 }} onFinish={submit}>
        {has('cardNo') && (
          <Form.Item name="cardNo" label="卡号" rules={[{ required: true, message: '请输入卡号' }]}>
            <Input placeholder="未使用的会员卡卡号" maxLength={15} />
          </Form.Item>
        )}
        {has('orderNo') && (
          <Form.Item name="orderNo" label="订单号" rules={[{ required: true, message: '请输入订单号' }]}>
            <Input placeholder="需要退款的支付订单号" maxLength={40} />
          </Form.Item>
        )}
        {has('studentId') && (
          <Form.Item name="studentId" label="用户" rules={[{ required: true, message: '请选择用户' }]}>
            <CustomerPicker />
          </Form.Item>
        )}
        {has('score') && (
          <Form.Item name="score" label="新分数" rules={[{ required: true, message: '请输入新分数' }]}>
            <InputNumber min={0} max={750} precision={0} style={{ width: 200 }} />
          </Form.Item>
        )}
        {has('examYear') && (
          <Form.Item name="examYear" label="新高考年份" rules={[{ required: true, message: '请输入新高考年份' }]}>
            <InputNumber min={2000} max={2100} precision={0} style={{ width: 200 }} />
          </Form.Item>
        )}
        {has('userType') && (
          <Form.Item name="userType" label="新用户类型" rules={[{ required: true, message: '请选择用户类型（权限）' }]}>
            <Select style={{ width: 200 }} options={Object.entries(WORK_ORDER_USER_TYPES).map(([v, label]) => ({ value: Number(v), label }))} />
          </Form.Item>
        )}
        {has('mobile') && (
          <Form.Item name="mobile" label="新手机号" rules={[{ required: true, message: '请输入新手机号' }]}>
            <Input maxLength={11} style={{ width: 200 }} />
          </Form.Item>
        )}
        <Form.Item
          name="reason"
          label={spec.key === 'feedback' ? '反馈内容' : '申请说明'}
          rules={[{ required: true, message: spec.key === 'feedback' ? '反馈内容不能为空' : '申请说明不能为空' }]}
        >
          <Input.TextArea rows={4} maxLength={WORK_ORDER_REASON_MAX} showCount />
        </Form.Item>
        <Form.Item
          name="attachments"
          label="附件"
          extra={spec.minAttachments ? `请上传至少 ${spec.minAttachments} 个凭证` : undefined}
          rules={spec.minAttachments ? [{ required: true, message: `请上传至少 ${spec.minAttachments} 个附件（退款凭证）` }] : []}
        >
          <FileUpload limit={WORK_ORDER_MAX_ATTACHMENTS} fileType={[...WORK_ORDER_ATTACHMENT_TYPES]} />
        </Form.Item>
        <Form.Item label=" " colon={false}>
          <Space>
            <Button type="primary" htmlType="submit" loading={saving}>
              提交工单
            </Button>
            <Button onClick={() => form.resetFields()}>重置</Button>
          </Space>
        </Form.Item>
      </Form>
    </>
  );
}
