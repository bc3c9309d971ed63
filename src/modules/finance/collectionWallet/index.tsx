import { collectionEntries } from '@/api/finance';
import { WalletPage } from '../balance/WalletPage';

/** 收款钱包 (finance/collectionWallet/index): what families paid the store online; all of it can be withdrawn (提现). */
export default function CollectionWalletPage() {
  return (
    <WalletPage
      load={collectionEntries}
      figures={(w) => [
        { title: '收款钱包余额', fen: w.collectionFen },
        { title: '可提现金额', fen: w.withdrawableFen, tip: '在“提现”页面申请提现' },
        { title: '提现审核中', fen: w.withdrawPendingFen },
        { title: '累计已提现', fen: w.withdrawnFen },
      ]}
    />
  );
}
