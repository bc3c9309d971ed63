import { App, Badge, Button, Card, Form, Input, Modal, Radio, Select, Space, type TableProps, Tag } from 'antd';
import { useState } from 'react';
import { listMessages, type Message, removeMessages, sendMessage } from '@/api/customer';
import { useAccess } from '@/components/Access';
import { CustomerSelect } from '../shared/CustomerSelect';
import { formatTime } from '../shared/format';
import { PagedTable, SearchForm } from '../shared/SearchTable';
import { usePaged } from '../shared/usePaged';

type MessageQuery = { pageNum: number; pageSize: number; readStatus?: number; title?: string };

interface SendValues {
  target: 'one' | 'selected' | 'all';
  one?: number;
  selected?: number[];
  title: string;
  content: string;
}

/** 消息管理 (manage/message/index): send to one customer, a selection or all; read status 0 未读 / 1 已读 (spec §4). */
export default function MessagePage() {
  const { modal, message } = App.useApp();
  const { can } = useAccess();
  const [search] = Form.useForm<{ readStatus?: number; title?: string }>();
  const [form] = Form.useForm<SendValues>();
  const target = Form.useWatch('target', form);
  const paged = usePaged(listMessages, { pageNum: 1, pageSize: 20 } as MessageQuery);
  const { page, reload } = paged;
  const [open, setOpen] = useState(false);
  const [saving, setSaving] = useState(false);
  const [selected, setSelected] = useState<number[]>([]);

  const send = async () => {
    const v = await form.validateFields();
    const studentIds = v.target === 'one' ? [v.one as number] : v.target === 'selected' ? (v.selected ?? []) : undefined;
    const go = async () => {
      setSaving(true);
      try {
        const res = await sendMessage({ target: v.target, studentIds, title: v.title, content: v.content });
        message.success(`${res.msg}，共 ${res.data.sent} 人`);
        setOpen(false);
        await reload();
      } catch {
        // shown by the http layer
      } finally {
        setSaving(false);
      }
    };
    if (v.target === 'all')
      modal.confirm({
        title: '发送给全部用户',
        content: '消息将发送给本门店（总部为全部门店）的全部用户，确定发送吗？',
        okText: '发送',
        cancelText: '取消',
        onOk: go,
      });
    else await go();
  };
  const remove = (ids: number[]) =>
    modal.confirm({
      title: '系统提示',
      content: `是否确认删除所选 ${ids.length} 条消息？`,
      okText: '删除',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        message.success((await removeMessages(ids)).msg);
        setSelected([]);
        await reload();
      },
    });

  const columns: TableProps<Message>['columns'] = [
    { title: '接收用户', dataIndex: 'studentName', width: 100 },
    { title: '标题', dataIndex: 'title', width: 180 },
    { title: '内容', dataIndex: 'content', ellipsis: true },
    { title: '状态', dataIndex: 'readStatus', width: 80, render: (v: number) => (v ? <Tag>已读</Tag> : <Tag color="processing">未读</Tag>) },
    { title: '阅读时间', dataIndex: 'readTime', render: formatTime, width: 170 },
    { title: '发送人', dataIndex: 'createByName', width: 90 },
    { title: '发送时间', dataIndex: 'createTime', render: formatTime, width: 170 },
  ];

  return (
    <Card className="zy-page">
      <SearchForm form={search} paged={paged} toQuery={(v) => ({ readStatus: v.readStatus, title: v.title?.trim() || undefined })}>
        <Form.Item label="标题" name="title">
          <Input allowClear placeholder="请输入标题" style={{ width: 160 }} />
        </Form.Item>
        <Form.Item label="状态" name="readStatus">
          <Select
            allowClear
            placeholder="全部"
            style={{ width: 100 }}
            options={[
              { value: 0, label: '未读' },
              { value: 1, label: '已读' },
            ]}
          />
        </Form.Item>
      </SearchForm>
      <Space style={{ marginBottom: 12 }}>
        {can('manage:message:add') && (
          <Button
            type="primary"
            onClick={() => {
              form.resetFields();
              setOpen(true);
            }}
          >
            发送消息
          </Button>
        )}
        {can('manage:message:remove') && (
          <Button danger disabled={!selected.length} onClick={() => remove(selected)}>
            删除
          </Button>
        )}
        <Badge count={Number(page.unread ?? 0)} overflowCount={9999} showZero color="#409EFF">
          <span style={{ padding: '0 12px' }}>未读消息</span>
        </Badge>
      </Space>
      <PagedTable<Message, MessageQuery>
        paged={paged}
        rowKey="messageId"
        columns={columns}
        scroll={{ x: 1000 }}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) }}
      />
      <Modal
        title="发送消息"
        open={open}
        onOk={send}
        confirmLoading={saving}
        onCancel={() => setOpen(false)}
        okText="发送"
        cancelText="取消"
        destroyOnHidden
        width={600}
      >
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
    </Card>
  );
}
