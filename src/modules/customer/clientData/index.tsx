import { App, Button, Card, Form, Input, Modal, Space, Table, type TableProps } from 'antd';
import { useState } from 'react';
import { type Customer, type CustomerQuery, type Delivery, deliver, listClients, listDeliveries, updateAddress } from '@/api/customer';
import { useAccess } from '@/components/Access';
import { formatTime } from '../shared/format';
import { PagedTable, SearchForm } from '../shared/SearchTable';
import { usePaged } from '../shared/usePaged';

type Dialog = { kind: 'address' | 'deliver'; customer: Customer } | null;

/** 客户资料 (manage/clientData/index): the postal address (修改资料) and 邮寄 of the printed report or card. */
export default function ClientDataPage() {
  const { message } = App.useApp();
  const { can } = useAccess();
  const [search] = Form.useForm<{ name?: string; mobile?: string }>();
  const [form] = Form.useForm();
  const paged = usePaged(listClients, { pageNum: 1, pageSize: 20 } as CustomerQuery);
  const { reload } = paged;
  const [dialog, setDialog] = useState<Dialog>(null);
  const [saving, setSaving] = useState(false);
  const [deliveries, setDeliveries] = useState<Record<number, Delivery[]>>({});

  const open = (kind: 'address' | 'deliver', customer: Customer) => {
    form.resetFields();
    if (kind === 'address')
      form.setFieldsValue({
        receiver: customer.receiver ?? customer.name,
        receiverMobile: customer.receiverMobile ?? customer.mobile,
        address: customer.address,
      });
    else form.setFieldsValue({ item: '志愿报告', carrier: '顺丰速运' });
    setDialog({ kind, customer });
  };
  const save = async () => {
    if (!dialog) return;
    const v = await form.validateFields();
    setSaving(true);
    try {
      const id = dialog.customer.studentId;
      const res = dialog.kind === 'address' ? await updateAddress({ studentId: id, ...v }) : await deliver({ studentId: id, ...v });
      message.success(res.msg);
      setDialog(null);
      if (dialog.kind === 'deliver') setDeliveries({ ...deliveries, [id]: await listDeliveries(id) });
      await reload();
    } catch {
      // shown by the http layer
    } finally {
      setSaving(false);
    }
  };

  const columns: TableProps<Customer>['columns'] = [
    { title: '姓名', dataIndex: 'name', width: 100 },
    { title: '手机号码', dataIndex: 'mobile', width: 120, render: (v) => v ?? '--' },
    { title: '用户类型', dataIndex: 'userTypeName', width: 110 },
    { title: '收件人', dataIndex: 'receiver', width: 100, render: (v) => v ?? '--' },
    { title: '收件电话', dataIndex: 'receiverMobile', width: 120, render: (v) => v ?? '--' },
    { title: '收件地址', dataIndex: 'address', ellipsis: true, render: (v) => v ?? <span style={{ color: '#909399' }}>未填写</span> },
    { title: '门店', dataIndex: 'storeName', width: 100 },
    {
      title: '操作',
      key: 'op',
      width: 170,
      render: (_, c) => (
        <Space size={0}>
          {can('manage:client:edit') && (
            <Button type="link" size="small" onClick={() => open('address', c)}>
              修改资料
            </Button>
          )}
          {can('manage:client:deliver') && (
            <Button type="link" size="small" onClick={() => open('deliver', c)}>
              邮寄
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card className="zy-page">
      <SearchForm form={search} paged={paged} toQuery={(v) => ({ name: v.name?.trim() || undefined, mobile: v.mobile?.trim() || undefined })}>
        <Form.Item label="姓名" name="name">
          <Input allowClear placeholder="请输入姓名" style={{ width: 140 }} />
        </Form.Item>
        <Form.Item label="手机号码" name="mobile">
          <Input allowClear placeholder="请输入手机号码" style={{ width: 150 }} />
        </Form.Item>
      </SearchForm>
      <PagedTable<Customer, CustomerQuery>
        paged={paged}
        rowKey="studentId"
        columns={columns}
        scroll={{ x: 1100 }}
        expandable={{
          onExpand: async (expanded, c) => {
            if (expanded) setDeliveries({ ...deliveries, [c.studentId]: await listDeliveries(c.studentId).catch(() => []) });
          },
          expandedRowRender: (c) => (
            <Table<Delivery>
              size="small"
              rowKey="deliveryId"
              pagination={false}
              dataSource={deliveries[c.studentId] ?? []}
              locale={{ emptyText: '暂无邮寄记录' }}
              columns={[
                { title: '邮寄物品', dataIndex: 'item' },
                { title: '快递公司', dataIndex: 'carrier' },
                { title: '快递单号', dataIndex: 'trackingNo' },
                { title: '寄往', dataIndex: 'address' },
                { title: '登记人', dataIndex: 'createByName' },
                { title: '登记时间', dataIndex: 'createTime', render: formatTime },
              ]}
            />
          ),
        }}
      />
      <Modal
        title={dialog?.kind === 'address' ? `修改资料 - ${dialog.customer.name}` : `邮寄 - ${dialog?.customer.name ?? ''}`}
        open={dialog != null}
        onOk={save}
        confirmLoading={saving}
        onCancel={() => setDialog(null)}
        okText="确定"
        cancelText="取消"
        destroyOnHidden
      >
        <Form form={form} labelCol={{ flex: '90px' }} preserve={false}>
          {dialog?.kind === 'address' ? (
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
                {dialog?.customer.address
                  ? `${dialog.customer.receiver ?? ''} ${dialog.customer.receiverMobile ?? ''} ${dialog.customer.address}`
                  : '未填写收件地址，请先修改资料'}
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
    </Card>
  );
}
