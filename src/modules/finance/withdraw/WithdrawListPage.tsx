import { bankCardProblem } from '@common/finance/checks';
import { Button, Modal, Tag, Timeline } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { type BankAccount, commitCash, getWallet, listBanks, removeBank, saveBank, verifyBank, withdrawalTrail } from '@/api/finance';
import { useAccess } from '@/components/Access';
import type { EnginePageProps } from '@/engine/resource';
import { parseTime } from '@/utils/format';
import { AccountsDialog } from '../storeForms/AccountsDialog';
import { ApplyDialog } from '../storeForms/ApplyDialog';
import { closeAndRefresh, closeDialog, type DialogRequest, storeOfQuery } from '../storeForms/dialogRequests';
import { FinanceList } from '../storeForms/FinanceList';

/**
 * 提现 (finance/withdraw/index, schemas/finance/fin_withdrawal.json): the generic list of withdrawals with the wallet
 * figures above it and the review steps (通过 / 打款 / 驳回) declared in the schema; around it the dialogs the
 * toolbar and row buttons of overrides.tsx open: 申请提现, 银行账户 (the store's accounts, 核验通过 by headquarters)
 * and 记录 (a withdrawal's trail).
 */
export default function WithdrawListPage({ resource }: EnginePageProps) {
  return <FinanceList resource={resource} dialogs={{ apply: ApplyWithdrawal, banks: BankAccounts, trail: Trail }} />;
}

function ApplyWithdrawal({ request }: { request: DialogRequest }) {
  const storeId = storeOfQuery(request.ctx);
  const load = useCallback(async () => {
    const [w, banks] = await Promise.all([getWallet(storeId), listBanks(storeId)]);
    return {
      availableFen: w.withdrawableFen,
      targets: banks.filter((b) => b.verified).map((b) => ({ value: b.bankId, label: `${b.accountName} · ${b.bankName} ${b.cardNoMasked}` })),
    };
  }, [storeId]);
  return (
    <ApplyDialog
      title="申请提现"
      load={load}
      availableLabel="可提现金额"
      targetLabel="到账银行账户"
      targetRequired="请选择到账银行账户"
      noTargetHint="还没有已核验的银行账户：请先在“银行账户”中添加，并等待总部核验"
      amountLabel="提现金额（元）"
      amountRequired="请输入提现金额"
      amountPlaceholder="例如 100.00"
      overMessage="提现金额不能超过可提现金额"
      send={async (v) => (await commitCash({ storeId, bankId: v.targetId, amountFen: v.amountFen, remark: v.remark, requestKey: crypto.randomUUID() })).msg}
      onSent={() => closeAndRefresh(request)}
      onClose={closeDialog}
    />
  );
}

function BankAccounts({ request }: { request: DialogRequest }) {
  const { can } = useAccess();
  const storeId = storeOfQuery(request.ctx);
  const load = useCallback(() => listBanks(storeId), [storeId]);
  return (
    <AccountsDialog<BankAccount>
      noun="银行账户"
      load={load}
      rowKey="bankId"
      emptyText="暂无银行账户"
      editPermission="finance:withdraw:bank"
      columns={[
        { title: '门店', dataIndex: 'storeName', width: 110 },
        { title: '开户名', dataIndex: 'accountName' },
        { title: '开户银行', dataIndex: 'bankName' },
        { title: '开户支行', dataIndex: 'branch', render: (v) => v ?? '--' },
        { title: '卡号', dataIndex: 'cardNoMasked' },
        { title: '核验', dataIndex: 'verified', render: (v: boolean) => (v ? <Tag color="success">已核验</Tag> : <Tag color="warning">待核验</Tag>) },
      ]}
      fields={[
        { name: 'accountName', label: '开户名', maxLength: 60, required: '请输入开户名' },
        { name: 'bankName', label: '开户银行', maxLength: 60, required: '请输入开户银行', placeholder: '例如 中国工商银行' },
        { name: 'branch', label: '开户支行', maxLength: 100 },
        { name: 'cardNo', label: '银行卡号', maxLength: 23, extra: '修改卡号、开户名或开户银行后需总部重新核验', check: bankCardProblem },
      ]}
      valuesOf={(b) => ({ accountName: b.accountName, bankName: b.bankName, branch: b.branch ?? undefined, cardNo: b.cardNo })}
      save={async (v, b) =>
        (
          await saveBank({
            accountName: v.accountName,
            bankName: v.bankName,
            branch: v.branch,
            cardNo: v.cardNo,
            bankId: b?.bankId,
            version: b?.version,
            storeId: b?.storeId ?? storeId,
          })
        ).msg
      }
      remove={async (b) => (await removeBank(b.bankId)).msg}
      removeText={(b) => `确定删除 ${b.bankName} ${b.cardNoMasked} 吗？`}
      rowButtons={(b, changed) =>
        can('finance:withdraw:review') &&
        !b.verified && (
          <Button
            type="link"
            size="small"
            onClick={() =>
              verifyBank(b.bankId)
                .then((r) => changed(r.msg))
                .catch(() => undefined)
            }
          >
            核验通过
          </Button>
        )
      }
      onClose={(changed) => {
        closeDialog();
        if (changed) request.ctx.refresh();
      }}
    />
  );
}

type TrailItem = Awaited<ReturnType<typeof withdrawalTrail>>[number];

function Trail({ request }: { request: DialogRequest }) {
  const id = Number(request.record?.withdrawId);
  const [items, setItems] = useState<TrailItem[]>([]);
  useEffect(() => {
    withdrawalTrail(id)
      .then(setItems)
      .catch(() => undefined);
  }, [id]);
  return (
    <Modal title={`提现记录 #${id}`} open onCancel={closeDialog} footer={null}>
      <Timeline
        items={items.map((t) => ({
          children: `${parseTime(t.createTime) ?? '--'} ${t.userName ?? ''} ${t.action}${t.detail ? `：${t.detail}` : ''}`,
        }))}
      />
    </Modal>
  );
}
