/**
 * Payment orders on the wire (docs/finance-payments.md): their states and what starting a payment answers. Built by
 * server/finance/orders.ts; the console's pay dialogs (src/modules/finance/) show the QR code or open the page.
 */

/** The online payment providers (server/finance/pay/: one driver each). */
export type ProviderName = 'sandbox' | 'alipay' | 'wechat';

export type OrderStatus = 'created' | 'paid' | 'refunded' | 'closed';
export const ORDER_STATUS_NAMES: Record<OrderStatus, string> = { created: '待支付', paid: '已支付', refunded: '已退款', closed: '已关闭' };

/** A payment started: the order and how to pay it (a page address and/or a QR code), amounts in integer fen. */
export interface CreatedOrder {
  orderNo: string;
  amountFen: number;
  originalFen: number;
  discountFen: number;
  provider: ProviderName;
  expireTime: number;
  payUrl?: string;
  /** The payment QR code as a PNG data URL. */
  qrCode?: string;
}
