import { App, Button, Card, Form, Input, Modal, Select, Space, type TableProps, Tabs, Tag } from 'antd';
import { useState } from 'react';
import { CARD_KINDS, CARD_STATUS, type CardQuery, type Card as CardRow, type CardStatus, listCards, transferCards, voidCards } from '@/api/customer';
import { useAccess } from '@/components/Access';
import { formatDate, formatTime } from '../shared/format';
import { PagedTable, SearchForm } from '../shared/SearchTable';
import { StoreSelect, useStores } from '../shared/StoreSelect';
import { usePaged } from '../shared/usePaged';

const TABS: Array<CardStatus | 'all'> = ['all', 'unused', 'activated', 'expired', 'voided'];

/** 卡片二 (card/two/index): the cards by state, with 作废 (unused only) and 调拨 between stores (headquarters). */
export default function CardTwoPage() {
  const { modal, message } = App.useApp();
  const { can } = useAccess();
  const stores = useStores();
  const [form] = Form.useForm<{ kind?: number; storeId?: number; cardNo?: string }>();
  const paged = usePaged(listCards, { pageNum: 1, pageSize: 20 } as CardQuery);
  const { query, setQuery, page, reload } = paged;
  const [selected, setSelected] = useState<CardRow[]>([]);
  const [transferTo, setTransferTo] = useState<number>();
  const [transferOpen, setTransferOpen] = useState(false);
  const counts = (page.counts ?? {}) as Record<CardStatus, number>;
  const allCount = Object.values(counts).reduce((n, v) => n + (v ?? 0), 0);
  const unusedSelected = selected.length > 0 && selected.every((c) => c.status === 'unused');

  const doVoid = () => {
    let reason = '';
    modal.confirm({
      title: '作废会员卡',
      content: (
        <Space direction="vertical" style={{ width: '100%' }}>
          <span>确定作废所选 {selected.length} 张未使用的卡吗？作废后不能再激活。</span>
          <Input placeholder="作废原因（选填）" maxLength={200} onChange={(e) => (reason = e.target.value)} />
        </Space>
      ),
      okText: '作废',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        message.success(
          (
            await voidCards(
              selected.map((c) => c.cardId),
              reason || undefined,
            )
          ).msg,
        );
        setSelected([]);
        await reload();
      },
    });
  };
  const doTransfer = async () => {
    if (!transferTo) {
      message.warning('请选择调入门店');
      return;
    }
    message.success(
      (
        await transferCards(
          selected.map((c) => c.cardId),
          transferTo,
        )
      ).msg,
    );
    setTransferOpen(false);
    setSelected([]);
    await reload();
  };

  const columns: TableProps<CardRow>['columns'] = [
    { title: '卡号', dataIndex: 'cardNo', width: 120 },
    { title: '卡类型', dataIndex: 'kindName', width: 80 },
    { title: '状态', dataIndex: 'status', width: 90, render: (s: CardStatus) => <Tag color={CARD_STATUS[s].color}>{CARD_STATUS[s].text}</Tag> },
    { title: '门店', dataIndex: 'storeName', width: 110 },
    { title: '批次', dataIndex: 'batchId', width: 70 },
    { title: '用户', dataIndex: 'studentName', width: 100, render: (v) => v ?? '--' },
    { title: '激活时间', dataIndex: 'activateTime', render: formatTime, width: 170 },
    { title: '到期日期', dataIndex: 'expireTime', render: formatDate, width: 110 },
    { title: '作废时间', dataIndex: 'voidTime', render: formatTime, width: 170 },
    { title: '制卡时间', dataIndex: 'createTime', render: formatTime, width: 170 },
  ];

  return (
    <Card className="zy-page">
      <SearchForm form={form} paged={paged} keep={{ status: query.status }} toQuery={(v) => ({ ...v, cardNo: v.cardNo?.trim() || undefined })} marginBottom={8}>
        <Form.Item label="卡号" name="cardNo" rules={[{ pattern: /^\d*$/, message: '卡号只能是数字' }]}>
          <Input allowClear placeholder="请输入卡号" style={{ width: 160 }} />
        </Form.Item>
        <Form.Item label="卡类型" name="kind">
          <Select allowClear placeholder="全部" style={{ width: 110 }} options={Object.entries(CARD_KINDS).map(([v, l]) => ({ value: Number(v), label: l }))} />
        </Form.Item>
        {stores?.allStores && (
          <Form.Item label="门店" name="storeId">
            <StoreSelect stores={stores.stores} />
          </Form.Item>
        )}
      </SearchForm>
      <Tabs
        activeKey={query.status ?? 'all'}
        onChange={(k) => {
          setSelected([]);
          setQuery({ ...query, pageNum: 1, status: k === 'all' ? undefined : (k as CardStatus) });
        }}
        items={TABS.map((t) => ({ key: t, label: t === 'all' ? `全部（${allCount}）` : `${CARD_STATUS[t].text}（${counts[t] ?? 0}）` }))}
      />
      <Space style={{ marginBottom: 12 }}>
        {can('card:two:void') && (
          <Button danger disabled={!unusedSelected} onClick={doVoid}>
            作废
          </Button>
        )}
        {can('card:two:transfer') && stores?.allStores && (
          <Button disabled={!unusedSelected} onClick={() => setTransferOpen(true)}>
            调拨
          </Button>
        )}
        {selected.length > 0 && !unusedSelected && <span style={{ color: '#909399' }}>只有未使用的卡可以作废或调拨</span>}
      </Space>
      <PagedTable<CardRow, CardQuery>
        paged={paged}
        rowKey="cardId"
        columns={columns}
        scroll={{ x: 1300 }}
        rowSelection={{ selectedRowKeys: selected.map((c) => c.cardId), onChange: (_, rows) => setSelected(rows) }}
      />
      <Modal title="调拨会员卡" open={transferOpen} onOk={doTransfer} onCancel={() => setTransferOpen(false)} okText="调拨" cancelText="取消" destroyOnHidden>
        <Space direction="vertical" style={{ width: '100%' }}>
          <span>将所选 {selected.length} 张未使用的卡调入：</span>
          <StoreSelect stores={stores?.stores ?? []} value={transferTo} onChange={setTransferTo} placeholder="请选择调入门店" style={{ width: '100%' }} />
        </Space>
      </Modal>
    </Card>
  );
}
