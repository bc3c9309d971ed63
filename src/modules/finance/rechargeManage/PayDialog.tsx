import type { CreatedOrder, OrderStatus } from '@common/finance/orders';
import { Button, Modal, Result, Space, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { ORDER_STATUS, orderStatus, yuan } from '@/api/pay';

const POLL_MS = 2000;

/**
 * 扫码支付: the order's QR code and payment page, watched until the server says it is paid (or closed). Only the
 * server decides: the dialog polls the order's state; it never marks anything paid itself.
 */
export function PayDialog({ order, title, onDone }: { order: CreatedOrder | null; title: string; onDone: (status: OrderStatus | null) => void }) {
  const [status, setStatus] = useState<OrderStatus>('created');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    setStatus('created');
    if (!order) return;
    let stopped = false;
    const poll = async () => {
      try {
        const o = await orderStatus(order.orderNo);
        if (stopped) return;
        setStatus(o.status);
        if (o.status !== 'created') return;
      } catch {
        // shown by the http layer; keep watching
      }
      if (!stopped) timer.current = setTimeout(poll, POLL_MS);
    };
    timer.current = setTimeout(poll, POLL_MS);
    return () => {
      stopped = true;
      if (timer.current) clearTimeout(timer.current);
    };
  }, [order]);

  if (!order) return null;
  const finished = status !== 'created';
  return (
    <Modal
      open
      title={title}
      width={420}
      maskClosable={false}
      onCancel={() => onDone(finished ? status : null)}
      footer={
        <Button type={finished ? 'primary' : 'default'} onClick={() => onDone(finished ? status : null)}>
          {finished ? '完成' : '关闭'}
        </Button>
      }
    >
      {status === 'paid' ? (
        <Result status="success" title="支付成功" subTitle={`已支付 ${yuan(order.amountFen)} 元，订单号 ${order.orderNo}`} />
      ) : finished ? (
        <Result status="warning" title={`订单${ORDER_STATUS[status].text}`} subTitle={`订单号 ${order.orderNo}`} />
      ) : (
        <Space direction="vertical" align="center" style={{ width: '100%' }}>
          <Typography.Text>
            应付金额{' '}
            <Typography.Text strong style={{ fontSize: 22, color: '#f5222d' }}>
              {yuan(order.amountFen)}
            </Typography.Text>{' '}
            元{order.discountFen > 0 ? `（已优惠 ${yuan(order.discountFen)} 元）` : ''}
          </Typography.Text>
          {order.qrCode && <img src={order.qrCode} alt="支付二维码" width={200} height={200} />}
          <Typography.Text type="secondary">请扫码或打开支付页面完成支付，支付完成后本窗口自动更新</Typography.Text>
          {order.payUrl && (
            <Button type="primary" href={order.payUrl} target="_blank" rel="noopener noreferrer">
              打开支付页面
            </Button>
          )}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            订单号 {order.orderNo}
          </Typography.Text>
        </Space>
      )}
    </Modal>
  );
}
