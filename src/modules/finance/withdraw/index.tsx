import { bankCardProblem, WITHDRAW_STATUS, yuanText, yuanToFen } from '@common/finance/checks';
import { App, Button, Card, Col, Form, Input, Modal, Row, Select, Space, Statistic, Table, type TableProps, Tabs, Tag, Timeline } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import {
  approveCash,
  type BankAccount,
  commitCash,
  getWallet,
  listBanks,
  listWithdrawals,
  payCash,
  rejectCash,
  removeBank,
  saveBank,
  verifyBank,
  type WalletSummary,
  type Withdrawal,
  type WithdrawalQuery,
  withdrawalTrail,
} from '@/api/finance';
import { useAccess } from '@/components/Access';
import { formatTime } from '@/modules/customer/shared/format';
import { PagedTable, SearchForm } from '@/modules/customer/shared/SearchTable';
import { StoreSelect } from '@/modules/customer/shared/StoreSelect';
import { statusFromLink, useApplyLinkedFilter, useLinkedFilter } from '@/modules/customer/shared/useLinkedFilter';
import { usePaged } from '@/modules/customer/shared/usePaged';

/** The home page's to-do count links here with ?status=0. */
const readLink = statusFromLink<{ storeId?: number; status?: number }, WithdrawalQuery>(WITHDRAW_STATUS);

const STATUS_COLOR: Record<number, string> = { 0: 'processing', 1: 'blue', 2: 'error', 3: 'success' };
type Trail = Awaited<ReturnType<typeof withdrawalTrail>>;

/**
 * 提现 (finance/withdraw/index): a store withdraws its 收款钱包 to a verified bank account (申请提现, 银行账户);
 * headquarters reviews (通过 → 打款 with the bank reference, or 驳回 with a reason; the money goes back).
 */
export default function WithdrawPage() {
  const { message, modal } = App.useApp();
  const { can } = useAccess();
  const review = can('finance:withdraw:review');
  const [wallet, setWallet] = useState<WalletSummary | null>(null);
  const [banks, setBanks] = useState<BankAccount[]>([]);
  const [applyOpen, setApplyOpen] = useState(false);
  const [bankEdit, setBankEdit] = useState<Partial<BankAccount> | null>(null);
  const [payFor, setPayFor] = useState<Withdrawal | null>(null);
  const [rejectFor, setRejectFor] = useState<Withdrawal | null>(null);
  const [trail, setTrail] = useState<{ row: Withdrawal; items: Trail } | null>(null);
  const [applyForm] = Form.useForm<{ bankId: number; amount: string; remark?: string }>();
  const [bankForm] = Form.useForm<{ accountName: string; bankName: string; branch?: string; cardNo: string }>();
  const [textForm] = Form.useForm<{ text: string }>();
  const linked = useLinkedFilter(readLink);
  const paged = usePaged(listWithdrawals, { pageNum: 1, pageSize: 20, ...linked?.query } as WithdrawalQuery);
  const [filterForm] = Form.useForm<{ storeId?: number; status?: number }>();
  useApplyLinkedFilter(readLink, filterForm, paged.setQuery);
  const storeId = paged.query.storeId;

  const refresh = useCallback(async () => {
    const [w, b] = await Promise.all([getWallet(storeId).catch(() => null), listBanks(storeId).catch(() => [])]);
    setWallet(w);
    setBanks(b);
  }, [storeId]);
  useEffect(() => {
    refresh();
  }, [refresh]);
  const after = async (msg: string) => {
    message.success(msg);
    await Promise.all([paged.reload(), refresh()]);
  };

  const submitApply = async () => {
    const v = await applyForm.validateFields();
    const amountFen = yuanToFen(v.amount) as number;
    const res = await commitCash({ storeId, bankId: v.bankId, amountFen, remark: v.remark, requestKey: crypto.randomUUID() });
    setApplyOpen(false);
    applyForm.resetFields();
    await after(res.msg);
  };
  const submitBank = async () => {
    const v = await bankForm.validateFields();
    const res = await saveBank({ ...v, bankId: bankEdit?.bankId, version: bankEdit?.version, storeId });
    setBankEdit(null);
    await after(res.msg);
  };
  const submitText = async () => {
    const { text } = await textForm.validateFields();
    if (payFor) await after((await payCash(payFor.withdrawId, text)).msg);
    if (rejectFor) await after((await rejectCash(rejectFor.withdrawId, text)).msg);
    setPayFor(null);
    setRejectFor(null);
    textForm.resetFields();
  };

  const columns: TableProps<Withdrawal>['columns'] = [
    { title: '编号', dataIndex: 'withdrawId', width: 70 },
    ...(wallet && (wallet.stores?.length ?? 0) > 0 ? [{ title: '门店', dataIndex: 'storeName', width: 110 }] : []),
    { title: '金额（元）', dataIndex: 'amountFen', width: 120, align: 'right', render: (fen: number) => yuanText(fen) },
    { title: '到账账户', key: 'bank', width: 240, render: (_, r) => `${r.accountName} · ${r.bankName} ${r.cardNoMasked}` },
    { title: '状态', dataIndex: 'status', width: 90, render: (s: number) => <Tag color={STATUS_COLOR[s]}>{WITHDRAW_STATUS[s]}</Tag> },
    { title: '备注 / 驳回原因 / 银行流水号', key: 'note', render: (_, r) => r.reason ?? r.bankRef ?? r.remark ?? '--' },
    { title: '申请人', dataIndex: 'createBy', width: 90 },
    { title: '申请时间', dataIndex: 'createTime', width: 170, render: formatTime },
    {
      title: '操作',
      key: 'op',
      width: 200,
      fixed: 'right',
      render: (_, r) => (
        <Space size={4}>
          <Button type="link" size="small" onClick={async () => setTrail({ row: r, items: await withdrawalTrail(r.withdrawId) })}>
            记录
          </Button>
          {review && r.status === 0 && (
            <Button
              type="link"
              size="small"
              onClick={() =>
                modal.confirm({
                  title: '通过提现申请',
                  content: `确定通过 ${r.storeName} 的 ${yuanText(r.amountFen)} 元提现申请吗？`,
                  okText: '通过',
                  cancelText: '取消',
                  onOk: async () => after((await approveCash(r.withdrawId)).msg),
                })
              }
            >
              通过
            </Button>
          )}
          {review && r.status === 1 && (
            <Button type="link" size="small" onClick={() => setPayFor(r)}>
              打款
            </Button>
          )}
          {review && (r.status === 0 || r.status === 1) && (
            <Button type="link" size="small" danger onClick={() => setRejectFor(r)}>
              驳回
            </Button>
          )}
        </Space>
      ),
    },
  ];

  const bankColumns: TableProps<BankAccount>['columns'] = [
    ...(wallet && (wallet.stores?.length ?? 0) > 0 ? [{ title: '门店', dataIndex: 'storeName', width: 110 }] : []),
    { title: '开户名', dataIndex: 'accountName' },
    { title: '开户银行', dataIndex: 'bankName' },
    { title: '开户支行', dataIndex: 'branch', render: (v) => v ?? '--' },
    { title: '卡号', dataIndex: 'cardNoMasked' },
    { title: '核验', dataIndex: 'verified', render: (v: boolean) => (v ? <Tag color="success">已核验</Tag> : <Tag color="warning">待核验</Tag>) },
    {
      title: '操作',
      key: 'op',
      render: (_, b) => (
        <Space size={4}>
          {review && !b.verified && (
            <Button type="link" size="small" onClick={async () => after((await verifyBank(b.bankId)).msg)}>
              核验通过
            </Button>
          )}
          {can('finance:withdraw:bank') && (
            <>
              <Button
                type="link"
                size="small"
                onClick={() => {
                  bankForm.setFieldsValue({ accountName: b.accountName, bankName: b.bankName, branch: b.branch ?? undefined, cardNo: b.cardNo });
                  setBankEdit(b);
                }}
              >
                修改
              </Button>
              <Button
                type="link"
                size="small"
                danger
                onClick={() =>
                  modal.confirm({
                    title: '删除银行账户',
                    content: `确定删除 ${b.bankName} ${b.cardNoMasked} 吗？`,
                    okText: '删除',
                    okButtonProps: { danger: true },
                    cancelText: '取消',
                    onOk: async () => after((await removeBank(b.bankId)).msg),
                  })
                }
              >
                删除
              </Button>
            </>
          )}
        </Space>
      ),
    },
  ];

  const verified = banks.filter((b) => b.verified);
  return (
    <Card className="zy-page">
      <Row gutter={16} style={{ marginBottom: 16 }}>
        {wallet &&
          [
            ['可提现金额', wallet.withdrawableFen],
            ['提现审核中', wallet.withdrawPendingFen],
            ['累计已提现', wallet.withdrawnFen],
          ].map(([title, fen]) => (
            <Col key={title} xs={24} sm={8}>
              <Card size="small">
                <Statistic title={`${title}${wallet.stores?.length ? `（${wallet.storeName}）` : ''}`} value={yuanText(fen as number)} suffix="元" />
              </Card>
            </Col>
          ))}
      </Row>
      <Tabs
        items={[
          {
            key: 'list',
            label: '提现记录',
            children: (
              <>
                <SearchForm
                  form={filterForm}
                  paged={paged}
                  toQuery={(v) => v}
                  extra={
                    can('finance:withdraw:apply') && (
                      <Button type="primary" onClick={() => setApplyOpen(true)}>
                        申请提现
                      </Button>
                    )
                  }
                >
                  {(wallet?.stores?.length ?? 0) > 0 && (
                    <Form.Item label="门店" name="storeId">
                      <StoreSelect stores={(wallet?.stores ?? []).map((s) => ({ ...s, kind: '' }))} />
                    </Form.Item>
                  )}
                  <Form.Item label="状态" name="status">
                    <Select
                      allowClear
                      placeholder="全部"
                      style={{ width: 120 }}
                      options={Object.entries(WITHDRAW_STATUS).map(([v, l]) => ({ value: Number(v), label: l }))}
                    />
                  </Form.Item>
                </SearchForm>
                <PagedTable<Withdrawal, WithdrawalQuery> paged={paged} rowKey="withdrawId" columns={columns} scroll={{ x: 1300 }} />
              </>
            ),
          },
          {
            key: 'bank',
            label: '银行账户',
            children: (
              <>
                {can('finance:withdraw:bank') && (
                  <Button
                    type="primary"
                    style={{ marginBottom: 12 }}
                    onClick={() => {
                      bankForm.resetFields();
                      setBankEdit({});
                    }}
                  >
                    新增银行账户
                  </Button>
                )}
                <Table<BankAccount>
                  size="middle"
                  rowKey="bankId"
                  dataSource={banks}
                  columns={bankColumns}
                  pagination={false}
                  locale={{ emptyText: '暂无银行账户' }}
                />
              </>
            ),
          },
        ]}
      />

      <Modal title="申请提现" open={applyOpen} onOk={submitApply} onCancel={() => setApplyOpen(false)} okText="提交" cancelText="取消" destroyOnHidden>
        <Form form={applyForm} layout="vertical" preserve={false}>
          <p>可提现金额：{yuanText(wallet?.withdrawableFen ?? 0)} 元</p>
          <Form.Item
            label="到账银行账户"
            name="bankId"
            rules={[{ required: true, message: '请选择到账银行账户' }]}
            extra={verified.length === 0 ? '还没有已核验的银行账户：请先在“银行账户”中添加，并等待总部核验' : undefined}
          >
            <Select placeholder="请选择" options={verified.map((b) => ({ value: b.bankId, label: `${b.accountName} · ${b.bankName} ${b.cardNoMasked}` }))} />
          </Form.Item>
          <Form.Item
            label="提现金额（元）"
            name="amount"
            rules={[
              { required: true, message: '请输入提现金额' },
              {
                validator: (_, v: string) => {
                  if (!v) return Promise.resolve();
                  const fen = yuanToFen(String(v));
                  if (fen == null) return Promise.reject(new Error('金额必须大于 0，最多两位小数'));
                  if (wallet && fen > wallet.withdrawableFen) return Promise.reject(new Error('提现金额不能超过可提现金额'));
                  return Promise.resolve();
                },
              },
            ]}
          >
            <Input placeholder="例如 100.00" suffix="元" />
          </Form.Item>
          <Form.Item label="备注" name="remark">
            <Input maxLength={200} />
          </Form.Item>
        </Form>
      </Modal>

      <Modal
        title={bankEdit?.bankId ? '修改银行账户' : '新增银行账户'}
        open={bankEdit !== null}
        onOk={submitBank}
        onCancel={() => setBankEdit(null)}
        okText="保存"
        cancelText="取消"
      >
        <Form form={bankForm} layout="vertical">
          <Form.Item label="开户名" name="accountName" rules={[{ required: true, message: '请输入开户名' }]}>
            <Input maxLength={60} />
          </Form.Item>
          <Form.Item label="开户银行" name="bankName" rules={[{ required: true, message: '请输入开户银行' }]}>
            <Input maxLength={60} placeholder="例如 中国工商银行" />
          </Form.Item>
          <Form.Item label="开户支行" name="branch">
            <Input maxLength={100} />
          </Form.Item>
          <Form.Item
            label="银行卡号"
            name="cardNo"
            extra="修改卡号、开户名或开户银行后需总部重新核验"
            rules={[
              { validator: (_, v: string) => (bankCardProblem(v ?? '') ? Promise.reject(new Error(bankCardProblem(v ?? '') as string)) : Promise.resolve()) },
            ]}
          >
            <Input maxLength={23} />
          </Form.Item>
        </Form>
      </Modal>

      <Modal
        title={payFor ? '确认打款' : '驳回提现申请'}
        open={payFor !== null || rejectFor !== null}
        onOk={submitText}
        onCancel={() => {
          setPayFor(null);
          setRejectFor(null);
        }}
        okText={payFor ? '确认已打款' : '驳回'}
        okButtonProps={{ danger: !!rejectFor }}
        cancelText="取消"
        destroyOnHidden
      >
        <Form form={textForm} layout="vertical" preserve={false}>
          <p>
            {(payFor ?? rejectFor)?.storeName}：{yuanText((payFor ?? rejectFor)?.amountFen ?? 0)} 元{rejectFor && '（驳回后金额退回收款钱包）'}
          </p>
          <Form.Item
            label={payFor ? '银行流水号' : '驳回原因'}
            name="text"
            rules={[{ required: true, whitespace: true, message: payFor ? '请输入银行流水号' : '请输入驳回原因' }]}
          >
            <Input maxLength={payFor ? 64 : 200} />
          </Form.Item>
        </Form>
      </Modal>

      <Modal title={`提现记录 #${trail?.row.withdrawId ?? ''}`} open={trail !== null} onCancel={() => setTrail(null)} footer={null}>
        <Timeline
          items={(trail?.items ?? []).map((t) => ({
            children: `${formatTime(t.createTime)} ${t.userName ?? ''} ${t.action}${t.detail ? `：${t.detail}` : ''}`,
          }))}
        />
      </Modal>
    </Card>
  );
}
