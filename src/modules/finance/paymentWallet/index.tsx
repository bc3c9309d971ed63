import { Alert } from 'antd';
import { paymentEntries } from '@/api/finance';
import { WalletPage } from '../balance/WalletPage';

/**
 * 付款钱包 (finance/paymentWallet/index): what the store paid out of its balance — card releases, renewals. It is a
 * view of the outgoing postings of the balance account, not an account of its own (docs/finance.md).
 */
export default function PaymentWalletPage() {
  return (
    <WalletPage
      load={paymentEntries}
      figures={(w) => [
        { title: '累计付款', fen: w.paidFen, tip: '已扣除退款' },
        { title: '已申请开票', fen: w.invoicedFen },
        { title: '可开票金额', fen: w.invoiceableFen },
        { title: '账户余额', fen: w.balanceFen },
      ]}
      note={<Alert type="info" showIcon style={{ marginBottom: 12 }} message="付款钱包记录门店从账户余额付给总部的每一笔款项（发卡、账户续费等）。" />}
    />
  );
}
