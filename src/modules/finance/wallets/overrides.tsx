import { yuanText } from '@common/finance/checks';
import type { BaseRecord } from '@refinedev/core';
import { Tag } from 'antd';
import type { ResourceOverride } from '@/engine/resource';
import { storeSearch } from '../storeForms/StoreSearch';

/**
 * 账户余额, 收款钱包, 付款钱包 (schemas/finance/fin_balance_entry.json, fin_collection_entry.json,
 * fin_payment_entry.json): one store's 资金流水 as the generic list, the wallet figures above it read from the list
 * answer (x-header from "list"). What JSON cannot say is here: fen shown as yuan — a change signed and coloured (in
 * green, out red) —, 类型 as a tag, 操作人 -- when none, the 门店 field for headquarters only, and 付款钱包's note.
 */

const yuan = (value: unknown) => yuanText(Number(value ?? 0));

function signedYuan(value: unknown) {
  const fen = Number(value ?? 0);
  return <span style={{ color: fen < 0 ? '#cf1322' : '#389e0d' }}>{`${fen > 0 ? '+' : ''}${yuanText(fen)}`}</span>;
}

const walletOverride: ResourceOverride = {
  searchFields: { storeId: storeSearch },
  cells: {
    // The server's name of the posting type (the schema's x-enumLabels are the same names, for the 类型 search).
    type: (value, r: BaseRecord) => <Tag>{String(r.typeName ?? value ?? '')}</Tag>,
    amountFen: signedYuan,
    balanceAfterFen: yuan,
    userName: (value) => (value === null || value === undefined || value === '' ? '--' : String(value)),
  },
};

/** The overrides of the wallet screens by schema $id. */
export const overrides: Record<string, ResourceOverride> = {
  fin_balance_entry: walletOverride,
  fin_collection_entry: walletOverride,
  fin_payment_entry: { ...walletOverride, pages: { list: () => import('./PaymentWalletPage') } },
};
