import { yuanText } from '@common/finance/checks';
import { Button, Card, Col, DatePicker, Form, Row, Select, Statistic, type TableProps, Tag } from 'antd';
import type { Dayjs } from 'dayjs';
import { type ReactNode, useCallback } from 'react';
import type { Entry, EntryPage, EntryQuery, WalletSummary } from '@/api/finance';
import { formatTime } from '@/modules/customer/shared/format';
import { PagedTable, SearchForm } from '@/modules/customer/shared/SearchTable';
import { StoreSelect } from '@/modules/customer/shared/StoreSelect';
import { usePaged } from '@/modules/customer/shared/usePaged';

type Filters = { storeId?: number; type?: string; range?: [Dayjs, Dayjs] };
type Summary = Omit<WalletSummary, 'stores'>;

/**
 * The shape of the three wallet pages (账户余额, 收款钱包, 付款钱包): figures of the chosen store on top, then its
 * 资金流水 with 门店 (headquarters), 类型 and 日期 filters. Amounts arrive in fen and are shown in yuan.
 */
export function WalletPage(props: {
  load: (q: EntryQuery) => Promise<EntryPage>;
  figures: (w: Summary) => Array<{ title: string; fen: number; tip?: ReactNode }>;
  /** Buttons beside 搜索 / 重置, given the current filters (e.g. 导出). */
  extra?: (q: Omit<EntryQuery, 'pageNum' | 'pageSize'>) => ReactNode;
  /** Above the table (e.g. what the page counts). */
  note?: ReactNode;
  /** Bumped by the page after a change of its own so figures and list load again. */
  reloadKey?: number;
  children?: (w: Summary | undefined, reload: () => Promise<void>) => ReactNode;
}) {
  const { load, figures, extra, note, children } = props;
  const [form] = Form.useForm<Filters>();
  const loader = useCallback((q: EntryQuery) => load(q), [load]);
  const paged = usePaged(loader, { pageNum: 1, pageSize: 20 } as EntryQuery);
  const { page, query, reload } = paged;
  const wallet = (page as EntryPage).wallet;
  const stores = (page as EntryPage).stores ?? [];
  const types = (page as EntryPage).types ?? [];
  const filters = { storeId: query.storeId, type: query.type, beginTime: query.beginTime, endTime: query.endTime };

  const columns: TableProps<Entry>['columns'] = [
    { title: '时间', dataIndex: 'createTime', width: 170, render: formatTime },
    { title: '类型', dataIndex: 'typeName', width: 120, render: (v: string) => <Tag>{v}</Tag> },
    { title: '账户', dataIndex: 'kindName', width: 100 },
    {
      title: '金额（元）',
      dataIndex: 'amountFen',
      width: 130,
      align: 'right',
      render: (fen: number) => <span style={{ color: fen < 0 ? '#cf1322' : '#389e0d' }}>{`${fen > 0 ? '+' : ''}${yuanText(fen)}`}</span>,
    },
    { title: '变动后余额（元）', dataIndex: 'balanceAfterFen', width: 150, align: 'right', render: (fen: number) => yuanText(fen) },
    { title: '说明', dataIndex: 'memo' },
    { title: '操作人', dataIndex: 'userName', width: 100, render: (v) => v ?? '--' },
  ];

  return (
    <Card className="zy-page">
      <Row gutter={16} style={{ marginBottom: 16 }}>
        {wallet &&
          figures(wallet).map((f) => (
            <Col key={f.title} xs={24} sm={12} md={6}>
              <Card size="small">
                <Statistic title={f.title} value={yuanText(f.fen)} suffix="元" />
                {f.tip && <div style={{ color: '#909399', fontSize: 12, marginTop: 4 }}>{f.tip}</div>}
              </Card>
            </Col>
          ))}
      </Row>
      {children?.(wallet, reload)}
      <SearchForm
        form={form}
        paged={paged}
        toQuery={(v) => ({
          storeId: v.storeId,
          type: v.type,
          beginTime: v.range?.[0]?.format('YYYY-MM-DD'),
          endTime: v.range?.[1]?.format('YYYY-MM-DD'),
        })}
        extra={extra?.(filters)}
      >
        {stores.length > 0 && (
          <Form.Item label="门店" name="storeId">
            <StoreSelect stores={stores.map((s) => ({ ...s, kind: '' }))} placeholder={wallet?.storeName ?? '本门店'} />
          </Form.Item>
        )}
        <Form.Item label="类型" name="type">
          <Select allowClear placeholder="全部" style={{ width: 140 }} options={types} />
        </Form.Item>
        <Form.Item label="日期" name="range">
          <DatePicker.RangePicker />
        </Form.Item>
      </SearchForm>
      {note}
      <PagedTable<Entry, EntryQuery> paged={paged} rowKey="entryId" columns={columns} scroll={{ x: 1000 }} />
    </Card>
  );
}

export function ExportButton({ onClick }: { onClick: () => void }) {
  return <Button onClick={onClick}>导出</Button>;
}
