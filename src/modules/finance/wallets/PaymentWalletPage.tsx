import { Alert } from 'antd';
import { useMemo } from 'react';
import { useLocation } from 'react-router';
import { EntityList } from '@/engine/pages/EntityList';
import { linkSearchOf } from '@/engine/pages/ResourcePage';
import type { EnginePageProps } from '@/engine/resource';

/**
 * 付款钱包 (finance/paymentWallet/index, schemas/finance/fin_payment_entry.json): the generic list of what the store paid
 * out of its balance, under a note saying what it counts — it is a view of the balance account's outgoing postings,
 * not an account of its own (docs/finance.md).
 */
export default function PaymentWalletPage({ resource }: EnginePageProps) {
  const { search } = useLocation();
  const linkSearch = useMemo(() => linkSearchOf(resource.schema, search), [resource.schema, search]);
  return (
    <>
      <Alert type="info" showIcon style={{ margin: '16px 16px 0' }} message="付款钱包记录门店从账户余额付给总部的每一笔款项（发卡、账户续费等）。" />
      <EntityList key={search} resource={resource} linkSearch={linkSearch} />
    </>
  );
}
