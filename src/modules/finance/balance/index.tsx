import { balanceEntries, exportBalanceEntries } from '@/api/finance';
import { useAccess } from '@/components/Access';
import { ExportButton, WalletPage } from './WalletPage';

/** 账户余额 (finance/balance/index): the store's prepaid balance and its 资金流水, exportable to xlsx. */
export default function BalancePage() {
  const { can } = useAccess();
  return (
    <WalletPage
      load={balanceEntries}
      figures={(w) => [
        { title: '账户余额', fen: w.balanceFen, tip: '用于发卡、账户续费' },
        { title: '累计付款', fen: w.paidFen, tip: '发卡、续费等从余额付给总部的金额' },
        { title: '可开票金额', fen: w.invoiceableFen },
        { title: '收款钱包', fen: w.collectionFen },
      ]}
      extra={(q) => can('finance:balance:export') && <ExportButton onClick={() => exportBalanceEntries(q)} />}
    />
  );
}
