import { Form, Input, Modal, Select } from 'antd';
import { useEffect, useState } from 'react';
import { type Customer, listStoreExperts, openCard, type StoreExpert } from '@/api/customer';
import { useSubmit } from '@/utils/useSubmit';

/** 开卡: binds an unused card of the customer's store; user type and expiry follow the card; optionally an expert. */
export function OpenCardDialog({ customer, onClose }: { customer: Customer | null; onClose: (saved: boolean) => void }) {
  const [form] = Form.useForm<{ cardNo: string; expertId?: number }>();
  // Only experts of the customer's store can serve them (the server refuses the others).
  const [experts, setExperts] = useState<StoreExpert[]>([]);
  const storeId = customer?.storeId;
  useEffect(() => {
    if (storeId == null) return;
    listStoreExperts(storeId)
      .then(setExperts)
      .catch(() => setExperts([]));
  }, [storeId]);
  const { busy, submit } = useSubmit(form, async (v) => (await openCard(Number(customer?.studentId), v.cardNo.trim(), v.expertId)).msg, {
    ready: () => customer !== null,
    done: () => {
      form.resetFields();
      onClose(true);
    },
  });
  return (
    <Modal
      title={`开卡 - ${customer?.name ?? ''}`}
      open={customer != null}
      onOk={submit}
      confirmLoading={busy}
      onCancel={() => onClose(false)}
      okText="开卡"
      cancelText="取消"
      destroyOnHidden
    >
      <Form form={form} labelCol={{ flex: '80px' }} preserve={false} initialValues={{ expertId: customer?.expertId ?? undefined }}>
        <Form.Item
          label="卡号"
          name="cardNo"
          rules={[
            { required: true, message: '请输入卡号' },
            { pattern: /^\s*\d{1,15}\s*$/, message: '请输入正确的卡号' },
          ]}
        >
          <Input placeholder="本门店未使用的会员卡卡号" autoFocus />
        </Form.Item>
        <Form.Item label="服务专家" name="expertId" extra="选填：开卡后该专家即可为此学生填报志愿">
          <Select
            allowClear
            showSearch
            optionFilterProp="label"
            placeholder="暂不分配"
            options={experts.map((e) => ({ value: e.userId, label: `${e.nickName || e.userName}（${e.studentCount} 名学生）` }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
