import { Checkbox, Form, Input, InputNumber, Modal } from 'antd';
import { useEffect } from 'react';
import { type Customer, updateCustomer } from '@/api/customer';
import { useSubmit } from '@/utils/useSubmit';

const SUBJECTS = [
  { value: '1', label: '物理' },
  { value: '2', label: '化学' },
  { value: '3', label: '生物' },
  { value: '4', label: '历史' },
  { value: '5', label: '地理' },
  { value: '6', label: '政治' },
];

interface Values {
  name: string;
  mobile?: string;
  province: string;
  examYear: number;
  score?: number | null;
  subjects: string[];
}

/** 修改 (update user): the customer's own data, saved with the version it was read at. */
export function CustomerFormDialog({ customer, onClose }: { customer: Customer | null; onClose: (saved: boolean) => void }) {
  const [form] = Form.useForm<Values>();
  useEffect(() => {
    if (customer)
      form.setFieldsValue({
        name: customer.name,
        mobile: customer.mobile ?? undefined,
        province: customer.province,
        examYear: customer.examYear,
        score: customer.score,
        subjects: customer.subjects ? customer.subjects.split(',') : [],
      });
  }, [customer, form]);
  const { busy, submit } = useSubmit(
    form,
    async (v) =>
      (
        await updateCustomer({
          studentId: Number(customer?.studentId),
          version: Number(customer?.version),
          ...v,
          mobile: v.mobile?.trim() || undefined,
          subjects: v.subjects.join(','),
        })
      ).msg,
    { ready: () => customer !== null, done: () => onClose(true) },
  );
  return (
    <Modal
      title="修改用户"
      open={customer != null}
      onOk={submit}
      confirmLoading={busy}
      onCancel={() => onClose(false)}
      okText="确定"
      cancelText="取消"
      destroyOnHidden
    >
      <Form form={form} labelCol={{ flex: '90px' }}>
        <Form.Item label="姓名" name="name" rules={[{ required: true, whitespace: true, message: '姓名不能为空' }, { max: 30 }]}>
          <Input />
        </Form.Item>
        <Form.Item label="手机号码" name="mobile" rules={[{ pattern: /^1\d{10}$/, message: '请输入正确的手机号码' }]}>
          <Input maxLength={11} />
        </Form.Item>
        <Form.Item label="省份" name="province" rules={[{ required: true, message: '省份不能为空' }]}>
          <Input maxLength={20} />
        </Form.Item>
        <Form.Item label="高考年份" name="examYear" rules={[{ required: true, message: '请填写正确的高考年份' }]}>
          <InputNumber min={2000} max={2100} precision={0} />
        </Form.Item>
        <Form.Item label="分数" name="score">
          <InputNumber min={0} max={750} precision={0} />
        </Form.Item>
        <Form.Item label="选科" name="subjects">
          <Checkbox.Group options={SUBJECTS} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
