import { useInvalidate } from '@refinedev/core';
import { Form, Input, Modal } from 'antd';
import { deliver, updateAddress } from '@/api/customer';
import { EntityList } from '@/engine/pages/EntityList';
import type { EnginePageProps } from '@/engine/resource';
import { useSubmit } from '@/utils/useSubmit';
import { closeCustomerDialog, useCustomerRequest } from '../userList/requests';

/**
 * 客户资料 (manage/clientData/index): the engine's list of customers (schemas/customer/cus_client.json) with the
 * dialogs of its row buttons (override.tsx): 修改资料 (the postal address) and 邮寄 (the printed report or card, with a
 * tracking number). A save invalidates the cus_client list, and with it an expanded 邮寄记录 (Deliveries).
 */
export default function ClientDataPage({ resource }: EnginePageProps) {
  const invalidate = useInvalidate();
  const [form] = Form.useForm();
  const request = useCustomerRequest(resource.name);
  const customer = request?.customer ?? null;
  const kind = request?.dialog;

  // The dialog is made anew for every opening (destroyOnHidden), starting from these values.
  const initialValues =
    kind === 'address'
      ? { receiver: customer?.receiver ?? customer?.name, receiverMobile: customer?.receiverMobile ?? customer?.mobile, address: customer?.address }
      : { item: '志愿报告', carrier: '顺丰速运' };

  const { busy, submit } = useSubmit(
    form,
    async (v) => {
      const studentId = Number(customer?.studentId);
      return (kind === 'address' ? await updateAddress({ studentId, ...v }) : await deliver({ studentId, ...v })).msg;
    },
    {
      ready: () => customer !== null,
      done: () => {
        closeCustomerDialog();
        invalidate({ resource: resource.name, invalidates: ['list'] });
      },
    },
  );

  return (
    <>
      <EntityList resource={resource} />
      <Modal
        title={kind === 'address' ? `修改资料 - ${customer?.name ?? ''}` : `邮寄 - ${customer?.name ?? ''}`}
        open={kind === 'address' || kind === 'deliver'}
        onOk={submit}
        confirmLoading={busy}
        onCancel={closeCustomerDialog}
        okText="确定"
        cancelText="取消"
        destroyOnHidden
      >
        <Form key={`${kind}-${customer?.studentId}`} form={form} labelCol={{ flex: '90px' }} preserve={false} initialValues={initialValues}>
          {kind === 'address' ? (
            <>
              <Form.Item label="收件人" name="receiver" rules={[{ required: true, whitespace: true, message: '收件人不能为空' }, { max: 30 }]}>
                <Input />
              </Form.Item>
              <Form.Item
                label="收件电话"
                name="receiverMobile"
                rules={[
                  { required: true, message: '收件电话不能为空' },
                  { pattern: /^1\d{10}$/, message: '请输入正确的收件电话' },
                ]}
              >
                <Input maxLength={11} />
              </Form.Item>
              <Form.Item label="收件地址" name="address" rules={[{ required: true, whitespace: true, message: '收件地址不能为空' }, { max: 200 }]}>
                <Input.TextArea rows={3} maxLength={200} showCount />
              </Form.Item>
            </>
          ) : (
            <>
              <div style={{ marginBottom: 16, color: '#606266' }}>
                寄往：
                {customer?.address ? `${customer.receiver ?? ''} ${customer.receiverMobile ?? ''} ${customer.address}` : '未填写收件地址，请先修改资料'}
              </div>
              <Form.Item label="邮寄物品" name="item" rules={[{ required: true, message: '邮寄物品不能为空' }, { max: 50 }]}>
                <Input />
              </Form.Item>
              <Form.Item label="快递公司" name="carrier" rules={[{ required: true, message: '快递公司不能为空' }, { max: 30 }]}>
                <Input />
              </Form.Item>
              <Form.Item
                label="快递单号"
                name="trackingNo"
                rules={[
                  { required: true, message: '快递单号不能为空' },
                  { pattern: /^[A-Za-z0-9-]{6,40}$/, message: '快递单号只能包含字母、数字和-，6 到 40 位' },
                ]}
              >
                <Input />
              </Form.Item>
            </>
          )}
        </Form>
      </Modal>
    </>
  );
}
