import { UploadOutlined } from '@ant-design/icons';
import type { CreatedOrder } from '@common/finance/orders';
import { Alert, App, Button, Card, Descriptions, Form, Input, InputNumber, Modal, Radio, Select, Space, type TableProps, Tag, Upload } from 'antd';
import { useEffect, useState } from 'react';
import {
  confirmRecharge,
  RECHARGE_STATUS,
  type Recharge,
  type RechargeTypes,
  rechargeLog,
  rechargeOffline,
  rechargeOnline,
  rechargeTypes,
  rejectRecharge,
  uploadVoucher,
  yuan,
  yuanToFen,
} from '@/api/pay';
import { useAccess } from '@/components/Access';
import { formatTime } from '@/modules/customer/shared/format';
import { PagedTable, SearchForm } from '@/modules/customer/shared/SearchTable';
import { StoreSelect, useStores } from '@/modules/customer/shared/StoreSelect';
import { usePaged } from '@/modules/customer/shared/usePaged';
import { PayDialog } from './PayDialog';

type Query = { pageNum: number; pageSize: number; storeId?: number; status?: string; method?: string };

/** An amount typed in yuan: more than 0, at most two decimals. */
const amountRules = [
  { required: true, message: '请输入充值金额' },
  {
    validator: (_: unknown, v: number | null) =>
      v == null || (yuanToFen(v) ?? 0) > 0 ? Promise.resolve() : Promise.reject(new Error('充值金额必须大于 0，最多两位小数')),
  },
];

/**
 * 充值管理 (finance/rechargeManage/index): a store tops up its 余额 online (扫码支付 through the configured provider) or
 * by bank transfer with a voucher; headquarters confirms (确认到账) or rejects (驳回, with a reason) the transfers.
 */
export default function RechargeManagePage() {
  const { message, modal } = App.useApp();
  const { can } = useAccess();
  const stores = useStores();
  const [form] = Form.useForm<{ storeId?: number; status?: string; method?: string }>();
  const paged = usePaged(rechargeLog, { pageNum: 1, pageSize: 20 } as Query);
  const { reload } = paged;
  const [types, setTypes] = useState<RechargeTypes | null>(null);
  const [dialog, setDialog] = useState<'online' | 'offline' | null>(null);
  const [order, setOrder] = useState<CreatedOrder | null>(null);
  const [busy, setBusy] = useState(false);
  const [onlineForm] = Form.useForm<{ amount: number; provider: string }>();
  const [offlineForm] = Form.useForm<{ amount: number; remark?: string }>();
  const [voucher, setVoucher] = useState<{ url: string; fileName: string } | null>(null);
  const [rejecting, setRejecting] = useState<Recharge | null>(null);
  const [reason, setReason] = useState('');

  useEffect(() => {
    rechargeTypes()
      .then(setTypes)
      .catch(() => undefined);
  }, []);

  const submitOnline = async () => {
    const v = await onlineForm.validateFields();
    setBusy(true);
    try {
      const { data } = await rechargeOnline({ amountFen: yuanToFen(v.amount) as number, provider: v.provider });
      setDialog(null);
      setOrder(data);
      await reload();
    } catch {
      // shown by the http layer
    } finally {
      setBusy(false);
    }
  };

  const submitOffline = async () => {
    const v = await offlineForm.validateFields();
    if (!voucher) {
      message.error('请上传转账凭证');
      return;
    }
    setBusy(true);
    try {
      const { msg } = await rechargeOffline({
        amountFen: yuanToFen(v.amount) as number,
        voucherUrl: voucher.url,
        voucherName: voucher.fileName,
        remark: v.remark,
      });
      message.success(msg);
      setDialog(null);
      setVoucher(null);
      offlineForm.resetFields();
      await reload();
    } catch {
      // shown by the http layer
    } finally {
      setBusy(false);
    }
  };

  const confirm = (r: Recharge) =>
    modal.confirm({
      title: '确认到账',
      content: `确认已收到 ${r.storeName ?? ''} 的转账 ${yuan(r.amountFen)} 元？确认后金额立即计入该门店余额。`,
      okText: '确认到账',
      cancelText: '取消',
      onOk: async () => {
        try {
          const { msg } = await confirmRecharge(r.rechargeId);
          message.success(msg);
          await reload();
        } catch {
          // shown by the http layer
        }
      },
    });

  const reject = async () => {
    if (!rejecting) return;
    if (!reason.trim()) {
      message.error('请填写驳回原因');
      return;
    }
    try {
      const { msg } = await rejectRecharge(rejecting.rechargeId, reason.trim());
      message.success(msg);
      setRejecting(null);
      setReason('');
      await reload();
    } catch {
      // shown by the http layer
    }
  };

  const review = can('finance:recharge:review');
  const columns: TableProps<Recharge>['columns'] = [
    { title: '编号', dataIndex: 'rechargeId', width: 70 },
    ...(stores?.allStores ? [{ title: '门店', dataIndex: 'storeName', width: 110 }] : []),
    { title: '充值方式', dataIndex: 'methodName', width: 100 },
    { title: '支付渠道', dataIndex: 'providerName', width: 100 },
    { title: '金额（元）', dataIndex: 'amountFen', render: yuan, width: 120, align: 'right' },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      render: (s: Recharge['status']) => <Tag color={RECHARGE_STATUS[s]?.color}>{RECHARGE_STATUS[s]?.text ?? s}</Tag>,
    },
    { title: '订单号', dataIndex: 'orderNo', width: 200, render: (v) => v ?? '--' },
    {
      title: '转账凭证',
      dataIndex: 'voucherUrl',
      width: 100,
      render: (url: string | null) =>
        url ? (
          <a href={url} target="_blank" rel="noopener noreferrer">
            查看凭证
          </a>
        ) : (
          '--'
        ),
    },
    { title: '备注 / 驳回原因', key: 'note', ellipsis: true, render: (_, r) => r.reason ?? r.remark ?? '' },
    { title: '申请人', dataIndex: 'createBy', width: 90 },
    { title: '申请时间', dataIndex: 'createTime', render: formatTime, width: 170 },
    { title: '审核人', dataIndex: 'reviewBy', width: 90, render: (v) => v ?? '--' },
    ...(review
      ? [
          {
            title: '操作',
            key: 'op',
            fixed: 'right' as const,
            width: 150,
            render: (_: unknown, r: Recharge) =>
              r.status === 'pending' ? (
                <Space size={0}>
                  <Button type="link" size="small" onClick={() => confirm(r)}>
                    确认到账
                  </Button>
                  <Button type="link" size="small" danger onClick={() => setRejecting(r)}>
                    驳回
                  </Button>
                </Space>
              ) : null,
          },
        ]
      : []),
  ];

  const apply = can('finance:recharge:apply');
  return (
    <Card className="zy-page">
      {types?.online.some((p) => p.provider === 'sandbox') && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          message="当前启用了模拟支付（开发与测试用，不会产生真实扣款）。正式使用前请联系管理员配置支付宝或微信支付，并关闭模拟支付。"
        />
      )}
      <SearchForm
        form={form}
        paged={paged}
        toQuery={(v) => v}
        extra={
          apply && (
            <>
              <Button
                type="primary"
                onClick={() => {
                  onlineForm.setFieldsValue({ provider: types?.online[0]?.provider });
                  setDialog('online');
                }}
              >
                在线充值
              </Button>
              <Button onClick={() => setDialog('offline')}>线下转账充值</Button>
            </>
          )
        }
      >
        {stores?.allStores && (
          <Form.Item label="门店" name="storeId">
            <StoreSelect stores={stores.stores} />
          </Form.Item>
        )}
        <Form.Item label="状态" name="status">
          <Select
            allowClear
            placeholder="全部"
            style={{ width: 110 }}
            options={Object.entries(RECHARGE_STATUS).map(([value, s]) => ({ value, label: s.text }))}
          />
        </Form.Item>
        <Form.Item label="充值方式" name="method">
          <Select
            allowClear
            placeholder="全部"
            style={{ width: 120 }}
            options={[
              { value: 'online', label: '在线支付' },
              { value: 'offline', label: '线下转账' },
            ]}
          />
        </Form.Item>
      </SearchForm>
      <PagedTable<Recharge, Query> paged={paged} rowKey="rechargeId" columns={columns} scroll={{ x: 1500 }} />

      <Modal
        open={dialog === 'online'}
        title="在线充值"
        okText="去支付"
        cancelText="取消"
        confirmLoading={busy}
        onOk={submitOnline}
        onCancel={() => setDialog(null)}
        destroyOnHidden
      >
        <Form form={onlineForm} layout="vertical" preserve={false}>
          <Form.Item label="充值金额（元）" name="amount" rules={amountRules}>
            <InputNumber min={0.01} max={1000000} precision={2} style={{ width: '100%' }} placeholder="请输入充值金额" />
          </Form.Item>
          <Form.Item label="支付方式" name="provider" rules={[{ required: true, message: '请选择支付方式' }]} initialValue={types?.online[0]?.provider}>
            <Radio.Group options={(types?.online ?? []).map((p) => ({ value: p.provider, label: p.name }))} />
          </Form.Item>
        </Form>
      </Modal>

      <Modal
        open={dialog === 'offline'}
        title="线下转账充值"
        okText="提交审核"
        cancelText="取消"
        confirmLoading={busy}
        onOk={submitOffline}
        onCancel={() => setDialog(null)}
      >
        {types && (
          <Descriptions size="small" column={1} bordered style={{ marginBottom: 16 }} title="请转账至总部账户">
            <Descriptions.Item label="户名">{types.offline.accountName}</Descriptions.Item>
            <Descriptions.Item label="开户银行">{types.offline.bankName}</Descriptions.Item>
            <Descriptions.Item label="账号">{types.offline.cardNo || '--'}</Descriptions.Item>
          </Descriptions>
        )}
        <Form form={offlineForm} layout="vertical">
          <Form.Item label="转账金额（元）" name="amount" rules={amountRules}>
            <InputNumber min={0.01} max={1000000} precision={2} style={{ width: '100%' }} placeholder="请输入转账金额" />
          </Form.Item>
          <Form.Item label="转账凭证" required extra="图片（png、jpg）或 PDF，不超过 5 MB">
            <Upload
              accept=".png,.jpg,.jpeg,.pdf"
              maxCount={1}
              showUploadList={false}
              customRequest={async ({ file }) => {
                try {
                  setVoucher(await uploadVoucher(file as File));
                } catch {
                  setVoucher(null);
                }
              }}
            >
              <Button icon={<UploadOutlined />}>{voucher ? '重新上传' : '上传凭证'}</Button>
            </Upload>
            {voucher && (
              <a href={voucher.url} target="_blank" rel="noopener noreferrer" style={{ marginLeft: 12 }}>
                {voucher.fileName || '已上传'}
              </a>
            )}
          </Form.Item>
          <Form.Item label="备注" name="remark">
            <Input.TextArea maxLength={200} rows={2} placeholder="转账流水号等（选填）" />
          </Form.Item>
        </Form>
      </Modal>

      <Modal
        open={Boolean(rejecting)}
        title="驳回充值"
        okText="驳回"
        okButtonProps={{ danger: true }}
        cancelText="取消"
        onOk={reject}
        onCancel={() => setRejecting(null)}
      >
        <Input.TextArea value={reason} onChange={(e) => setReason(e.target.value)} maxLength={200} rows={3} placeholder="请填写驳回原因" />
      </Modal>

      <PayDialog
        order={order}
        title="扫码支付"
        onDone={() => {
          setOrder(null);
          reload();
        }}
      />
    </Card>
  );
}
