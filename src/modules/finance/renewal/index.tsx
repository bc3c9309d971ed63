import { Alert, Button, Card, Descriptions, Space, type TableProps, Tag } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { ORDER_STATUS, type PayOrder, type RenewalInfo, renewalInfo, renewalOrders, yuan } from '@/api/pay';
import { useAccess } from '@/components/Access';
import { formatTime } from '@/modules/customer/shared/format';
import { PagedTable } from '@/modules/customer/shared/SearchTable';
import { usePaged } from '@/modules/customer/shared/usePaged';
import { loadPlatform } from '@/session/loadSession';
import { RenewDialog } from './RenewDialog';

type Query = { pageNum: number; pageSize: number };

/** 账户续费 (finance/renewal/index): the licence's expiry date, 立即续费, and the renewal orders. */
export default function RenewalPage() {
  const { can } = useAccess();
  const [info, setInfo] = useState<RenewalInfo | null>(null);
  const [open, setOpen] = useState(false);
  const paged = usePaged(renewalOrders, { pageNum: 1, pageSize: 10 } as Query);
  const { reload } = paged;
  const refresh = useCallback(() => {
    renewalInfo()
      .then(setInfo)
      .catch(() => undefined);
  }, []);
  useEffect(refresh, []);

  const columns: TableProps<PayOrder>['columns'] = [
    { title: '订单号', dataIndex: 'orderNo', width: 200 },
    { title: '内容', dataIndex: 'subject' },
    { title: '支付方式', dataIndex: 'providerName', width: 100 },
    { title: '金额（元）', dataIndex: 'amountFen', render: yuan, width: 120, align: 'right' },
    { title: '状态', dataIndex: 'status', width: 90, render: (s: PayOrder['status']) => <Tag color={ORDER_STATUS[s]?.color}>{ORDER_STATUS[s]?.text}</Tag> },
    { title: '操作人', dataIndex: 'userName', width: 100 },
    { title: '下单时间', dataIndex: 'createTime', render: formatTime, width: 170 },
    { title: '支付时间', dataIndex: 'paidTime', render: formatTime, width: 170 },
  ];

  return (
    <Card className="zy-page">
      {info?.expired && <Alert type="error" showIcon style={{ marginBottom: 16 }} message={`平台授权已于 ${info.expiredate} 到期，请尽快续费`} />}
      <Descriptions bordered size="middle" column={2} style={{ marginBottom: 16 }} title="平台授权">
        <Descriptions.Item label="到期日期">{info?.expiredate ?? '--'}</Descriptions.Item>
        <Descriptions.Item label="状态">{info ? info.expired ? <Tag color="error">已到期</Tag> : <Tag color="success">使用中</Tag> : '--'}</Descriptions.Item>
        <Descriptions.Item label="续费价格" span={2}>
          <Space wrap>
            {(info?.plans ?? []).map((p) => (
              <Tag key={p.planId}>
                {p.name}：¥ {yuan(p.priceFen)}
              </Tag>
            ))}
          </Space>
        </Descriptions.Item>
      </Descriptions>
      {can('finance:renewal:pay') && (
        <Button type="primary" style={{ marginBottom: 16 }} onClick={() => setOpen(true)}>
          立即续费
        </Button>
      )}
      <PagedTable<PayOrder, Query> paged={paged} rowKey="orderNo" columns={columns} scroll={{ x: 1100 }} />
      <RenewDialog
        open={open}
        onClose={() => setOpen(false)}
        onRenewed={() => {
          refresh();
          reload();
          loadPlatform().catch(() => undefined);
        }}
      />
    </Card>
  );
}
