import { App, Form, Input, Modal, Radio } from 'antd';
import { sendMessage } from '@/api/customer';
import { EntityList } from '@/engine/pages/EntityList';
import type { EnginePageProps } from '@/engine/resource';
import { useSubmit } from '@/utils/useSubmit';
import { CustomerSelect } from '../shared/CustomerSelect';
import { requestSend, useSendRequest } from './sendRequest';

interface SendValues {
  target: 'one' | 'selected' | 'all';
  one?: number;
  selected?: number[];
  title: string;
  content: string;
}

/** 消息管理: the generic list with the 发送消息 dialog its toolbar button opens (override.tsx). */
export default function MessagePage({ resource }: EnginePageProps) {
  const request = useSendRequest();
  return (
    <>
      <EntityList resource={resource} />
      {request && <SendDialog onClose={() => requestSend(null)} onSent={request.refresh} />}
    </>
  );
}

/** Send to one customer, a selection, or every customer of the store (headquarters: of every store), after a confirm. */
function SendDialog({ onClose, onSent }: { onClose: () => void; onSent: () => void }) {
  const { modal } = App.useApp();
  const [form] = Form.useForm<SendValues>();
  const target = Form.useWatch('target', form);
  const { busy, run } = useSubmit(
    form,
    async (v) => {
      const studentIds = v.target === 'one' ? [v.one as number] : v.target === 'selected' ? (v.selected ?? []) : undefined;
      const res = await sendMessage({ target: v.target, studentIds, title: v.title, content: v.content });
      return `${res.msg}，共 ${res.data.sent} 人`;
    },
    {
      done: () => {
        onClose();
        onSent();
      },
    },
  );

  // To every customer only after a confirm, which stays open (its OK loading) until the server has answered.
  const send = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    if (v.target === 'all')
      modal.confirm({
        title: '发送给全部用户',
        content: '消息将发送给本门店（总部为全部门店）的全部用户，确定发送吗？',
        okText: '发送',
        cancelText: '取消',
        onOk: () => run(v),
      });
    else await run(v);
  };

  return (
    <Modal title="发送消息" open onOk={send} confirmLoading={busy} onCancel={onClose} okText="发送" cancelText="取消" destroyOnHidden width={600}>
      <Form form={form} name="messageDialog" labelCol={{ flex: '90px' }} initialValues={{ target: 'one' }}>
        <Form.Item label="发送范围" name="target">
          <Radio.Group
            options={[
              { value: 'one', label: '单个用户' },
              { value: 'selected', label: '所选用户' },
              { value: 'all', label: '全部用户' },
            ]}
          />
        </Form.Item>
        {target === 'one' && (
          <Form.Item label="接收用户" name="one" rules={[{ required: true, message: '请选择接收消息的用户' }]}>
            <CustomerSelect />
          </Form.Item>
        )}
        {target === 'selected' && (
          <Form.Item label="接收用户" name="selected" rules={[{ required: true, message: '请选择接收消息的用户' }]}>
            <CustomerSelect multiple />
          </Form.Item>
        )}
        <Form.Item label="消息标题" name="title" rules={[{ required: true, whitespace: true, message: '消息标题不能为空' }, { max: 50 }]}>
          <Input maxLength={50} showCount />
        </Form.Item>
        <Form.Item label="消息内容" name="content" rules={[{ required: true, whitespace: true, message: '消息内容不能为空' }, { max: 2000 }]}>
          <Input.TextArea rows={5} maxLength={2000} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}
