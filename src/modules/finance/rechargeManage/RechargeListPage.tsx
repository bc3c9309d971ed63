import { UploadOutlined } from '@ant-design/icons';
import type { CreatedOrder } from '@common/finance/orders';
import { Alert, App, Button, Descriptions, Form, Input, InputNumber, Modal, Radio, Upload } from 'antd';
import { useEffect, useState } from 'react';
import { type RechargeTypes, rechargeOffline, rechargeOnline, rechargeTypes, uploadVoucher, yuanToFen } from '@/api/pay';
import type { EnginePageProps } from '@/engine/resource';
import { useSubmit } from '@/utils/useSubmit';
import { closeAndRefresh, closeDialog, type DialogRequest } from '../storeForms/dialogRequests';
import { FinanceList } from '../storeForms/FinanceList';
import { PayDialog } from './PayDialog';

/** An amount typed in yuan: more than 0, at most two decimals. */
const amountRules = [
  { required: true, message: '请输入充值金额' },
  {
    validator: (_: unknown, v: number | null) =>
      v == null || (yuanToFen(v) ?? 0) > 0 ? Promise.resolve() : Promise.reject(new Error('充值金额必须大于 0，最多两位小数')),
  },
];

/**
 * 充值管理 (finance/rechargeManage/index, schemas/finance/fin_recharge.json): the generic list of recharges with
 * 确认到账 / 驳回 declared in the schema; around it the sandbox warning and the dialogs of the toolbar buttons of
 * overrides.tsx: 在线充值 (then 扫码支付, watched until the server says paid) and 线下转账充值 (a transfer voucher).
 */
export default function RechargeListPage({ resource }: EnginePageProps) {
  const [types, setTypes] = useState<RechargeTypes | null>(null);
  const [order, setOrder] = useState<{ order: CreatedOrder; refresh: () => void } | null>(null);
  useEffect(() => {
    rechargeTypes()
      .then(setTypes)
      .catch(() => undefined);
  }, []);
  return (
    <>
      <FinanceList
        resource={resource}
        above={
          types?.online.some((p) => p.provider === 'sandbox') && (
            <Alert
              type="warning"
              showIcon
              style={{ margin: '16px 16px 0' }}
              message="当前启用了模拟支付（开发与测试用，不会产生真实扣款）。正式使用前请联系管理员配置支付宝或微信支付，并关闭模拟支付。"
            />
          )
        }
        dialogs={(request) =>
          request && (
            <>
              {request.kind === 'online' && (
                <OnlineRecharge request={request} types={types} onOrder={(o) => setOrder({ order: o, refresh: request.ctx.refresh })} />
              )}
              {request.kind === 'offline' && <OfflineRecharge request={request} types={types} />}
            </>
          )
        }
      />
      <PayDialog
        order={order?.order ?? null}
        title="扫码支付"
        onDone={() => {
          order?.refresh();
          setOrder(null);
        }}
      />
    </>
  );
}

function OnlineRecharge({ request, types, onOrder }: { request: DialogRequest; types: RechargeTypes | null; onOrder: (o: CreatedOrder) => void }) {
  const [form] = Form.useForm<{ amount: number; provider: string }>();
  // No toast: the order's QR code (PayDialog) follows at once.
  const { busy, submit } = useSubmit(form, async (v) => {
    const { data } = await rechargeOnline({ amountFen: yuanToFen(v.amount) as number, provider: v.provider });
    closeAndRefresh(request);
    onOrder(data);
  });
  return (
    <Modal open title="在线充值" okText="去支付" cancelText="取消" confirmLoading={busy} onOk={submit} onCancel={closeDialog} destroyOnHidden>
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item label="充值金额（元）" name="amount" rules={amountRules}>
          <InputNumber min={0.01} max={1000000} precision={2} style={{ width: '100%' }} placeholder="请输入充值金额" />
        </Form.Item>
        <Form.Item label="支付方式" name="provider" rules={[{ required: true, message: '请选择支付方式' }]} initialValue={types?.online[0]?.provider}>
          <Radio.Group options={(types?.online ?? []).map((p) => ({ value: p.provider, label: p.name }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function OfflineRecharge({ request, types }: { request: DialogRequest; types: RechargeTypes | null }) {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ amount: number; remark?: string }>();
  const [voucher, setVoucher] = useState<{ url: string; fileName: string } | null>(null);
  const { busy, submit } = useSubmit(
    form,
    async (v) =>
      (
        await rechargeOffline({
          amountFen: yuanToFen(v.amount) as number,
          voucherUrl: voucher?.url as string,
          voucherName: voucher?.fileName as string,
          remark: v.remark,
        })
      ).msg,
    {
      ready: () => {
        if (!voucher) message.error('请上传转账凭证');
        return voucher !== null;
      },
      done: () => closeAndRefresh(request),
    },
  );
  return (
    <Modal open title="线下转账充值" okText="提交审核" cancelText="取消" confirmLoading={busy} onOk={submit} onCancel={closeDialog}>
      {types && (
        <Descriptions size="small" column={1} bordered style={{ marginBottom: 16 }} title="请转账至总部账户">
          <Descriptions.Item label="户名">{types.offline.accountName}</Descriptions.Item>
          <Descriptions.Item label="开户银行">{types.offline.bankName}</Descriptions.Item>
          <Descriptions.Item label="账号">{types.offline.cardNo || '--'}</Descriptions.Item>
        </Descriptions>
      )}
      <Form form={form} layout="vertical">
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
  );
}
